"""gunicorn's own error answers as problem+json instead of HTML.

gunicorn answers a request that never reaches the app itself: a request line over
``limit_request_line`` (414), a header over ``limit_request_field_size`` (431), a header
with bytes HTTP forbids (400), a malformed request line. ``install`` (called from
``deploy/gunicorn.conf.py`` before the workers fork) replaces ``gunicorn.util.write_error``,
the one function that writes those answers. This module imports no Flask, so the gunicorn
master stays free of the app's imports (gevent patches the workers after the fork).
"""

from __future__ import annotations

import json
from typing import Any

PROBLEM_BASE = "https://dicehall.dev/problems/"
"""As in :mod:`service.problems` (a test checks they agree)."""

CODES = {
    400: ("bad_request", "Bad request"),
    403: ("forbidden", "Not allowed"),
    414: ("uri_too_long", "Request line too long"),
    417: ("expectation_failed", "Expectation failed"),
    431: ("headers_too_large", "Header fields too large"),
    501: ("not_implemented", "Not implemented"),
}


def problem_bytes(status: int, reason: str, message: str) -> bytes:
    """A whole HTTP/1.1 answer with a problem+json body; the connection closes after it."""
    code, title = CODES.get(status, ("internal_error" if status >= 500 else "bad_request", reason))
    body = json.dumps(
        {
            "type": PROBLEM_BASE + code,
            "title": title,
            "status": status,
            "code": code,
            "detail": message or reason,
        }
    ).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\n"
        f"Content-Type: application/problem+json\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    return head.encode("latin-1") + body


def write_problem(sock: Any, status_int: int, reason: str, mesg: str) -> None:
    """Drop-in for ``gunicorn.util.write_error``."""
    from gunicorn.util import write_nonblock

    write_nonblock(sock, problem_bytes(status_int, reason, mesg))


def install() -> None:
    """Make gunicorn's own error answers problem+json."""
    import gunicorn.util

    gunicorn.util.write_error = write_problem
