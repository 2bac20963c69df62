"""Redis on the app context, in the manner of the Flask tutorial's ``db.py``."""

from __future__ import annotations

import redis
from flask import Flask, current_app, g


def connect(url: str) -> redis.Redis:
    """A client for ``url`` that returns ``str`` values."""
    return redis.Redis.from_url(url, decode_responses=True, health_check_interval=30)


def get_redis() -> redis.Redis:
    """The request's Redis client (one connection pool per app)."""
    if "redis" not in g:
        g.redis = current_app.extensions["dicehall.redis"]
    return g.redis


def init_app(app: Flask) -> None:
    """Create the app's Redis client from its settings."""
    app.extensions["dicehall.redis"] = connect(app.config["DICEHALL"].redis_url)
