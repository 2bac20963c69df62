"""The rq worker that plays bot seats: ``python -m service.worker [--burst] [--fork]``.

The worker outlives Redis blips and failovers: rq's loop quits on some Redis errors ("found
an unhandled exception, quitting"; a ``ReadOnlyError`` from a demoted primary; a lost
connection), so :func:`run` starts a new worker after a backoff (1 s doubling to 30 s) until
it is asked to stop; a Sentinel URL's client finds the promoted primary on reconnecting.
SIGTERM or Ctrl-C is rq's warm shutdown: the job in hand
finishes, then the process exits. Every worker also runs the sweep thread
(``service.sweep``) that keeps every game moving and fires deadlines.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import signal
import threading
import time
from types import FrameType
from typing import Any

from rq import Queue, SimpleWorker, Worker
from rq.callbacks import execute_success_callback
from rq.executions import Execution
from rq.job import Job, JobStatus, Retry
from rq.rate_limit import release_slot
from rq.suspension import WORKERS_SUSPENDED
from rq.utils import now
from rq.worker import WorkerStatus

from service.config import Settings
from service.connections import REDIS_FAILURES, QueueOnCluster, queue_url
from service.jobs import finishes_alone, read_ahead
from service.logs import configure_logging
from service.runtime import queue_for
from service.sweep import Sweeper

log = logging.getLogger("service.worker")

BACKOFF_FIRST = 1.0
BACKOFF_MAX = 30.0
STEADY = 60.0
"""A worker loop that ran this long starts the backoff again from ``BACKOFF_FIRST``."""


class StoppableMixin:
    """Remembers that a stop was asked for, so the supervising loop does not restart."""

    stop_asked = False

    def request_stop(self, signum: int, frame: FrameType | None) -> None:
        self.stop_asked = True
        super().request_stop(signum, frame)  # type: ignore[misc]

    def request_force_stop(self, signum: int, frame: FrameType | None) -> None:
        self.stop_asked = True
        super().request_force_stop(signum, frame)  # type: ignore[misc]


class OneTripHeartbeatMixin:
    """rq's heartbeat (the worker's ``last_heartbeat`` and the TTLs of its key and its
    executions' key) in one round trip instead of three.

    rq sends it unpipelined before and after each dequeue and after each job. The one after
    the dequeue lies between a bot job leaving the queue and starting, while the API that
    enqueued it is still answering the move on the same cores, where each round trip can
    wait for a core. Same commands, same keys, same TTLs; a heartbeat rq already puts in a
    pipeline of its own goes there.
    """

    connection: Any

    def heartbeat(self, timeout: int | None = None, pipeline: Any = None) -> None:
        if pipeline is not None:
            super().heartbeat(timeout, pipeline=pipeline)  # type: ignore[misc]
            return
        with self.connection.pipeline(transaction=False) as pipe:
            super().heartbeat(timeout, pipeline=pipe)  # type: ignore[misc]
            pipe.execute()


class OneTripPreparationMixin:
    """rq's preparation of a dequeued job in one round trip instead of three (a worker that
    runs its jobs in its own process, rq's SimpleWorker).

    Between a job leaving the queue (and being read) and its start, rq sends the worker's
    heartbeat, then the job's execution record and the worker's busy state (one pipeline),
    then the heartbeats of the worker and the job, the job's started state and its removal
    from the intermediate queue (another). While a bot job starts, the API that committed the
    move is still answering it on the same cores, and each of those round trips can wait for
    a core (``docs/PERFORMANCE.md``: 3-6 ms from the human's commit to the job's start,
    against 1.4 ms for an empty job's queued-to-started). Here the same commands go in one
    transaction, in rq's order; the heartbeat after the dequeue is the one that pipeline
    carries (with the job's longer TTL), sent a moment later. A bot job's first read of its
    game goes in the same transaction (``service.jobs.read_ahead``), not in a round trip of
    the job's own.
    """

    connection: Any
    queues: list[Queue]
    executions: dict[str, Execution]
    name: str
    _job_in_hand = False
    _prepared = False
    _settings: Settings | None = None

    def reorder_queues(self, reference_queue: Queue) -> None:
        # rq calls this right after a dequeue that found a job, and only then
        self._job_in_hand = True
        super().reorder_queues(reference_queue)  # type: ignore[misc]

    def heartbeat(self, timeout: int | None = None, pipeline: Any = None) -> None:
        if pipeline is None and self._job_in_hand:
            # the job's preparation, next, carries it; skipped once only, so a dequeue that
            # fails after finding a job (rq retries the loop) cannot silence the heartbeat
            self._job_in_hand = False
            return
        super().heartbeat(timeout, pipeline=pipeline)  # type: ignore[misc]

    def execute_job(self, job: Job, queue: Queue) -> None:
        """rq's SimpleWorker.execute_job with its two preparations in one pipeline, and a bot
        job's first read of its game with them (``service.jobs.read_ahead``)."""
        self._job_in_hand = False
        if self._settings is None:  # the worker's environment, read once
            self._settings = Settings()
        ahead = read_ahead(job, self._settings)
        with self.connection.pipeline() as pipeline:
            ttl = self.get_heartbeat_ttl(job)  # type: ignore[attr-defined]
            # rq's prepare_execution
            execution = Execution.create(job, ttl, pipeline=pipeline, worker_name=self.name)
            self.executions[execution.id] = execution
            self.set_state(WorkerStatus.BUSY, pipeline=pipeline)  # type: ignore[attr-defined]
            # rq's prepare_job_execution
            self.heartbeat(ttl, pipeline=pipeline)
            job.heartbeat(now(), ttl, pipeline=pipeline)
            job.prepare_for_execution(self.name, pipeline=pipeline)
            pipeline.persist(job.key)
            if len(self.queues) == 1:
                pipeline.lrem(queue.intermediate_queue_key, 1, job.id)
            read = ahead.queue(pipeline) if ahead is not None else 0
            # an error in the read is the job's to raise (ReadAhead.held), not the worker's
            replies = pipeline.execute(raise_on_error=False)
        for reply in replies[: len(replies) - read]:
            if isinstance(reply, Exception):
                raise reply  # rq's own preparation failed, as pipeline.execute() would say
        if ahead is not None:
            ahead.settle(replies[len(replies) - read :])
        message = f"Processing {job.func_name} from {job.origin} since {time.time()}"
        self.procline(message)  # type: ignore[attr-defined]  # rq's, as its preparation says it
        self._prepared = True
        try:
            with ahead.held() if ahead is not None else contextlib.nullcontext():
                self.perform_job(job, queue, execution)  # type: ignore[attr-defined]
        finally:
            self._prepared = False
        if not self._idle_sent():
            self.set_state(WorkerStatus.IDLE)  # type: ignore[attr-defined]

    def _idle_sent(self) -> bool:
        """Whether the job's finishing already sent the worker's idle state (a subclass's)."""
        return False

    def prepare_job_execution(self, job: Job, remove_from_intermediate_queue: bool = False) -> None:
        if self._prepared:  # done with the execution's record, in execute_job
            self._prepared = False
            return
        super().prepare_job_execution(job, remove_from_intermediate_queue)  # type: ignore[misc]


PER_JOB_LINES = frozenset(
    {
        "Worker %s: %s: %s",  # a job dequeued
        "Worker %s: %s: %s (%s)",  # a job dequeued (with its description); a job OK
        "Worker %s: job %s result is kept for %s seconds",
    }
)
"""rq 3.0's INFO lines of every job that succeeds but the one that says it completed (with
the job's description, its time and its worker): three of four a bot move."""


class JobLinesAtDebug:
    """rq's worker logger with three of its four INFO lines a job (``PER_JOB_LINES``) at
    DEBUG: a line costs the worker about 0.1 ms (its record, its format, its write), and the
    one of a dequeued job comes between a move's commit and its bot's reply. A job's
    "Successfully completed" line, after its finishing, and what rq logs otherwise (start,
    stop, failures, registries cleaned) stay as rq logs them; ``DICEHALL_LOG_LEVEL=debug``
    shows the other per-job lines too."""

    def __init__(self, logger: logging.Logger) -> None:
        self.logger = logger

    def info(self, msg: str, *args: Any, **kwargs: Any) -> None:
        if msg in PER_JOB_LINES:
            self.logger.debug(msg, *args, **kwargs)
        else:
            self.logger.info(msg, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.logger, name)


def job_lines_follow_root() -> None:
    """Let ``DICEHALL_LOG_LEVEL=debug`` show rq's per-job lines: rq sets its worker's logger
    to INFO when it is imported, whatever the root logger's level."""
    if logging.getLogger().isEnabledFor(logging.DEBUG):
        logging.getLogger("rq.worker").setLevel(logging.DEBUG)


class QuietJobsMixin:
    """rq's per-job log lines at DEBUG (:class:`JobLinesAtDebug`)."""

    log: Any

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.log = JobLinesAtDebug(self.log)


FRESH = 1.0
"""Seconds for which what a job's finishing sent (the worker's idle state and heartbeat, the
suspension flag read) stands for the same commands of the worker's loop."""


class OneTripFinishMixin:
    """rq's finishing of a bot job that succeeded in one round trip instead of nine (a worker
    that runs its jobs in its own process).

    After a job rq sends the job's heartbeat; WATCHes the job's dependents and reads them;
    writes the result, the worker's counts and the job's cleanup (a transaction); then the
    worker's idle state, its heartbeat, the suspension check (with another heartbeat), the idle
    state again and a heartbeat before it waits for the next job. A bot job ends with the bot's
    commit, and these round trips come while its move goes out on the game's stream from the
    same cores. For a job nothing depends on (``service.jobs.finishes_alone``: the service
    enqueues no job with ``depends_on``, so there is nothing to WATCH or move), the same writes
    go in one transaction, in rq's order, with the idle state, one heartbeat and the
    suspension flag's read; the loop's own commands that follow within ``FRESH`` seconds are
    not sent again.
    """

    connection: Any
    name: str
    log: Any
    log_job_description: bool
    default_result_ttl: int
    death_penalty_class: Any
    _finished_at = float("-inf")
    _suspended_then = False

    def _fresh(self) -> bool:
        return time.monotonic() - self._finished_at < FRESH

    def _finalize_success(
        self, job: Job, queue: Queue, execution: Execution, return_value: Any
    ) -> None:
        if not finishes_alone(job) or isinstance(return_value, Retry):
            super()._finalize_success(job, queue, execution, return_value)  # type: ignore[misc]
            return
        job.ended_at = now()  # rq's handle_execution_ended, its heartbeat in the transaction
        job._result = return_value
        job._status = JobStatus.FINISHED
        execute_success_callback(job, self.death_penalty_class, return_value)
        result_ttl = job.get_result_ttl(self.default_result_ttl)
        assert job.started_at is not None
        with self.connection.pipeline() as pipe:
            job.heartbeat(now(), job.success_callback_timeout, pipeline=pipe)
            # rq's handle_job_success, without dependents to move
            self.increment_successful_job_count(pipeline=pipe)  # type: ignore[attr-defined]
            self.increment_total_working_time(job.ended_at - job.started_at, pipe)  # type: ignore[attr-defined]
            if result_ttl != 0:
                job._handle_success(
                    result_ttl,
                    pipeline=pipe,
                    worker_name=self.name,
                    execution_id=execution.id,
                    execution_started_at=execution.created_at,
                    execution_ended_at=job.ended_at,
                )
            job.cleanup(result_ttl, pipeline=pipe, remove_from_queue=False)
            self.cleanup_execution(job, pipeline=pipe, execution=execution)  # type: ignore[attr-defined]
            # the worker's loop's, next: idle, alive, and whether it is suspended
            self.set_state(WorkerStatus.IDLE, pipeline=pipe)  # type: ignore[attr-defined]
            self.heartbeat(pipeline=pipe)  # type: ignore[attr-defined]
            pipe.exists(WORKERS_SUSPENDED)
            replies = pipe.execute()
        self._finished_at = time.monotonic()
        self._suspended_then = bool(replies[-1])
        release_slot(job)
        job.send_webhooks(JobStatus.FINISHED)
        taken = job.ended_at - job.started_at
        if self.log_job_description:
            self.log.info(
                "Successfully completed %s job in %ss on worker %s",
                job.description,
                taken,
                self.name,
            )
        else:
            self.log.info(
                "Successfully completed job %s in %ss on worker %s", job.id, taken, self.name
            )

    def _idle_sent(self) -> bool:
        return self._fresh()

    def set_state(self, state: str, pipeline: Any = None) -> None:
        if pipeline is None and state == WorkerStatus.IDLE and self._fresh():
            return
        super().set_state(state, pipeline=pipeline)  # type: ignore[misc]

    def heartbeat(self, timeout: int | None = None, pipeline: Any = None) -> None:
        if pipeline is None and timeout is None and self._fresh():
            return
        super().heartbeat(timeout, pipeline=pipeline)  # type: ignore[misc]

    def check_for_suspension(self, burst: bool) -> None:
        if self._fresh() and not self._suspended_then:
            return
        super().check_for_suspension(burst)  # type: ignore[misc]

    def dequeue_job_and_maintain_ttl(
        self, timeout: int | None, max_idle_time: int | None = None
    ) -> Any:
        found = super().dequeue_job_and_maintain_ttl(timeout, max_idle_time)  # type: ignore[misc]
        self._finished_at = float("-inf")  # a job in hand: what the last finish sent is spent
        return found


class DicehallWorker(
    QuietJobsMixin,
    OneTripFinishMixin,
    OneTripPreparationMixin,
    OneTripHeartbeatMixin,
    StoppableMixin,
    SimpleWorker,
):
    """Runs bot jobs in its own process (they are short and CPU-bound)."""


class DicehallForkingWorker(OneTripHeartbeatMixin, StoppableMixin, Worker):
    """Forks a work horse per job (``--fork``)."""


def run(settings: Settings, burst: bool = False, fork: bool = False) -> None:
    """Work the dicehall queue until asked to stop (or until it is empty, with ``burst``)."""
    worker_class = DicehallForkingWorker if fork else DicehallWorker
    stopping = threading.Event()
    current: list[str] = ["starting"]
    sweeper = None if burst else Sweeper(settings, lambda: current[0])
    backoff = BACKOFF_FIRST
    while not stopping.is_set():
        queue = queue_for(settings)
        started = time.monotonic()
        try:
            # rq's Worker() talks to Redis (CLIENT SETNAME): Redis may still be down here
            worker = worker_class([queue], connection=queue.connection)
        except REDIS_FAILURES as exc:
            log.warning("worker: Redis failed at start: %s; retrying in %.0f s", exc, backoff)
        else:
            current[0] = worker.name
            if sweeper is not None and not sweeper.is_alive():
                sweeper.start()
            try:
                worker.work(burst=burst, with_scheduler=True)
            except REDIS_FAILURES as exc:
                log.warning("worker %s: Redis failed: %s", worker.name, exc)
            if worker.stop_asked or burst:
                break
            if time.monotonic() - started > STEADY:
                backoff = BACKOFF_FIRST
            log.warning(
                "worker %s stopped unasked; a new one starts in %.0f s", worker.name, backoff
            )
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda signum, frame: stopping.set())
        stopping.wait(backoff)
        backoff = min(backoff * 2, BACKOFF_MAX)
    if sweeper is not None:
        sweeper.stopping.set()


def main(argv: list[str] | None = None) -> None:
    """Run a worker on the dicehall queue (``DICEHALL_QUEUE_URL``, else ``REDIS_URL``) until
    stopped (or empty, --burst).

    Bot jobs are short and CPU-bound, so by default the worker runs them in its own process
    (rq's SimpleWorker) instead of forking a work horse per job.
    """
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--burst", action="store_true", help="exit when the queue is empty")
    parser.add_argument("--fork", action="store_true", help="fork a work horse per job")
    args = parser.parse_args(argv)
    configure_logging()
    job_lines_follow_root()
    settings = Settings()
    try:
        queue_url(settings)
    except QueueOnCluster as exc:  # misconfigured: say so and stop, no traceback
        parser.exit(2, f"{parser.prog}: {exc}\n")
    run(settings, burst=args.burst, fork=args.fork)


if __name__ == "__main__":
    main()
