"""Hidden information over the API: sealed choices and stockpiles never reach anyone else.

The engines' views are tested in tests/engine; here the whole surface is checked (views,
logs, event feeds, legal actions, move answers) as the service hands it out.
"""

from __future__ import annotations

import json
import random

import pytest

from engine.games import get_game

SEALED_GAMES = [("toy", 2), ("burgundy", 2), ("diceland", 2)]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def start(client, game: str, seats: int) -> tuple[str, list[str]]:
    created = client.post(
        "/v1/games",
        json={
            "game": game,
            "seats": [{"kind": "human"}] * seats,
            "seed": f"hide-{game}",
            "visibility": "public",
        },
    ).get_json()
    tokens = [
        client.post(f"/v1/games/{created['id']}/seats/{s}/join", json={}).get_json()["seat_token"]
        for s in range(seats)
    ]
    return created["id"], tokens


def keys_named(data: object, names: set[str]) -> list[str]:
    """Every key in ``data`` (nested JSON) that is one of ``names``."""
    if isinstance(data, dict):
        found = [k for k in data if k in names]
        return found + [k for v in data.values() for k in keys_named(v, names)]
    if isinstance(data, list):
        return [k for v in data for k in keys_named(v, names)]
    return []


def everything_seen_by(client, gid: str, token: str | None) -> str:
    headers = auth(token) if token else {}
    parts = [
        client.get(f"/v1/games/{gid}/{part}", headers=headers).get_json()
        for part in ("view", "log")
    ]
    parts.append(client.get(f"/v1/games/{gid}/events?after=0", headers=headers).get_json())
    parts.append(client.get(f"/v1/games/{gid}").get_json())
    return json.dumps(parts)


@pytest.mark.parametrize(("game_name", "seats"), SEALED_GAMES)
def test_sealed_choice_reaches_nobody_else_until_resolved(client, game_name, seats):
    game = get_game(game_name)
    bot = game.bots["heuristic"]() if "heuristic" in game.bots else game.bots["random"]()
    rng = random.Random(1)
    gid, tokens = start(client, game_name, seats)
    for _ in range(500):
        summary = client.get(f"/v1/games/{gid}").get_json()
        assert summary["status"] == "active", "no sealed moment reached"
        pending = {int(s): p for s, p in summary["to_act"].items()}
        sealed = [s for s, p in pending.items() if p["sealed"]]
        seat = min(pending)
        if len(sealed) == len(pending) >= 2:
            seat = sealed[0]
        view = client.get(f"/v1/games/{gid}/view", headers=auth(tokens[seat])).get_json()["view"]
        legal = client.get(f"/v1/games/{gid}/legal-actions", headers=auth(tokens[seat])).get_json()
        action = bot.choose(view, [a["action"] for a in legal["actions"]], rng)
        if len(sealed) == len(pending) >= 2:
            others = [t for s, t in enumerate(tokens) if s != seat] + [None]
            before = {t: everything_seen_by(client, gid, t) for t in others}
            reply = client.post(
                f"/v1/games/{gid}/actions", json={"action": action}, headers=auth(tokens[seat])
            )
            assert reply.status_code == 200
            for token in others:
                seen = everything_seen_by(client, gid, token)
                log = json.loads(seen)[1]
                assert log["entries"][-1]["seat"] == seat and log["entries"][-1]["action"] is None
                events = json.loads(seen)[2]["events"]
                # the seat's earlier open actions (a Diceland player's own turn) stay public
                hidden = [
                    e
                    for e in events
                    if e["type"] == "action" and e["seat"] == seat and e.get("sealed")
                ]
                assert hidden and all(e.get("action") is None for e in hidden)
                assert seen != before[token], "the others should see that the seat has decided"
            own = client.get(f"/v1/games/{gid}/log", headers=auth(tokens[seat])).get_json()
            assert own["entries"][-1]["action"] == action
            return
        reply = client.post(
            f"/v1/games/{gid}/actions", json={"action": action}, headers=auth(tokens[seat])
        )
        assert reply.status_code == 200, reply.get_json()
    raise AssertionError("no sealed moment with two seats reached")


def test_king_of_the_dice_stockpile_order_never_leaves_the_server(client, redis_client):
    game = get_game("kingdice")
    bot = game.bots["heuristic"]()
    rng = random.Random(2)
    gid, tokens = start(client, "kingdice", 3)
    checked = 0
    for _ in range(3000):
        summary = client.get(f"/v1/games/{gid}").get_json()
        if summary["status"] == "over":
            break
        state = json.loads(redis_client.hget(f"dh:{{{gid}}}:game", "state"))
        # an order is evidence only if it is long and not the sorted order that public lists
        # (tiles known to be in the stock) use; shorter ones are the engine tests' business
        secrets = [state["stock"], *state["stacks"]]
        seen = "".join(everything_seen_by(client, gid, t) for t in [*tokens, None])
        for secret in secrets:
            if len(secret) >= 4 and secret != sorted(secret):
                assert json.dumps(secret) not in seen
        assert not keys_named(
            json.loads(f"[{seen.replace('][', '],[')}]"), {"stock", "removed", "stacks"}
        )
        checked += 1
        seat = int(min(summary["to_act"], key=int))
        legal = client.get(f"/v1/games/{gid}/legal-actions", headers=auth(tokens[seat])).get_json()
        view = client.get(f"/v1/games/{gid}/view", headers=auth(tokens[seat])).get_json()["view"]
        action = bot.choose(view, [a["action"] for a in legal["actions"]], rng)
        reply = client.post(
            f"/v1/games/{gid}/actions", json={"action": action}, headers=auth(tokens[seat])
        )
        assert reply.status_code == 200
        assert not keys_named(reply.get_json(), {"stock", "removed", "stacks"})
    assert checked > 50
