"""Wiring of the stores, the rq queue and the game service from settings (app and workers)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from rq import Queue, Retry
from rq.job import Job

from service import connections, metrics
from service.accounts import AccountStore
from service.config import Settings
from service.enqueuing import Template
from service.games import GameService
from service.keys import Keys
from service.store import GameStore, Replicas, Retention


def queue_for(settings: Settings) -> Queue:
    """rq's queue, on the queue's Redis (``DICEHALL_QUEUE_URL``, see ``service.connections``)."""
    return Queue(settings.queue_name, connection=connections.queue_client(settings))


BOT_RETRY = Retry(max=3, interval=[1, 2, 4])
"""A bot job that fails (Redis gone mid-move or failing over, a bug) runs again after 1, 2
and 4 s (a promotion takes a few seconds); it carries its version, so a retry after the
game moved on does nothing. What still stalls is
the sweep's (``service.sweep``)."""
BOT_JOB = "service.jobs.play_bot"
JOB_MARKER_TTL = 24 * 3600
JOB_TIMEOUT = 300
"""rq kills a job that runs longer (a bot job hands on after ``service.jobs.JOB_SECONDS``)."""
RESULT_TTL = 60
FAILURE_TTL = 7 * 24 * 3600
"""A failed job stays in rq's failed registry a week, to be read."""


def job_options(retry: Retry | None = BOT_RETRY) -> dict[str, Any]:
    """rq's enqueue options of the service's jobs: its timeout and TTLs, and ``retry``."""
    return {
        "job_timeout": JOB_TIMEOUT,
        "result_ttl": RESULT_TTL,
        "failure_ttl": FAILURE_TTL,
        "retry": retry,
    }


def enqueue(
    queue: Queue,
    func: str,
    *args: object,
    retry: Retry | None = BOT_RETRY,
    at_front: bool = False,
    delay: float | None = None,
    pipeline: Any = None,
) -> Job:
    """Enqueue ``func(*args)`` with the service's timeout and TTLs; after ``delay`` seconds
    (rq's scheduler, which every worker runs) if given; on ``pipeline`` (sent by the caller)
    if given."""
    options = job_options(retry)
    if delay is not None:
        return queue.enqueue_in(timedelta(seconds=delay), func, *args, **options)
    return queue.enqueue(func, *args, at_front=at_front, pipeline=pipeline, **options)


class RqJobs:
    """The game service's background work as rq jobs (see ``service.jobs``).

    Each bot job's id is kept beside its job, on the queue's Redis (``Keys.bot_job``), so
    the sweep can tell a pending job from a lost one.

    When the queue is on the game's own Redis (``rides_commits``: no ``DICEHALL_QUEUE_URL``
    of its own, not a cluster), a move's bot jobs ride the move's commit
    (:meth:`bots_in_commit`): the guarded script that writes the move also pushes the jobs,
    atomically, so the bot's worker has its job the moment the move stands, one round trip
    sooner, and no crash can come between the two. Otherwise (the queue on another Redis)
    jobs are enqueued after the commit: a crash between the two leaves a bot seat owing with
    no job, which the sweep repairs.

    Bot jobs are queued from a :class:`service.enqueuing.Template` each (at the end of the
    queue, or at its front): rq's own commands, without rq's generic path per job.
    """

    def __init__(self, queue: Queue, keys: Keys | None = None, rides_commits: bool = False) -> None:
        self.queue = queue
        self.keys = keys
        self.rides_commits = rides_commits
        self.bot_jobs = {
            front: Template(queue, BOT_JOB, job_options(), at_front=front)
            for front in (False, True)
        }

    def bots(self, game_id: str, version: int, seats: list[int], at_front: bool = False) -> None:
        """A job per seat; ``at_front`` for a job that replaces a lost one (it has waited).
        The jobs and their markers go to Redis in one pipeline (one round trip)."""
        with self.queue.connection.pipeline() as pipe:
            self._queue_bots(pipe, game_id, version, seats, at_front)
            pipe.execute()

    def bots_in_commit(self, pipe: Any, game_id: str, version: int, seats: list[int]) -> None:
        """Queue the jobs on ``pipe``, a commit's writes (only when they ride commits: see
        the class)."""
        if not self.rides_commits:
            raise ValueError("bot jobs ride commits only when the queue is on the game's Redis")
        self._queue_bots(pipe, game_id, version, seats, at_front=False)

    def _queue_bots(
        self, pipe: Any, game_id: str, version: int, seats: list[int], at_front: bool
    ) -> None:
        for seat in seats:
            job_id = self.bot_jobs[at_front].enqueue(pipe, game_id, seat, version)
            if self.keys is not None:
                pipe.set(self.keys.bot_job(game_id, seat), job_id, ex=JOB_MARKER_TTL)

    def deadline(self, game_id: str, seat: int, due: float, at: float) -> None:
        """Nothing to schedule: the sweep that every worker runs plays a fallback within a
        second of its deadline (``service.sweep``), whichever worker is alive."""

    def tournament(self, tournament_id: str) -> None:
        enqueue(self.queue, "service.jobs.tournament_tick", tournament_id, False)

    def tournament_later(self, tournament_id: str, seconds: float, chain: str) -> None:
        """A scheduled tick of the tournament's tick chain ``chain`` (see
        ``TournamentRunner.tick``); not retried (the next one comes anyway)."""
        enqueue(
            self.queue,
            "service.jobs.tournament_tick",
            tournament_id,
            chain,
            retry=None,
            delay=seconds,
        )


def stores(settings: Settings) -> tuple[GameStore, AccountStore]:
    client = connections.store_client(settings)
    keys = Keys(settings.key_prefix)
    retention = Retention(
        waiting=settings.waiting_game_ttl,
        active=settings.active_game_ttl,
        finished=settings.finished_game_ttl,
    )
    return (
        GameStore(
            client,
            keys,
            retention,
            on_retry=metrics.CAS_RETRIES.inc,
            replicas=Replicas(settings.min_replicas, settings.replica_timeout_ms),
            index_shards=settings.index_shards,
        ),
        AccountStore(client, keys, settings.account_ttl),
    )


def game_service(settings: Settings) -> GameService:
    store, accounts = stores(settings)
    jobs = RqJobs(queue_for(settings), store.keys, rides_commits=queue_shares_store(settings))
    return GameService(store, accounts, jobs, settings.idempotency_ttl)


def queue_shares_store(settings: Settings) -> bool:
    """Whether rq's queue is on the game store's own Redis (one server, or one Sentinel
    service), so a commit can push bot jobs with the move (``RqJobs.bots_in_commit``)."""
    return connections.queue_url(settings) == settings.redis_url
