"""Per-request access to the game service and the caller's token."""

from __future__ import annotations

from flask import current_app, request

from service.games import GameService
from service.problems import Problem
from service.redis_conn import get_redis
from service.runtime import bot_scheduler
from service.store import GameStore


def game_service() -> GameService:
    """The game service over the app's Redis and rq queue."""
    settings = current_app.config["DICEHALL"]
    if "dicehall.scheduler" not in current_app.extensions:
        current_app.extensions["dicehall.scheduler"] = bot_scheduler(settings)
    store = GameStore(get_redis(), settings.key_prefix)
    return GameService(
        store, current_app.extensions["dicehall.scheduler"], settings.idempotency_ttl
    )


def bearer_token() -> str | None:
    """The request's bearer token, or None. Raises Problem 401 for a malformed header."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Problem(401, "unauthorized", "use 'Authorization: Bearer <token>'")
    return token.strip()
