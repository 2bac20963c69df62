"""A client's next move decided on the record its process's last move left (``service.held``),
without reading the game: written only when the game still holds that record's version and
stamp, and otherwise answered exactly as after a read. Two apps on one Redis stand for two
API processes."""

from __future__ import annotations

import time
from typing import Any

import pytest

from service.tokens import digest
from tests.service.test_api_basics import auth, create_humans, join_all


@pytest.fixture()
def two(redis_client, monkeypatch):
    """Two API processes (apps) on the same Redis, with the default rate limit."""
    import os

    from service.app import create_app
    from service.config import Settings

    monkeypatch.delenv("DICEHALL_RATE_LIMIT", raising=False)
    settings = Settings(redis_url=os.environ["REDIS_URL"])
    return [create_app({"TESTING": True, "DICEHALL": settings}) for _ in range(2)]


def play(client, game_id: str, token: str, pick: int = 0, **headers: str) -> Any:
    """Post the ``pick``-th legal action of ``token``'s seat (If-Match: its decision)."""
    legal = client.get(f"/v1/games/{game_id}/legal-actions", headers=auth(token)).get_json()
    body = {"action": legal["actions"][pick]["action"]}
    sent = {**auth(token), "If-Match": f'"{legal["decision"]}"', **headers}
    return client.post(f"/v1/games/{game_id}/actions", json=body, headers=sent)


def owing(client, game_id: str) -> int:
    return int(min(client.get(f"/v1/games/{game_id}").get_json()["to_act"]))


def start(client) -> tuple[str, list[str]]:
    game = create_humans(client, "carcassonne", "held-seed")
    return game["id"], join_all(client, game)


def service(app):
    from service.context import service_of

    return service_of(app)


def test_a_move_after_this_process_moved_the_game_reads_nothing(two):
    app = two[0]
    client = app.test_client()
    game_id, tokens = start(client)
    first = play(client, game_id, tokens[owing(client, game_id)])
    assert first.status_code == 200, first.get_json()
    assert service(app).held.take(game_id) is not None, "the move left its record held"
    play(client, game_id, tokens[owing(client, game_id)])  # held again
    loads = []
    store = service(app).store
    original = store.load
    store.load = lambda *a, **k: loads.append(a) or original(*a, **k)  # type: ignore[method-assign]
    seat = owing(client, game_id)
    legal = client.get(f"/v1/games/{game_id}/legal-actions", headers=auth(tokens[seat]))
    loads.clear()
    body = {"action": legal.get_json()["actions"][0]["action"]}
    moved = client.post(f"/v1/games/{game_id}/actions", json=body, headers=auth(tokens[seat]))
    assert moved.status_code == 200 and loads == [], (moved.get_json(), loads)


def test_a_game_another_process_moved_is_read_again_and_the_move_made(two):
    here, there = (app.test_client() for app in two)
    game_id, tokens = start(here)
    assert play(here, game_id, tokens[owing(here, game_id)]).status_code == 200
    version = here.get(f"/v1/games/{game_id}").get_json()["version"]
    assert play(there, game_id, tokens[owing(there, game_id)]).status_code == 200
    # the If-Match is newer than the held record: refused on it, so read, then made
    moved = play(here, game_id, tokens[owing(here, game_id)])
    assert moved.status_code == 200, moved.get_json()
    assert moved.get_json()["version"] == version + 2
    log = here.get(f"/v1/games/{game_id}/log").get_json()["entries"]
    assert [e["version"] for e in log] == list(range(version + 3))


def test_a_record_replaced_at_the_same_version_is_told_by_its_stamp(two, redis_client):
    # Redis loses the move this process wrote (a failover) and another process makes another
    # move to the same version: the held record has that version but not the stamp, so the
    # next move here, legal on both records, is made on the stored one, not on the lost one.
    here, there = (app.test_client() for app in two)
    game_id, tokens = start(here)
    assert play(here, game_id, tokens[owing(here, game_id)]).status_code == 200
    keys = [f"dh:{{{game_id}}}:{part}" for part in ("game", "log")]

    def snapshot() -> list[bytes]:
        return [redis_client.dump(key) for key in keys]

    def restore(dumps: list[bytes]) -> None:
        for key, dump in zip(keys, dumps, strict=True):
            redis_client.restore(key, 0, dump, replace=True)

    def actions(client, seat: int) -> list[Any]:
        url = f"/v1/games/{game_id}/legal-actions"
        return [
            a["action"] for a in client.get(url, headers=auth(tokens[seat])).get_json()["actions"]
        ]

    before = snapshot()
    seat = owing(here, game_id)
    assert play(here, game_id, tokens[seat], pick=0).status_code == 200  # held, then lost
    lost = {s: actions(here, s) for s in range(2)}
    restore(before)
    assert play(there, game_id, tokens[seat], pick=1).status_code == 200
    nxt = owing(there, game_id)
    action = next(a for a in actions(there, nxt) if a in lost[nxt])  # legal on both records
    stored = snapshot()
    url = f"/v1/games/{game_id}/actions"
    moved = here.post(url, json={"action": action}, headers=auth(tokens[nxt]))
    assert moved.status_code == 200, moved.get_json()
    made_here = redis_client.hget(keys[0], "state")
    restore(stored)
    again = there.post(url, json={"action": action}, headers=auth(tokens[nxt]))
    assert again.status_code == 200, again.get_json()
    assert made_here == redis_client.hget(keys[0], "state"), "made on the stored record"


def test_refusals_on_a_held_record_are_the_ones_a_read_gives(two):
    app = two[0]
    client = app.test_client()
    game_id, tokens = start(client)
    url = f"/v1/games/{game_id}/actions"
    refusals = []
    for headers in ({}, {"If-Match": '"0"'}, {"late": ""}):
        assert play(client, game_id, tokens[owing(client, game_id)]).status_code == 200
        assert service(app).held._entries.get(game_id) is not None, "held"
        seat = owing(client, game_id)
        legal = client.get(f"/v1/games/{game_id}/legal-actions", headers=auth(tokens[seat]))
        action = legal.get_json()["actions"][0]["action"]
        if "late" in headers:  # the owing seat's action, from the seat that owes nothing
            sent = auth(tokens[1 - seat])
        else:
            sent = {**auth(tokens[seat]), **headers}
            action = action if headers else {"type": "nonsense"}
        reply = client.post(url, json={"action": action}, headers=sent)
        refusals.append((reply.status_code, reply.get_json()["code"]))
    assert refusals == [
        (422, "malformed_action"),
        (412, "version_mismatch"),
        (422, "illegal_action"),
    ]
    stats = service(app).store.stats(game_id, 2)
    assert sum(row["illegal"] for row in stats) == 1, "the illegal attempt counted once"
    assert play(client, game_id, tokens[owing(client, game_id)]).status_code == 200


def test_an_idempotent_retry_on_a_held_record_gets_the_first_answer(two):
    here, there = (app.test_client() for app in two)
    game_id, tokens = start(here)
    assert play(here, game_id, tokens[owing(here, game_id)]).status_code == 200
    seat = owing(here, game_id)
    first = play(there, game_id, tokens[seat], **{"Idempotency-Key": "k1"})
    assert first.status_code == 200
    log = here.get(f"/v1/games/{game_id}/log").get_json()["entries"]
    assert service(two[0]).held._entries.get(game_id) is not None, "held, behind the game"
    again = here.post(
        f"/v1/games/{game_id}/actions",
        json={"action": log[-1]["action"]},
        headers={**auth(tokens[seat]), "Idempotency-Key": "k1"},
    )
    assert again.status_code == 200 and again.get_json() == first.get_json()


def test_a_move_over_the_rate_limit_on_a_held_record_is_refused_and_not_written(
    redis_client, monkeypatch
):
    import os

    from service.app import create_app
    from service.config import Settings

    monkeypatch.setenv("DICEHALL_RATE_LIMIT", "6/86400")  # a day's window: none ends meanwhile
    app = create_app({"TESTING": True, "DICEHALL": Settings(redis_url=os.environ["REDIS_URL"])})
    client = app.test_client()
    game_id, tokens = start(client)  # counted by address: create, joins
    assert play(client, game_id, tokens[owing(client, game_id)]).status_code == 200
    seat = owing(client, game_id)
    legal = client.get(f"/v1/games/{game_id}/legal-actions", headers=auth(tokens[seat]))
    assert legal.status_code == 200
    window = int(time.time() // 86400)
    for day in (window, window + 1):  # the seat's count, at its limit (today's and tomorrow's)
        redis_client.set(f"dh:rate:t:{digest(tokens[seat])[:24]}:{day}", 6)
    version = redis_client.hget(f"dh:{{{game_id}}}:game", "version")
    loads = []
    store = service(app).store
    original = store.load
    store.load = lambda *a, **k: loads.append(a) or original(*a, **k)  # type: ignore[method-assign]
    body = {"action": legal.get_json()["actions"][0]["action"]}
    refused = client.post(f"/v1/games/{game_id}/actions", json=body, headers=auth(tokens[seat]))
    assert refused.status_code == 429 and refused.get_json()["code"] == "rate_limited"
    assert loads == [], "refused by the commit's script, without a read"
    assert refused.headers["Retry-After"].isdigit()
    assert "at most 6 requests per 86400 s for this token" in refused.get_json()["detail"]
    assert redis_client.hget(f"dh:{{{game_id}}}:game", "version") == version, "nothing written"
    again = client.get(f"/v1/games/{game_id}/view", headers=auth(tokens[seat]))
    assert again.status_code == 429, "the refused move was counted"
