"""Settings of the service, read from the environment with defaults for local use."""

from __future__ import annotations

import os
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Settings:
    """What the app and the workers need to know about their surroundings."""

    redis_url: str = field(
        default_factory=lambda: os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    )
    queue_name: str = field(default_factory=lambda: os.environ.get("DICEHALL_QUEUE", "dicehall"))
    key_prefix: str = field(default_factory=lambda: os.environ.get("DICEHALL_PREFIX", "dh"))
    idempotency_ttl: int = 24 * 3600
    finished_game_ttl: int | None = None
    max_wait: float = 30.0
    heartbeat: float = 15.0
    bot_moves_per_job: int = 1000
