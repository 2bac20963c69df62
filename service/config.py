"""Settings of the service, read from the environment with defaults for local use."""

from __future__ import annotations

import os
from dataclasses import dataclass, field


def _seconds(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


@dataclass(frozen=True)
class Settings:
    """What the app and the workers need to know about their surroundings."""

    redis_url: str = field(
        default_factory=lambda: os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    )
    queue_url: str = field(default_factory=lambda: os.environ.get("DICEHALL_QUEUE_URL", ""))
    """rq's Redis (a single server or a Sentinel URL); empty: ``redis_url`` (which then must
    not be a cluster: rq cannot run on one)."""
    min_replicas: int = field(default_factory=lambda: _seconds("DICEHALL_MIN_REPLICAS", 0))
    """Replicas a game write must reach (``WAIT``) before it is answered; 0: do not wait."""
    replica_timeout_ms: int = field(
        default_factory=lambda: _seconds("DICEHALL_REPLICA_TIMEOUT_MS", 1000)
    )
    """How long a write waits for its replicas before it is answered ``not_replicated``."""
    index_shards: int = field(default_factory=lambda: _seconds("DICEHALL_INDEX_SHARDS", 8))
    """Shards of each global index (games listed, games not over, tournaments): each is a
    key in a slot of its own, so the indexes spread over a cluster's nodes."""
    queue_name: str = field(default_factory=lambda: os.environ.get("DICEHALL_QUEUE", "dicehall"))
    key_prefix: str = field(default_factory=lambda: os.environ.get("DICEHALL_PREFIX", "dh"))
    idempotency_ttl: int = 24 * 3600
    waiting_game_ttl: int = field(default_factory=lambda: _seconds("DICEHALL_WAITING_TTL", 86400))
    """A waiting game is dropped after this long without a change (default a day)."""
    active_game_ttl: int = field(default_factory=lambda: _seconds("DICEHALL_ACTIVE_TTL", 7 * 86400))
    """An active game is dropped after this long without a move (default a week)."""
    finished_game_ttl: int = field(
        default_factory=lambda: _seconds("DICEHALL_FINISHED_TTL", 30 * 86400)
    )
    """A finished game is kept this long after its end (default 30 days)."""
    account_ttl: int = field(default_factory=lambda: _seconds("DICEHALL_ACCOUNT_TTL", 365 * 86400))
    """A bot account (and its token) is dropped after this long unused (default a year)."""
    max_wait: float = 30.0
    heartbeat: float = 15.0
    stream_seconds: float = 3600.0
    """An SSE stream ends after this long with a ``retry:`` hint (the client reconnects)."""
    pending_seconds: float = field(default_factory=lambda: _seconds("DICEHALL_PENDING_SECONDS", 10))
    """A bot's SSE feed says ``pending`` again this often: a notice lost to a Redis failover
    (written after its move's commit) is offered again."""
    bot_moves_per_job: int = 1000
