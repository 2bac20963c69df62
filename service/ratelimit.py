"""Rate limits: fixed window counters in Redis, answered with 429 and Retry-After.

A request counts against its bearer token (by digest) only when that token has been verified
in this process (it opened a seat, a creator's game or a bot account: see
``tokens.vouch``); every other request, a made-up token included, counts against the client
address. So one client cannot escape the limit by sending a new token each time, and
checking costs no Redis round trip beyond the counter's own.

- ``DICEHALL_RATE_LIMIT`` (``requests/seconds``, default ``12000/60``: 200 requests a second,
  enough for an external bot playing several tournament games at once) for every request;
- ``DICEHALL_CREATE_LIMIT`` (default ``60/60``) in addition, per client address, for creating
  games, bot accounts and tournaments;
- ``DICEHALL_TRUSTED_PROXIES`` (default 0): how many proxies in front of the service append
  to ``X-Forwarded-For``; the client address is then taken that many hops from the right
  (werkzeug's ``ProxyFix``). Leave it 0 when clients reach gunicorn directly, or anybody
  could choose their address.

``0`` as a limit turns it off.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

import redis
from flask import Flask, request
from werkzeug.middleware.proxy_fix import ProxyFix

from service import tokens
from service.problems import Problem
from service.redis_conn import get_redis

CREATIONS = frozenset({"/v1/games", "/v1/bots", "/v1/tournaments"})
"""Paths whose POST creates something (and counts against the creation limit too)."""


@dataclass(frozen=True)
class Limit:
    """At most ``requests`` per ``seconds`` window."""

    requests: int
    seconds: int

    @staticmethod
    def parse(text: str) -> Limit:
        count, _, window = text.partition("/")
        return Limit(int(count), int(window or 60))


def check(
    client: redis.Redis,
    prefix: str,
    who: str,
    limit: Limit,
    now: float,
    also: tuple[str, Limit] | None = None,
) -> None:
    """Count one request of ``who`` (and of ``also``'s key, under its own limit) in one
    round trip. Raises Problem 429 when a window is full."""
    counted = [(who, limit)] + ([also] if also else [])
    keys = []
    with client.pipeline(transaction=False) as pipe:
        for name, each in counted:
            window = int(now // each.seconds)
            key = f"{prefix}:rate:{name}:{window}"
            keys.append((name, each, window))
            pipe.incr(key)
            pipe.expire(key, each.seconds + 1)
        used = pipe.execute()[::2]
    for (name, each, window), count in zip(keys, used, strict=True):
        if count > each.requests:
            retry = max(1, int((window + 1) * each.seconds - now) + 1)
            what = {"t": "token", "a": "address", "c": "address's creations"}[name[0]]
            raise Problem(
                429,
                "rate_limited",
                f"at most {each.requests} requests per {each.seconds} s for this {what}; "
                f"retry in {retry} s",
                headers={"Retry-After": str(retry)},
                limit=each.requests,
                window_seconds=each.seconds,
                retry_after=retry,
            )


def who_is_asking() -> str:
    """The counter a request counts against: its verified token, else its address."""
    header = request.headers.get("Authorization", "")
    token = header.partition(" ")[2].strip()
    if token and tokens.vouched(token):
        return f"t:{tokens.digest(token)[:24]}"
    return f"a:{request.remote_addr}"


def init_app(app: Flask) -> None:
    """Trust the configured proxies for the client address; check the limits before every
    API request."""
    proxies = int(os.environ.get("DICEHALL_TRUSTED_PROXIES", "0"))
    if proxies > 0:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies)  # type: ignore[method-assign]
    limit = Limit.parse(os.environ.get("DICEHALL_RATE_LIMIT", "12000/60"))
    create = Limit.parse(os.environ.get("DICEHALL_CREATE_LIMIT", "60/60"))
    if limit.requests <= 0:
        return

    @app.before_request
    def limit_requests() -> None:
        if not request.path.startswith("/v1/") or request.path.startswith("/v1/health"):
            return
        creating = request.method == "POST" and request.path.rstrip("/") in CREATIONS
        also = (f"c:{request.remote_addr}", create) if creating and create.requests > 0 else None
        check(
            get_redis(),
            app.config["DICEHALL"].key_prefix,
            who_is_asking(),
            limit,
            time.time(),
            also,
        )
