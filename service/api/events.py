"""A game's event feed: long-poll with a cursor, or Server-Sent Events with Last-Event-ID."""

from __future__ import annotations

import time
from typing import Any

from flask import Response, current_app, jsonify, request
from flask.views import MethodView
from flask_smorest import Blueprint

from service.announce import visible
from service.api import component, operation, problems
from service.api.sse import (
    Event,
    Later,
    resolved,
    sse_response,
    stream_answer,
    stream_arg,
    stream_parameters,
)
from service.briefing import DETAILS, Detail
from service.context import bearer_token, game_service
from service.games import GameService
from service.lifecycle import WAIT_SLICE, draining
from service.problems import Problem
from service.schemas import EventsQuerySchema, EventsSchema, is_cursor
from service.store import GameStatus

blp = Blueprint("events", __name__, url_prefix="/v1", description="Event feeds")


def feed_detail() -> Detail:
    """The ``detail`` query parameter of an SSE feed (``full`` unless given). Raises Problem
    400."""
    detail = stream_arg("detail", "full")
    for known in DETAILS:
        if detail == known:
            return known
    raise Problem(400, "bad_request", f"detail is one of {', '.join(DETAILS)}")


def _read(
    service: GameService,
    game_id: str,
    seat: int | None,
    after: str,
    wait: float,
    detail: Detail = "full",
) -> tuple[list[Event | Later], str]:
    """Visible events after ``after``, waiting up to ``wait`` s for the first; new cursor.
    Answers at once, with what it has, when the process begins to shut down. For a seat, the
    batch's last ``to_act`` that makes the seat owe a decision is followed by a completed
    ``decision_due`` notice (same id) if that decision still stands, worked out only when
    its turn comes (a stream sends the events before it first; see ``sse.Later``)."""
    deadline = time.monotonic() + wait
    cursor = after
    while True:
        remaining = min(deadline - time.monotonic(), WAIT_SLICE)
        block = int(remaining * 1000) if remaining > 0.001 else None
        batch = service.store.read_events(game_id, cursor, block)
        if batch:
            cursor = batch[-1][0]
        shown: list[Event] = [{"id": eid, **event} for eid, event in batch if visible(event, seat)]
        if shown or (not batch and block is None) or time.monotonic() >= deadline:
            return _with_decision(service, game_id, seat, shown, detail), cursor
        if draining():
            return list[Event | Later](shown), cursor


def _with_decision(
    service: GameService,
    game_id: str,
    seat: int | None,
    events: list[Event],
    detail: Detail,
) -> list[Event | Later]:
    if seat is None or detail == "none":
        return list(events)
    due = [
        n
        for n, event in enumerate(events)
        if event.get("type") in ("to_act", "game_started") and str(seat) in event["to_act"]
    ]
    if not due:
        return list(events)
    last = events[due[-1]]
    prompt = last["to_act"][str(seat)]
    notice = {
        "type": "decision_due",
        "game_id": game_id,
        "seat": seat,
        "version": last.get("version"),
        "decision": prompt.get("decision", last.get("version")),
        "prompt": prompt,
        "deadline": prompt.get("deadline"),
    }

    def briefed() -> Event | None:
        record, last_time = service.store.load_seat(game_id, seat)
        briefed = service.briefing.brief(record, notice, detail, last_time)
        return {"id": last["id"], **briefed} if briefed["current"] else None

    return [*events[: due[-1] + 1], briefed, *events[due[-1] + 1 :]]


@blp.route("/games/<string:game_id>/events")
class Events(MethodView):
    """Long-poll."""

    @blp.arguments(EventsQuerySchema, location="query")
    @blp.response(
        200,
        component("Events"),
        example={
            "game": "carcassonne",
            "pending": [],
            "events": [
                {
                    "id": "1795000000000-0",
                    "type": "to_act",
                    "version": 3,
                    "to_act": {"1": {"kind": "build", "sealed": False, "text": ""}},
                }
            ],
            "cursor": "1795000000000-0",
        },
    )
    @problems(blp, (401, "unauthorized"), (404, "game_not_found"), (422, "validation_failed"))
    @operation(blp, "listEvents")
    def get(self, query: dict[str, Any], game_id: str) -> Response:
        """Events after a cursor; waits up to `wait` seconds when there are none yet"""
        service = game_service()
        record = service.record(game_id)
        caller = service.identify(record, bearer_token())
        detail = query["detail"]
        pending = service.owed(record, caller.seat, detail)
        over = record.status is GameStatus.OVER
        wait = 0.0 if over or (pending and query["after"] == "0") else query["wait"]
        events, cursor = _read(service, game_id, caller.seat, query["after"], wait, detail)
        feed = {
            "game": record.game,
            "pending": pending,
            "events": resolved(events),
            "cursor": cursor,
        }
        return jsonify(EventsSchema().dump(feed))


@blp.route("/games/<string:game_id>/events/stream")
class EventStream(MethodView):
    """Server-Sent Events."""

    @blp.response(200, content_type="text/event-stream", description="an SSE stream of events")
    @blp.doc(
        parameters=stream_parameters(
            "without either, the stream starts from the game's first event"
        ),
        responses=stream_answer("an SSE stream of events"),
    )
    @problems(blp, (401, "unauthorized"), (404, "game_not_found"), (400, "bad_request"))
    @operation(blp, "streamEvents")
    def get(self, game_id: str) -> Response:
        """Stream events as SSE; reconnect with Last-Event-ID to resume where you left off"""
        service = game_service()
        record = service.record(game_id)
        caller = service.identify(record, bearer_token())
        last = request.headers.get("Last-Event-ID") or stream_arg("after") or "0"
        if not is_cursor(last):
            raise Problem(400, "bad_request", "Last-Event-ID must be an id from this stream")
        heartbeat = current_app.config["DICEHALL"].heartbeat
        once = stream_arg("once") == "1"
        detail = feed_detail()
        pending = service.owed(record, caller.seat, detail)
        over = record.status is GameStatus.OVER

        wait = 0 if over else heartbeat
        return sse_response(
            lambda cursor: _read(service, game_id, caller.seat, cursor, wait, detail),
            last,
            pending,
            once=once,
            done_when_idle=over,
            done_after=lambda event: event["type"] == "game_over",
        )
