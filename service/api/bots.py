"""``/v1/bots``: external bot accounts and their feed (long-poll and SSE)."""

from __future__ import annotations

import time
from typing import Any

from flask import Response, current_app, request
from flask.views import MethodView
from flask_smorest import Blueprint

from service import tokens
from service.accounts import Account
from service.api import BEARER, BODY_PROBLEMS, NO_TOKEN, operation, problems
from service.api.events import feed_detail
from service.api.sse import sse_response, stream_answer, stream_arg, stream_parameters
from service.briefing import Detail
from service.context import bearer_token, game_service
from service.lifecycle import WAIT_SLICE, draining
from service.problems import Problem
from service.schemas import (
    AccountSchema,
    EventsQuerySchema,
    FeedSchema,
    RegisterBotSchema,
    RegisteredBotSchema,
    is_cursor,
)

blp = Blueprint("bots", __name__, url_prefix="/v1", description="External bot accounts")

_ACCOUNT = {"id": "a1b2c3d4e5f6", "name": "mybot", "owner": "me@example.org", "created_at": 1.7e9}
_PENDING = {
    "type": "decision_due",
    "game_id": "3f2a9c0d1b7e4a55",
    "seat": 1,
    "version": 12,
    "decision": 12,
    "prompt": {"kind": "build", "sealed": False, "text": "", "deadline": None, "decision": 12},
    "deadline": None,
    "current": True,
    "last_round_trip": 0.012,
    "view": {"seats": 2, "active": 1, "scores": [3, 5]},
    "actions": [{"action": {"type": "reroll"}, "text": "re-roll 4 dice"}],
}


def current_account() -> Account:
    """The account of the request's bot token. Raises Problem 401."""
    token = bearer_token()
    account = game_service().accounts.by_token(token) if token else None
    if token is None or account is None:
        raise Problem(401, "unauthorized", "send a bot account's token as 'Authorization: Bearer'")
    tokens.vouch(token)
    return account


def read_feed(
    account_id: str, after: str, wait: float, detail: Detail
) -> tuple[list[dict[str, Any]], str]:
    """Feed events after ``after``, waiting up to ``wait`` s for the first; the new cursor.
    ``decision_due`` notices come completed (view, legal actions, decision id). Answers at
    once, with what it has, when the process begins to shut down."""
    service = game_service()
    deadline = time.monotonic() + wait
    while True:
        remaining = min(deadline - time.monotonic(), WAIT_SLICE)
        block = int(remaining * 1000) if remaining > 0.001 else None
        batch = service.accounts.read_feed(account_id, after, block)
        if batch or block is None or time.monotonic() >= deadline or draining():
            cursor = batch[-1][0] if batch else after
            events = [{"id": eid, **event} for eid, event in batch]
            return service.briefing.complete(events, detail), cursor


@blp.route("/bots")
class Bots(MethodView):
    """Registering a bot."""

    @blp.arguments(RegisterBotSchema, example={"name": "mybot", "owner": "me@example.org"})
    @blp.response(201, RegisteredBotSchema, example={**_ACCOUNT, "token": "bot_abc"})
    @problems(blp, *BODY_PROBLEMS)
    @operation(blp, "registerBot", NO_TOKEN)
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Register an external bot; the answer holds its token (shown once)"""
        account, token = game_service().accounts.register(body["name"], body["owner"])
        return {**account.public(), "token": token}


@blp.route("/bots/me")
class Me(MethodView):
    """The caller's account."""

    @blp.response(200, AccountSchema, example=_ACCOUNT)
    @problems(blp, (401, "unauthorized"))
    @operation(blp, "getBotAccount", BEARER)
    def get(self) -> dict[str, Any]:
        """Read the bot account of the token"""
        return current_account().public()


@blp.route("/bots/me/feed")
class Feed(MethodView):
    """Long-poll feed."""

    @blp.arguments(EventsQuerySchema, location="query")
    @blp.response(200, FeedSchema, example={"pending": [_PENDING], "events": [], "cursor": "0"})
    @problems(blp, (401, "unauthorized"), (422, "validation_failed"))
    @operation(blp, "getBotFeed", BEARER)
    def get(self, query: dict[str, Any]) -> dict[str, Any]:
        """What the bot owes now, and its feed after a cursor (waits up to `wait` s)"""
        account = current_account()
        detail = query["detail"]
        pending = game_service().pending_for(account.id, detail)
        wait = 0.0 if pending else query["wait"]
        events, cursor = read_feed(account.id, query["after"], wait, detail)
        return {"pending": pending, "events": events, "cursor": cursor}


@blp.route("/bots/me/feed/stream")
class FeedStream(MethodView):
    """SSE feed."""

    @blp.response(200, content_type="text/event-stream", description="an SSE stream")
    @blp.doc(
        parameters=stream_parameters(
            "without either, the stream starts after the feed's newest event"
        ),
        responses=stream_answer("an SSE stream"),
    )
    @problems(blp, (400, "bad_request"), (401, "unauthorized"))
    @operation(blp, "streamBotFeed", BEARER)
    def get(self) -> Response:
        """Stream the feed as SSE: first `pending`, then events; resume with Last-Event-ID

        `pending` (every decision the account owes now) comes again every 10 s
        (`DICEHALL_PENDING_SECONDS`) on an open stream: a decision whose notice was lost
        (a Redis failover just after its move) is offered again. Answer each decision once.
        """
        account = current_account()
        resume = request.headers.get("Last-Event-ID") or stream_arg("after")
        if resume is not None and not is_cursor(resume):
            raise Problem(400, "bad_request", "Last-Event-ID must be an id from this stream")
        last = resume or game_service().accounts.last_feed_id(account.id)
        settings = current_app.config["DICEHALL"]
        wait = min(settings.heartbeat, settings.pending_seconds)  # pending on time when quiet
        once = stream_arg("once") == "1"
        detail = feed_detail()
        pending = game_service().pending_for(account.id, detail)

        return sse_response(
            lambda cursor: read_feed(account.id, cursor, wait, detail),
            last,
            pending,
            once=once,
            repeat=lambda: game_service().pending_for(account.id, detail),
        )
