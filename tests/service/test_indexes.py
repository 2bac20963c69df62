"""Sharded global indexes (``service.indexes``): listing and paging as on one sorted set."""

from __future__ import annotations

import random
from typing import Any

from service.indexes import ShardedIndex
from service.keys import Keys


def test_paging_a_sharded_index_matches_one_sorted_set(redis_client: Any) -> None:
    rng = random.Random(14)
    members = {f"g{n:03d}": float(rng.randrange(50)) for n in range(200)}  # many ties
    index = ShardedIndex(redis_client, Keys("idx"), "games", shards=5)
    index.add(members)
    redis_client.zadd("one", members)
    assert {key for key in index.keys if redis_client.zcard(key)} == set(index.keys)
    for offset, limit in [(0, 50), (37, 13), (190, 50), (0, 500), (250, 5)]:
        assert index.newest(offset, limit) == redis_client.zrevrange(
            "one", offset, offset + limit - 1
        )
    assert index.members() == redis_client.zrange("one", 0, -1)
    assert index.count() == 200
    index.remove(["g000", "g001", "nobody"])
    assert index.count() == 198 and "g000" not in index.members()


def test_a_bounded_sharded_index_keeps_about_its_size_of_the_newest(redis_client: Any) -> None:
    index = ShardedIndex(redis_client, Keys("idx"), "games", shards=4, size=40)
    index.add({f"g{n:03d}": float(n) for n in range(400)})
    kept = index.members()
    assert 30 <= len(kept) <= 40
    assert set(index.newest(0, 20)) == {f"g{n:03d}" for n in range(380, 400)} & set(kept)
