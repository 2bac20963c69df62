"""A job template (``service.enqueuing``) queues exactly what rq's own ``enqueue`` queues for
the same call, its id and times aside, and rq reads and runs its jobs as its own."""

from __future__ import annotations

from typing import Any

import pytest
from rq import SimpleWorker
from rq.job import JobStatus
from rq.utils import utcparse

from service.config import Settings
from service.enqueuing import Template
from service.runtime import BOT_JOB, job_options, queue_for

QUEUE = "dicehall-enqueuing-test"
CALLS = [("g1", 0, 4), ("g1", 1, 4), ("game-" + "x" * 90, 3, 123456)]
"""Bot calls, one with an argument longer than rq's description keeps."""


@pytest.fixture()
def queue(redis_client: Any) -> Any:
    queue = queue_for(Settings(queue_name=QUEUE))
    queue.empty()
    return queue


def normalised(stack: list[tuple[Any, ...]], job_id: str) -> list[tuple[Any, ...]]:
    """``stack`` with the job's id and its times replaced by placeholders (the times checked to
    be rq's format)."""
    key = f"rq:job:{job_id}"
    out = []
    for command in stack:
        args = ["ID" if a == job_id else "KEY" if a == key else a for a in command]
        for n in range(2, len(args) - 1, 2):
            if command[0] == "HSET" and args[n] in ("created_at", "enqueued_at"):
                utcparse(args[n + 1])
                args[n + 1] = "TIME"
        out.append(tuple(args))
    return out


def rq_own(queue: Any, args: tuple[Any, ...], at_front: bool) -> tuple[list[Any], str]:
    """The commands rq's own enqueue queues for ``args``, and its job's id."""
    pipe = queue.connection.pipeline(transaction=False)
    job = queue.enqueue(BOT_JOB, *args, at_front=at_front, pipeline=pipe, **job_options())
    stack = [command for command, _ in pipe.command_stack]
    pipe.reset()
    return stack, job.id


@pytest.mark.parametrize("at_front", [False, True])
def test_each_job_queues_rqs_own_commands_for_its_call(queue: Any, at_front: bool) -> None:
    template = Template(queue, BOT_JOB, job_options(), at_front=at_front)
    ids = set()
    for args in CALLS:
        pipe = queue.connection.pipeline(transaction=False)
        job_id = template.enqueue(pipe, *args)
        ours = [command for command, _ in pipe.command_stack]
        pipe.reset()
        theirs, their_id = rq_own(queue, args, at_front)
        assert normalised(ours, job_id) == normalised(theirs, their_id)
        assert ours[-1][0] == ("LPUSH" if at_front else "RPUSH")
        ids.add(job_id)
    assert len(ids) == len(CALLS), "every job has an id of its own"
    assert template.commands, "the first job's commands became the template"


def test_rq_reads_and_runs_a_templates_jobs_as_its_own(queue: Any) -> None:
    template = Template(queue, "builtins.len", {"result_ttl": 60, "job_timeout": 30})
    with queue.connection.pipeline() as pipe:
        ids = [template.enqueue(pipe, word) for word in ("a", "bb", "ccc")]
        pipe.execute()
    assert queue.job_ids == ids
    jobs = queue.jobs
    assert [(job.func_name, job.args, job.description) for job in jobs] == [
        ("builtins.len", (word,), f"builtins.len({word!r})") for word in ("a", "bb", "ccc")
    ]
    assert {(job.timeout, job.result_ttl, job.origin) for job in jobs} == {(30, 60, QUEUE)}
    assert all(job.get_status() is JobStatus.QUEUED and job.enqueued_at for job in jobs)
    SimpleWorker([queue], connection=queue.connection).work(burst=True)
    assert [queue.fetch_job(job_id).return_value() for job_id in ids] == [1, 2, 3]


class SwitchingPipeline:
    """A pipeline on which another thread's first job of the same template runs between two
    of this job's commands (what a switch of gunicorn's threads can do while two of them
    start the template at once): the commands queued are the real pipeline's."""

    def __init__(self, pipe: Any, template: Template, queue: Any) -> None:
        self.pipe, self.template, self.queue = pipe, template, queue
        self.switched = False

    def execute_command(self, *args: Any, **options: Any) -> Any:
        if not self.switched:
            self.switched = True
            other = self.queue.connection.pipeline(transaction=False)
            self.template._first(other, ("other", 9, 9))  # that thread found no template yet
            other.reset()
        return self.pipe.execute_command(*args, **options)


def test_a_job_keeps_the_template_it_started_with_while_another_thread_sets_one(
    queue: Any,
) -> None:
    template = Template(queue, BOT_JOB, job_options())
    first = queue.connection.pipeline(transaction=False)
    template.enqueue(first, *CALLS[0])
    first.reset()
    pipe = queue.connection.pipeline(transaction=False)
    job_id = template.enqueue(SwitchingPipeline(pipe, template, queue), *CALLS[1])
    ours = [command for command, _ in pipe.command_stack]
    pipe.reset()
    theirs, their_id = rq_own(queue, CALLS[1], False)
    assert normalised(ours, job_id) == normalised(theirs, their_id)
