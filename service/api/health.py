"""Health: ``/v1/health/live`` (the process answers; never touches Redis), ``/v1/health/ready``
(this process can serve games now: the game store's Redis and the queue's, when that is
another, reachable and writable primaries; not shutting down), and
``/v1/health`` (Redis reachable; kept for existing probes)."""

from __future__ import annotations

from typing import Any

import redis
from flask import current_app
from flask.views import MethodView
from flask_smorest import Blueprint
from redis.exceptions import RedisClusterException

from service import connections
from service.api import NO_TOKEN, operation, problems
from service.connections import get_redis
from service.keys import Keys
from service.lifecycle import draining
from service.problems import Problem
from service.schemas import HealthSchema

blp = Blueprint("health", __name__, url_prefix="/v1", description="Liveness and readiness")

PROBE_TTL = 10
"""Seconds the readiness probe's test write lives."""


def _unreachable(exc: Exception, which: str = "") -> Problem:
    return Problem(
        503,
        "redis_unavailable",
        _sentence(f"{which}Redis is unreachable: {exc}"),
        headers={"Retry-After": "1"},
    )


@blp.route("/health")
class Health(MethodView):
    """Redis reachable (use live and ready for probes)."""

    @blp.response(200, HealthSchema, example={"status": "ok", "redis": "ok"})
    @problems(blp, (503, "redis_unavailable"))
    @operation(blp, "getHealth", NO_TOKEN)
    def get(self) -> dict[str, Any]:
        """Report whether the API is up and reaches Redis"""
        try:
            get_redis().ping()
        except connections.REDIS_FAILURES as exc:
            raise _unreachable(exc) from None
        return {"status": "ok", "redis": "ok"}


@blp.route("/health/live")
class Live(MethodView):
    """Liveness: for restarting a stuck process, so it never depends on Redis."""

    @blp.response(200, HealthSchema, example={"status": "ok", "redis": "not checked"})
    @operation(blp, "getLiveness", NO_TOKEN)
    def get(self) -> dict[str, Any]:
        """Report that this API process answers (Redis is not checked)"""
        return {"status": "ok", "redis": "not checked"}


@blp.route("/health/ready")
class Ready(MethodView):
    """Readiness: for routing requests here, so it checks what a move needs."""

    @blp.response(200, HealthSchema, example={"status": "ok", "redis": "ok"})
    @problems(blp, (503, "redis_unavailable"), (503, "redis_not_writable"), (503, "shutting_down"))
    @operation(blp, "getReadiness", NO_TOKEN)
    def get(self) -> dict[str, Any]:
        """Report whether this process can serve games: Redis reachable and writable"""
        if draining():
            raise Problem(503, "shutting_down", "this server is shutting down; use another")
        settings = current_app.config["DICEHALL"]
        probe = Keys(settings.key_prefix).ready
        _probe(get_redis(), probe, "")
        if connections.queue_url(settings) != settings.redis_url:
            _probe(connections.queue_str_client(settings), probe, "the queue's ")
        return {"status": "ok", "redis": "ok"}


def _probe(client: redis.Redis, key: str, which: str) -> None:
    """A test write: a writable primary answers it (a replica, a demoted primary or a full
    Redis refuses it). Raises the 503 problem that says which Redis failed."""
    try:
        client.set(key, "1", ex=PROBE_TTL)
    except (redis.ConnectionError, redis.TimeoutError, RedisClusterException) as exc:
        raise _unreachable(exc, which) from None
    except redis.RedisError as exc:  # read-only replica, MOVED, out of memory...
        raise Problem(
            503,
            "redis_not_writable",
            _sentence(f"{which}Redis does not take writes: {exc}"),
            headers={"Retry-After": "1"},
        ) from None


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]
