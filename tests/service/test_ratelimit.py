"""Rate limits per verified token or client address: 429 with Retry-After and a problem
saying which limit."""

from __future__ import annotations

import time

import pytest

from service.problems import Problem
from service.ratelimit import Limit, check


def test_limit_parses_requests_per_window():
    assert Limit.parse("10/5") == Limit(10, 5)
    assert Limit.parse("7") == Limit(7, 60)


@pytest.mark.parametrize("text", ["12000/0", "100/-5", "-1/60", "abc", "10/x", "1.5/60", ""])
def test_a_limit_that_is_no_requests_per_seconds_is_refused_at_start(text, monkeypatch):
    """On main ``12000/0`` was taken: every API request then divided its time by a window of
    0 s and answered 500 (ZeroDivisionError); ``-1/60`` refused every request (429)."""
    with pytest.raises(ValueError, match="DICEHALL_RATE_LIMIT is requests/seconds"):
        Limit.parse(text, "DICEHALL_RATE_LIMIT")
    monkeypatch.setenv("DICEHALL_RATE_LIMIT", text)
    from service.app import create_app
    from service.config import Settings

    with pytest.raises(ValueError, match="DICEHALL_RATE_LIMIT"):
        create_app({"TESTING": True, "DICEHALL": Settings()})


def test_the_creation_limit_holds_with_the_request_limit_off(monkeypatch, redis_client):
    """``0`` turns a limit off, each on its own: on main DICEHALL_RATE_LIMIT=0 turned the
    creation limit off too, so games, accounts and tournaments could be made without end."""
    client = app_with(monkeypatch, DICEHALL_RATE_LIMIT="0", DICEHALL_CREATE_LIMIT="2/60")
    body = {"game": "toy", "seats": [{"kind": "human"}] * 2}
    codes = [client.post("/v1/games", json=body).status_code for _ in range(3)]
    assert codes == [201, 201, 429]
    assert all(client.get("/v1/catalogue").status_code == 200 for _ in range(5))


def test_token_over_its_limit_gets_429_with_retry_after(redis_client):
    limit = Limit(3, 60)
    now = time.time()
    for _ in range(3):
        check(redis_client, "dh", "t:abc", limit, now)
    with pytest.raises(Problem) as err:
        check(redis_client, "dh", "t:abc", limit, now)
    problem = err.value
    assert problem.status == 429 and problem.code == "rate_limited"
    assert int(problem.headers["Retry-After"]) >= 1
    assert problem.extra["limit"] == 3 and problem.extra["window_seconds"] == 60
    assert "per 60 s for this token" in problem.detail
    check(redis_client, "dh", "t:other", limit, now)


def test_the_limit_is_per_window(redis_client):
    limit = Limit(1, 10)
    check(redis_client, "dh", "t:w", limit, 1000.0)
    with pytest.raises(Problem):
        check(redis_client, "dh", "t:w", limit, 1005.0)
    check(redis_client, "dh", "t:w", limit, 1010.0)


def app_with(monkeypatch, **env: str):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    from service.app import create_app
    from service.config import Settings

    return create_app({"TESTING": True, "DICEHALL": Settings()}).test_client()


def test_http_answer_is_problem_json_with_retry_after(monkeypatch, redis_client):
    client = app_with(monkeypatch, DICEHALL_RATE_LIMIT="2/60")
    codes = [client.get("/v1/catalogue").status_code for _ in range(3)]
    assert codes == [200, 200, 429]
    reply = client.get("/v1/catalogue")
    assert reply.mimetype == "application/problem+json"
    assert reply.headers["Retry-After"].isdigit()
    assert reply.get_json()["code"] == "rate_limited"
    assert "for this address" in reply.get_json()["detail"]


def test_a_made_up_token_is_limited_as_anonymous(monkeypatch, redis_client):
    client = app_with(monkeypatch, DICEHALL_RATE_LIMIT="4/60", DICEHALL_CREATE_LIMIT="0")
    body = {"game": "toy", "seats": [{"kind": "human"}] * 2, "visibility": "public"}
    game = client.post("/v1/games", json=body)
    seat = client.post(f"/v1/games/{game.get_json()['id']}/seats/0/join", json={})
    token = seat.get_json()["seat_token"]
    made_up = [
        client.get("/v1/catalogue", headers={"Authorization": f"Bearer seat_fake{n}"})
        for n in range(3)
    ]
    assert [reply.status_code for reply in made_up] == [200, 200, 429], "one address, 4 a minute"
    assert "for this address" in made_up[-1].get_json()["detail"]
    verified = [
        client.get("/v1/catalogue", headers={"Authorization": f"Bearer {token}"}).status_code
        for _ in range(5)
    ]
    assert verified == [200, 200, 200, 200, 429], "a verified token has its own window"


def test_creations_have_their_own_lower_limit(monkeypatch, redis_client):
    client = app_with(monkeypatch, DICEHALL_RATE_LIMIT="100/60", DICEHALL_CREATE_LIMIT="3/60")
    body = {"game": "toy", "seats": [{"kind": "human"}] * 2}
    codes = [
        client.post("/v1/games", json=body, headers={"Authorization": f"Bearer x{n}"}).status_code
        for n in range(2)
    ]
    codes.append(client.post("/v1/bots", json={"name": "b", "owner": "o"}).status_code)
    refused = client.post("/v1/games", json=body)
    assert codes == [201, 201, 201] and refused.status_code == 429
    assert "creations" in refused.get_json()["detail"]
    assert client.get("/v1/catalogue").status_code == 200, "other requests go on"


def test_forwarded_addresses_count_only_behind_trusted_proxies(monkeypatch, redis_client):
    def codes(client) -> list[int]:
        return [
            client.get("/v1/catalogue", headers={"X-Forwarded-For": f"10.0.0.{n}"}).status_code
            for n in range(3)
        ]

    assert codes(app_with(monkeypatch, DICEHALL_RATE_LIMIT="2/60")) == [200, 200, 429]
    redis_client.flushdb()
    trusting = app_with(monkeypatch, DICEHALL_RATE_LIMIT="2/60", DICEHALL_TRUSTED_PROXIES="1")
    assert codes(trusting) == [200, 200, 200]
