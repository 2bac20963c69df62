"""The SDK's retries against a real dicehall (gunicorn) under a tight rate limit: a move
answered 429 is sent again after the server's Retry-After, with the same Idempotency-Key."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
import requests

from clients.sdk import Client, RetryPolicy
from tests.conftest import gunicorn_server

WINDOW = 5
LIMIT = f"5/{WINDOW}"
"""Five requests per token (or address) per 5 s window (the test's setup fits in one)."""


@pytest.fixture(scope="module")
def limited_server(redis_url: str) -> Iterator[str]:
    with gunicorn_server(redis_url, workers=1, DICEHALL_RATE_LIMIT=LIMIT) as base:
        yield base


def spend_window(base: str, game_id: str, token: str) -> float:
    """Spend the token's window until a 429 leaves at least 2 s of it (Retry-After 3 or
    more: a move sent next is refused too, even on a busy machine). Returns the end of that
    window (the server counts windows of the clock since the epoch) or later."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        sent = time.time()
        reply = requests.get(
            f"{base}/v1/games/{game_id}/view",
            headers={"Authorization": f"Bearer {token}"},
            timeout=10,
        )
        if reply.status_code == 429 and int(reply.headers["Retry-After"]) >= 3:
            return (sent // WINDOW + 1) * WINDOW
    raise AssertionError("the token was not rate limited with 2 s of its window left in 30 s")


def test_a_rate_limited_move_is_retried_after_retry_after_with_its_key(
    limited_server: str, redis_client
) -> None:
    base = limited_server
    created = requests.post(
        f"{base}/v1/games",
        json={"game": "toy", "seats": [{"kind": "human"}] * 2, "visibility": "public"},
        timeout=10,
    )
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    tokens = [
        requests.post(f"{base}/v1/games/{game_id}/seats/{n}/join", json={}, timeout=10).json()[
            "seat_token"
        ]
        for n in range(2)
    ]
    seat = int(next(iter(requests.get(f"{base}/v1/games/{game_id}", timeout=10).json()["to_act"])))
    sdk = Client(base, tokens[seat], retry=RetryPolicy(attempts=3, max_retry_after=10))
    legal = sdk.legal_actions(game_id)
    action = legal["actions"][0]["action"]

    window_end = spend_window(base, game_id, tokens[seat])
    started = time.monotonic()
    answer = sdk.act(game_id, action, idempotency_key="limited-move-1")
    assert time.monotonic() - started >= 1.0, "the retry waited the server's Retry-After"
    assert time.time() >= window_end, "the move went through only after the refusing window"
    assert answer["version"] > legal["version"]

    replay = requests.post(
        f"{base}/v1/games/{game_id}/actions",
        json={"action": action},
        headers={"Authorization": f"Bearer {tokens[seat]}", "Idempotency-Key": "limited-move-1"},
        timeout=10,
    )
    assert replay.status_code == 200, replay.text
    assert replay.json()["version"] == answer["version"], "the move was stored under its key"
