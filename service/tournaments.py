"""Tournaments: a schedule of seeded games between bundled bots and external bot accounts,
run by the workers, rated with openskill (Plackett-Luce).

Everything a tournament needs lives in Redis, and every step is idempotent, so a tournament
survives a worker or API restart: game ids are fixed by the schedule (creating one twice is a
no-op), and ``tick`` (an rq job) only looks at what is stored. A scheduled tick re-arms
itself every few seconds (rq's scheduler keeps it in Redis, so any worker picks it up), one
chain of them per tournament (``TournamentRunner.tick``);
every finished game also triggers a tick at once. A tick starts games up to the concurrency,
revives games whose bot job was lost with a killed worker, plays fallbacks whose deadline
job was lost, and writes the standings when the last game ends.

Formats:
- ``round_robin``: every group of ``seats_per_game`` participants in turn, with the seating
  rotated each time the groups come round again; every game has its own seed.
- ``mirrored``: a round is one group playing ``seats_per_game`` tables with the SAME seed
  and the seats rotated, so every participant meets the same dice from every seat and luck
  cancels out. The number of games is rounded up to whole rounds.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import itertools
import json
import logging
import math
import statistics
import time
import uuid
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from typing import Any, cast

from redis.exceptions import LockNotOwnedError
from redis.lock import Lock

from engine import dice as dice_mod
from service.config import Settings
from service.errors import (
    Conflict,
    InvalidGameOptions,
    InvalidParticipant,
    InvalidSeats,
    TournamentNotFound,
    UnknownAccount,
    UnknownBot,
)
from service.games import GameService, lookup_game
from service.indexes import ShardedIndex
from service.rating import Ratings
from service.runtime import RqJobs, game_service, queue_for
from service.store import GameStatus, GameStore

log = logging.getLogger(__name__)

TICK_SECONDS = 2.0
STALL_SECONDS = 8.0
BEAT_TTL = 3600
"""The heartbeat key outlives any gap between ticks."""
BEAT_STALE = 5 * TICK_SECONDS
"""A heartbeat older than this: the tournament's scheduled ticks stopped (or are held up)."""
INDEX_SIZE = 10_000
"""The newest tournaments the listing index keeps."""
STANDINGS_EVERY = 5.0
"""While a tournament runs, its standings are recomputed at most this often (seconds)."""
LOCK_SECONDS = 60.0
"""A tick holds its tournament's lock at most this long (a killed worker's lock frees)."""


def tournament_indexes(store: GameStore, settings: Settings) -> tuple[ShardedIndex, ShardedIndex]:
    """The tournaments by creation time: every one (the listing, its newest ``INDEX_SIZE``),
    and the ones running (which the sweep revives when their ticks stop: ``service.sweep``).
    Sharded like the games' indexes."""
    shards = settings.index_shards
    return (
        ShardedIndex(store.redis, store.keys, "tournaments", shards, INDEX_SIZE),
        ShardedIndex(store.redis, store.keys, "running", shards),
    )


@contextlib.contextmanager
def holding(lock: Lock) -> Iterator[bool]:
    """Whether ``lock`` was free and is now held; released after. A holder that ran past the
    lock's timeout may find it taken by another: that lock is left to its new holder
    (``redis.lock.Lock`` releases by token, where a plain DELETE would free it)."""
    if not lock.acquire(blocking=False):
        yield False
        return
    try:
        yield True
    finally:
        try:
            lock.release()
        except LockNotOwnedError:
            log.warning("lock %s expired while held: left to its new holder", lock.name)


@dataclass
class Participant:
    """A tournament entrant: a bundled bot (``bot``) or an external account (``account``)."""

    name: str
    bot: str | None = None
    account: str | None = None
    budget_ms: float | None = None
    iterations: int | None = None

    def seat_spec(self) -> dict[str, Any]:
        if self.account:
            return {"kind": "external", "account": self.account, "name": self.name}
        spec: dict[str, Any] = {"kind": "bot", "bot": self.bot, "name": self.name}
        for key in ("budget_ms", "iterations"):
            if getattr(self, key) is not None:
                spec[key] = getattr(self, key)
        return spec


@dataclass
class Tournament:
    """A tournament's definition and progress (stored as JSON)."""

    id: str
    game: str
    options: dict[str, Any]
    participants: list[Participant]
    games: int
    format: str
    seats_per_game: int
    seed: str
    decision_seconds: float | None
    concurrency: int
    created_at: float
    status: str = "running"
    created: int = 0
    finished_at: float | None = None
    standings: list[dict[str, Any]] = field(default_factory=list)
    rated: int = 0
    """How many finished games the stored standings cover."""
    rated_at: float = 0.0
    time_bank: dict[str, float] | None = None
    """Each seat's clock in every game: ``start`` seconds plus ``increment`` per decision."""

    def game_id(self, index: int) -> str:
        return f"{self.id}-{index:05d}"

    def fixed_programs(self) -> bool:
        """Whether every entrant is a bundled bot, a program that does not change between
        games (rated without drift: ``service.rating``); an external account may change."""
        return all(p.bot is not None and p.account is None for p in self.participants)

    @staticmethod
    def from_json(data: dict[str, Any]) -> Tournament:
        data = dict(data)
        data["participants"] = [Participant(**p) for p in data["participants"]]
        return Tournament(**data)


def derive_seed(seed: str, label: str) -> str:
    """A game seed from the tournament seed: HMAC-SHA256(seed, label) in hex."""
    return hmac.new(seed.encode(), label.encode(), hashlib.sha256).hexdigest()


def schedule(t: Tournament) -> list[tuple[list[int], str]]:
    """Every game of the tournament in order: (participant index per seat, game seed)."""
    k = t.seats_per_game
    groups = list(itertools.combinations(range(len(t.participants)), k))
    games: list[tuple[list[int], str]] = []
    if t.format == "mirrored":
        for rnd in range(math.ceil(t.games / k)):
            group = list(groups[rnd % len(groups)])
            seed = derive_seed(t.seed, f"round-{rnd}")
            for table in range(k):
                games.append((group[table:] + group[:table], seed))
        return games
    for index in range(t.games):
        group = list(groups[index % len(groups)])
        turn = (index // len(groups)) % k
        games.append((group[turn:] + group[:turn], derive_seed(t.seed, f"game-{index}")))
    return games


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


class TournamentRunner:
    """Creates, runs and rates tournaments over the game service."""

    def __init__(self, settings: Settings, service: GameService | None = None) -> None:
        self.settings = settings
        self.service = service or game_service(settings)
        self.redis = self.service.store.redis
        self.prefix = settings.key_prefix

        self.index, self.running = tournament_indexes(self.service.store, settings)

    def _key(self, tid: str, part: str = "") -> str:
        return self.service.store.keys.tournament(tid, part)

    # --- storage --------------------------------------------------------------------------
    def load(self, tid: str) -> Tournament:
        raw = self.redis.get(self._key(tid))
        if raw is None:
            raise TournamentNotFound(f"there is no tournament {tid!r}")
        return Tournament.from_json(json.loads(raw))

    def recent(self, offset: int, limit: int) -> list[Tournament]:
        """Tournaments, newest first."""
        ids = self.index.newest(offset, limit)
        found = [self.redis.get(self._key(tid)) for tid in ids]
        return [Tournament.from_json(json.loads(raw)) for raw in found if raw is not None]

    def save(self, t: Tournament) -> None:
        """Store the tournament; it and its keys live ``active_game_ttl`` after its last
        change while it runs, ``finished_game_ttl`` once finished."""
        ttl = (
            self.settings.finished_game_ttl
            if t.status == "finished"
            else self.settings.active_game_ttl
        )
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(self._key(t.id), json.dumps(asdict(t)), ex=ttl)
            pipe.expire(self._key(t.id, "over"), ttl)
            pipe.execute()

    # --- creating -------------------------------------------------------------------------
    def create(self, spec: dict[str, Any]) -> Tournament:
        """Validate and store a tournament, then start it. Raises a ServiceError saying what is
        wrong with it."""
        game = lookup_game(spec["game"])
        participants = [Participant(**p) for p in spec["participants"]]
        for n, p in enumerate(participants):
            if p.name in [q.name for q in participants[:n]]:
                raise InvalidParticipant(
                    f"participant {n}: the name {p.name!r} is taken by another entrant; names "
                    "tell entrants apart in the standings and the games"
                )
            if bool(p.bot) == bool(p.account):
                raise InvalidParticipant(f"participant {n} needs exactly one of bot, account")
            if p.bot and p.bot not in game.bots:
                raise UnknownBot(f"{game.title} has no bot {p.bot!r}")
            if p.bot:
                GameService.bot_options(game, n, p.bot, p.seat_spec())
            if p.account and self.service.accounts.get(p.account) is None:
                raise UnknownAccount(f"no bot account {p.account!r}")
            if p.account and p.account in [q.account for q in participants[:n]]:
                raise InvalidParticipant(
                    f"participant {n}: bot account {p.account!r} is entered already; an "
                    "account plays one seat of a game"
                )
        seats = spec.get("seats_per_game") or min(len(participants), game.max_seats)
        if not game.min_seats <= seats <= game.max_seats or seats > len(participants):
            raise InvalidSeats(
                f"seats_per_game must be {game.min_seats}-{game.max_seats} and at most the "
                f"number of participants ({len(participants)})",
            )
        try:
            options = game.validate_options(seats, spec.get("options") or {})
        except Exception as exc:  # InvalidOptions
            raise InvalidGameOptions(str(exc)) from None
        t = Tournament(
            id="t" + uuid.uuid4().hex[:11],
            game=game.name,
            options=options,
            participants=participants,
            games=spec["games"],
            format=spec.get("format", "round_robin"),
            seats_per_game=seats,
            seed=spec.get("seed") or dice_mod.new_seed(),
            decision_seconds=spec.get("decision_seconds"),
            concurrency=spec.get("concurrency", 4),
            created_at=time.time(),
            time_bank=spec.get("time_bank"),
        )
        if t.format == "mirrored":
            t.games = math.ceil(t.games / seats) * seats
        # several slots (the record, the index shards, the queue): no transaction. Marked
        # running first, so that a crash before the first tick leaves it to the sweep
        self.running.add({t.id: t.created_at})
        self.save(t)
        self.index.add({t.id: t.created_at})
        RqJobs(queue_for(self.settings)).tournament(t.id)  # starts the tick chain
        return t

    # --- running --------------------------------------------------------------------------
    def tick(self, tid: str, scheduled: bool | str) -> str:
        """One step of the tournament (see the module docstring).

        Scheduled ticks form one chain: each schedules the next, and writes the heartbeat
        and the chain's name (``scheduled``, in the ``chain`` key beside the heartbeat, which
        stays the time alone as workers before chains had names read it). A scheduled tick
        of another chain than the heartbeat's, while that heartbeat is fresh, steps but
        schedules nothing, so that chain ends: the tick that started a chain because the
        heartbeat had gone stale (the first, one the sweep revived, or one that followed a
        game's end while the workers were held up) leaves one chain going, not one more
        each time."""
        t = self.load(tid)
        if t.status != "running":
            self.running.remove([tid])  # idempotent: its removal may have been lost
            return "finished"
        now = time.time()
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.get(self._key(tid, "beat"))
            pipe.get(self._key(tid, "chain"))
            beat, chain = cast("list[str | None]", pipe.execute())
        stale = now - float(beat or 0) > BEAT_STALE
        if scheduled and (stale or chain is None or chain == scheduled):
            self._keep_ticking(tid, scheduled if isinstance(scheduled, str) else None, now)
        elif not scheduled and stale:
            # the first tick, or one the sweep revived: (re)start the schedule, and list the
            # tournament (its listing is lost with a crash after its record was stored)
            self._keep_ticking(tid, None, now)
            self.index.add({tid: t.created_at})
        with holding(self.lock(tid)) as held:
            return self._step(self.load(tid)) if held else "busy"

    def _keep_ticking(self, tid: str, chain: str | None, now: float) -> None:
        """Write the heartbeat of tick chain ``chain`` (a new one if None) and schedule its
        next tick."""
        chain = chain or uuid.uuid4().hex[:12]
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(self._key(tid, "beat"), now, ex=BEAT_TTL)
            pipe.set(self._key(tid, "chain"), chain, ex=BEAT_TTL)
            pipe.execute()
        RqJobs(queue_for(self.settings)).tournament_later(tid, TICK_SECONDS, chain)

    def lock(self, tid: str) -> Lock:
        """The lock one tick at a time holds; it frees itself after ``LOCK_SECONDS``."""
        return Lock(self.redis, self._key(tid, "lock"), timeout=LOCK_SECONDS, blocking=False)

    def _finished(self, t: Tournament) -> set[int]:
        """Indexes of the games known to be over or dropped (neither ever changes)."""
        members = cast("set[str]", self.redis.smembers(self._key(t.id, "over")))
        return {int(i.lstrip("d")) for i in members}

    def _dropped(self, t: Tournament) -> set[int]:
        """Indexes of the games dropped unfinished (``d<index>`` in the ``over`` set)."""
        members = cast("set[str]", self.redis.smembers(self._key(t.id, "over")))
        return {int(i[1:]) for i in members if i.startswith("d")}

    def _mark(self, t: Tournament, member: str) -> None:
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.sadd(self._key(t.id, "over"), member)
            pipe.expire(self._key(t.id, "over"), self.settings.active_game_ttl)
            pipe.execute()

    def _step(self, t: Tournament) -> str:
        plan = schedule(t)
        finished = self._finished(t)
        dropped = self._dropped(t)
        now = time.time()
        for index in range(t.created):
            if index in finished:
                continue
            record = self.service.store.load(t.game_id(index))
            if record is None:  # dropped unfinished: no move for the active games' retention
                self._mark(t, f"d{index}")
                finished.add(index)
                dropped.add(index)
                continue
            if record.status is GameStatus.OVER:
                self.service.ended(record)
                self._mark(t, str(index))
                finished.add(index)
                continue
            self._revive(record, now)
        if dropped:
            self._reveal_beside(t, plan, finished, dropped)
        over = len(finished)
        while t.created < t.games and t.created - over < t.concurrency:
            seating, seed = plan[t.created]
            try:
                self.service.create(
                    t.game,
                    [t.participants[p].seat_spec() for p in seating],
                    t.options,
                    seed,
                    decision_seconds=t.decision_seconds,
                    tournament=t.id,
                    game_id=t.game_id(t.created),
                    siblings=[t.game_id(i) for i, (_, s) in enumerate(plan) if s == seed],
                    visibility="public",
                    time_bank=(
                        [t.time_bank["start"], t.time_bank.get("increment", 0.0)]
                        if t.time_bank
                        else None
                    ),
                )
            except Conflict:  # written by a tick that died before it saved: finish its work
                self._announce(t.game_id(t.created))
            t.created += 1
            self.save(t)
        if over == t.games:
            t.standings = self.standings(t)
            t.status = "finished"
            t.finished_at = time.time()
            self.save(t)
            self.running.remove([t.id])
            return "finished"
        if over > t.rated and now - t.rated_at >= STANDINGS_EVERY:
            t.standings, t.rated, t.rated_at = self.standings(t), over, now
            self.save(t)
        return f"{over}/{t.games} over, {t.created} started"

    def _reveal_beside(
        self,
        t: Tournament,
        plan: list[tuple[list[int], str]],
        finished: set[int],
        dropped: set[int],
    ) -> None:
        """Publish the seed of the tables that are over and were dealt a dropped table's seed:
        nobody can play the dropped one any more, so its dice can no longer be foreseen
        (their own ends waited for it)."""
        gone = {t.game_id(i) for i in dropped}
        seeds = {plan[i][1] for i in dropped}
        for index in sorted(finished - dropped):
            if plan[index][1] in seeds:
                record = self.service.store.load(t.game_id(index))
                if record is not None and not record.revealed:
                    self.service.store.reveal_if_all_over(record, gone)

    def _announce(self, game_id: str) -> None:
        """Do again what follows a game's write (``GameService.announce``), for a game a
        dead tick wrote: without it, its external seats' accounts would never hear of it
        (their feeds read their games), and a game without deadlines would wait for them
        for good."""
        record = self.service.store.load(game_id)
        if record is not None and record.status is not GameStatus.OVER:
            self.service.announce(record)

    def _revive(self, record: Any, now: float) -> None:
        """Re-run the work a killed worker lost: bot jobs, and deadline fallbacks."""
        prompts = self.service.prompts(record)
        stalled_bots = [
            s
            for s in prompts
            if record.seats[s].kind == "bot" and now - record.due.get(str(s), now) > STALL_SECONDS
        ]
        if stalled_bots:
            self.service.jobs.bots(record.id, record.version, stalled_bots)
        for seat in prompts:
            deadline = record.deadline(seat)
            if record.seats[seat].kind != "bot" and deadline and now > deadline + STALL_SECONDS:
                self.service.play_fallback(record.id, seat, record.due[str(seat)])

    # --- reading --------------------------------------------------------------------------
    def progress(self, t: Tournament) -> dict[str, int]:
        """Games in all, started, and over (as of the last tick, which every game end runs)."""
        return {"total": t.games, "started": t.created, "finished": len(self._finished(t))}

    def games(self, t: Tournament) -> list[dict[str, Any]]:
        plan = schedule(t)
        rows: list[dict[str, Any]] = []
        for index in range(t.created):
            record = self.service.store.load(t.game_id(index))
            if record is None:
                continue
            rows.append(
                {
                    "index": index,
                    "game_id": record.id,
                    "status": record.status.value,
                    "participants": [t.participants[p].name for p in plan[index][0]],
                    "result": record.result,
                    "commitment": record.commitment,
                }
            )
        return rows

    def standings(self, t: Tournament) -> list[dict[str, Any]]:
        """Ratings (openskill Plackett-Luce, games in schedule order; without drift when
        every entrant is a bundled bot: ``service.rating``), wins, average score and
        per-participant diagnostics over the finished games."""
        ratings = Ratings([p.name for p in t.participants], t.fixed_programs())
        wins = [0] * len(t.participants)
        played = [0] * len(t.participants)
        scores: list[list[float]] = [[] for _ in t.participants]
        illegal = [0] * len(t.participants)
        missed = [0] * len(t.participants)
        times: list[list[float]] = [[] for _ in t.participants]
        for index, (seating, _seed) in enumerate(schedule(t)[: t.created]):
            record = self.service.store.load(t.game_id(index))
            if record is None or record.status is not GameStatus.OVER or not record.result:
                continue
            ranks = record.result["ranks"]
            ratings.rate(seating, ranks)
            stats = self.service.store.stats(record.id, len(seating))
            for seat, p in enumerate(seating):
                played[p] += 1
                wins[p] += ranks[seat] == 1
                scores[p].append(record.result["scores"][seat])
                illegal[p] += stats[seat]["illegal"]
                missed[p] += stats[seat]["missed"]
                times[p].extend(stats[seat]["times"])
        rows: list[dict[str, Any]] = []
        for n, entrant in enumerate(t.participants):
            r = ratings[n]
            rows.append(
                {
                    "name": entrant.name,
                    "bot": entrant.bot,
                    "account": entrant.account,
                    "mu": r.mu,
                    "sigma": r.sigma,
                    "ordinal": r.ordinal(),
                    "interval": list(ratings.interval(n)),
                    "games": played[n],
                    "wins": wins[n],
                    "average_score": statistics.fmean(scores[n]) if scores[n] else None,
                    "illegal_actions": illegal[n],
                    "deadlines_missed": missed[n],
                    "decision_time_mean": statistics.fmean(times[n]) if times[n] else None,
                    "decision_time_p50": percentile(times[n], 0.5),
                    "decision_time_p95": percentile(times[n], 0.95),
                }
            )
        rows.sort(key=lambda row: row["ordinal"], reverse=True)
        for rank, row in enumerate(rows, start=1):
            row["rank"] = rank
        return rows

    def describe(self, t: Tournament) -> dict[str, Any]:
        data = asdict(t)
        data.pop("seed")
        data["seed"] = t.seed if t.status == "finished" else None
        data["seed_commitment"] = dice_mod.commitment(t.seed)
        data["progress"] = self.progress(t)
        return data
