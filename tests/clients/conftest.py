"""Fixtures of the client tests: a scripted HTTP peer and SDK clients pointed at it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from clients.cli.console import console, err_console
from clients.sdk import Client, RetryPolicy
from tests.clients.peer import Peer


@pytest.fixture()
def peer() -> Iterator[Peer]:
    """A real HTTP server on a free local port, answering as each test scripts it."""
    server = Peer().start()
    yield server
    server.stop()


@pytest.fixture()
def sdk(peer: Peer) -> Client:
    """A client of the peer with quick retries (4 attempts, 10 ms backoff)."""
    return Client(peer.url, "seat_token_0", timeout=5, retry=RetryPolicy(attempts=4, backoff=0.01))


@pytest.fixture(autouse=True)
def wide_console() -> Iterator[None]:
    """The CLI's consoles 200 columns wide, so tables never truncate what tests look for
    (whatever COLUMNS the test runner had when rich was imported, e.g. 80 under xdist)."""
    saved = [(c, c._width) for c in (console, err_console)]
    for shared in (console, err_console):
        shared.width = 200
    yield
    for shared, width in saved:
        shared._width = width
