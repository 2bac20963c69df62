"""Wiring of the stores, the rq queue and the game service from settings (app and workers)."""

from __future__ import annotations

from datetime import timedelta
from functools import lru_cache
from typing import Any

import redis
from rq import Queue, Retry
from rq.job import Job

from service import metrics
from service.accounts import AccountStore
from service.config import Settings
from service.games import GameService
from service.store import GameStore, Retention

SOCKET_TIMEOUT = 60.0
"""Longer than the longest blocking read (a 30 s long-poll), shorter than forever."""
MAX_CONNECTIONS = 4096
"""Each waiting long-poll or SSE stream holds a connection for its blocking read."""


def connect(url: str) -> redis.Redis:
    """A client for ``url`` that returns ``str`` values and waits out blocking reads."""
    return redis.Redis.from_url(
        url,
        decode_responses=True,
        health_check_interval=30,
        socket_timeout=SOCKET_TIMEOUT,
        socket_connect_timeout=5,
        max_connections=MAX_CONNECTIONS,
    )


def shared_client(url: str) -> redis.Redis:
    """The process's ``str`` client for ``url`` (one connection pool per URL)."""
    return _clients(url)[0]


@lru_cache(maxsize=8)
def _clients(url: str) -> tuple[redis.Redis, redis.Redis]:
    """A str client for the stores and a bytes client for rq (rq needs raw bytes)."""
    return connect(url), redis.Redis.from_url(
        url, socket_timeout=SOCKET_TIMEOUT, socket_connect_timeout=5
    )


def queue_for(settings: Settings) -> Queue:
    return Queue(settings.queue_name, connection=_clients(settings.redis_url)[1])


BOT_RETRY = Retry(max=3)
"""A bot job that fails (Redis gone mid-move, a bug) runs again at once, up to three times; it
carries its version, so a retry after the game moved on does nothing. What still stalls is
the sweep's (``service.sweep``)."""
JOB_MARKER_TTL = 24 * 3600
JOB_TIMEOUT = 300
"""rq kills a job that runs longer (a bot job hands on after ``service.jobs.JOB_SECONDS``)."""
RESULT_TTL = 60
FAILURE_TTL = 7 * 24 * 3600
"""A failed job stays in rq's failed registry a week, to be read."""


def enqueue(
    queue: Queue,
    func: str,
    *args: object,
    retry: Retry | None = BOT_RETRY,
    at_front: bool = False,
    delay: float | None = None,
) -> Job:
    """Enqueue ``func(*args)`` with the service's timeout and TTLs; after ``delay`` seconds
    (rq's scheduler, which every worker runs) if given."""
    options: dict[str, Any] = {
        "job_timeout": JOB_TIMEOUT,
        "result_ttl": RESULT_TTL,
        "failure_ttl": FAILURE_TTL,
        "retry": retry,
    }
    if delay is not None:
        return queue.enqueue_in(timedelta(seconds=delay), func, *args, **options)
    return queue.enqueue(func, *args, at_front=at_front, **options)


class RqJobs:
    """The game service's background work as rq jobs (see ``service.jobs``).

    Each bot job's id is kept beside its game (``<prefix>:{id}:botjob:<seat>``) so the sweep
    can tell a pending job from a lost one.
    """

    def __init__(self, queue: Queue, store: GameStore | None = None) -> None:
        self.queue = queue
        self.store = store

    def bots(self, game_id: str, version: int, seats: list[int], at_front: bool = False) -> None:
        """A job per seat; ``at_front`` for a job that replaces a lost one (it has waited)."""
        for seat in seats:
            job = enqueue(
                self.queue, "service.jobs.play_bot", game_id, seat, version, at_front=at_front
            )
            if self.store is not None:
                self.store.redis.set(
                    self.store.bot_job_key(game_id, seat), job.id, ex=JOB_MARKER_TTL
                )

    def deadline(self, game_id: str, seat: int, due: float, at: float) -> None:
        """Nothing to schedule: the sweep that every worker runs plays a fallback within a
        second of its deadline (``service.sweep``), whichever worker is alive."""

    def tournament(self, tournament_id: str) -> None:
        enqueue(self.queue, "service.jobs.tournament_tick", tournament_id, False)

    def tournament_later(self, tournament_id: str, seconds: float) -> None:
        """A scheduled tick; not retried (the next one comes anyway)."""
        enqueue(
            self.queue,
            "service.jobs.tournament_tick",
            tournament_id,
            True,
            retry=None,
            delay=seconds,
        )


def stores(settings: Settings) -> tuple[GameStore, AccountStore]:
    client = _clients(settings.redis_url)[0]
    retention = Retention(
        waiting=settings.waiting_game_ttl,
        active=settings.active_game_ttl,
        finished=settings.finished_game_ttl,
    )
    return (
        GameStore(client, settings.key_prefix, retention, on_retry=metrics.CAS_RETRIES.inc),
        AccountStore(client, settings.key_prefix, settings.account_ttl),
    )


def game_service(settings: Settings) -> GameService:
    store, accounts = stores(settings)
    return GameService(
        store, accounts, RqJobs(queue_for(settings), store), settings.idempotency_ttl
    )
