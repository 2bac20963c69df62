"""The SDK turns every problem+json answer into the matching typed exception."""

from __future__ import annotations

import pytest

from clients.sdk import (
    BadRequest,
    Client,
    Conflict,
    DicehallError,
    Forbidden,
    IllegalActionError,
    NotFound,
    ProblemError,
    RateLimited,
    RetryPolicy,
    ServerError,
    StaleVersion,
    TransportError,
    Unauthorized,
)
from tests.clients.peer import Answer, Peer, problem


@pytest.mark.parametrize(
    ("status", "code", "kind"),
    [
        (400, "invalid_json", BadRequest),
        (401, "unauthorized", Unauthorized),
        (403, "forbidden", Forbidden),
        (404, "game_not_found", NotFound),
        (409, "game_over", Conflict),
        (412, "version_mismatch", StaleVersion),
        (422, "illegal_action", IllegalActionError),
        (429, "rate_limited", RateLimited),
        (500, "internal_error", ServerError),
        (418, "teapot", ProblemError),
    ],
)
def test_problem_status_maps_to_its_exception(
    peer: Peer, sdk: Client, status: int, code: str, kind: type[ProblemError]
) -> None:
    peer.default = problem(status, code, f"a {code} happened", extra_member=7)
    with pytest.raises(kind) as caught:
        sdk.game("g1") if status < 429 else sdk.act("g1", {"type": "x"})
    error = caught.value
    assert type(error) is kind
    assert isinstance(error, DicehallError)
    assert (error.status, error.code, error.detail) == (status, code, f"a {code} happened")
    assert error.body["extra_member"] == 7


def test_stale_version_carries_the_current_view(peer: Peer, sdk: Client) -> None:
    current = {"version": 9, "view": {"scores": [1, 2]}}
    peer.answer(
        problem(412, "version_mismatch", "the game is at version 9, not 8", current=current)
    )
    with pytest.raises(StaleVersion) as caught:
        sdk.act("g1", {"type": "roll"}, if_match=8)
    assert isinstance(caught.value, Conflict)
    assert caught.value.current == current
    assert peer.received[0].headers["if-match"] == '"8"'


def test_illegal_action_names_the_engine_rule(peer: Peer, sdk: Client) -> None:
    peer.answer(problem(422, "illegal_action", "edges must match", rule="city_edges_must_match"))
    with pytest.raises(IllegalActionError) as caught:
        sdk.act("g1", {"type": "place"})
    assert caught.value.rule == "city_edges_must_match"
    assert "edges must match" in str(caught.value)


def test_malformed_action_names_the_field(peer: Peer, sdk: Client) -> None:
    detail = "stack: 5.0 is not of type 'integer'"
    peer.answer(problem(422, "malformed_action", detail, field="stack"))
    with pytest.raises(IllegalActionError) as caught:
        sdk.act("g1", {"type": "hire", "stack": 5.0})
    assert (caught.value.code, caught.value.field, caught.value.rule) == (
        "malformed_action",
        "stack",
        None,
    )


def test_rate_limited_reads_retry_after_seconds(peer: Peer) -> None:
    client = Client(peer.url)
    peer.answer(Answer(429, {"code": "rate_limited", "detail": "slow down"}, {"Retry-After": "7"}))
    with pytest.raises(RateLimited) as caught:
        client.create_game("toy", [])  # a POST without a key is never retried
    assert caught.value.retry_after == 7.0


def test_rate_limited_reads_retry_after_as_an_http_date(peer: Peer) -> None:
    client = Client(peer.url)
    peer.answer(
        Answer(
            429,
            {"code": "rate_limited"},
            {
                "Retry-After": "Sun, 22 Nov 2026 02:00:05 GMT",
                "Date": "Sun, 22 Nov 2026 02:00:00 GMT",
            },
        )
    )
    with pytest.raises(RateLimited) as caught:
        client.create_game("toy", [])
    assert caught.value.retry_after == 5.0


def test_an_error_without_a_problem_body_still_maps(peer: Peer) -> None:
    client = Client(peer.url)
    peer.answer(Answer(404, "<html>nope</html>", {"Content-Type": "text/html"}))
    with pytest.raises(NotFound) as caught:
        client.game("g1")
    assert caught.value.code == "http_404"
    assert "nope" in caught.value.body["text"]


def test_an_unreachable_server_is_a_transport_error() -> None:
    peer = Peer()
    url = peer.url
    peer.server.server_close()  # the port is free again: nothing listens there
    client = Client(url, retry=RetryPolicy(attempts=2, backoff=0))
    with pytest.raises(TransportError) as caught:
        client.health()
    assert caught.value.method == "GET"
    assert caught.value.url == f"{url}/v1/health"
