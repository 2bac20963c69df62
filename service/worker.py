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
import logging
import signal
import threading
import time
from types import FrameType
from typing import Any

from rq import SimpleWorker, Worker

from service.config import Settings
from service.connections import REDIS_FAILURES, QueueOnCluster, queue_url
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


class DicehallWorker(OneTripHeartbeatMixin, StoppableMixin, SimpleWorker):
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
    settings = Settings()
    try:
        queue_url(settings)
    except QueueOnCluster as exc:  # misconfigured: say so and stop, no traceback
        parser.exit(2, f"{parser.prog}: {exc}\n")
    run(settings, burst=args.burst, fork=args.fork)


if __name__ == "__main__":
    main()
