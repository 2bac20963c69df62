"""Rate limits: fixed window counters in Redis, answered with 429 and Retry-After.

A request counts against its bearer token (by digest) only when that token has been verified
in this process (it opened a seat, a creator's game or a bot account: see
``tokens.vouch``); every other request, a made-up token included, counts against the client
address. So one client cannot escape the limit by sending a new token each time.

Counting costs no round trip of its own on the move path: for the requests that read their
game first (view, legal actions, a move, the log, a game's summary) the counters' INCR and
EXPIRE go in the same pipeline as that read, and the request is refused (429) before it
decides or writes anything (a move decided on the record this process wrote last, without a
read, is counted by its commit's script, which refuses to write when a counter is over:
``service.games.GameService.play``); every other request counts in a round trip of its own before it
runs. A request refused before it read its game (a malformed body, a bad header) is counted
as it is answered.

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
from typing import Any

import redis
from flask import Flask, Response, request
from werkzeug.middleware.proxy_fix import ProxyFix

from service import tokens
from service.connections import get_redis
from service.keys import Keys
from service.problems import Problem, problem_response
from service.store import Pipeline, ride_along, take_riders

CREATIONS = frozenset({"/v1/games", "/v1/bots", "/v1/tournaments"})
"""Paths whose POST creates something (and counts against the creation limit too)."""
READ_FIRST = frozenset(
    {
        ("play.ViewResource", "GET"),
        ("play.LegalActions", "GET"),
        ("play.Actions", "POST"),
        ("play.Log", "GET"),
        ("games.GameResource", "GET"),
    }
)
"""Requests (endpoint, method) whose first Redis command reads their game: their counters go
with that read (:func:`service.store.ride_along`), so the limit costs no round trip."""
LIMITS = "dicehall.ratelimit"
"""Where the app keeps its :class:`Limits` (absent when the limit is off)."""


@dataclass(frozen=True)
class Limit:
    """At most ``requests`` per ``seconds`` window."""

    requests: int
    seconds: int

    @staticmethod
    def parse(text: str, name: str = "a rate limit") -> Limit:
        """``requests/seconds`` (seconds 60 when left out; requests 0: off). Raises ValueError
        naming ``name`` for anything else: a window of 0 s divided every request's time by
        zero (every API request answered 500), a negative count refused every request."""
        count, _, window = text.strip().partition("/")
        try:
            limit = Limit(int(count), int(window or 60))
        except ValueError:
            limit = None
        if limit is None or limit.requests < 0 or limit.seconds < 1:
            raise ValueError(
                f"{name} is requests/seconds, e.g. 12000/60 (requests 0: no limit; seconds at "
                f"least 1), not {text!r}"
            )
        return limit


@dataclass
class Counting:
    """One request's count against its limits: a :class:`~service.store.Rider`, so the
    counters can go with the request's read of its game instead of a round trip of their
    own."""

    prefix: str
    counted: list[tuple[str, Limit]]
    now: float

    def queue(self, pipe: Pipeline) -> int:
        """Queue INCR and EXPIRE of each window's counter; returns how many commands."""
        for key, seconds, _limit in self.counters():
            pipe.incr(key)
            pipe.expire(key, seconds)
        return 2 * len(self.counted)

    def counters(self) -> list[tuple[str, int, int]]:
        """Each window's counter: its key, its lifetime (s) and its limit (what a guarded
        commit counts instead: :class:`service.store.Counter`)."""
        keys = Keys(self.prefix)
        return [
            (keys.rate(name, int(self.now // each.seconds)), each.seconds + 1, each.requests)
            for name, each in self.counted
        ]

    def settle(self, replies: list[Any]) -> None:
        """Raise Problem 429 when a window is full."""
        for (name, each), count in zip(self.counted, replies[::2], strict=True):
            if count > each.requests:
                window = int(self.now // each.seconds)
                retry = max(1, int((window + 1) * each.seconds - self.now) + 1)
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

    def check(self, client: redis.Redis) -> None:
        """Count now, in a round trip of its own. Raises Problem 429 when a window is full."""
        with client.pipeline(transaction=False) as pipe:
            self.queue(pipe)
            replies = pipe.execute()
        self.settle(replies)


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
    Counting(prefix, [(who, limit)] + ([also] if also else []), now).check(client)


def who_is_asking(authorization: str, address: str | None) -> str:
    """The counter a request counts against: its verified token (in its ``Authorization``
    header), else its address."""
    token = authorization.partition(" ")[2].strip()
    if token:
        token_digest = tokens.digest(token)
        if tokens.vouched_digest(token_digest):
            return f"t:{token_digest[:24]}"
    return f"a:{address}"


@dataclass(frozen=True)
class Limits:
    """The app's limits (:func:`init_app`): what each request counts against."""

    prefix: str
    limit: Limit
    create: Limit

    def counting(
        self, method: str, path: str, authorization: str, address: str | None
    ) -> Counting | None:
        """The count of one request (None for the paths that are not limited, or when no
        limit applies: each limit at 0 is off on its own)."""
        if not path.startswith("/v1/") or path.startswith("/v1/health"):
            return None
        counted: list[tuple[str, Limit]] = []
        if self.limit.requests > 0:
            counted.append((who_is_asking(authorization, address), self.limit))
        creating = method == "POST" and path.rstrip("/") in CREATIONS
        if creating and self.create.requests > 0:
            counted.append((f"c:{address}", self.create))
        return Counting(self.prefix, counted, time.time()) if counted else None


def refused_late(client: redis.Redis) -> Problem | None:
    """Count now the requests that failed before they read their game (their counters did
    not ride along); the 429 to answer instead if one went over."""
    for rider in take_riders():
        try:
            with client.pipeline(transaction=False) as pipe:
                rider.queue(pipe)
                replies: list[Any] = pipe.execute()
            rider.settle(replies)
        except Problem as problem:
            return problem
    return None


def init_app(app: Flask) -> None:
    """Trust the configured proxies for the client address; check the limits before every
    API request."""
    proxies = int(os.environ.get("DICEHALL_TRUSTED_PROXIES", "0"))
    if proxies > 0:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies)  # type: ignore[method-assign]
    limit = Limit.parse(os.environ.get("DICEHALL_RATE_LIMIT", "12000/60"), "DICEHALL_RATE_LIMIT")
    create = Limit.parse(os.environ.get("DICEHALL_CREATE_LIMIT", "60/60"), "DICEHALL_CREATE_LIMIT")
    if limit.requests == 0 and create.requests == 0:
        return
    limits = app.extensions[LIMITS] = Limits(app.config["DICEHALL"].key_prefix, limit, create)

    @app.before_request
    def limit_requests() -> None:
        authorization = request.headers.get("Authorization", "")
        counting = limits.counting(request.method, request.path, authorization, request.remote_addr)
        if counting is None:
            return
        if (request.endpoint, request.method) in READ_FIRST:
            ride_along(counting)
        else:
            counting.check(get_redis())

    @app.after_request
    def count_the_rest(response: Response) -> Response:
        """A request that failed before it read its game is counted now (and answered 429
        if it went over)."""
        refused = refused_late(get_redis())
        return response if refused is None else problem_response(refused)

    @app.teardown_request
    def forget(error: BaseException | None) -> None:
        take_riders()
