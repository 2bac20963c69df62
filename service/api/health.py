"""``/v1/health``: is the API up and can it reach Redis."""

from __future__ import annotations

from typing import Any

import redis
from flask.views import MethodView
from flask_smorest import Blueprint

from service.api import NO_TOKEN, operation, problems
from service.problems import Problem
from service.redis_conn import get_redis
from service.schemas import HealthSchema

blp = Blueprint("health", __name__, url_prefix="/v1", description="Liveness")


@blp.route("/health")
class Health(MethodView):
    """Liveness."""

    @blp.response(200, HealthSchema, example={"status": "ok", "redis": "ok"})
    @problems(blp, (503, "redis_unavailable"))
    @operation(blp, "getHealth", NO_TOKEN)
    def get(self) -> dict[str, Any]:
        """Report whether the API is up and reaches Redis"""
        try:
            get_redis().ping()
        except redis.RedisError as exc:
            raise Problem(503, "redis_unavailable", f"Redis is unreachable: {exc}") from None
        return {"status": "ok", "redis": "ok"}
