"""The one Server-Sent Events generator behind both feeds (a game's events, a bot's feed).

A stream says ``retry:`` first, then what the caller owes (``event: pending``), then each
event with its ``id`` (the resume cursor) and a comment line as a heartbeat when a read
finds nothing. A stream given ``repeat`` says ``pending`` again every
``Settings.pending_seconds``: a notice whose write was lost (a Redis failover between a
move's commit and its notice) is offered again, so no decision waits on an event that will
never come. It ends when its feed is done, after one read with ``once``, when the process
begins to shut down, or after ``Settings.stream_seconds``: the last two end with a
``retry:`` hint so the client reconnects with Last-Event-ID where it was.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask import Response, current_app, request, stream_with_context

from service.lifecycle import DRAIN_HINT, draining
from service.problems import Problem

Event = dict[str, Any]
Later = Callable[[], Event | None]
"""An event worked out only when its turn to be sent comes (None: nothing to send), so the
events before it are on their way first (a completed ``decision_due`` notice reads the
game and describes the seat's legal actions: the move it follows need not wait for that)."""
Read = Callable[[str], tuple[Sequence[Event | Later], str]]
"""Events after a cursor (waiting up to a heartbeat for the first) and the new cursor."""

FIRST_LINES = "retry: 2000\n\n"
"""A client that loses the stream reconnects after 2 s (the browser's default is 3 s)."""
TIME_UP_HINT = "retry: 1000\n: this stream has run its time: reconnect with Last-Event-ID\n\n"
"""The last lines of a stream that reached ``stream_seconds``: reconnect in a second."""


STREAM_ARGS = ("after", "once", "detail")
"""The query parameters a stream takes (:func:`stream_parameters`)."""


def stream_arg(name: str, default: str | None = None) -> str | None:
    """A stream's query parameter ``name``. Raises Problem 400 when it is given more than
    once (which value would count?), or when the request has one no stream takes."""
    unknown = sorted(set(request.args) - set(STREAM_ARGS))
    if unknown:
        raise Problem(
            400, "bad_request", f"a stream takes {', '.join(STREAM_ARGS)}, not {', '.join(unknown)}"
        )
    values = request.args.getlist(name)
    if len(values) > 1:
        raise Problem(400, "bad_request", f"{name} is given more than once: send it once")
    return values[0] if values else default


def stream_parameters(first: str) -> list[dict[str, Any]]:
    """The parameters a stream reads (documented by :func:`stream_doc`): where to resume,
    one read only, and how much a ``decision_due`` notice carries. ``first``: where a stream
    without a cursor starts."""

    def cursor() -> dict[str, Any]:  # one dict each: the document has no YAML anchors
        return {
            "type": "string",
            "description": "an event id from this stream (`0`: from the start); a malformed "
            "one is 400 bad_request",
        }

    return [
        {
            "in": "header",
            "name": "Last-Event-ID",
            "required": False,
            "schema": cursor(),
            "description": f"resume after this event (a reconnecting browser sends it); {first}",
        },
        {
            "in": "query",
            "name": "after",
            "required": False,
            "schema": cursor(),
            "description": "the same as `Last-Event-ID` (which wins when both are sent)",
        },
        {
            "in": "query",
            "name": "once",
            "required": False,
            "schema": {"type": "string", "enum": ["1"]},
            "description": "`1`: end the stream after its first read (what is there now)",
        },
        {
            "in": "query",
            "name": "detail",
            "required": False,
            "schema": {"type": "string", "enum": ["full", "compact", "none"], "default": "full"},
            "description": "what `decision_due` notices carry, as for the long-poll (another "
            "value is 400 bad_request)",
        },
    ]


SSE_EVENT = {
    "type": "object",
    "description": "one event of the stream: `pending` (what the caller owes now, a JSON list "
    "of decision_due notices) or an entry of the feed, named by its `type`, with its `id` "
    "to resume at; `data` is the JSON text of the entry (its schema: the long-poll's)",
    "properties": {
        "event": {"type": "string"},
        "data": {"type": "string"},
        "id": {"type": "string"},
        "retry": {"type": "integer"},
    },
}
"""What each event of a stream is (the ``schema`` of a ``text/event-stream`` answer, as
schemathesis reads it: one event at a time)."""


def stream_answer(description: str) -> dict[str, Any]:
    """A stream's 200 answer as documented: Server-Sent Events (``retry:``, then ``event:
    pending``, then each event with its ``id``)."""
    return {
        "200": {
            "description": description,
            "content": {"text/event-stream": {"schema": SSE_EVENT}},
        }
    }


def sse_response(
    read: Read,
    cursor: str,
    pending: Any,
    *,
    once: bool = False,
    done_when_idle: bool = False,
    done_after: Callable[[Event], bool] = lambda event: False,
    repeat: Callable[[], Any] | None = None,
) -> Response:
    """An SSE response streaming ``read`` from ``cursor`` after ``pending``.

    ``done_when_idle``: the feed is finished once a read finds nothing (a game that is
    over); ``done_after``: the event that finishes the feed (``game_over``); ``repeat``:
    what is owed now, sent as ``pending`` again every ``Settings.pending_seconds``."""
    settings = current_app.config["DICEHALL"]
    limit = settings.stream_seconds
    again = Again(repeat, settings.pending_seconds) if repeat is not None else None
    return Response(
        stream_with_context(
            _generate(read, cursor, pending, once, done_when_idle, done_after, limit, again)
        ),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


@dataclass
class Again:
    """When a stream says ``pending`` again, and what it says."""

    what: Callable[[], Any]
    seconds: float
    last: float = field(default_factory=time.monotonic)

    def due(self) -> bool:
        now = time.monotonic()
        if now - self.last < self.seconds:
            return False
        self.last = now
        return True


def resolved(items: Sequence[Event | Later]) -> list[Event]:
    """The events of a read with the later ones worked out now (a feed answered at once)."""
    events = []
    for item in items:
        event = item() if callable(item) else item
        if event is not None:
            events.append(event)
    return events


def _pending(pending: Any) -> str:
    return f"event: pending\ndata: {json.dumps(pending)}\n\n"


def _writes(
    items: Sequence[Event | Later], done_after: Callable[[Event], bool]
) -> Iterator[tuple[str, bool]]:
    """The frames of a read's events, joined into one write each up to a later event (the
    events before it are on their way before it is worked out): a move's events arrive in
    one write, not one each. True with the write whose last event ends the feed."""
    batch: list[str] = []
    for item in items:
        if callable(item) and batch:
            yield "".join(batch), False
            batch = []
        event = item() if callable(item) else item
        if event is None:
            continue
        batch.append(f"id: {event['id']}\nevent: {event['type']}\ndata: {json.dumps(event)}\n\n")
        if done_after(event):
            yield "".join(batch), True
            return
    if batch:
        yield "".join(batch), False


def _generate(
    read: Read,
    cursor: str,
    pending: Any,
    once: bool,
    done_when_idle: bool,
    done_after: Callable[[Event], bool],
    limit: float,
    again: Again | None = None,
) -> Iterator[str]:
    yield FIRST_LINES
    yield _pending(pending)
    started = time.monotonic()
    while True:
        if again is not None and again.due():
            yield _pending(again.what())
        events, cursor = read(cursor)
        if not events:
            if done_when_idle:
                return
            yield ": heartbeat\n\n"
        for frames, done in _writes(events, done_after):
            yield frames
            if done:
                return
        if once:
            return
        if draining():
            yield DRAIN_HINT
            return
        if time.monotonic() - started >= limit:
            yield TIME_UP_HINT
            return
