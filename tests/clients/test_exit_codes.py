"""The CLI's exit codes are one IntEnum, and clients/README.md documents each of them."""

from __future__ import annotations

import re

import pytest

from clients.cli.errors import ExitStatus, exit_code_for
from clients.sdk import (
    BadRequest,
    Conflict,
    Forbidden,
    IllegalActionError,
    NotFound,
    ProblemError,
    RateLimited,
    ServerError,
    StaleVersion,
    Unauthorized,
)
from tests.conftest import ROOT

DOCUMENTED = {
    ExitStatus.SUCCESS: "ok",
    ExitStatus.ERROR: "other API error",
    ExitStatus.USAGE: "usage",
    ExitStatus.UNREACHABLE: "server unreachable",
    ExitStatus.NOT_FOUND: "not found",
    ExitStatus.AUTH: "token missing or refused",
    ExitStatus.CONFLICT: "conflict or stale version",
    ExitStatus.INVALID: "illegal action or invalid request",
    ExitStatus.VERIFY_FAILED: "`verify` mismatch",
    ExitStatus.SERVER_ERROR: "server error",
    ExitStatus.RATE_LIMITED: "rate limited",
    ExitStatus.NOT_OVER: "`verify` on a game not over yet",
}


def documented_paragraph() -> str:
    text = (ROOT / "clients" / "README.md").read_text(encoding="utf-8")
    start = text.index("Exit codes")
    return " ".join(text[start : text.index("\n\n", start)].split())


def test_every_exit_status_is_documented_with_its_number() -> None:
    paragraph = documented_paragraph()
    assert set(DOCUMENTED) == set(ExitStatus)
    for status, meaning in DOCUMENTED.items():
        assert f"{int(status)} {meaning}" in paragraph, status
    numbers = {int(n) for n in re.findall(r"(?:: |, )(\d+) ", paragraph)}
    assert numbers == {int(status) for status in ExitStatus}


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (NotFound, ExitStatus.NOT_FOUND),
        (Unauthorized, ExitStatus.AUTH),
        (Forbidden, ExitStatus.AUTH),
        (Conflict, ExitStatus.CONFLICT),
        (StaleVersion, ExitStatus.CONFLICT),
        (IllegalActionError, ExitStatus.INVALID),
        (BadRequest, ExitStatus.INVALID),
        (RateLimited, ExitStatus.RATE_LIMITED),
        (ServerError, ExitStatus.SERVER_ERROR),
        (ProblemError, ExitStatus.ERROR),
    ],
)
def test_each_api_error_has_its_exit_status(error: type[ProblemError], status: ExitStatus) -> None:
    assert exit_code_for(error(499, "some_code", "some detail", {})) is status
