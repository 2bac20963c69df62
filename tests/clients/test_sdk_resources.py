"""Each SDK method speaks the path, method and body docs/API.md gives its resource."""

from __future__ import annotations

import pytest

from clients.sdk import Client, ProblemError, ServerEvent
from clients.sdk.client import EDITIONS
from clients.sdk.sse import parse_events
from tests.clients.peer import Answer, Peer, problem


def test_create_game_posts_seats_options_and_seed(peer: Peer, sdk: Client) -> None:
    peer.answer(Answer(201, {"id": "g1", "creator_token": "c"}))
    seats = [{"kind": "human", "name": "ann"}, {"kind": "bot", "bot": "random"}]
    assert sdk.create_game("toy", seats, {"rounds": 2}, seed="s")["id"] == "g1"
    sent = peer.received[0]
    assert (sent.method, sent.path) == ("POST", "/v1/games")
    assert sent.body == {"game": "toy", "seats": seats, "options": {"rounds": 2}, "seed": "s"}


def test_join_catalogue_log_and_picture_paths(peer: Peer, sdk: Client) -> None:
    peer.answer(
        Answer(201, {"seat": 1, "seat_token": "t"}),
        Answer(200, [{"name": "toy"}]),
        Answer(200, {"name": "toy"}),
        Answer(200, {"entries": []}),
        Answer(200, "<svg/>", {"Content-Type": "image/svg+xml"}),
    )
    assert sdk.join("g1", 1, "bo")["seat_token"] == "t"
    assert sdk.catalogue() == [{"name": "toy"}]
    assert sdk.game_info("toy") == {"name": "toy"}
    assert sdk.log("g1") == {"entries": []}
    assert sdk.picture_svg("g1", player=1) == "<svg/>"
    assert [(r.method, r.path) for r in peer.received] == [
        ("POST", "/v1/games/g1/seats/1/join"),
        ("GET", "/v1/catalogue"),
        ("GET", "/v1/catalogue/toy"),
        ("GET", "/v1/games/g1/log"),
        ("GET", "/v1/games/g1/picture.svg"),
    ]
    assert peer.received[0].body == {"name": "bo"}
    assert peer.received[-1].query == {"player": ["1"]}


def test_an_edition_is_read_once_per_process(peer: Peer, sdk: Client) -> None:
    peer.answer(Answer(200, {"game": "sdk-game", "edition": 1}), Answer(200, {"edition": 2}))
    EDITIONS.pop(("sdk-game", 1), None)
    EDITIONS.pop(("sdk-game", 2), None)
    first = sdk.edition("sdk-game", 1)
    assert first == {"game": "sdk-game", "edition": 1}
    assert sdk.with_token("t").edition("sdk-game", 1) is first, "any client of the process"
    assert sdk.edition("sdk-game", 2) == {"edition": 2}
    assert [(r.method, r.path) for r in peer.received] == [
        ("GET", "/v1/catalogue/sdk-game/editions/1"),
        ("GET", "/v1/catalogue/sdk-game/editions/2"),
    ]


def _sse(*events: tuple[str, str, str]) -> list[str]:
    chunks = ["retry: 2000\n\n", ": heartbeat\n\n"]
    chunks += [f"id: {i}\nevent: {kind}\ndata: {data}\n\n" for i, kind, data in events]
    return chunks


def test_stream_events_resumes_from_the_last_event_id(peer: Peer, sdk: Client) -> None:
    stream = {"Content-Type": "text/event-stream"}
    peer.answer(
        Answer(
            200,
            headers=stream,
            chunks=_sse(
                ("1-0", "action", '{"type": "action", "seat": 0}'),
                ("2-0", "to_act", '{"type": "to_act"}'),
            ),
        ),
        Answer(200, headers=stream, chunks=_sse(("3-0", "game_over", '{"type": "game_over"}'))),
    )
    seen = list(sdk.stream_events("g1"))
    assert [(e.id, e.event) for e in seen] == [
        ("1-0", "action"),
        ("2-0", "to_act"),
        ("3-0", "game_over"),
    ]
    assert seen[0].data == {"type": "action", "seat": 0}
    assert "last-event-id" not in peer.received[0].headers
    assert peer.received[1].headers["last-event-id"] == "2-0"
    assert peer.received[1].path == "/v1/games/g1/events/stream"


def test_stream_events_starts_from_a_given_id(peer: Peer, sdk: Client) -> None:
    peer.answer(
        Answer(
            200,
            headers={"Content-Type": "text/event-stream"},
            chunks=_sse(("8-0", "game_over", "{}")),
        )
    )
    assert [e.id for e in sdk.stream_events("g1", last_event_id="7-0")] == ["8-0"]
    assert peer.received[0].headers["last-event-id"] == "7-0"


def test_sse_parser_joins_data_lines_and_skips_comments() -> None:
    lines = [
        ": hello",
        "id: 5",
        "event: note",
        "data: first",
        "data: second",
        "",
        'data: {"a": 1}',
        "",
        "event: empty",
        "",
    ]
    assert list(parse_events(lines)) == [
        ServerEvent("5", "note", "first\nsecond"),
        ServerEvent("5", "message", {"a": 1}),
    ]


def test_events_cursor_pages_to_the_newest_event(peer: Peer, sdk: Client) -> None:
    peer.answer(
        Answer(200, {"events": [{"id": "1-0"}], "cursor": "1-0"}),
        Answer(200, {"events": [{"id": "2-0"}], "cursor": "2-0"}),
        Answer(200, {"events": [], "cursor": "2-0"}),
    )
    assert sdk.events_cursor("g1") == "2-0"
    assert [r.query.get("after") for r in peer.received] == [None, ["1-0"], ["2-0"]]
    assert all(r.query["wait"] == ["0"] for r in peer.received)


def test_bot_feed_cursor_of_an_empty_feed_is_the_start(peer: Peer, sdk: Client) -> None:
    peer.answer(Answer(200, {"pending": [], "events": [], "cursor": "0"}))
    assert sdk.bot_feed_cursor() == "0"
    assert peer.received[0].path == "/v1/bots/me/feed"


def test_act_asks_for_the_minimal_answer_only_when_told(peer: Peer, sdk: Client) -> None:
    moved: dict[str, object] = {
        "version": 2,
        "view": None,
        "events": [],
        "to_act": {},
        "actions": [],
    }
    peer.answer(Answer(200, {**moved, "view": {"a": 1}}), Answer(200, moved))
    assert sdk.act("g1", {"type": "roll"}, if_match=1)["view"] == {"a": 1}
    assert sdk.act("g1", {"type": "roll"}, if_match=1, minimal=True)["view"] is None
    full, minimal = peer.received
    assert "prefer" not in full.headers
    assert minimal.headers["prefer"] == "return=minimal"
    assert (minimal.method, minimal.path) == ("POST", "/v1/games/g1/actions")
    assert minimal.headers["if-match"] == '"1"' and minimal.headers["idempotency-key"]


def test_an_id_is_sent_as_one_path_segment_whatever_it_holds(peer: Peer, sdk: Client) -> None:
    """An id with ``?``, ``#`` or ``/`` stays the id: the path is not cut or extended (on
    main ``abc?`` asked ``GET /v1/games/abc`` for the log, and the summary came back)."""
    peer.answer(*[problem(404, "game_not_found", "no such game") for _ in range(5)])
    for game_id in ["abc?", "abc#x", "abc/view?seat=1", "a b"]:
        with pytest.raises(ProblemError):
            sdk.log(game_id)
    with pytest.raises(ProblemError):
        sdk.tournament("t1?")
    assert [(r.path, r.query) for r in peer.received] == [
        ("/v1/games/abc%3F/log", {"limit": ["1000"]}),
        ("/v1/games/abc%23x/log", {"limit": ["1000"]}),
        ("/v1/games/abc%2Fview%3Fseat%3D1/log", {"limit": ["1000"]}),
        ("/v1/games/a%20b/log", {"limit": ["1000"]}),
        ("/v1/tournaments/t1%3F", {}),
    ]
