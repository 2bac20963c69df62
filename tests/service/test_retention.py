"""Retention: a finished game is compacted to what replay needs and expires; every key the
service writes has a TTL or is a documented bounded index; the log pages."""

from __future__ import annotations

import random
import uuid

import pytest

from clients.verifier import audit_game
from engine.games import LISTED, get_game
from service.config import Settings
from service.keys import Keys
from service.store import ANSWER_GRACE, Retention
from tests.service.test_api_basics import auth


def join_all(client, created: dict) -> list[str]:
    """Take every seat of a new private game with its creator's token; the seat tokens."""
    return [
        client.post(
            f"/v1/games/{created['id']}/seats/{seat}/join",
            json={},
            headers=auth(created["creator_token"]),
        ).get_json()["seat_token"]
        for seat in range(len(created["seats"]))
    ]


TARGET = 4096
"""Bytes a finished 4-seat game may keep in Redis."""
KEYS = Keys()
SHARDS = Settings().index_shards
BOUNDED_INDEXES = {
    KEYS.index_shard(name, shard) for name in ("games", "tournaments") for shard in range(SHARDS)
}
"""Sorted sets (the shards of the listings) without a TTL, each trimmed to its share of the
newest 10,000 (docs/API.md)."""
LIVE_SHARDS = {KEYS.index_shard("live", shard) for shard in range(SHARDS)}
RUNNING = {KEYS.index_shard("running", shard) for shard in range(SHARDS)}
"""The tournaments still running (a tournament leaves when it finishes or is gone)."""
LIVE_INDEX = LIVE_SHARDS | RUNNING | {KEYS.live_filled}
"""The sweep's sorted set of games not over, sharded (and its once-per-database backfill
marker), no TTL: a game leaves it when the sweep finds it over or gone (docs/API.md)."""


def play(client, name: str, seats: int, seed: str) -> tuple[str, list[str]]:
    """A game of human seats played to the end through the API with the heuristic bot's
    choices (random where there is none), every move with an Idempotency-Key."""
    game = get_game(name)
    bot = game.bots["heuristic" if "heuristic" in game.bots else "random"]()
    reply = client.post(
        "/v1/games", json={"game": name, "seats": [{"kind": "human"}] * seats, "seed": seed}
    )
    assert reply.status_code == 201, reply.get_json()
    game_id, tokens = reply.get_json()["id"], join_all(client, reply.get_json())
    rng = random.Random(seed)
    for _ in range(5000):
        summary = client.get(f"/v1/games/{game_id}").get_json()
        if summary["status"] == "over":
            return game_id, tokens
        for seat in map(int, summary["to_act"]):
            legal = client.get(f"/v1/games/{game_id}/legal-actions", headers=auth(tokens[seat]))
            view = client.get(f"/v1/games/{game_id}/view", headers=auth(tokens[seat]))
            actions = [item["action"] for item in legal.get_json()["actions"]]
            action = bot.choose(view.get_json()["view"], actions, rng)
            reply = client.post(
                f"/v1/games/{game_id}/actions",
                json={"action": action},
                headers={**auth(tokens[seat]), "Idempotency-Key": str(uuid.uuid4())},
            )
            assert reply.status_code == 200, reply.get_json()
    raise AssertionError(f"{name} did not end in 5000 rounds of moves")


def game_keys(redis_client, game_id: str) -> list[str]:
    return list(redis_client.scan_iter(match=f"*{{{game_id}}}*", count=1000))


@pytest.mark.parametrize("name", LISTED)
def test_a_finished_game_is_compacted_expires_and_still_verifies(name, client, redis_client):
    game_id, tokens = play(client, name, min(4, get_game(name).max_seats), f"retention-{name}")
    keys = game_keys(redis_client, game_id)
    kept = [key for key in keys if ":idem:" not in key]
    assert kept == [f"dh:{{{game_id}}}:game"], "only the compacted hash outlives the grace"
    assert Retention().finished - 60 < redis_client.ttl(kept[0]) <= Retention().finished
    for key in keys:
        if ":idem:" in key:
            assert 0 < redis_client.ttl(key) <= ANSWER_GRACE, key
    size = redis_client.memory_usage(kept[0], samples=0)
    assert size <= TARGET, f"{name}: {size} bytes"

    summary = client.get(f"/v1/games/{game_id}").get_json()
    log = client.get(f"/v1/games/{game_id}/log?limit=1000").get_json()
    views = {None: client.get(f"/v1/games/{game_id}/view").get_json()["view"]}
    views[0] = client.get(f"/v1/games/{game_id}/view", headers=auth(tokens[0])).get_json()["view"]
    audit = audit_game(summary, log, views)
    assert audit.ok, [check for check in audit.checks if not check.ok]
    events = client.get(f"/v1/games/{game_id}/events?after=0").get_json()["events"]
    assert [e["type"] for e in events] == ["game_over"]
    assert events[0]["result"] == summary["result"] and events[0]["seed"] == summary["seed"]
    after = client.get(f"/v1/games/{game_id}/events?after={events[0]['id']}&wait=5")
    assert after.get_json()["events"] == [], "a finished game has nothing more to wait for"


def paged(client, game_id: str, limit: int) -> list[dict]:
    entries, after = [], -1
    while after is not None:
        page = client.get(f"/v1/games/{game_id}/log?after={after}&limit={limit}").get_json()
        assert len(page["entries"]) <= limit
        entries += page["entries"]
        after = page["next"]
    return entries


def test_the_log_pages_the_same_before_and_after_compaction(client, redis_client):
    reply = client.post("/v1/games", json={"game": "toy", "seats": [{"kind": "human"}] * 2})
    game_id, tokens = reply.get_json()["id"], join_all(client, reply.get_json())
    for card in (1, 2, 3):
        for seat in (0, 1):
            move = {"action": {"type": "bid", "card": card}}
            assert client.post(
                f"/v1/games/{game_id}/actions", json=move, headers=auth(tokens[seat])
            )
    live = paged(client, game_id, 2)
    assert [e["n"] for e in live] == list(range(7))
    assert live == client.get(f"/v1/games/{game_id}/log").get_json()["entries"]
    for seat in (0, 1):
        move = {"action": {"type": "bid", "card": 4}}
        client.post(f"/v1/games/{game_id}/actions", json=move, headers=auth(tokens[seat]))
    assert client.get(f"/v1/games/{game_id}").get_json()["status"] == "over"
    archived = paged(client, game_id, 3)
    assert [e["n"] for e in archived] == list(range(9))
    # sealed bids (their action and its sentence): hidden from spectators until the end
    hidden = {"draws", "at", "action", "text"}
    assert all(e["text"] for e in archived), "every sentence is shown once the game is over"
    assert all(e["text"] is None for e in live if e.get("sealed"))
    strip = [{k: v for k, v in e.items() if k not in hidden} for e in archived[:7]]
    assert strip == [{k: v for k, v in e.items() if k not in hidden} for e in live]
    assert all(abs(a["at"] - b["at"]) <= 0.06 for a, b in zip(archived, live, strict=False))
    assert client.get(f"/v1/games/{game_id}/log?limit=1001").status_code == 422


def test_every_key_has_a_ttl_or_is_a_bounded_index(client, redis_client):
    play(client, "toy", 2, "over")
    waiting = client.post("/v1/games", json={"game": "toy", "seats": [{"kind": "human"}] * 2})
    invite = waiting.get_json()["invites"]["0"]
    client.post(f"/v1/games/{waiting.get_json()['id']}/seats/0/join", json={}, headers=auth(invite))
    active = client.post("/v1/games", json={"game": "toy", "seats": [{"kind": "human"}] * 2})
    active_id, tokens = active.get_json()["id"], join_all(client, active.get_json())
    move = {"action": {"type": "bid", "card": 1}}
    headers = {**auth(tokens[0]), "Idempotency-Key": "k1"}
    assert (
        client.post(f"/v1/games/{active_id}/actions", json=move, headers=headers).status_code == 200
    )
    illegal = {"action": {"type": "bid", "card": 9}}
    refused = client.post(f"/v1/games/{active_id}/actions", json=illegal, headers=auth(tokens[1]))
    assert refused.status_code == 422
    bots = [client.post("/v1/bots", json={"name": n, "owner": "tests"}).get_json() for n in "bc"]
    assert client.get("/v1/bots/me", headers=auth(bots[0]["token"])).status_code == 200
    external = client.post(
        "/v1/games",
        json={"game": "toy", "seats": [{"kind": "external", "account": b["id"]} for b in bots]},
    )
    assert external.status_code == 201
    tournament = client.post(
        "/v1/tournaments",
        json={
            "game": "toy",
            "participants": [{"name": "a", "bot": "random"}, {"name": "b", "bot": "random"}],
            "games": 2,
        },
    )
    assert tournament.status_code == 201

    ours = [key for key in redis_client.scan_iter(count=1000) if not key.startswith("rq:")]
    assert len(ours) > 15
    forever = [key for key in ours if redis_client.ttl(key) == -1]
    assert set(forever) <= BOUNDED_INDEXES | LIVE_INDEX, forever
    for index in BOUNDED_INDEXES & set(forever):
        assert redis_client.type(index) == "zset"
    live = [
        game_id for key in LIVE_SHARDS & set(forever) for game_id in redis_client.zrange(key, 0, -1)
    ]
    if live:
        assert all(redis_client.type(key) == "zset" for key in LIVE_SHARDS & set(forever))
        assert all(redis_client.exists(KEYS.game(game_id)) for game_id in live)


def test_an_accounts_games_keep_only_games_that_may_still_owe_something(client, redis_client):
    """A game that expires (or ends with its follow-up lost) never drops itself from its
    external seats' accounts, and a used account's set never expires: its feed takes it out,
    else the set would grow with every such game, and every feed read them all."""
    bot = client.post("/v1/bots", json={"name": "b", "owner": "tests"}).get_json()
    seats = [{"kind": "external", "account": bot["id"]}, {"kind": "human"}]
    created = [client.post("/v1/games", json={"game": "toy", "seats": seats}) for _ in range(2)]
    gone, waiting = (reply.get_json()["id"] for reply in created)
    games = KEYS.account(bot["id"], "games")
    assert redis_client.smembers(games) == {gone, waiting}
    redis_client.delete(*game_keys(redis_client, gone))  # what its TTL does to a waiting game
    feed = client.get("/v1/bots/me/feed", headers=auth(bot["token"]))
    assert feed.status_code == 200 and feed.get_json()["pending"] == []
    assert redis_client.smembers(games) == {waiting}
