"""The SDK's exceptions, built from the API's ``application/problem+json`` answers (RFC 9457).

Every failure the SDK raises is a :class:`DicehallError`: either a :class:`ProblemError` (the
server answered with an error status; ``status``, ``code``, ``detail`` and the whole ``body``)
or a :class:`TransportError` (the server could not be reached, after the safe retries).
:func:`problem_from_response` picks the subclass from the status.
"""

from __future__ import annotations

import contextlib
from email.utils import parsedate_to_datetime
from typing import Any

import requests


class DicehallError(Exception):
    """Base of every error the SDK raises."""


class TransportError(DicehallError):
    """The request never got an HTTP answer (refused connection, reset, timeout)."""

    def __init__(self, method: str, url: str, cause: Exception) -> None:
        super().__init__(f"{method} {url}: {cause}")
        self.method = method
        self.url = url
        self.cause = cause


class ProblemError(DicehallError):
    """The server answered with an error status and (usually) a problem+json body.

    ``code`` is the stable machine-readable code (``"illegal_action"``, ``"not_found"``...),
    ``detail`` the sentence for people, ``body`` the whole problem object (extension members
    such as ``rule`` or ``view`` included).
    """

    def __init__(self, status: int, code: str, detail: str, body: dict[str, Any]) -> None:
        super().__init__(f"{status} {code}: {detail}")
        self.status = status
        self.code = code
        self.detail = detail
        self.body = body

    @property
    def title(self) -> str:
        return str(self.body.get("title") or self.code)


class BadRequest(ProblemError):
    """400: the request was malformed or did not validate (``body["errors"]`` when given)."""


class Unauthorized(ProblemError):
    """401: a token is required, or the token given is unknown."""


class Forbidden(ProblemError):
    """403: the token is valid but may not do this (another seat's move, a creator task)."""


class NotFound(ProblemError):
    """404: no such game, seat or resource."""


class Conflict(ProblemError):
    """409: the request conflicts with the game's state (seat taken, game over...)."""


class StaleVersion(Conflict):
    """412: ``If-Match`` named an older version; ``current`` is the server's current answer."""

    @property
    def current(self) -> dict[str, Any] | None:
        """The current view the server sent back with the refusal, if any."""
        current = self.body.get("current") or self.body.get("view")
        return current if isinstance(current, dict) else None


class IllegalActionError(ProblemError):
    """422: the rules refuse the move (``illegal_action``: ``rule`` is the engine's own code),
    the action has the wrong shape (``malformed_action``: ``field`` names what to fix) or the
    body is bad."""

    @property
    def rule(self) -> str | None:
        rule = self.body.get("rule")
        return str(rule) if rule is not None else None

    @property
    def field(self) -> str | None:
        field = self.body.get("field")
        return str(field) if field is not None else None


class RateLimited(ProblemError):
    """429: too many requests; ``retry_after`` is the wait in seconds the server asked for."""

    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        body: dict[str, Any],
        retry_after: float | None = None,
    ) -> None:
        super().__init__(status, code, detail, body)
        self.retry_after = retry_after


class ServerError(ProblemError):
    """5xx: the server failed; safe requests were already retried. Also an answer that is
    not the API's JSON (code ``not_json``: a proxy's page, or not a dicehall server)."""


def not_json(response: requests.Response) -> ServerError:
    """The error for a success ``response`` whose body is not JSON."""
    detail = (
        f"the answer to {response.request.method} {response.url} is not JSON "
        f"({response.headers.get('Content-Type') or 'no Content-Type'}): is it a dicehall server?"
    )
    body = {"status": response.status_code, "code": "not_json", "detail": detail}
    return ServerError(
        response.status_code, "not_json", detail, {**body, "text": response.text[:500]}
    )


_BY_STATUS: dict[int, type[ProblemError]] = {
    400: BadRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    409: Conflict,
    412: StaleVersion,
    422: IllegalActionError,
}


def retry_after_seconds(response: requests.Response) -> float | None:
    """The ``Retry-After`` header in seconds (delta-seconds or an HTTP date), else None."""
    value = response.headers.get("Retry-After")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    with contextlib.suppress(TypeError, ValueError):
        when = parsedate_to_datetime(value)
        date = response.headers.get("Date")
        now = parsedate_to_datetime(date) if date else None
        if now is not None:
            return max(0.0, (when - now).total_seconds())
    return None


def problem_from_response(response: requests.Response) -> ProblemError:
    """The typed error for an error ``response`` (problem+json or not)."""
    status = response.status_code
    body: dict[str, Any] = {}
    try:
        parsed = response.json()
    except ValueError:
        parsed = None
    if isinstance(parsed, dict):
        body = parsed
    code = str(body.get("code") or f"http_{status}")
    detail = str(
        body.get("detail") or body.get("title") or response.reason or f"HTTP {status}"
    ).strip()
    if not body:
        body = {"status": status, "code": code, "detail": detail, "text": response.text[:500]}
    if status == 429:
        return RateLimited(status, code, detail, body, retry_after_seconds(response))
    if status >= 500:
        return ServerError(status, code, detail, body)
    return _BY_STATUS.get(status, ProblemError)(status, code, detail, body)
