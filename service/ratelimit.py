"""Rate limits per token: a fixed window counter in Redis, answered with 429 and Retry-After.

Every request that carries a bearer token counts against that token (by its digest); requests
without a token count against the client address. The limit is ``DICEHALL_RATE_LIMIT``
(``requests/seconds``, default ``12000/60``: 200 requests a second, enough
for an external bot playing several tournament games at once); ``0`` turns limiting off.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

import redis
from flask import Flask, request

from service import tokens
from service.problems import Problem
from service.redis_conn import get_redis


@dataclass(frozen=True)
class Limit:
    """At most ``requests`` per ``seconds`` window."""

    requests: int
    seconds: int

    @staticmethod
    def parse(text: str) -> Limit:
        count, _, window = text.partition("/")
        return Limit(int(count), int(window or 60))


def check(client: redis.Redis, prefix: str, who: str, limit: Limit, now: float) -> None:
    """Count one request of ``who``. Raises Problem 429 when the window is full."""
    window = int(now // limit.seconds)
    key = f"{prefix}:rate:{who}:{window}"
    with client.pipeline(transaction=False) as pipe:
        pipe.incr(key)
        pipe.expire(key, limit.seconds + 1)
        used = pipe.execute()[0]
    if used > limit.requests:
        retry = max(1, int((window + 1) * limit.seconds - now) + 1)
        raise Problem(
            429,
            "rate_limited",
            f"at most {limit.requests} requests per {limit.seconds} s for this "
            f"{'token' if who.startswith('t:') else 'address'}; retry in {retry} s",
            headers={"Retry-After": str(retry)},
            limit=limit.requests,
            window_seconds=limit.seconds,
            retry_after=retry,
        )


def init_app(app: Flask) -> None:
    """Check the limit before every API request."""
    limit = Limit.parse(os.environ.get("DICEHALL_RATE_LIMIT", "12000/60"))
    if limit.requests <= 0:
        return

    @app.before_request
    def limit_requests() -> None:
        if not request.path.startswith("/v1/") or request.path.startswith("/v1/health"):
            return
        header = request.headers.get("Authorization", "")
        token = header.partition(" ")[2].strip()
        who = f"t:{tokens.digest(token)[:24]}" if token else f"a:{request.remote_addr}"
        check(get_redis(), app.config["DICEHALL"].key_prefix, who, limit, time.time())
