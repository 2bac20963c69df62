"""The API over the Flask test client with a real Redis: catalogue, create, join, act, errors."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from engine.dice import commitment

ROOT = Path(__file__).resolve().parents[2]


def create_toy(client, humans: int = 2, seed: str | None = "toy-seed"):
    body = {
        "game": "toy",
        "seats": [{"kind": "human", "name": f"p{n}"} for n in range(humans)],
        "visibility": "public",
    }
    if seed is not None:
        body["seed"] = seed
    response = client.post("/v1/games", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def create_humans(client, game: str, seed: str, humans: int = 2) -> dict:
    """A public seeded game of ``game`` with ``humans`` human seats, as created (201)."""
    response = client.post(
        "/v1/games",
        json={
            "game": game,
            "seats": [{"kind": "human"}] * humans,
            "seed": seed,
            "visibility": "public",
        },
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def join_all(client, game) -> list[str]:
    tokens = []
    for seat in range(len(game["seats"])):
        response = client.post(
            f"/v1/games/{game['id']}/seats/{seat}/join", json={"name": f"p{seat}"}
        )
        assert response.status_code == 201
        tokens.append(response.get_json()["seat_token"])
    return tokens


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_health_reports_redis(client):
    assert client.get("/v1/health").get_json() == {"status": "ok", "redis": "ok"}


def test_catalogue_lists_games_with_options_schema(client):
    games = client.get("/v1/catalogue").get_json()
    names = [g["name"] for g in games]
    assert "toy" not in names
    for game in games:
        assert game["options_schema"]["type"] == "object"
        assert "random" in game["bots"]


def test_catalogue_links_each_game_to_its_rules_page_served_as_markdown(client):
    for game in client.get("/v1/catalogue").get_json():
        url = urlsplit(game["rules"])
        assert url.scheme == "http" and url.path == f"/v1/catalogue/{game['name']}/rules"
        page = client.get(url.path)
        assert page.status_code == 200 and page.mimetype == "text/markdown"
        source = ROOT / "engine" / game["name"] / "RULES.md"
        assert page.get_data(as_text=True) == source.read_text(encoding="utf-8")
    missing = client.get("/v1/catalogue/chess/rules")
    assert (missing.status_code, missing.get_json()["code"]) == (404, "unknown_game")
    toy = client.get("/v1/catalogue/toy/rules")  # every game folder has its RULES.md now
    assert toy.status_code == 200
    assert toy.get_data(as_text=True) == (ROOT / "engine/toy/RULES.md").read_text(encoding="utf-8")


def test_game_waits_for_humans_then_starts(client):
    game = create_toy(client)
    assert game["status"] == "waiting" and game["to_act"] == {}
    assert game["commitment"] == commitment("toy-seed") and game["seed"] is None
    join_all(client, game)
    summary = client.get(f"/v1/games/{game['id']}").get_json()
    assert summary["status"] == "active"
    assert set(summary["to_act"]) == {"0", "1"}


def test_sealed_action_hidden_from_other_seat_spectator_and_log(client):
    game = create_toy(client)
    t0, t1 = join_all(client, game)
    gid = game["id"]
    answer = client.post(
        f"/v1/games/{gid}/actions", json={"action": {"type": "bid", "card": 3}}, headers=auth(t0)
    )
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["view"]["bids"][0] == {"decided": True, "card": 3}
    for headers in (auth(t1), {}):
        view = client.get(f"/v1/games/{gid}/view", headers=headers).get_json()
        assert view["view"]["bids"][0] == {"decided": True, "card": None}
        log = client.get(f"/v1/games/{gid}/log", headers=headers).get_json()
        assert log["entries"][1]["action"] is None and "draws" not in log["entries"][1]
        events = client.get(f"/v1/games/{gid}/events?after=0", headers=headers).get_json()["events"]
        notices = [e for e in events if e["type"] == "decision_due"]
        others = [e for e in events if e["type"] != "decision_due"]
        assert '"card": 3' not in json.dumps(others)
        assert all(n["view"]["bids"][0] == {"decided": True, "card": None} for n in notices)
    own = client.get(f"/v1/games/{gid}/log", headers=auth(t0)).get_json()
    assert own["entries"][1]["action"] == {"type": "bid", "card": 3}


def play_toy_to_end(client, gid: str, tokens: list[str]) -> None:
    while True:
        summary = client.get(f"/v1/games/{gid}").get_json()
        if summary["status"] == "over":
            return
        for seat in map(int, summary["to_act"]):
            legal = client.get(
                f"/v1/games/{gid}/legal-actions", headers=auth(tokens[seat])
            ).get_json()
            action = legal["actions"][0]["action"]
            reply = client.post(
                f"/v1/games/{gid}/actions", json={"action": action}, headers=auth(tokens[seat])
            )
            assert reply.status_code == 200, reply.get_json()


def test_seed_revealed_only_at_the_end_and_verifies(client):
    from engine.dice import verify_draws

    game = create_toy(client, seed=None)
    tokens = join_all(client, game)
    gid = game["id"]
    assert client.get(f"/v1/games/{gid}/log").get_json()["seed"] is None
    assert "seed" not in json.dumps(client.get(f"/v1/games/{gid}/view").get_json()["view"])
    play_toy_to_end(client, gid, tokens)
    log = client.get(f"/v1/games/{gid}/log").get_json()
    assert log["seed"] and commitment(log["seed"]) == game["commitment"]
    draws = [d for entry in log["entries"] for d in entry["draws"]]
    assert draws and verify_draws(log["seed"], draws) == []


BAD_REQUESTS = [
    (
        "bad_json",
        "POST",
        "/v1/games",
        {"data": "{not json", "content_type": "application/json"},
        400,
        "invalid_json",
    ),
    (
        "wrong_types",
        "POST",
        "/v1/games",
        {"json": {"game": 5, "seats": "x"}},
        422,
        "validation_failed",
    ),
    (
        "unknown_game",
        "POST",
        "/v1/games",
        {"json": {"game": "chess", "seats": [{"kind": "human"}]}},
        404,
        "unknown_game",
    ),
    (
        "too_many_seats",
        "POST",
        "/v1/games",
        {"json": {"game": "toy", "seats": [{"kind": "human"}] * 6}},
        422,
        "invalid_options",
    ),
    (
        "unknown_bot",
        "POST",
        "/v1/games",
        {"json": {"game": "toy", "seats": [{"kind": "bot", "bot": "x"}] * 2}},
        422,
        "unknown_bot",
    ),
    ("unknown_game_id", "GET", "/v1/games/nope/view", {}, 404, "game_not_found"),
    ("unknown_catalogue", "GET", "/v1/catalogue/chess", {}, 404, "unknown_game"),
    ("no_route", "GET", "/v1/nothing", {}, 404, "not_found"),
]


@pytest.mark.parametrize(
    ("name", "method", "path", "kwargs", "status", "code"),
    BAD_REQUESTS,
    ids=[c[0] for c in BAD_REQUESTS],
)
def test_bad_requests_get_problems(client, name, method, path, kwargs, status, code):
    response = client.open(path, method=method, **kwargs)
    assert response.status_code == status
    assert response.mimetype == "application/problem+json"
    body = response.get_json()
    assert body["code"] == code and body["status"] == status and body["detail"]


def bad_moves(tokens: list[str]):
    return [
        (
            "bad_json",
            {"data": "{", "content_type": "application/json", "headers": auth(tokens[0])},
            400,
            "invalid_json",
        ),
        ("no_action", {"json": {}, "headers": auth(tokens[0])}, 422, "validation_failed"),
        (
            "action_not_object",
            {"json": {"action": 3}, "headers": auth(tokens[0])},
            422,
            "validation_failed",
        ),
        (
            "card_out_of_range",
            {"json": {"action": {"type": "bid", "card": 9}}, "headers": auth(tokens[0])},
            422,
            "malformed_action",
        ),
        (
            "unknown_type",
            {"json": {"action": {"type": "fold"}}, "headers": auth(tokens[0])},
            422,
            "malformed_action",
        ),
        ("no_token", {"json": {"action": {"type": "bid", "card": 1}}}, 401, "unauthorized"),
        (
            "wrong_token",
            {"json": {"action": {"type": "bid", "card": 1}}, "headers": auth("seat_nope")},
            401,
            "unauthorized",
        ),
        (
            "bad_if_match",
            {
                "json": {"action": {"type": "bid", "card": 1}},
                "headers": {**auth(tokens[0]), "If-Match": "abc"},
            },
            400,
            "invalid_if_match",
        ),
        (
            "stale",
            {
                "json": {"action": {"type": "bid", "card": 1}},
                "headers": {**auth(tokens[0]), "If-Match": '"5"'},
            },
            412,
            "version_mismatch",
        ),
    ]


def test_bad_moves_get_problems_and_leave_the_game_unchanged(client):
    game = create_toy(client)
    tokens = join_all(client, game)
    gid = game["id"]
    client.post(
        f"/v1/games/{gid}/actions",
        json={"action": {"type": "bid", "card": 1}},
        headers=auth(tokens[1]),
    )
    before = client.get(f"/v1/games/{gid}/view", headers=auth(tokens[0])).get_json()
    log_before = client.get(f"/v1/games/{gid}/log").get_json()
    for name, kwargs, status, code in [
        *bad_moves(tokens),
        (
            "out_of_turn",
            {"json": {"action": {"type": "bid", "card": 2}}, "headers": auth(tokens[1])},
            422,
            "illegal_action",
        ),
    ]:
        response = client.post(f"/v1/games/{gid}/actions", **kwargs)
        assert (response.status_code, response.get_json()["code"]) == (status, code), name
        assert response.mimetype == "application/problem+json", name
    assert client.get(f"/v1/games/{gid}/view", headers=auth(tokens[0])).get_json() == before
    assert client.get(f"/v1/games/{gid}/log").get_json() == log_before


def test_out_of_turn_names_the_rule(client):
    game = create_toy(client)
    tokens = join_all(client, game)
    client.post(
        f"/v1/games/{game['id']}/actions",
        json={"action": {"type": "bid", "card": 1}},
        headers=auth(tokens[1]),
    )
    body = client.post(
        f"/v1/games/{game['id']}/actions",
        json={"action": {"type": "bid", "card": 2}},
        headers=auth(tokens[1]),
    ).get_json()
    assert body["rule"] == "not_your_turn" and "owes no decision" in body["detail"]


def test_stale_version_answers_with_the_current_view(client):
    game = create_toy(client)
    tokens = join_all(client, game)
    response = client.post(
        f"/v1/games/{game['id']}/actions",
        json={"action": {"type": "bid", "card": 1}},
        headers={**auth(tokens[0]), "If-Match": '"3"'},
    )
    assert response.status_code == 412
    assert response.get_json()["current"]["version"] == 0


def test_idempotency_key_retry_returns_first_answer_and_one_move(client):
    game = create_toy(client)
    tokens = join_all(client, game)
    gid = game["id"]
    headers = {**auth(tokens[0]), "Idempotency-Key": "k-1"}
    first = client.post(
        f"/v1/games/{gid}/actions", json={"action": {"type": "bid", "card": 2}}, headers=headers
    )
    again = client.post(
        f"/v1/games/{gid}/actions", json={"action": {"type": "bid", "card": 2}}, headers=headers
    )
    assert first.status_code == again.status_code == 200
    assert first.get_json() == again.get_json()
    assert len(client.get(f"/v1/games/{gid}/log").get_json()["entries"]) == 2


def test_seat_token_cannot_join_twice_or_take_bot_seat(client):
    game = create_toy(client)
    join_all(client, game)
    response = client.post(f"/v1/games/{game['id']}/seats/0/join", json={})
    assert response.status_code == 409 and response.get_json()["code"] == "seat_taken"
    response = client.post(f"/v1/games/{game['id']}/seats/9/join", json={})
    assert response.status_code == 404 and response.get_json()["code"] == "seat_not_found"


def test_event_feed_says_first_what_the_caller_owes_now(client):
    game = create_toy(client)
    t0, _ = join_all(client, game)
    gid = game["id"]
    feed = client.get(f"/v1/games/{gid}/events?after=0&wait=5", headers=auth(t0)).get_json()
    assert [p["seat"] for p in feed["pending"]] == [0]
    assert feed["pending"][0]["prompt"]["kind"] == "bid"
    assert client.get(f"/v1/games/{gid}/events?after=0").get_json()["pending"] == []
    client.post(
        f"/v1/games/{gid}/actions", json={"action": {"type": "bid", "card": 1}}, headers=auth(t0)
    )
    after = client.get(f"/v1/games/{gid}/events?after=0", headers=auth(t0)).get_json()
    assert after["pending"] == []


def test_any_seat_view_opens_only_when_the_game_is_over(client):
    game = create_toy(client)
    tokens = join_all(client, game)
    gid = game["id"]
    early = client.get(f"/v1/games/{gid}/view?seat=1")
    assert early.status_code == 403 and early.get_json()["code"] == "game_not_over"
    play_toy_to_end(client, gid, tokens)
    seen = client.get(f"/v1/games/{gid}/view?seat=1").get_json()
    assert seen["seat"] == 1
    assert seen == client.get(f"/v1/games/{gid}/view", headers=auth(tokens[1])).get_json()
    assert client.get(f"/v1/games/{gid}/view?seat=5").get_json()["code"] == "seat_not_found"


@pytest.mark.parametrize(
    "cursor",
    ["x", "1-", "-1", "1-2-3", "056-4907685017679804206080791971", "18446744073709551616-0"],
)
def test_cursor_that_redis_would_refuse_is_a_validation_problem(client, cursor):
    game = create_toy(client)
    reply = client.get(f"/v1/games/{game['id']}/events", query_string={"after": cursor})
    assert reply.status_code == 422 and reply.get_json()["code"] == "validation_failed"
    stream = client.get(f"/v1/games/{game['id']}/events/stream", headers={"Last-Event-ID": cursor})
    assert stream.status_code == 400 and stream.get_json()["code"] == "bad_request"


@pytest.mark.parametrize("cursor", ["0\n", "1-1\n"])
def test_a_cursor_with_a_last_newline_is_a_validation_problem(client, cursor):
    # a query may carry one (after=0%0A); Python's '$' matches before it: the cursor was
    # taken as valid, and answered 500 ("0\n") or 503 (Redis refused "1-1\n")
    game = create_toy(client)
    reply = client.get(f"/v1/games/{game['id']}/events", query_string={"after": cursor})
    assert reply.status_code == 422 and reply.get_json()["code"] == "validation_failed"


def test_largest_valid_cursor_is_accepted(client):
    game = create_toy(client)
    cursor = f"{2**64 - 1}-{2**64 - 1}"
    assert (
        client.get(f"/v1/games/{game['id']}/events", query_string={"after": cursor}).status_code
        == 200
    )
