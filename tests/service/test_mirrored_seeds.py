"""A mirrored round deals one seed to every table: that seed (and the log's draws) stays secret
in every response until the last table of the round is over, then it is revealed and verifies.
"""

from __future__ import annotations

import requests

from clients.sdk import Client
from clients.verifier import audit_game
from service.tournaments import derive_seed
from tests.conftest import wait_until


def _register(base: str, name: str) -> dict:
    reply = requests.post(f"{base}/v1/bots", json={"name": name, "owner": "tests"}, timeout=5)
    assert reply.status_code == 201, reply.text
    return reply.json()


def _wait_created(base: str, game_id: str, timeout: float = 60) -> dict:
    def started() -> dict | None:
        reply = requests.get(f"{base}/v1/games/{game_id}", timeout=5)
        if reply.status_code == 200 and reply.json()["status"] == "active":
            return reply.json()
        return None

    return wait_until(started, timeout, f"the tournament to start game {game_id}", interval=0.1)


def _play_to_end(base: str, game_id: str, tokens: dict[str, str]) -> None:
    """Each seat's account plays its first legal action until the game is over."""
    for _ in range(200):
        summary = requests.get(f"{base}/v1/games/{game_id}", timeout=5).json()
        if summary["status"] == "over":
            return
        for seat in summary["to_act"]:
            auth = {"Authorization": f"Bearer {tokens[summary['seats'][int(seat)]['account']]}"}
            legal = requests.get(
                f"{base}/v1/games/{game_id}/legal-actions", headers=auth, timeout=5
            ).json()
            reply = requests.post(
                f"{base}/v1/games/{game_id}/actions",
                json={"action": legal["actions"][0]["action"]},
                headers=auth,
                timeout=5,
            )
            assert reply.status_code == 200, reply.text
    raise AssertionError(f"game {game_id} did not end in 200 rounds of moves")


def _everything_said_about(base: str, game_id: str, tid: str, token: str) -> list[str]:
    """The text of every response that concerns the game, for the spectator and a seat."""
    auth = {"Authorization": f"Bearer {token}"}
    urls = [
        f"/v1/games/{game_id}",
        f"/v1/games/{game_id}/log",
        f"/v1/games/{game_id}/view",
        f"/v1/games/{game_id}/events?after=0",
        f"/v1/games/{game_id}/verification",
        "/v1/games?limit=50",
        f"/v1/tournaments/{tid}",
        f"/v1/tournaments/{tid}/games",
        "/v1/bots/me/feed?after=0",
    ]
    texts = []
    for url in urls:
        for headers in ({}, auth):
            reply = requests.get(base + url, headers=headers, timeout=10)
            if reply.status_code == 200:
                texts.append(reply.text)
    summary = requests.get(f"{base}/v1/games/{game_id}", timeout=5).json()
    if summary["status"] == "over":
        for seat in range(len(summary["seats"])):
            reply = requests.get(f"{base}/v1/games/{game_id}/view?seat={seat}", timeout=5)
            assert reply.status_code == 200, reply.text
            texts.append(reply.text)
    return texts


def _assert_hidden(base: str, game_id: str, tid: str, token: str, seed: str) -> None:
    for text in _everything_said_about(base, game_id, tid, token):
        assert seed not in text, f"the seed of {game_id} leaked: {text[:300]}"
    log = requests.get(f"{base}/v1/games/{game_id}/log", timeout=5).json()
    assert log["seed"] is None
    assert all("draws" not in entry for entry in log["entries"]), "draws would give the dice away"


def test_a_mirrored_seed_stays_secret_until_the_last_table_ends(live_server, worker, redis_client):
    accounts = [_register(live_server, name) for name in ("north", "south")]
    tokens = {a["id"]: a["token"] for a in accounts}
    reply = requests.post(
        f"{live_server}/v1/tournaments",
        json={
            "game": "toy",
            "participants": [{"name": a["name"], "account": a["id"]} for a in accounts],
            "games": 2,
            "format": "mirrored",
            "seats_per_game": 2,
            "concurrency": 2,
            "seed": "mirror-secret",
        },
        timeout=10,
    )
    assert reply.status_code == 201, reply.text
    tid = reply.json()["id"]
    first, second = f"{tid}-00000", f"{tid}-00001"
    seed = derive_seed("mirror-secret", "round-0")
    a, b = _wait_created(live_server, first), _wait_created(live_server, second)
    assert a["commitment"] == b["commitment"], "the two tables share their dice"

    _play_to_end(live_server, first, tokens)
    assert requests.get(f"{live_server}/v1/games/{first}", timeout=5).json()["status"] == "over"
    for game_id in (first, second):
        _assert_hidden(live_server, game_id, tid, accounts[0]["token"], seed)

    secret = requests.get(f"{live_server}/v1/games/{first}/verification", timeout=10)
    assert secret.status_code == 409 and secret.json()["code"] == "game_not_over", secret.text
    assert seed not in secret.text
    fork = {"game": first, "version": 1, "dice": "original"}
    humans = [{"kind": "human"}, {"kind": "human"}]
    reply = requests.post(
        f"{live_server}/v1/games", json={"fork": fork, "seats": humans}, timeout=10
    )
    assert reply.status_code == 422 and reply.json()["code"] == "invalid_fork", (
        "a fork with the original dice would publish the seed at its end: " + reply.text
    )
    fresh = requests.post(
        f"{live_server}/v1/games",
        json={"fork": {**fork, "dice": "fresh"}, "seats": humans},
        timeout=10,
    )
    # its position holds what the seed dealt hidden, as the table still played does (on main
    # 201: a fresh fork of a King of the Dice table, played out by bots, drew that table's
    # stockpile in its hidden order and named its removed tiles)
    assert fresh.status_code == 422 and fresh.json()["code"] == "invalid_fork", fresh.text

    _play_to_end(live_server, second, tokens)
    later = requests.post(
        f"{live_server}/v1/games",
        json={"fork": {**fork, "dice": "fresh"}, "seats": humans},
        timeout=10,
    )
    assert later.status_code == 201, later.text
    client = Client(live_server)
    for game_id in (first, second):
        summary = client.game(game_id)
        log = client.log(game_id)
        assert summary["seed"] == log["seed"] == seed
        assert all("draws" in entry for entry in log["entries"])
        views = {None: client.view(game_id)["view"]}
        audit = audit_game(summary, log, views)
        assert audit.ok, [c for c in audit.checks if not c.ok]
        verified = requests.get(f"{live_server}/v1/games/{game_id}/verification", timeout=10)
        assert verified.status_code == 200 and verified.json()["ok"] is True, verified.text
