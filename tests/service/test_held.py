"""A client's next move decided on the record its process's last move left (``service.held``),
without reading the game: written only when the game still holds that record's version and
stamp, and otherwise answered exactly as after a read. Two apps on one Redis stand for two
API processes."""

from __future__ import annotations

import dataclasses
import random
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


def snapshot(record) -> dict:
    return {
        **dataclasses.asdict(record),
        "state": record.state,
        "stamp": record.stamp,
        "state_json": record.state_json,
        "class": type(record).__name__,
    }


@pytest.mark.parametrize("game", ["burgundy", "diceland", "carcassonne", "kingdice"])
def test_the_held_record_is_the_record_a_read_gives(two, game):
    app = two[0]
    client = app.test_client()
    body = {
        "game": game,
        "seats": [{"kind": "human"}] * 3,
        "seed": f"held-review-{game}",
        "visibility": "public",
        "decision_seconds": 3600,
    }
    created = client.post("/v1/games", json=body)
    if created.status_code != 201:  # a game for two only
        body["seats"] = body["seats"][:2]
        created = client.post("/v1/games", json=body)
    assert created.status_code == 201, created.get_json()
    game_id = created.get_json()["id"]
    tokens = [
        client.post(f"/v1/games/{game_id}/seats/{s}/join", json={}).get_json()["seat_token"]
        for s in range(len(body["seats"]))
    ]
    rng = random.Random(7)
    svc = service(app)
    held_moves = 0
    for _ in range(40):
        summary = client.get(f"/v1/games/{game_id}").get_json()
        if summary["status"] != "active":
            break
        seat = int(rng.choice(sorted(summary["to_act"])))
        legal = client.get(f"/v1/games/{game_id}/legal-actions", headers=auth(tokens[seat]))
        action = rng.choice(legal.get_json()["actions"])["action"]
        url = f"/v1/games/{game_id}/actions"
        was_held = svc.held._entries.get(game_id) is not None
        moved = client.post(url, json={"action": action}, headers=auth(tokens[seat]))
        assert moved.status_code == 200, moved.get_json()
        held_moves += was_held
        held = svc.held._entries.get(game_id)
        if held is not None:
            assert snapshot(held) == snapshot(svc.store.load(game_id))
    assert held_moves > 3


def test_two_threads_of_one_process_posting_one_move_make_it_once(two):
    import threading

    app = two[0]
    svc = service(app)
    game_id, tokens = start(app.test_client())
    url = f"/v1/games/{game_id}/actions"
    for _ in range(30):
        client = app.test_client()
        if client.get(f"/v1/games/{game_id}").get_json()["status"] != "active":
            break
        seat = owing(client, game_id)
        legal = client.get(f"/v1/games/{game_id}/legal-actions", headers=auth(tokens[seat]))
        sent = {**auth(tokens[seat]), "If-Match": f'"{legal.get_json()["decision"]}"'}
        body = {"action": legal.get_json()["actions"][0]["action"]}
        barrier = threading.Barrier(2)
        codes: list[int] = []

        def post(barrier=barrier, codes=codes, body=body, sent=sent) -> None:
            mine = app.test_client()
            barrier.wait(timeout=30)
            codes.append(mine.post(url, json=body, headers=sent).status_code)

        threads = [threading.Thread(target=post) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
        assert sorted(codes)[0] == 200 and sorted(codes)[1] in (412, 422), codes
        held = svc.held._entries.get(game_id)
        stored = svc.store.load(game_id)
        if held is not None and held.version == stored.version:
            assert snapshot(held) == snapshot(stored)
    log = app.test_client().get(f"/v1/games/{game_id}/log").get_json()["entries"]
    assert [e["version"] for e in log] == list(range(len(log)))


def test_a_bot_playing_on_its_own_record_after_a_lost_write_moves_on_the_stored_one(
    two,
    redis_client,
):
    # A bot's job plays on the record its previous move wrote (``known``: jobs.py), without
    # reading: the same position as a held record. Redis loses that move (a failover) and
    # another process makes another move to the same version: the job's next move must be
    # made on the stored record, not on the lost one (the stamp tells them apart).
    from engine.games import get_game
    from service.moves import MoveRequest

    here, there = two
    client, other = here.test_client(), there.test_client()
    game_id, tokens = start(client)
    assert play(client, game_id, tokens[owing(client, game_id)]).status_code == 200
    keys = [f"dh:{{{game_id}}}:{part}" for part in ("game", "log")]
    snapshot_ = [redis_client.dump(key) for key in keys]

    def restore(dumps):
        for key, dump in zip(keys, dumps, strict=True):
            redis_client.restore(key, 0, dump, replace=True)

    svc = service(here)
    record = svc.record(game_id)
    game = get_game(record.game)
    state = game.load_state(record.state)
    seat = owing(client, game_id)
    first = game.legal_actions(state, seat)[0]
    _answer, played = svc.play(game_id, MoveRequest(first, seat), known=record, known_state=state)
    assert played is not None
    lost = played.record
    restore(snapshot_)  # the move is lost
    assert play(other, game_id, tokens[seat], pick=1).status_code == 200  # another, same version
    nxt = owing(other, game_id)
    on_stored = game.legal_actions(game.load_state(svc.record(game_id).state), nxt)
    action = next(a for a in game.legal_actions(played.state, nxt) if a in on_stored)
    stored = [redis_client.dump(key) for key in keys]
    svc.play(game_id, MoveRequest(action, nxt), known=lost, known_state=played.state)
    made_here = redis_client.hget(keys[0], "state")
    restore(stored)
    svc.play(game_id, MoveRequest(action, nxt))  # the same move after a read
    assert made_here == redis_client.hget(keys[0], "state"), "made on the stored record"
