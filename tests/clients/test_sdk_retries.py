"""Retries are safe: only GETs and keyed POSTs are repeated, and a move keeps its key."""

from __future__ import annotations

import time
import uuid

import pytest

from clients.sdk import Client, RateLimited, RetryPolicy, ServerError, TransportError
from tests.clients.peer import DROP, Answer, Peer, problem

OK_MOVE = Answer(200, {"version": 4, "events": [], "view": {}, "to_act": {}, "result": None})


def test_get_is_retried_after_a_server_error(peer: Peer, sdk: Client) -> None:
    peer.answer(problem(503, "unavailable", "busy"), Answer(200, {"id": "g1", "version": 3}))
    assert sdk.game("g1") == {"id": "g1", "version": 3}
    assert [r.method for r in peer.received] == ["GET", "GET"]


def test_get_is_retried_after_a_dropped_connection(peer: Peer, sdk: Client) -> None:
    peer.answer(DROP, DROP, Answer(200, {"status": "ok", "redis": "ok"}))
    assert sdk.health()["status"] == "ok"
    assert len(peer.received) == 3


def test_get_gives_up_after_the_policy_attempts(peer: Peer, sdk: Client) -> None:
    peer.default = problem(502, "bad_gateway", "upstream down")
    with pytest.raises(ServerError):
        sdk.view("g1")
    assert len(peer.received) == sdk.retry.attempts


def test_client_errors_are_never_retried(peer: Peer, sdk: Client) -> None:
    peer.default = problem(404, "game_not_found", "no such game")
    with pytest.raises(Exception, match="no such game"):
        sdk.view("g1")
    assert len(peer.received) == 1


def test_post_without_idempotency_key_is_not_retried_on_5xx(peer: Peer, sdk: Client) -> None:
    peer.answer(problem(503, "unavailable", "busy"), Answer(201, {"id": "g2"}))
    with pytest.raises(ServerError):
        sdk.create_game("toy", [{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    assert len(peer.received) == 1  # a second POST could have created a second game


def test_post_without_idempotency_key_is_not_retried_on_a_drop(peer: Peer, sdk: Client) -> None:
    peer.answer(DROP, Answer(201, {"seat": 0, "seat_token": "t"}))
    with pytest.raises(TransportError):
        sdk.join("g1", 0, "ann")
    assert len(peer.received) == 1


def test_act_sends_a_fresh_uuid4_idempotency_key(peer: Peer, sdk: Client) -> None:
    peer.answer(OK_MOVE, OK_MOVE)
    sdk.act("g1", {"type": "roll"})
    sdk.act("g1", {"type": "roll"})
    first, second = (r.headers["idempotency-key"] for r in peer.received)
    assert uuid.UUID(first).version == 4
    assert uuid.UUID(second).version == 4
    assert first != second
    assert peer.received[0].body == {"action": {"type": "roll"}}
    assert peer.received[0].headers["authorization"] == "Bearer seat_token_0"


def test_act_retries_with_the_same_key_after_a_drop_and_a_5xx(peer: Peer, sdk: Client) -> None:
    peer.answer(DROP, problem(500, "internal_error", "oops"), OK_MOVE)
    assert sdk.act("g1", {"type": "stop"}, if_match=3)["version"] == 4
    assert len(peer.received) == 3
    keys = {r.headers["idempotency-key"] for r in peer.received}
    assert len(keys) == 1
    assert all(r.headers["if-match"] == '"3"' for r in peer.received)


def test_a_caller_chosen_idempotency_key_is_sent_as_is(peer: Peer, sdk: Client) -> None:
    peer.answer(OK_MOVE)
    sdk.act("g1", {"type": "stop"}, idempotency_key="my-key-1")
    assert peer.received[0].headers["idempotency-key"] == "my-key-1"


def test_rate_limited_waits_retry_after_then_retries(peer: Peer, sdk: Client) -> None:
    peer.answer(
        Answer(429, {"code": "rate_limited", "detail": "slow"}, {"Retry-After": "1"}),
        Answer(200, {"version": 1, "seat": 0, "actions": []}),
    )
    started = time.monotonic()
    assert sdk.legal_actions("g1")["actions"] == []
    assert time.monotonic() - started >= 1.0
    assert len(peer.received) == 2


def test_rate_limited_gives_up_with_the_typed_error(peer: Peer) -> None:
    client = Client(peer.url, retry=RetryPolicy(attempts=2, max_retry_after=0.05))
    peer.default = Answer(429, {"code": "rate_limited", "detail": "slow"}, {"Retry-After": "60"})
    with pytest.raises(RateLimited) as caught:
        client.catalogue()
    assert caught.value.retry_after == 60.0
    assert len(peer.received) == 2


def test_long_poll_timeout_covers_the_wait(peer: Peer) -> None:
    client = Client(peer.url, timeout=0.5, retry=RetryPolicy(attempts=1))
    peer.answer(Answer(200, {"events": [], "cursor": "5-0"}, delay=1.0))
    assert client.events("g1", after="4-0", wait=2) == {"events": [], "cursor": "5-0"}
    assert peer.received[0].query == {"after": ["4-0"], "wait": ["2"]}


def test_spectator_sends_no_authorization(peer: Peer, sdk: Client) -> None:
    peer.answer(Answer(200, {"version": 0, "seat": None, "view": {}}))
    sdk.with_token(None).view("g1")
    assert "authorization" not in peer.received[0].headers
    assert peer.received[0].path == "/v1/games/g1/view"


def test_get_is_retried_when_the_body_is_cut_short(peer: Peer, sdk: Client) -> None:
    cut = Answer(200, headers={"Transfer-Encoding": "chunked"}, chunks=['9\r\n{"id": "g\r\n'])
    peer.answer(cut, Answer(200, {"id": "g1"}))
    assert sdk.game("g1") == {"id": "g1"}
    assert len(peer.received) == 2


def test_stream_events_reconnects_after_a_cut_stream(peer: Peer, sdk: Client) -> None:
    first = 'id: 1-0\nevent: to_act\ndata: {"type": "to_act"}\n\n'
    cut = Answer(
        200,
        headers={"Content-Type": "text/event-stream", "Transfer-Encoding": "chunked"},
        chunks=[f"{len(first):x}\r\n{first}\r\n", "40\r\nid: 2-0\n"],
    )
    last = Answer(
        200,
        headers={"Content-Type": "text/event-stream"},
        chunks=['id: 2-0\nevent: game_over\ndata: {"type": "game_over"}\n\n'],
    )
    peer.answer(cut, last)
    assert [e.id for e in sdk.stream_events("g1")] == ["1-0", "2-0"]
    assert peer.received[1].headers["last-event-id"] == "1-0"


def test_act_after_contention_waits_retry_after_and_keeps_its_key(peer: Peer, sdk: Client) -> None:
    contention = problem(503, "contention", "too many simultaneous writes; retry shortly")
    contention.headers["Retry-After"] = "1"
    peer.answer(contention, OK_MOVE)
    started = time.monotonic()
    assert sdk.act("g1", {"type": "stop"}, if_match=3)["version"] == 4
    assert time.monotonic() - started >= 1.0, "the retry waited the server's Retry-After"
    first, second = peer.received
    assert first.method == second.method == "POST"
    assert uuid.UUID(first.headers["idempotency-key"]).version == 4
    assert second.headers["idempotency-key"] == first.headers["idempotency-key"]
    assert second.headers["if-match"] == first.headers["if-match"] == '"3"'
    assert second.body == first.body == {"action": {"type": "stop"}}


def test_post_without_idempotency_key_is_not_retried_after_a_rate_limit(
    peer: Peer, sdk: Client
) -> None:
    peer.answer(
        Answer(429, {"code": "rate_limited", "detail": "slow"}, {"Retry-After": "1"}),
        Answer(201, {"id": "g2"}),
    )
    with pytest.raises(RateLimited) as caught:
        sdk.create_game("toy", [{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    assert caught.value.retry_after == 1.0
    assert len(peer.received) == 1
