"""Rate limits per token: 429 with Retry-After and a problem saying which limit."""

from __future__ import annotations

import time

import pytest

from service.problems import Problem
from service.ratelimit import Limit, check


def test_limit_parses_requests_per_window():
    assert Limit.parse("10/5") == Limit(10, 5)
    assert Limit.parse("7") == Limit(7, 60)


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


def test_http_answer_is_problem_json_with_retry_after(monkeypatch, redis_client):
    monkeypatch.setenv("DICEHALL_RATE_LIMIT", "2/60")
    from service.app import create_app
    from service.config import Settings

    app = create_app({"TESTING": True, "DICEHALL": Settings()})
    client = app.test_client()
    headers = {"Authorization": "Bearer seat_whatever"}
    codes = [client.get("/v1/catalogue", headers=headers).status_code for _ in range(3)]
    assert codes == [200, 200, 429]
    reply = client.get("/v1/catalogue", headers=headers)
    assert reply.mimetype == "application/problem+json"
    assert reply.headers["Retry-After"].isdigit()
    assert reply.get_json()["code"] == "rate_limited"
    assert (
        client.get("/v1/catalogue", headers={"Authorization": "Bearer seat_else"}).status_code
        == 200
    )
