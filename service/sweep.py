"""The sweep: every game that is not over keeps moving, whatever process died.

Every worker runs a :class:`Sweeper` thread. Once a second each one refreshes its own
heartbeat key, and the one holding the sweep lock (a ``redis.lock.Lock`` with a 3 s timeout,
so a killed holder is replaced within seconds) makes one pass over the games that are not
over (``GameStore.live``, a sharded index). A pass needs nothing but Redis:

- a human or external seat whose deadline has passed gets its fallback move at once (this
  is the only place deadlines fire, so they fire within a second or two of being due
  whichever worker is alive);
- a bot seat that has owed a decision for more than ``BOT_GRACE`` seconds with no job
  pending gets a new job, at the front of the queue. A job is pending while it waits in the
  queue, or runs on a worker whose heartbeat is fresh. A job carries the version it was made
  for, so one made twice plays once; after ``MAX_REPLAYS`` jobs for one decision (a bot
  that fails every time on it) the seat gets its fallback move instead, as a passed deadline
  gives one, so that the game goes on. This covers a job lost with a killed worker, a
  follow-up lost between a commit and its enqueue (a killed API process; only with the queue
  on a Redis of its own, since on the game's Redis the commit writes the job), and a job that
  failed for good in a Redis outage.
- a game found over leaves the index, compacted (``GameService.ended``: the follow-up of
  its last move, which compacts it, may have been lost with its API process); if it belongs
  to a tournament, the tournament gets a tick (the one that followed that move may have been
  lost too).

A pass also records what it saw (``<prefix>:sweep:stats``) for ``/metrics``.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import cast

import redis
from redis.lock import Lock
from rq.job import Job, JobStatus

from service import connections
from service.config import Settings
from service.errors import ServiceError
from service.games import GameService
from service.keys import Keys
from service.runtime import RqJobs, game_service, queue_for
from service.store import GameRecord, GameStatus
from service.tournaments import TICK_SECONDS, tournament_indexes

log = logging.getLogger(__name__)

INTERVAL = 1.0
"""Seconds between passes (and heartbeats)."""
LOCK_TIMEOUT = 3.0
"""A killed sweeper's lock frees itself after this long."""
HEARTBEAT_TTL = 3.0
"""A worker whose heartbeat is older than this is taken for dead, with its job."""
BOT_GRACE = 2.0
"""A bot seat owing for less than this is left to the job that follow-up enqueued."""
STALLED_AFTER = 30.0
"""A decision owed this long past its expected time counts as stalled in ``/metrics``."""
MAX_REPLAYS = 10
"""Bot jobs the sweep makes for one decision before it gives up on them (a bot that fails
every time) and plays the seat's fallback move instead (logged, and counted against the
seat as a missed deadline is)."""
REPLAYS_TTL = 24 * 3600
CHUNK = 500
RECORD_TTL = 24 * 3600
"""The sweep's statistics and the lock holder's name outlive a day without sweeps by nothing
(everything in Redis is bounded)."""
REVIVE_AFTER = 10 * TICK_SECONDS
"""A running tournament without a tick for this long gets one from the sweep."""


def heartbeat_key(prefix: str, worker_name: str) -> str:
    return Keys(prefix).worker_alive(worker_name)


def stats_key(prefix: str) -> str:
    return Keys(prefix).sweep_stats


def holder_key(prefix: str) -> str:
    """Who holds the sweep lock: ``<worker name> <pid>`` (for operators and tests)."""
    return Keys(prefix).sweep_holder


@dataclass
class PassReport:
    """What one pass saw and did."""

    live: int = 0
    stalled: set[str] = field(default_factory=set)
    enqueued: list[tuple[str, int]] = field(default_factory=list)
    fallbacks: list[tuple[str, int]] = field(default_factory=list)
    dropped: int = 0
    revived: list[str] = field(default_factory=list)


class Sweep:
    """One pass over the games that are not over (see the module docstring)."""

    def __init__(self, service: GameService, settings: Settings) -> None:
        self.service = service
        self.store = service.store
        self.settings = settings
        self.queue = queue_for(settings)
        self.jobs = RqJobs(self.queue, service.store.keys)
        self.tournaments, self.running = tournament_indexes(service.store, settings)
        self.markers = connections.queue_str_client(settings)
        """The bot job markers live beside the jobs, on the queue's Redis."""

    def run(
        self, now: float | None = None, keep_lock: Callable[[], object] | None = None
    ) -> PassReport:
        """One pass at ``now`` (default: the clock). A long pass calls ``keep_lock`` about
        once a second (it extends the sweep lock, and raises if the lock was lost, which
        ends the pass: another worker sweeps now)."""
        report = PassReport()
        now = time.time() if now is None else now
        ids = self.store.live_ids()
        report.live = len(ids)
        gone: list[str] = []
        listed: dict[str, float] = {}
        ended: set[str] = set()
        finished: list[GameRecord] = []
        renewed = time.monotonic()
        for start in range(0, len(ids), CHUNK):
            chunk = ids[start : start + CHUNK]
            for game_id, record in zip(chunk, self.store.glance(chunk), strict=True):
                if keep_lock is not None and time.monotonic() - renewed > INTERVAL:
                    keep_lock()
                    renewed = time.monotonic()
                if record is None or record.status is GameStatus.OVER:
                    gone.append(game_id)
                    if record is not None:
                        finished.append(record)
                    if record is not None and record.tournament:
                        ended.add(record.tournament)
                    continue
                if record.visibility == "public":
                    listed[game_id] = record.created_at
                if record.status is GameStatus.ACTIVE:
                    try:
                        self._look_at(record, now, report)
                    except connections.REDIS_FAILURES:
                        raise
                    except Exception:  # one broken game must not stop the others
                        log.exception("sweep: game %s", game_id)
        for record in finished:  # compacted already, as a rule: then this reads and stops
            try:
                self.service.ended(record)
            except connections.REDIS_FAILURES:
                raise
            except Exception:
                log.exception("sweep: compacting game %s", record.id)
        for tournament_id in sorted(ended):  # its tick may have been lost with the follow-up
            self.jobs.tournament(tournament_id)
        self._revive_tournaments(now, report)
        self.store.listed.add(listed)  # a listing lost with a crash after the game's commit
        self.store.drop_live(gone)
        report.dropped = len(gone)
        self._record(report, now)
        return report

    def backfill(self) -> int:
        """At a sweeper's start: move the indexes of a database older than their sharding
        into their shards (``ShardedIndex.absorb``: nothing to do once done). Once per
        database: put the games that were not over before the live index existed into it.
        Returns how many."""
        keys = self.store.keys
        self.store.listed.absorb(keys.legacy_index("games"))
        self.store.live.absorb(keys.legacy_index("live"))
        self.tournaments.absorb(keys.legacy_index("tournaments"))
        if not self.store.redis.set(keys.live_filled, "1", nx=True):
            return 0
        ids = self.store.listed.members()
        found: dict[str, float] = {}
        for start in range(0, len(ids), CHUNK):
            chunk = ids[start : start + CHUNK]
            for game_id, record in zip(chunk, self.store.glance(chunk), strict=True):
                if record is not None and record.status is not GameStatus.OVER:
                    found[game_id] = record.created_at
        if found:
            self.store.live.add(found)
        return len(found)

    def _revive_tournaments(self, now: float, report: PassReport) -> None:
        """Tick every running tournament whose ticks stopped (a crash before its first one,
        a scheduled tick lost with the queue's Redis) for ``REVIVE_AFTER`` seconds; at most
        one such tick per tournament per ``REVIVE_AFTER``. A tournament gone (expired)
        leaves the running index."""
        running = self.running.scored()
        if not running:
            return
        keys = self.store.keys
        with self.store.redis.pipeline(transaction=False) as pipe:
            for tid, _ in running:
                pipe.exists(keys.tournament(tid))
                pipe.get(keys.tournament(tid, "beat"))
            replies = pipe.execute()
        gone = []
        for (tid, created), stored, beat in zip(running, replies[::2], replies[1::2], strict=True):
            if not stored:
                gone.append(tid)
            elif now - float(beat or created) > REVIVE_AFTER and self.store.redis.set(
                keys.tournament(tid, "revived"), "1", nx=True, ex=int(REVIVE_AFTER)
            ):
                self.jobs.tournament(tid)
                report.revived.append(tid)
        self.running.remove(gone)

    def _look_at(self, record: GameRecord, now: float, report: PassReport) -> None:
        for key, due in record.due.items():
            seat = int(key)
            info = record.seats[seat]
            if info.kind == "bot":
                waited = now - due
                if waited > STALLED_AFTER:
                    report.stalled.add(record.id)
                lost = waited > BOT_GRACE and not self._job_pending(record.id, seat)
                if not lost:
                    continue
                if self._replay_allowed(record, seat):
                    self.jobs.bots(record.id, record.version, [seat], at_front=True)
                    report.enqueued.append((record.id, seat))
                else:
                    self._fall_back(record, seat, due, report)
                continue
            deadline = record.deadline(seat)
            if deadline is None or now < deadline:
                continue
            if now - deadline > STALLED_AFTER:
                report.stalled.add(record.id)
            self._fall_back(record, seat, due, report)

    def _fall_back(self, record: GameRecord, seat: int, due: float, report: PassReport) -> None:
        """Play the seat's fallback for the decision that fell due at ``due``."""
        try:
            outcome = self.service.play_fallback(record.id, seat, due)
        except ServiceError as error:  # the game changed under us: the next pass sees it
            outcome = type(error).__name__
        if outcome == "fallback played":
            report.fallbacks.append((record.id, seat))

    def _replay_allowed(self, record: GameRecord, seat: int) -> bool:
        """Count one more job for this decision; False once it has had ``MAX_REPLAYS``."""
        key = self.store.keys.replays(record.id, seat)
        with self.store.redis.pipeline(transaction=False) as pipe:
            pipe.hincrby(key, str(record.version), 1)
            pipe.expire(key, REPLAYS_TTL)
            made = pipe.execute()[0]
        if made == MAX_REPLAYS + 1:
            log.error(
                "sweep: game %s seat %d at version %d: %d bot jobs failed; playing its fallback",
                record.id,
                seat,
                record.version,
                MAX_REPLAYS,
            )
        return made <= MAX_REPLAYS

    def _job_pending(self, game_id: str, seat: int) -> bool:
        job_id = cast("str | None", self.markers.get(self.store.keys.bot_job(game_id, seat)))
        if job_id is None:
            return False
        job = Job.fetch_many([job_id], connection=self.queue.connection)[0]
        if job is None:
            return False
        status = job.get_status(refresh=False)
        if status in (JobStatus.SCHEDULED, JobStatus.DEFERRED):
            return True
        if status == JobStatus.QUEUED:
            return self.queue.connection.lpos(self.queue.key, job_id) is not None
        if status == JobStatus.STARTED and job.worker_name:
            return bool(self.store.redis.exists(heartbeat_key(self.store.prefix, job.worker_name)))
        return False

    def _record(self, report: PassReport, now: float) -> None:
        key = stats_key(self.store.prefix)
        with self.store.redis.pipeline(transaction=False) as pipe:
            pipe.hset(key, mapping={"live": report.live, "stalled": len(report.stalled), "at": now})
            pipe.expire(key, RECORD_TTL)
            if report.enqueued:
                pipe.hincrby(key, "enqueued", len(report.enqueued))
            if report.fallbacks:
                pipe.hincrby(key, "fallbacks", len(report.fallbacks))
            pipe.execute()


class Sweeper(threading.Thread):
    """The thread every worker runs: heartbeat, and a pass whenever it holds the lock."""

    def __init__(self, settings: Settings, worker_name: Callable[[], str]) -> None:
        super().__init__(name="dicehall-sweeper", daemon=True)
        self.settings = settings
        self.worker_name = worker_name
        self.stopping = threading.Event()

    def run(self) -> None:
        service = game_service(self.settings)
        client = service.store.redis
        prefix = service.store.prefix
        lock = Lock(client, service.store.keys.sweep_lock, timeout=LOCK_TIMEOUT, blocking=False)
        sweep = Sweep(service, self.settings)
        backoff = INTERVAL
        filled = False

        def beat() -> None:
            client.set(heartbeat_key(prefix, self.worker_name()), "1", px=int(HEARTBEAT_TTL * 1000))

        def keep() -> None:  # during a long pass: this worker lives, and still sweeps
            beat()
            lock.reacquire()

        while not self.stopping.wait(backoff):
            try:
                beat()
                held = lock.owned() and lock.reacquire()
            except redis.exceptions.LockError:
                held = False
            except connections.REDIS_FAILURES as exc:
                backoff = min(backoff * 2, 10.0)
                log.warning("sweeper: Redis unavailable (%s); retrying in %.0f s", exc, backoff)
                continue
            backoff = INTERVAL
            try:
                if not filled:
                    sweep.backfill()
                    filled = True
                if not held:
                    held = lock.acquire()
                    if held:
                        holder = f"{self.worker_name()} {os.getpid()}"
                        client.set(holder_key(prefix), holder, ex=RECORD_TTL)
                if held:
                    report = sweep.run(keep_lock=keep)
                    if report.enqueued or report.fallbacks:
                        log.info(
                            "sweep: %d live, %d bot jobs enqueued, %d fallbacks played",
                            report.live,
                            len(report.enqueued),
                            len(report.fallbacks),
                        )
            except connections.REDIS_FAILURES as exc:
                log.warning("sweep failed (%s); next pass in %.0f s", exc, INTERVAL)
            except Exception:
                log.exception("sweep failed; next pass in %.0f s", INTERVAL)
