"""Fixtures of the client tests: a scripted HTTP peer and SDK clients pointed at it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

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
