"""The tournament lock is a ``redis.lock.Lock``: one tick at a time, and a tick that outlives
the lock's timeout does not free the lock a later tick took meanwhile. Against the session
Redis, with a key prefix and a queue no worker reads."""

from __future__ import annotations

from typing import Any

import pytest
from redis.lock import Lock
from rq.job import Job
from rq.registry import ScheduledJobRegistry

from service.config import Settings
from service.runtime import queue_for
from service.tournaments import BEAT_STALE, TournamentRunner, holding
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


def _scheduled_ticks(runner: TournamentRunner, tid: str) -> list[Job]:
    """The tournament's scheduled ticks waiting in rq's scheduled registry."""
    queue = queue_for(runner.settings)
    registry = ScheduledJobRegistry(queue=queue)
    jobs = [queue.fetch_job(job_id) for job_id in registry.get_job_ids()]
    return [job for job in jobs if job is not None and job.args[0] == tid]


def _run_scheduled(runner: TournamentRunner, tid: str) -> None:
    """Run each scheduled tick of the tournament now, as the workers would when it is due."""
    registry = ScheduledJobRegistry(queue=queue_for(runner.settings))
    for job in _scheduled_ticks(runner, tid):
        registry.remove(job, delete_job=True)
        runner.tick(*job.args)


def test_a_tournament_has_one_chain_of_scheduled_ticks_however_often_it_restarts(runner) -> None:
    """A scheduled tick schedules the next; a tick that finds the heartbeat stale starts the
    schedule again. On main the tournament's creation scheduled a tick and its first tick (the
    heartbeat not yet written) another, so every tournament had two chains of ticks from its
    start, and each time the heartbeat went stale while a chain was only held up (workers busy
    for 10 s, a game's end ticking first) one chain more: ticks that never stop while it runs."""
    t = runner.create(
        {
            "game": "toy",
            "participants": [{"name": "a", "bot": "random"}, {"name": "b", "bot": "random"}],
            "games": 2,
        }
    )
    runner.tick(t.id, False)  # the first tick, which creation enqueued
    assert len(_scheduled_ticks(runner, t.id)) == 1, "one chain of scheduled ticks"
    _run_scheduled(runner, t.id)
    assert len(_scheduled_ticks(runner, t.id)) == 1, "a scheduled tick schedules the next"

    beat = runner._key(t.id, "beat")
    runner.redis.set(beat, float(runner.redis.get(beat)) - 2 * BEAT_STALE)  # workers held up
    runner.tick(t.id, False)  # a game's end ticks first, finds the heartbeat stale
    assert len(_scheduled_ticks(runner, t.id)) == 2  # the held-up tick, and a new chain
    _run_scheduled(runner, t.id)
    assert len(_scheduled_ticks(runner, t.id)) == 1, "the held-up chain ended"
    _run_scheduled(runner, t.id)
    assert len(_scheduled_ticks(runner, t.id)) == 1

    legacy = Job.create("service.jobs.tournament_tick", args=(t.id, True), connection=runner.redis)
    assert legacy.args is not None
    runner.tick(*legacy.args)  # a tick scheduled before chains had names ends there too
    assert len(_scheduled_ticks(runner, t.id)) == 1
