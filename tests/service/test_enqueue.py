"""Every rq job the service enqueues takes ``service.runtime.job_options`` (bot jobs through
their ``service.enqueuing.Template``, the others through ``service.runtime.enqueue``): one
timeout, one pair of TTLs, a retry for the jobs that may retry. The jobs land on a queue no
worker reads."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from rq.registry import ScheduledJobRegistry

from service.config import Settings
from service.runtime import FAILURE_TTL, JOB_TIMEOUT, RESULT_TTL, RqJobs, queue_for

QUEUE = "dicehall-enqueue-test"


@pytest.fixture()
def jobs(redis_client: Any) -> RqJobs:
    queue = queue_for(Settings(queue_name=QUEUE))
    queue.empty()
    return RqJobs(queue)


def test_bot_and_tournament_jobs_share_timeout_ttls_and_retry(jobs: RqJobs) -> None:
    jobs.bots("g1", 4, [0, 2])
    jobs.bots("g2", 7, [1], at_front=True)
    jobs.tournament("t1")
    queued = jobs.queue.jobs
    assert [(job.func_name, job.args) for job in queued] == [
        ("service.jobs.play_bot", ("g2", 1, 7)),
        ("service.jobs.play_bot", ("g1", 0, 4)),
        ("service.jobs.play_bot", ("g1", 2, 4)),
        ("service.jobs.tournament_tick", ("t1", False)),
    ]
    for job in queued:
        assert (job.timeout, job.result_ttl, job.failure_ttl) == (
            JOB_TIMEOUT,
            RESULT_TTL,
            FAILURE_TTL,
        )
        assert job.retries_left == 3


def test_a_scheduled_tournament_tick_waits_and_is_not_retried(jobs: RqJobs) -> None:
    jobs.tournament_later("t1", 30, "chain1")
    assert jobs.queue.count == 0
    registry = ScheduledJobRegistry(queue=jobs.queue)
    (job_id,) = registry.get_job_ids()
    job = jobs.queue.fetch_job(job_id)
    assert job is not None and job.args == ("t1", "chain1")
    assert (job.timeout, job.result_ttl, job.failure_ttl) == (JOB_TIMEOUT, RESULT_TTL, FAILURE_TTL)
    assert not job.retries_left
    wait = registry.get_scheduled_time(job) - datetime.now(UTC)
    assert timedelta(seconds=20) < wait <= timedelta(seconds=30)
    registry.remove(job, delete_job=True)
