"""Redis on the app context, in the manner of the Flask tutorial's ``db.py``."""

from __future__ import annotations

import redis
from flask import Flask, current_app, g

from service.runtime import shared_client


def get_redis() -> redis.Redis:
    """The request's Redis client (one connection pool per process and URL)."""
    if "redis" not in g:
        g.redis = current_app.extensions["dicehall.redis"]
    return g.redis


def init_app(app: Flask) -> None:
    """Attach the Redis client named by the app's settings."""
    app.extensions["dicehall.redis"] = shared_client(app.config["DICEHALL"].redis_url)
