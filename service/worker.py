"""The rq worker that plays bot seats: ``python -m service.worker [--burst] [--fork]``."""

from __future__ import annotations

import argparse

from rq import SimpleWorker, Worker

from service.config import Settings
from service.runtime import queue_for


def main(argv: list[str] | None = None) -> None:
    """Run a worker on the dicehall queue of ``REDIS_URL`` until stopped (or empty, --burst).

    Bot jobs are short and CPU-bound, so by default the worker runs them in its own process
    (rq's SimpleWorker) instead of forking a work horse per job.
    """
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--burst", action="store_true", help="exit when the queue is empty")
    parser.add_argument("--fork", action="store_true", help="fork a work horse per job")
    args = parser.parse_args(argv)
    queue = queue_for(Settings())
    worker_class = Worker if args.fork else SimpleWorker
    worker = worker_class([queue], connection=queue.connection)
    worker.work(burst=args.burst, with_scheduler=True)


if __name__ == "__main__":
    main()
