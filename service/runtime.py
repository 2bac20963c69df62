"""Wiring of the store, the rq queue and the game service from settings (app and workers)."""

from __future__ import annotations

from functools import lru_cache

import redis
from rq import Queue

from service.config import Settings
from service.games import GameService
from service.redis_conn import connect
from service.store import GameStore


@lru_cache(maxsize=8)
def _clients(url: str) -> tuple[redis.Redis, redis.Redis]:
    """A str client for the store and a bytes client for rq (rq needs raw bytes)."""
    return connect(url), redis.Redis.from_url(url)


def queue_for(settings: Settings) -> Queue:
    return Queue(settings.queue_name, connection=_clients(settings.redis_url)[1])


def bot_scheduler(settings: Settings):
    """Enqueue one ``play_bot`` job per bot seat that owes a decision."""
    queue = queue_for(settings)

    def schedule(game_id: str, version: int, seats: list[int]) -> None:
        for seat in seats:
            queue.enqueue(
                "service.jobs.play_bot",
                game_id,
                seat,
                version,
                job_timeout=300,
                result_ttl=60,
                failure_ttl=7 * 24 * 3600,
            )

    return schedule


def game_service(settings: Settings) -> GameService:
    store = GameStore(_clients(settings.redis_url)[0], settings.key_prefix)
    return GameService(store, bot_scheduler(settings), settings.idempotency_ttl)
