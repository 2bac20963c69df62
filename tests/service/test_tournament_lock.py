"""The tournament lock is a ``redis.lock.Lock``: one tick at a time, and a tick that outlives
the lock's timeout does not free the lock a later tick took meanwhile. Against the session
Redis, with a key prefix and a queue no worker reads."""

from __future__ import annotations

from typing import Any

import pytest
from redis.lock import Lock

from service.config import Settings
from service.runtime import queue_for
from service.tournaments import TournamentRunner, holding
from tests.conftest import wait_until


@pytest.fixture()
def runner(redis_client: Any) -> TournamentRunner:
    settings = Settings(queue_name="dicehall-lock-test", key_prefix="locktest")
    queue_for(settings).empty()
    return TournamentRunner(settings)


def test_a_holder_past_its_timeout_leaves_the_next_holders_lock_alone(redis_client) -> None:
    key = "locktest:lock"
    first = Lock(redis_client, key, timeout=0.2, blocking=False)
    second = Lock(redis_client, key, timeout=30, blocking=False)
    with holding(first) as held:
        assert held
        wait_until(lambda: not redis_client.exists(key), 5, "the first holder's lock to expire")
        assert second.acquire()
    assert second.owned(), "the first holder released the second holder's lock"
    assert redis_client.exists(key)
    second.release()
    with holding(first) as held:
        assert held, "a lock released by its holder is free again"
    assert not redis_client.exists(key)


def test_a_tick_while_another_holds_the_lock_is_busy_and_leaves_it_held(runner) -> None:
    t = runner.create(
        {
            "game": "toy",
            "participants": [{"name": "a", "bot": "random"}, {"name": "b", "bot": "random"}],
            "games": 2,
        }
    )
    other = runner.lock(t.id)
    assert other.acquire()
    assert runner.tick(t.id, False) == "busy"
    assert other.owned()
    assert runner.load(t.id).created == 0
    other.release()
    assert runner.tick(t.id, False) == "0/2 over, 2 started"
    assert not runner.redis.exists(other.name), "the tick released its lock"
