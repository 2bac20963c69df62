"""A game's past over real HTTP with real rq workers: pictures at earlier steps, sentences in
the log, the service's verification, and forks of finished games."""

from __future__ import annotations

import json
from typing import Any

import pytest
import requests

from engine.codec import canonical_json
from engine.games import get_game
from engine.kingdice import picture as kingdice_picture
from engine.replay import replay
from service import archive as archives
from service.store import GameStore
from tests.conftest import wait_until
from tests.players import Player, create, play_until_over, wait_for

pytestmark = pytest.mark.usefixtures("worker")


def finished(base: str, game: str = "kingdice", bot: str = "random", seed: str = "h1") -> dict:
    """A two-bot game played to the end by the workers; its final summary."""
    bots = [{"kind": "bot", "bot": bot}, {"kind": "bot", "bot": bot}]
    created = create(base, game, bots, seed=seed)
    return wait_for(base, created["id"], lambda s: s["status"] == "over", timeout=90)


def get(base: str, path: str, **params: Any) -> dict[str, Any]:
    reply = requests.get(f"{base}/v1{path}", params=params, timeout=20)
    assert reply.status_code == 200, reply.text
    return reply.json()


def moves_of(log: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    return [(e["seat"], e["action"]) for e in log["entries"] if e["seat"] is not None]


def replayed(summary: dict[str, Any], log: dict[str, Any], k: int) -> Any:
    """The state after the first ``k`` moves, replayed by the engine from the published log."""
    game = get_game(summary["game"])
    seats = len(summary["seats"])
    return replay(game, seats, summary["options"], log["seed"], moves_of(log)[:k]).state


def fork(base: str, origin: str, version: int, seats: list[dict], **extra: Any) -> Any:
    fork = {"game": origin, "version": version, **extra.pop("fork", {})}
    body: dict[str, Any] = {"fork": fork, "seats": seats, "visibility": "public"}
    return requests.post(f"{base}/v1/games", json={**body, **extra}, timeout=20)


HUMANS = [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}]


def test_picture_at_a_version_draws_the_replayed_state(live_server, redis_client):
    summary = finished(live_server)
    log = get(live_server, f"/games/{summary['id']}/log")
    game = get_game("kingdice")
    for k in (0, summary["version"] // 2, summary["version"]):
        reply = requests.get(
            f"{live_server}/v1/games/{summary['id']}/picture.svg", params={"version": k}, timeout=20
        )
        assert reply.status_code == 200, reply.text
        view = json.loads(json.dumps(game.view(replayed(summary, log, k), None)))
        assert reply.text == kingdice_picture.render_svg(view, None)
    early = requests.get(
        f"{live_server}/v1/games/{summary['id']}/picture.svg", params={"version": 0}, timeout=20
    )
    final = requests.get(f"{live_server}/v1/games/{summary['id']}/picture.svg", timeout=20)
    assert early.text != final.text
    beyond = requests.get(
        f"{live_server}/v1/games/{summary['id']}/picture.svg",
        params={"version": summary["version"] + 1},
        timeout=20,
    )
    assert beyond.status_code == 404 and beyond.json()["code"] == "version_not_found"


def test_earlier_pictures_of_a_game_being_played_are_refused(live_server, redis_client):
    created = create(live_server, "kingdice", HUMANS)
    players = [Player(live_server, created["id"], seat) for seat in (0, 1)]
    (first,) = [p for p in players if str(p.seat) in p.view()["to_act"]]
    assert first.act(first.legal()[0]).status_code == 200
    picture = f"{live_server}/v1/games/{created['id']}/picture.svg"
    assert requests.get(picture, params={"version": 1}, timeout=20).status_code == 200
    early = requests.get(picture, params={"version": 0}, timeout=20)
    assert early.status_code == 409 and early.json()["code"] == "game_not_over"


def test_log_entries_read_as_the_games_sentences(live_server, redis_client):
    summary = finished(live_server, "diceland", "heuristic", seed="h2")
    log = get(live_server, f"/games/{summary['id']}/log")
    game = get_game("diceland")
    assert log["entries"][0]["text"] == "The game is set up."
    for k, entry in enumerate(log["entries"][1:6]):
        state = replayed(summary, log, k)
        name = summary["seats"][entry["seat"]]["name"]
        assert entry["text"] == f"{name}: {game.describe(state, entry['seat'], entry['action'])}"
    assert all(entry["text"] for entry in log["entries"])


def test_sealed_choices_have_no_sentence_for_others_until_the_end(live_server, redis_client):
    created = create(live_server, "burgundy", HUMANS, seed="sealed")
    ann, bob = Player(live_server, created["id"], 0), Player(live_server, created["id"], 1)
    reply = ann.act(ann.legal()[0])
    assert reply.status_code == 200, reply.text
    entry = get(live_server, f"/games/{created['id']}/log")["entries"][1]
    assert entry["sealed"] and entry["action"] is None and entry["text"] is None
    own = ann.get("log")["entries"][1]
    assert own["text"].startswith("p0: ")
    assert bob.get("log")["entries"][1]["text"] is None


def test_verification_of_a_finished_game_holds_and_catches_a_changed_result(
    live_server, redis_client
):
    summary = finished(live_server, seed="h3")
    audit = get(live_server, f"/games/{summary['id']}/verification")
    assert audit["ok"] is True
    assert audit["seed"] == summary["seed"] and audit["commitment"] == summary["commitment"]
    names = [check["name"] for check in audit["checks"]]
    assert "sha256(seed) equals the commitment published at creation" in names
    assert "the result equals the server's" in names
    # a finished game is compacted: its result lives in the archive, so change it there
    store = GameStore(redis_client)
    key = store.key_for(summary["id"], "game")
    packed = wait_until(lambda: store._archive(summary["id"]), 10, "the game's archive")
    archived = archives.unpack(packed)
    result = {**summary["result"], "scores": [s + 1 for s in summary["result"]["scores"]]}
    archived.meta["result"] = result
    redis_client.hset(key, "archive", archives.pack(archived))
    tampered = get(live_server, f"/games/{summary['id']}/verification")
    assert tampered["ok"] is False
    failed = [check["name"] for check in tampered["checks"] if not check["ok"]]
    assert failed == ["the result equals the server's"]


def test_verification_of_a_game_being_played_is_refused(live_server, redis_client):
    created = create(live_server, "kingdice", HUMANS)
    reply = requests.get(f"{live_server}/v1/games/{created['id']}/verification", timeout=10)
    assert reply.status_code == 409 and reply.json()["code"] == "game_not_over"


def test_fork_starts_from_the_replay_of_the_first_k_moves(live_server, redis_client):
    summary = finished(live_server, seed="h4")
    log = get(live_server, f"/games/{summary['id']}/log")
    k = summary["version"] // 2
    reply = fork(live_server, summary["id"], k, HUMANS)
    assert reply.status_code == 201, reply.text
    forked = reply.json()
    assert forked["forked_from"] == {"game": summary["id"], "version": k, "dice": "fresh"}
    assert forked["status"] == "waiting" and forked["version"] == 0
    assert forked["commitment"] != summary["commitment"]
    stored = GameStore(redis_client).load(forked["id"])
    assert stored is not None
    expected = get_game("kingdice").dump_state(replayed(summary, log, k))
    assert canonical_json(stored.state) == canonical_json(expected)
    setup = get(live_server, f"/games/{forked['id']}/log")["entries"][0]
    assert setup["action"] == {
        "type": "fork",
        "game": summary["id"],
        "version": k,
        "dice": "fresh",
    }
    assert setup["text"] == f"Forked from game {summary['id']} after move {k}, with fresh dice."


def test_a_fork_with_bots_plays_to_the_end_and_verifies_its_origin_while_stored(
    live_server, redis_client
):
    summary = finished(live_server, seed="h5")
    bots = [{"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "random"}]
    reply = fork(live_server, summary["id"], 3, bots, seed="fork-seed")
    assert reply.status_code == 201, reply.text
    over = wait_for(live_server, reply.json()["id"], lambda s: s["status"] == "over", timeout=90)
    assert over["result"] is not None and over["seed"] == "fork-seed"
    audit = get(live_server, f"/games/{over['id']}/verification")
    assert audit["ok"] is True, [c for c in audit["checks"] if not c["ok"]]
    origin_check = f"the origin game {summary['id']} verifies and reaches the fork's start"
    assert audit["checks"][0]["name"] == origin_check
    for key in redis_client.scan_iter(f"*{{{summary['id']}}}*"):
        redis_client.delete(key)
    log = get(live_server, f"/games/{over['id']}/log")
    assert log["entries"][0]["text"].startswith(f"Forked from game {summary['id']} after move 3")
    assert all(entry["text"] for entry in log["entries"])
    picture = requests.get(
        f"{live_server}/v1/games/{over['id']}/picture.svg", params={"version": 1}, timeout=20
    )
    assert picture.status_code == 200
    orphan = get(live_server, f"/games/{over['id']}/verification")
    failed = [(c["name"], c["detail"]) for c in orphan["checks"] if not c["ok"]]
    assert orphan["ok"] is False
    assert failed == [(origin_check, "the origin is no longer stored")]


def test_a_fork_with_the_original_dice_replays_the_rest_of_the_game_exactly(
    live_server, redis_client
):
    summary = finished(live_server, seed="h6")
    log = get(live_server, f"/games/{summary['id']}/log")
    k = summary["version"] // 3
    reply = fork(live_server, summary["id"], k, HUMANS, fork={"dice": "original"})
    assert reply.status_code == 201, reply.text
    forked = reply.json()
    assert forked["commitment"] == summary["commitment"]
    players = [Player(live_server, forked["id"], seat) for seat in (0, 1)]
    rest = iter(moves_of(log)[k:])

    def same_as_origin(player: Player, legal: list[dict]) -> dict:
        seat, action = next(rest)
        assert seat == player.seat and action in legal
        return action

    final = play_until_over(live_server, players, choose=same_as_origin, timeout=120)
    assert final["result"] == summary["result"]
    assert final["version"] == summary["version"] - k
    assert get(live_server, f"/games/{forked['id']}/verification")["ok"] is True


def test_a_fork_is_private_unless_asked_public_as_a_new_game_is(live_server, redis_client):
    """A fork took no visibility: asked private (or by default), it came out public, listed,
    its open seats for anyone to take."""
    summary = finished(live_server, seed="h8")
    body = {"fork": {"game": summary["id"], "version": 1}, "seats": HUMANS}
    reply = requests.post(f"{live_server}/v1/games", json=body, timeout=20)
    assert reply.status_code == 201, reply.text
    forked = reply.json()
    assert forked["visibility"] == "private" and set(forked["invites"]) == {"0", "1"}
    listed = get(live_server, "/games", limit=100)["games"]
    assert forked["id"] not in [game["id"] for game in listed]
    join = f"{live_server}/v1/games/{forked['id']}/seats/0/join"
    stranger = requests.post(join, json={}, timeout=10)
    assert stranger.status_code == 403 and stranger.json()["code"] == "private_game"
    invited = {"Authorization": f"Bearer {forked['invites']['0']}"}
    assert requests.post(join, json={}, headers=invited, timeout=10).status_code == 201
    public = fork(live_server, summary["id"], 1, HUMANS)
    assert public.status_code == 201 and public.json()["visibility"] == "public"
    assert public.json()["invites"] == {}


def test_a_fork_keeps_its_seats(live_server, redis_client):
    """Removing a seat deals a waiting game again from set-up: a fork would lose its
    position and keep ``forked_from`` (its log then failed to re-play: 500)."""
    bots = [{"kind": "bot", "bot": "random"}] * 3
    origin = create(live_server, "toy", bots, seed="h9")
    wait_for(live_server, origin["id"], lambda s: s["status"] == "over", timeout=90)
    forked = fork(live_server, origin["id"], 3, [{"kind": "human"}] * 3).json()
    creator = {"Authorization": f"Bearer {forked['creator_token']}"}
    seat = f"{live_server}/v1/games/{forked['id']}/seats/2"
    reply = requests.delete(seat, headers=creator, timeout=10)
    assert reply.status_code == 422 and reply.json()["code"] == "invalid_fork", reply.text
    assert get(live_server, f"/games/{forked['id']}") == {
        k: v for k, v in forked.items() if k not in ("creator_token", "invites")
    }
    assert get(live_server, f"/games/{forked['id']}/log")["entries"][0]["action"]["type"] == "fork"


REFUSED_FORKS = [
    ({"version": "last"}, 422, "invalid_fork"),
    ({"seats": HUMANS[:1]}, 422, "invalid_fork"),
    ({"seed": "s", "fork": {"dice": "original"}}, 422, "invalid_fork"),
    ({"game": "diceland"}, 422, "invalid_fork"),
    ({"options": {"x": 1}}, 422, "validation_failed"),
    ({"fork": {"dice": "loaded"}}, 422, "validation_failed"),
    ({"origin": "0000000000000000"}, 404, "game_not_found"),
    ({"origin": "waiting"}, 409, "game_not_over"),
]


def test_forks_that_cannot_be_made_are_refused_and_create_nothing(live_server, redis_client):
    summary = finished(live_server, seed="h7")
    waiting = create(live_server, "kingdice", HUMANS)["id"]
    before = get(live_server, "/games", limit=100)["games"]
    for change, status, code in REFUSED_FORKS:
        origin = {"waiting": waiting}.get(change.get("origin", ""), change.get("origin"))
        version = summary["version"] if change.get("version") == "last" else 1
        extra = {k: v for k, v in change.items() if k in ("seed", "game", "options", "fork")}
        seats = change.get("seats", HUMANS)
        reply = fork(live_server, origin or summary["id"], version, seats, **extra)
        assert reply.status_code == status, (change, reply.text)
        assert reply.json()["code"] == code, change
    assert len(get(live_server, "/games", limit=100)["games"]) == len(before)


def test_creating_a_game_needs_a_game_or_a_fork(live_server, redis_client):
    reply = requests.post(f"{live_server}/v1/games", json={"seats": HUMANS}, timeout=10)
    assert reply.status_code == 422
    assert reply.json()["code"] == "validation_failed" and "game" in reply.json()["errors"]


def test_tournaments_are_listed_newest_first(live_server, redis_client):
    spec = {
        "game": "kingdice",
        "participants": [{"name": "a", "bot": "random"}, {"name": "b", "bot": "random"}],
        "games": 1,
    }
    ids = [
        requests.post(f"{live_server}/v1/tournaments", json=spec, timeout=10).json()["id"]
        for _ in range(2)
    ]
    listed = get(live_server, "/tournaments")["tournaments"]
    assert [t["id"] for t in listed] == ids[::-1]
    assert get(live_server, "/tournaments", limit=1, offset=1)["tournaments"][0]["id"] == ids[0]
