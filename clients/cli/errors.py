"""The one top-level error handler: SDK failures become a readable message and an exit code.

Exit codes: 0 ok, 1 any other API error, 2 usage (click's own), 3 server unreachable,
4 not found, 5 missing or refused token, 6 conflict or stale version, 7 illegal action or
invalid request, 8 a ``verify`` that found a mismatch, 9 server error, 10 rate limited.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import click

from clients.cli.console import err_console
from clients.sdk import (
    BadRequest,
    Conflict,
    Forbidden,
    IllegalActionError,
    NotFound,
    ProblemError,
    RateLimited,
    ServerError,
    TransportError,
    Unauthorized,
)

EXIT_API = 1
EXIT_UNREACHABLE = 3
EXIT_NOT_FOUND = 4
EXIT_AUTH = 5
EXIT_CONFLICT = 6
EXIT_INVALID = 7
EXIT_VERIFY_FAILED = 8
EXIT_SERVER = 9
EXIT_RATE_LIMITED = 10
EXIT_NOT_OVER = 11
"""``verify`` on a game still in play: nothing to check yet (the seed is not revealed)."""

_EXIT_CODES: list[tuple[type[ProblemError], int]] = [
    (NotFound, EXIT_NOT_FOUND),
    (Unauthorized, EXIT_AUTH),
    (Forbidden, EXIT_AUTH),
    (Conflict, EXIT_CONFLICT),
    (IllegalActionError, EXIT_INVALID),
    (BadRequest, EXIT_INVALID),
    (RateLimited, EXIT_RATE_LIMITED),
    (ServerError, EXIT_SERVER),
]


def exit_code_for(error: ProblemError) -> int:
    """The exit code of an API error."""
    for kind, code in _EXIT_CODES:
        if isinstance(error, kind):
            return code
    return EXIT_API


def problem_message(error: ProblemError) -> str:
    """A readable, one-paragraph account of a problem answer."""
    text = f"[bold red]{error.title}[/] ({error.status} {error.code}): {error.detail}"
    rule = error.body.get("rule")
    if rule:
        text += f" [dim](rule: {rule})[/]"
    errors = error.body.get("errors")
    if isinstance(errors, dict):
        for field, messages in errors.items():
            text += f"\n  {field}: {messages}"
    return text


@contextmanager
def handled_errors() -> Iterator[None]:
    """Turn SDK errors raised inside the block into a message on stderr and a clean exit."""
    try:
        yield
    except TransportError as error:
        err_console.print(
            f"[bold red]Cannot reach the server[/] at {error.url}: {error.cause}\n"
            "Is it running? Start one with [bold]dicehall up[/] or pass --server.",
            markup=True,
        )
        raise click.exceptions.Exit(EXIT_UNREACHABLE) from error
    except ProblemError as error:
        err_console.print(problem_message(error))
        raise click.exceptions.Exit(exit_code_for(error)) from error
