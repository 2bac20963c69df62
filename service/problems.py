"""RFC 9457 problem details: the one shape every error response of the API has.

Raise :class:`Problem` anywhere in a request; the app's handler turns it (and every
werkzeug ``HTTPException``, including request validation failures) into
``application/problem+json`` with a stable ``code`` and a readable ``detail``.
"""

from __future__ import annotations

from typing import Any

from flask import Response, json

PROBLEM_BASE = "https://dicehall.dev/problems/"
CONTENT_TYPE = "application/problem+json"

TITLES: dict[str, str] = {
    "bad_request": "Bad request",
    "invalid_json": "Body is not valid JSON",
    "validation_failed": "Request did not validate",
    "invalid_options": "Invalid game options",
    "unauthorized": "Missing or wrong token",
    "forbidden": "Not allowed for this token",
    "not_found": "Not found",
    "unknown_game": "Unknown game",
    "rules_not_found": "No rules page",
    "game_not_found": "Game not found",
    "seat_not_found": "Seat not found",
    "seat_taken": "Seat already taken",
    "seat_not_human": "Seat is played by a bot",
    "game_not_started": "Game has not started",
    "game_over": "Game is over",
    "game_not_over": "Game is not over",
    "illegal_action": "Illegal action",
    "malformed_action": "Malformed action",
    "version_mismatch": "Your decision changed",
    "idempotency_key_reused": "Idempotency key reused with another action",
    "contention": "Too many simultaneous writes",
    "invalid_if_match": "Malformed If-Match",
    "method_not_allowed": "Method not allowed",
    "not_acceptable": "Not acceptable",
    "unsupported_media_type": "Unsupported media type",
    "conflict": "Conflict",
    "rate_limited": "Too many requests",
    "internal_error": "Internal error",
    "redis_unavailable": "Redis is unreachable",
    "unknown_bot": "Unknown bot",
    "no_picture": "No picture for this game",
    "unknown_account": "Unknown bot account",
    "tournament_not_found": "Tournament not found",
    "invalid_participant": "Invalid participant",
    "invalid_seats": "Invalid seats per game",
}

_STATUS_CODES: dict[int, str] = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    409: "conflict",
    412: "version_mismatch",
    415: "unsupported_media_type",
    422: "validation_failed",
    429: "rate_limited",
}


class Problem(Exception):
    """An error the API reports as problem+json. ``extra`` adds members to the body."""

    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        headers: dict[str, str] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.headers = headers or {}
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {
            "type": PROBLEM_BASE + self.code,
            "title": TITLES.get(self.code, self.code.replace("_", " ").capitalize()),
            "status": self.status,
            "code": self.code,
            "detail": self.detail,
            **self.extra,
        }


def code_for_status(status: int) -> str:
    """The default stable code of an HTTP status."""
    return _STATUS_CODES.get(status, "internal_error" if status >= 500 else "bad_request")


def problem_response(problem: Problem) -> Response:
    """The Flask response of a problem."""
    response = Response(json.dumps(problem.body()), status=problem.status, mimetype=CONTENT_TYPE)
    for name, value in problem.headers.items():
        response.headers[name] = value
    return response
