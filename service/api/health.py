"""Health: ``/v1/health/live`` (the process answers; never touches Redis), ``/v1/health/ready``
(this process can serve games now: Redis reachable and writable, not shutting down), and
``/v1/health`` (Redis reachable; kept for existing probes)."""

from __future__ import annotations

from typing import Any

import redis
from flask import current_app
from flask.views import MethodView
from flask_smorest import Blueprint

from service.api import NO_TOKEN, operation, problems
from service.lifecycle import draining
from service.problems import Problem
from service.redis_conn import get_redis
from service.schemas import HealthSchema

blp = Blueprint("health", __name__, url_prefix="/v1", description="Liveness and readiness")

PROBE_TTL = 10
"""Seconds the readiness probe's test write lives."""


def _unreachable(exc: redis.RedisError) -> Problem:
    return Problem(
        503, "redis_unavailable", f"Redis is unreachable: {exc}", headers={"Retry-After": "1"}
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
        except redis.RedisError as exc:
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
        probe = f"{current_app.config['DICEHALL'].key_prefix}:ready"
        try:
            get_redis().set(probe, "1", ex=PROBE_TTL)
        except (redis.ConnectionError, redis.TimeoutError) as exc:
            raise _unreachable(exc) from None
        except redis.RedisError as exc:  # read-only replica, MOVED, out of memory...
            raise Problem(
                503,
                "redis_not_writable",
                f"Redis does not take writes: {exc}",
                headers={"Retry-After": "1"},
            ) from None
        return {"status": "ok", "redis": "ok"}
