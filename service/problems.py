"""RFC 9457 problem details: the one shape every error response of the API has.

Raise :class:`Problem` in the API's own code; the game service and the stores raise their
own exceptions (:mod:`service.errors`), which :data:`PROBLEM_OF` maps to a status and a
stable code here, at the edge. The app's handlers turn both (and every werkzeug
``HTTPException``, including request validation failures) into ``application/problem+json``
with a stable ``code`` and a readable ``detail``.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Response, json

from service import errors

log = logging.getLogger(__name__)

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
    "edition_not_found": "No such edition",
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
    "not_replicated": "Made, not yet on enough replicas",
    "invalid_if_match": "Malformed If-Match",
    "method_not_allowed": "Method not allowed",
    "not_acceptable": "Not acceptable",
    "unsupported_media_type": "Unsupported media type",
    "conflict": "Conflict",
    "rate_limited": "Too many requests",
    "internal_error": "Internal error",
    "redis_unavailable": "Redis is unreachable",
    "redis_not_writable": "Redis does not take writes",
    "shutting_down": "This server is shutting down",
    "unknown_bot": "Unknown bot",
    "invalid_bot_options": "Invalid bot options",
    "no_picture": "No picture for this game",
    "unknown_account": "Unknown bot account",
    "tournament_not_found": "Tournament not found",
    "invalid_participant": "Invalid participant",
    "invalid_seats": "Invalid seats per game",
    "private_game": "Private game",
    "not_creator": "Not the game's creator",
    "game_started": "Game has started",
    "body_too_large": "Body too large",
    "body_timeout": "Body did not arrive",
    "malformed_body": "Body could not be read",
    "json_too_deep": "JSON nested too deep",
    "json_number_too_long": "JSON number too long",
    "uri_too_long": "Request line too long",
    "headers_too_large": "Header fields too large",
    "not_implemented": "Not implemented",
    "invalid_fork": "Cannot fork there",
    "version_not_found": "No such version",
}

_STATUS_CODES: dict[int, str] = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    408: "body_timeout",
    409: "conflict",
    412: "version_mismatch",
    413: "body_too_large",
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


PROBLEM_OF: dict[type[errors.ServiceError], tuple[int, str]] = {
    errors.UnknownGameName: (404, "unknown_game"),
    errors.GameNotFound: (404, "game_not_found"),
    errors.SeatNotFound: (404, "seat_not_found"),
    errors.VersionNotFound: (404, "version_not_found"),
    errors.TournamentNotFound: (404, "tournament_not_found"),
    errors.Unauthorized: (401, "unauthorized"),
    errors.PrivateGame: (403, "private_game"),
    errors.NotCreator: (403, "not_creator"),
    errors.SeatNotHuman: (409, "seat_not_human"),
    errors.SeatTaken: (409, "seat_taken"),
    errors.GameNotStarted: (409, "game_not_started"),
    errors.GameOver: (409, "game_over"),
    errors.GameNotOver: (409, "game_not_over"),
    errors.GameStarted: (409, "game_started"),
    errors.Conflict: (409, "conflict"),
    errors.VersionConflict: (412, "version_mismatch"),
    errors.MalformedMove: (422, "malformed_action"),
    errors.IllegalMove: (422, "illegal_action"),
    errors.KeyReused: (422, "idempotency_key_reused"),
    errors.InvalidGameOptions: (422, "invalid_options"),
    errors.UnknownBot: (422, "unknown_bot"),
    errors.InvalidBotOptions: (422, "invalid_bot_options"),
    errors.UnknownAccount: (422, "unknown_account"),
    errors.InvalidFork: (422, "invalid_fork"),
    errors.InvalidParticipant: (422, "invalid_participant"),
    errors.InvalidSeats: (422, "invalid_seats"),
    errors.Contention: (503, "contention"),
    errors.NotReplicated: (503, "not_replicated"),
}
"""The status and stable code of every refusal of the service (the one place they are
decided)."""

SERVER_FAILED = "the server failed; the game was not changed"
"""The detail of every 500 answer."""

RETRY_SOON = (errors.Contention, errors.NotReplicated)
"""Refusals answered with ``Retry-After: 1`` (a retry soon may succeed: after contention
nothing changed; a write not yet replicated answers once it is)."""


def problem_of(error: errors.ServiceError) -> Problem:
    """The problem that answers ``error``."""
    status, code = next(PROBLEM_OF[kind] for kind in type(error).__mro__ if kind in PROBLEM_OF)
    headers = {"Retry-After": "1"} if isinstance(error, RETRY_SOON) else None
    return Problem(status, code, error.detail, headers=headers, **error.extra)


def code_for_status(status: int) -> str:
    """The default stable code of an HTTP status."""
    return _STATUS_CODES.get(status, "internal_error" if status >= 500 else "bad_request")


def problem_response(problem: Problem | errors.ServiceError) -> Response:
    """The Flask response of a problem (or of a refusal of the service)."""
    if isinstance(problem, errors.ServiceError):
        problem = problem_of(problem)
    response = Response(json.dumps(problem.body()), status=problem.status, mimetype=CONTENT_TYPE)
    for name, value in problem.headers.items():
        response.headers[name] = value
    return response


def redis_failed(error: Exception) -> Response:
    """The answer when Redis fails (503, retry in a second)."""
    log.error("redis failed: %r", error)
    return problem_response(
        Problem(
            503,
            "redis_unavailable",
            "the game store is unavailable; nothing was changed, retry shortly",
            headers={"Retry-After": "1"},
        )
    )


def server_failed(error: BaseException) -> Response:
    """The answer of an unexpected error (500), logged with its traceback."""
    log.exception("internal error", exc_info=error)
    return problem_response(Problem(500, code_for_status(500), SERVER_FAILED))
