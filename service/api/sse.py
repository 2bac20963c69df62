"""The one Server-Sent Events generator behind both feeds (a game's events, a bot's feed).

A stream says ``retry:`` first, then what the caller owes (``event: pending``), then each
event with its ``id`` (the resume cursor) and a comment line as a heartbeat when a read
finds nothing. It ends when its feed is done, after one read with ``once``, when the
process begins to shut down, or after ``Settings.stream_seconds``: the last two end with a
``retry:`` hint so the client reconnects with Last-Event-ID where it was.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

from flask import Response, current_app, stream_with_context

from service.lifecycle import DRAIN_HINT, draining

Event = dict[str, Any]
Read = Callable[[str], tuple[list[Event], str]]
"""Events after a cursor (waiting up to a heartbeat for the first) and the new cursor."""

FIRST_LINES = "retry: 2000\n\n"
"""A client that loses the stream reconnects after 2 s (the browser's default is 3 s)."""
TIME_UP_HINT = "retry: 1000\n: this stream has run its time: reconnect with Last-Event-ID\n\n"
"""The last lines of a stream that reached ``stream_seconds``: reconnect in a second."""


def sse_response(
    read: Read,
    cursor: str,
    pending: Any,
    *,
    once: bool = False,
    done_when_idle: bool = False,
    done_after: Callable[[Event], bool] = lambda event: False,
) -> Response:
    """An SSE response streaming ``read`` from ``cursor`` after ``pending``.

    ``done_when_idle``: the feed is finished once a read finds nothing (a game that is
    over); ``done_after``: the event that finishes the feed (``game_over``)."""
    limit = current_app.config["DICEHALL"].stream_seconds
    return Response(
        stream_with_context(
            _generate(read, cursor, pending, once, done_when_idle, done_after, limit)
        ),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


def _generate(
    read: Read,
    cursor: str,
    pending: Any,
    once: bool,
    done_when_idle: bool,
    done_after: Callable[[Event], bool],
    limit: float,
) -> Iterator[str]:
    yield FIRST_LINES
    yield f"event: pending\ndata: {json.dumps(pending)}\n\n"
    started = time.monotonic()
    while True:
        events, cursor = read(cursor)
        if not events:
            if done_when_idle:
                return
            yield ": heartbeat\n\n"
        for event in events:
            yield f"id: {event['id']}\nevent: {event['type']}\ndata: {json.dumps(event)}\n\n"
            if done_after(event):
                return
        if once:
            return
        if draining():
            yield DRAIN_HINT
            return
        if time.monotonic() - started >= limit:
            yield TIME_UP_HINT
            return
