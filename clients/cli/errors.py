"""The one top-level error handler: SDK failures become a readable message and an exit code.

The exit codes are :class:`ExitStatus` (an ``IntEnum``, as httpie's ``ExitStatus``); they
are documented in ``clients/README.md`` and never change meaning.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from enum import IntEnum

import click

from clients.cli.console import err_console, shown
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


class ExitStatus(IntEnum):
    """How ``dicehall`` exits."""

    SUCCESS = 0
    ERROR = 1
    """Any other API error, or ``up`` failing to start or a child it could not keep up."""
    USAGE = 2
    """A bad command line (click's own code)."""
    UNREACHABLE = 3
    NOT_FOUND = 4
    AUTH = 5
    """A token missing or refused."""
    CONFLICT = 6
    """A conflict or a stale version."""
    INVALID = 7
    """An illegal action or an invalid request."""
    VERIFY_FAILED = 8
    """``verify`` found a mismatch."""
    SERVER_ERROR = 9
    RATE_LIMITED = 10
    NOT_OVER = 11
    """``verify`` on a game still in play: nothing to check yet (the seed is not revealed)."""


_EXIT_CODES: list[tuple[type[ProblemError], ExitStatus]] = [
    (NotFound, ExitStatus.NOT_FOUND),
    (Unauthorized, ExitStatus.AUTH),
    (Forbidden, ExitStatus.AUTH),
    (Conflict, ExitStatus.CONFLICT),
    (IllegalActionError, ExitStatus.INVALID),
    (BadRequest, ExitStatus.INVALID),
    (RateLimited, ExitStatus.RATE_LIMITED),
    (ServerError, ExitStatus.SERVER_ERROR),
]


def exit_code_for(error: ProblemError) -> ExitStatus:
    """The exit code of an API error."""
    for kind, code in _EXIT_CODES:
        if isinstance(error, kind):
            return code
    return ExitStatus.ERROR


def problem_message(error: ProblemError) -> str:
    """A readable, one-paragraph account of a problem answer."""
    text = (
        f"[bold red]{shown(error.title)}[/] ({error.status} {shown(error.code)}): "
        f"{shown(error.detail)}"
    )
    rule = error.body.get("rule")
    if rule:
        text += f" [dim](rule: {shown(rule)})[/]"
    errors = error.body.get("errors")
    if isinstance(errors, dict):
        for field, messages in errors.items():
            text += f"\n  {shown(field)}: {shown(messages)}"
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
        raise click.exceptions.Exit(ExitStatus.UNREACHABLE) from error
    except ProblemError as error:
        err_console.print(problem_message(error))
        raise click.exceptions.Exit(exit_code_for(error)) from error
