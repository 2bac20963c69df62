"""Global indexes sharded over several keys, each in a slot of its own (Redis Cluster).

A global sorted set (every public game, every game not over, every tournament) on one key
would sit on one cluster node and take every write there. A :class:`ShardedIndex` keeps a
member in shard ``crc32(member) % shards`` (``Keys.index_shard``); listing newest first reads
the top ``offset + limit`` of every shard in one pipeline and merges them by score, so paging
is the same as on one sorted set.

Writes to an index never go inside a game's transaction (the shard is another slot): they
are plain idempotent commands sent before or after it, and the sweep repairs what a crash
between the two left out (``service.sweep``).
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from typing import Any, cast

import redis

from service.keys import Keys


class ShardedIndex:
    """A sorted set (member -> score) split over ``shards`` keys; ``size`` bounds each
    shard to its share of the newest members (None: unbounded)."""

    def __init__(
        self, client: redis.Redis, keys: Keys, name: str, shards: int, size: int | None = None
    ) -> None:
        self.redis = client
        self.keys = [keys.index_shard(name, shard) for shard in range(max(1, shards))]
        self.size = size

    def key_of(self, member: str) -> str:
        """The shard ``member`` lives in."""
        return self.keys[zlib.crc32(member.encode()) % len(self.keys)]

    def add(self, members: Mapping[str, float], pipe: Any = None) -> None:
        """Add (or re-score) members; trim their shards to their share of ``size``. On
        ``pipe`` (sent by the caller) if given."""
        own = pipe is None
        target = self.redis.pipeline(transaction=False) if own else pipe
        touched: dict[str, dict[str, float]] = {}
        for member, score in members.items():
            touched.setdefault(self.key_of(member), {})[member] = score
        for key, scored in touched.items():
            target.zadd(key, scored)
            if self.size is not None:
                share = -(-self.size // len(self.keys))
                target.zremrangebyrank(key, 0, -share - 1)
        if own:
            target.execute()

    def remove(self, members: Sequence[str], pipe: Any = None) -> None:
        """Remove members (on ``pipe`` if given)."""
        if not members:
            return
        own = pipe is None
        target = self.redis.pipeline(transaction=False) if own else pipe
        touched: dict[str, list[str]] = {}
        for member in members:
            touched.setdefault(self.key_of(member), []).append(member)
        for key, found in touched.items():
            target.zrem(key, *found)
        if own:
            target.execute()

    def newest(self, offset: int = 0, limit: int = 50) -> list[str]:
        """Members by score, highest first, from ``offset`` (as ZREVRANGE on one set)."""
        if limit <= 0:
            return []
        replies = self._each(lambda pipe, key: pipe.zrevrange(key, 0, offset + limit - 1, True))
        merged = sorted(_pairs(replies), key=lambda pair: (pair[1], pair[0]), reverse=True)
        return [member for member, _ in merged[offset : offset + limit]]

    def members(self) -> list[str]:
        """Every member, by score, lowest first."""
        return [member for member, _ in self.scored()]

    def scored(self) -> list[tuple[str, float]]:
        """Every (member, score), by score, lowest first."""
        replies = self._each(lambda pipe, key: pipe.zrange(key, 0, -1, withscores=True))
        return sorted(_pairs(replies), key=lambda p: (p[1], p[0]))

    def absorb(self, legacy_key: str) -> int:
        """Move the members of an index kept on one key (before sharding) into the shards,
        and drop that key. Idempotent (nothing to do once it is gone); returns how many."""
        pairs = cast(
            "list[tuple[str, float]]", self.redis.zrange(legacy_key, 0, -1, withscores=True)
        )
        if pairs:
            self.add(dict(pairs))
            self.redis.delete(legacy_key)
        return len(pairs)

    def count(self) -> int:
        return sum(cast("list[int]", self._each(lambda pipe, key: pipe.zcard(key))))

    def _each(self, command: Any) -> list[Any]:
        """``command(pipe, key)`` for every shard, in one pipeline (one round trip per node)."""
        with self.redis.pipeline(transaction=False) as pipe:
            for key in self.keys:
                command(pipe, key)
            return cast("list[Any]", pipe.execute())


def _pairs(replies: list[Any]) -> list[tuple[str, float]]:
    """The (member, score) pairs of every shard's WITHSCORES reply."""
    return [pair for reply in replies for pair in cast("list[tuple[str, float]]", reply)]
