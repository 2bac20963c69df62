"""The lean path (``service.lean``) answers exactly as Flask's path does.

Two apps on the same Redis: the service as deployed (lean path in front) and the same app
without it (``DICEHALL_LEAN=False``: every request through Flask, flask-smorest and the hooks).
Each case plays the same request on two identical games, one per app, and compares status,
headers (in order) and body byte for byte, the game ids aside. Valid requests must be served
by the lean path itself; the others are answered as Flask answers them.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis
from prometheus_client import REGISTRY

from service.games import GameService
from service.lean import LEGAL_ROUTE, ROUTES
from service.metrics import MOVE_ROUTE
from tests.service.test_api_basics import auth, create_toy, join_all

REQUEST_ID = {"X-Request-Id": "lean-check-1"}


@pytest.fixture()
def apps(redis_client, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """The deployed app (lean path) and the Flask-only app, rate limit on as by default."""
    from service.app import create_app
    from service.config import Settings

    monkeypatch.delenv("DICEHALL_RATE_LIMIT", raising=False)
    settings = Settings(redis_url=os.environ["REDIS_URL"])
    yield {
        "lean": create_app({"TESTING": True, "DICEHALL": settings}),
        "flask": create_app({"TESTING": True, "DICEHALL": settings, "DICEHALL_LEAN": False}),
    }


class Table:
    """A toy game (two human seats, a fixed seed) started on one app: its id and tokens."""

    def __init__(self, app: Any) -> None:
        self.client = app.test_client()
        game = create_toy(self.client, seed="lean-path")
        self.id = game["id"]
        self.tokens = join_all(self.client, game)


def answer(table: Table, method: str, path: str, **kwargs: Any) -> tuple[int, list, bytes]:
    """Status, headers in order, and the body with the game's id masked."""
    response = table.client.open(path.format(id=table.id), method=method, **kwargs)
    body = response.get_data().replace(table.id.encode(), b"GAME")
    return response.status_code, list(response.headers.items()), body


def refuse_fallback(app: Any) -> None:
    """From now on the lean path of ``app`` must serve every request itself."""

    def refusing(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        raise AssertionError(f"the lean path handed {environ['PATH_INFO']} to Flask")

    app.extensions["dicehall.lean"].fallback = refusing


def same_answer(
    apps: dict[str, Any], request: Callable[[Table], dict[str, Any]], lean_only: bool = False
) -> tuple:
    """Play ``request(table)`` (kwargs of ``client.open``) on both apps; assert the answers
    are identical; return the lean path's answer. ``lean_only``: the lean path must serve it
    without Flask."""
    answers = {}
    for name, app in apps.items():
        table = Table(app)
        kwargs = request(table)
        if lean_only and name == "lean":
            refuse_fallback(app)
        answers[name] = answer(table, **kwargs)
    assert answers["lean"] == answers["flask"]
    return answers["lean"]


def move(action: Any, **headers: str) -> Callable[[Table], dict[str, Any]]:
    def request(table: Table) -> dict[str, Any]:
        return {
            "method": "POST",
            "path": "/v1/games/{id}/actions",
            "json": {"action": action},
            "headers": {**auth(table.tokens[0]), **REQUEST_ID, **headers},
        }

    return request


VALID_MOVES = {
    "a move": move({"type": "bid", "card": 3}),
    "a move with If-Match": move({"type": "bid", "card": 3}, **{"If-Match": '"0"'}),
    "a move with a weak If-Match": move({"type": "bid", "card": 2}, **{"If-Match": 'W/"0"'}),
    "a move with an Idempotency-Key": move(
        {"type": "bid", "card": 1}, **{"Idempotency-Key": "k-1"}
    ),
    "a move preferring the minimal answer": move(
        {"type": "bid", "card": 3}, Prefer="return=minimal"
    ),
    "a minimal move with an Idempotency-Key": move(
        {"type": "bid", "card": 1}, **{"Idempotency-Key": "k-2", "Prefer": "RETURN = minimal"}
    ),
    "a move with a malformed Prefer": move({"type": "bid", "card": 3}, Prefer='return="min'),
}


@pytest.mark.parametrize("case", sorted(VALID_MOVES))
def test_a_valid_move_is_served_by_the_lean_path_as_flask_serves_it(apps, case: str) -> None:
    status, headers, body = same_answer(apps, VALID_MOVES[case], lean_only=True)
    assert status == 200, body
    assert ("ETag", '"1"') in headers and ("X-Request-Id", "lean-check-1") in headers


def test_legal_actions_are_served_by_the_lean_path_as_flask_serves_them(apps) -> None:
    status, _, body = same_answer(
        apps,
        lambda t: {
            "method": "GET",
            "path": "/v1/games/{id}/legal-actions",
            "headers": {**auth(t.tokens[1]), **REQUEST_ID},
        },
        lean_only=True,
    )
    assert status == 200 and json.loads(body)["actions"]


def again(action: Any) -> Callable[[Table], dict[str, Any]]:
    """Seat 0 bids, then bids ``action`` again (it owes nothing until the round resolves)."""

    def request(table: Table) -> dict[str, Any]:
        first = move({"type": "bid", "card": 3})(table)
        assert (
            table.client.open(**{**first, "path": first["path"].format(id=table.id)}).status_code
            == 200
        )
        return move(action)(table)

    return request


def raw(body: bytes, content_type: str = "application/json", **headers: str) -> Callable:
    def request(table: Table) -> dict[str, Any]:
        return {
            "method": "POST",
            "path": "/v1/games/{id}/actions",
            "data": body,
            "content_type": content_type,
            "headers": {**auth(table.tokens[0]), **REQUEST_ID, **headers},
        }

    return request


def get(path: str, token: Callable[[Table], dict[str, str]] | None = None) -> Callable:
    def request(table: Table) -> dict[str, Any]:
        headers = token(table) if token else {}
        return {"method": "GET", "path": path, "headers": {**headers, **REQUEST_ID}}

    return request


LONG = b"1" + b"0" * 60
INVALID = {
    "a second sealed bid": (again({"type": "bid", "card": 2}), 422, "illegal_action"),
    "a card out of range": (move({"type": "bid", "card": 99}), 422, "malformed_action"),
    "a malformed action": (move({"type": "bid", "card": "x"}), 422, "malformed_action"),
    "an action that is no object": (move(5), 422, "validation_failed"),
    "an unknown member": (raw(b'{"action": {"type": "bid", "card": 3}, "x": 1}'), 422, None),
    "no action": (raw(b"{}"), 422, "validation_failed"),
    "a JSON list": (raw(b"[1]"), 422, "validation_failed"),
    "invalid JSON": (raw(b'{"action": '), 400, "invalid_json"),
    "an empty body": (raw(b""), 422, "validation_failed"),
    "JSON nested too deep": (raw(b'{"action": ' + b"[" * 40 + b"]" * 40 + b"}"), 422, None),
    "a number too long": (
        raw(b'{"action": {"type": "bid", "card": 1' + b"0" * 60 + b"}}"),
        422,
        None,
    ),
    "a body over the limit": (raw(b'{"action": "' + b"x" * 70_000 + b'"}'), 413, None),
    "a text body": (
        raw(b'{"action": {"type": "bid", "card": 3}}', "text/plain"),
        415,
        "unsupported_media_type",
    ),
    "NaN": (raw(b'{"action": {"type": "bid", "card": NaN}}'), 422, "malformed_action"),
    "a bad If-Match": (move({"type": "bid", "card": 3}, **{"If-Match": "abc"}), 400, None),
    "a future If-Match": (move({"type": "bid", "card": 3}, **{"If-Match": "9"}), 412, None),
    "a bad Idempotency-Key": (
        move({"type": "bid", "card": 3}, **{"Idempotency-Key": "two words"}),
        422,
        "validation_failed",
    ),
    "no token": (
        lambda t: {
            "method": "POST",
            "path": "/v1/games/{id}/actions",
            "json": {"action": {"type": "bid", "card": 3}},
            "headers": REQUEST_ID,
        },
        401,
        "unauthorized",
    ),
    "a malformed Authorization": (
        move({"type": "bid", "card": 3}, Authorization="Token abc"),
        401,
        "unauthorized",
    ),
    "a wrong token": (move({"type": "bid", "card": 3}, Authorization="Bearer nope"), 401, None),
    "an unknown game": (
        lambda t: {
            **move({"type": "bid", "card": 3})(t),
            "path": "/v1/games/0000000000000000/actions",
        },
        404,
        "game_not_found",
    ),
    "a query string": (
        lambda t: {**move({"type": "bid", "card": 3})(t), "path": "/v1/games/{id}/actions?x=1"},
        200,
        None,
    ),
    "a trailing slash": (
        lambda t: {**move({"type": "bid", "card": 3})(t), "path": "/v1/games/{id}/actions/"},
        404,
        None,
    ),
    "legal actions without a token": (get("/v1/games/{id}/legal-actions"), 401, None),
    "legal actions with a wrong token": (
        get("/v1/games/{id}/legal-actions", lambda t: auth("nope")),
        401,
        None,
    ),
    "legal actions of an unknown game": (
        get("/v1/games/0000000000000000/legal-actions", lambda t: auth(t.tokens[0])),
        404,
        "game_not_found",
    ),
    "a move by GET": (get("/v1/games/{id}/actions", lambda t: auth(t.tokens[0])), 405, None),
}


@pytest.mark.parametrize("case", sorted(INVALID))
def test_every_other_request_is_answered_as_flask_answers_it(apps, case: str) -> None:
    request, status, code = INVALID[case]
    got, headers, body = same_answer(apps, request)
    assert got == status, body[:300]
    if code is not None:
        assert json.loads(body)["code"] == code
    if status >= 400:
        assert ("Content-Type", "application/problem+json") in headers


def test_a_retried_move_gets_its_first_answer_on_both_paths(apps) -> None:
    def twice(table: Table) -> dict[str, Any]:
        first = move({"type": "bid", "card": 3}, **{"Idempotency-Key": "again"})(table)
        table.client.open(**{**first, "path": first["path"].format(id=table.id)})
        return first

    status, _, body = same_answer(apps, twice)
    assert status == 200 and json.loads(body)["version"] == 1


def test_the_lean_routes_are_the_flask_rules_they_stand_for(apps) -> None:
    rules = {rule.rule: rule.methods for rule in apps["flask"].url_map.iter_rules()}
    assert set(ROUTES.values()) == {MOVE_ROUTE, LEGAL_ROUTE}
    for (method, _), route in ROUTES.items():
        assert method in rules[route]


def test_a_lean_move_is_counted_in_the_metrics(apps) -> None:
    labels = {"method": "POST", "route": MOVE_ROUTE, "status": "200"}

    def count() -> float:
        return REGISTRY.get_sample_value("dicehall_http_requests_total", labels) or 0.0

    table = Table(apps["lean"])
    before = count()
    status, _, _ = answer(table, **move({"type": "bid", "card": 3})(table))
    assert status == 200 and count() == before + 1


@pytest.mark.parametrize(
    "failure, status, code",
    [
        (RuntimeError("a bug"), 500, "internal_error"),
        (redis.ConnectionError("gone"), 503, "redis_unavailable"),
    ],
)
def test_a_failure_while_serving_is_answered_as_flask_answers_it(
    apps, monkeypatch: pytest.MonkeyPatch, failure: Exception, status: int, code: str
) -> None:
    def fail(*args: Any, **kwargs: Any) -> Any:
        raise failure

    for app in apps.values():
        app.config["PROPAGATE_EXCEPTIONS"] = False  # as served: not testing
    monkeypatch.setattr(GameService, "act", fail)
    got, _, body = same_answer(apps, move({"type": "bid", "card": 3}), lean_only=True)
    assert got == status and json.loads(body)["code"] == code
