"""Private and public games over a real gunicorn: who may take a seat, listing, and what the
creator may do before the game starts."""

from __future__ import annotations

import requests

TOY = {"game": "toy", "seats": [{"kind": "human"}, {"kind": "human"}]}


def post(base: str, path: str, token: str | None = None, **body) -> requests.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return requests.post(f"{base}/v1{path}", json=body, headers=headers, timeout=10)


def delete(base: str, path: str, token: str | None = None) -> requests.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return requests.delete(f"{base}/v1{path}", headers=headers, timeout=10)


def listed(base: str) -> set[str]:
    return {g["id"] for g in requests.get(f"{base}/v1/games", timeout=10).json()["games"]}


def test_a_stranger_cannot_join_a_private_game(live_server, redis_client):
    created = post(live_server, "/games", **TOY).json()
    game_id, invites = created["id"], created["invites"]
    assert created["visibility"] == "private" and set(invites) == {"0", "1"}
    assert game_id not in listed(live_server)
    for token in (None, "seat_made_up", invites["1"]):
        refused = post(live_server, f"/games/{game_id}/seats/0/join", token)
        assert refused.status_code == 403, refused.text
        assert refused.json()["code"] == "private_game"
    assert post(live_server, f"/games/{game_id}/seats/0/join", invites["0"]).status_code == 201
    again = post(live_server, f"/games/{game_id}/seats/0/join", invites["0"])
    assert again.status_code == 409
    by_creator = post(live_server, f"/games/{game_id}/seats/1/join", created["creator_token"])
    assert by_creator.status_code == 201 and by_creator.json()["status"] == "active"


def test_a_public_game_is_listed_and_open_to_anyone(live_server, redis_client):
    created = post(live_server, "/games", **TOY, visibility="public").json()
    assert created["visibility"] == "public" and created["invites"] == {}
    assert created["id"] in listed(live_server)
    assert post(live_server, f"/games/{created['id']}/seats/0/join").status_code == 201


def test_the_creator_cancels_a_waiting_game(live_server, redis_client):
    created = post(live_server, "/games", **TOY).json()
    game_id = created["id"]
    assert delete(live_server, f"/games/{game_id}").status_code == 401
    assert delete(live_server, f"/games/{game_id}", created["invites"]["0"]).status_code == 403
    assert delete(live_server, f"/games/{game_id}", created["creator_token"]).status_code == 204
    assert requests.get(f"{live_server}/v1/games/{game_id}", timeout=5).status_code == 404

    started = post(live_server, "/games", **TOY).json()
    for seat in (0, 1):
        post(live_server, f"/games/{started['id']}/seats/{seat}/join", started["creator_token"])
    refused = delete(live_server, f"/games/{started['id']}", started["creator_token"])
    assert refused.status_code == 409 and refused.json()["code"] == "game_started"


def test_the_creator_removes_a_seat_nobody_took(live_server, redis_client):
    created = post(live_server, "/games", game="toy", seats=[{"kind": "human"}] * 3).json()
    game_id, invites, creator = created["id"], created["invites"], created["creator_token"]
    first = post(live_server, f"/games/{game_id}/seats/0/join", invites["0"]).json()
    assert delete(live_server, f"/games/{game_id}/seats/1", invites["2"]).status_code == 403
    taken = delete(live_server, f"/games/{game_id}/seats/0", creator)
    assert taken.status_code == 409 and taken.json()["code"] == "seat_taken"

    removed = delete(live_server, f"/games/{game_id}/seats/1", creator)
    assert removed.status_code == 200, removed.text
    summary = removed.json()
    assert len(summary["seats"]) == 2 and summary["status"] == "waiting"
    assert [s["joined"] for s in summary["seats"]] == [True, False]
    too_few = delete(live_server, f"/games/{game_id}/seats/1", creator)
    assert too_few.status_code == 422 and too_few.json()["code"] == "invalid_options"

    last = post(live_server, f"/games/{game_id}/seats/1/join", invites["2"])
    assert last.status_code == 201 and last.json()["status"] == "active"
    view = requests.get(
        f"{live_server}/v1/games/{game_id}/view",
        headers={"Authorization": f"Bearer {first['seat_token']}"},
        timeout=5,
    ).json()
    assert view["seat"] == 0 and len(view["view"]["hands"]) == 2
    log = requests.get(f"{live_server}/v1/games/{game_id}/log", timeout=5).json()
    assert [e["n"] for e in log["entries"]] == [0], "dealt again: one set-up entry"


def test_removing_the_last_open_seat_starts_the_game(live_server, redis_client):
    created = post(live_server, "/games", game="toy", seats=[{"kind": "human"}] * 3).json()
    game_id, invites, creator = created["id"], created["invites"], created["creator_token"]
    for seat in ("0", "2"):
        assert post(live_server, f"/games/{game_id}/seats/{seat}/join", invites[seat]).ok
    removed = delete(live_server, f"/games/{game_id}/seats/1", creator)
    assert removed.status_code == 200, removed.text
    summary = removed.json()
    assert summary["status"] == "active" and sorted(summary["to_act"]) == ["0", "1"]
