"""Game state in Redis: the only module that knows the record layout (the key names are
``service.keys``'s).

Every key of one game carries the hash tag ``{game_id}``, so every transaction and script
touches one Redis Cluster slot; the indexes over games (listed, live) are sharded
(``service.indexes``) and written outside those transactions. A game is one hash
(``<prefix>:{id}:game``) holding its record, state, version and dice counter; its action log
is a list and its event feed a stream beside it. Writes are
compare-and-set: :meth:`GameStore.transact` WATCHes the game (and any extra keys), lets the
caller read and decide, then commits in MULTI/EXEC and retries on ``WatchError``. A move
takes a cheaper road to the same guarantee: one plain read, then :meth:`GameStore.commit_if`,
one script that writes only if the game's version is still the one read (or, for a move
decided on the record its process wrote last, ``service.held``, no read: the script checks
the version and the record's ``stamp``). Every write of a
game reaches Redis through :meth:`GameStore.commit`, and with ``DICEHALL_MIN_REPLICAS`` is
answered only once that many replicas hold it (:meth:`GameStore.replicate`).
"""

from __future__ import annotations

import enum
import hashlib
import json
import os
import random
import time
from collections.abc import Callable, Collection, Iterable, Sequence
from contextvars import ContextVar
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol, TypeVar, cast

import orjson
import redis
from redis.client import NEVER_DECODE
from redis.cluster import RedisCluster

from engine import codec
from service import archive as archives
from service.errors import Conflict, Contention, KeyReused, NotReplicated
from service.indexes import ShardedIndex
from service.keys import Keys
from service.wire import round_trip

T = TypeVar("T")
Pipeline = redis.client.Pipeline


class GameStatus(str, enum.Enum):  # noqa: UP042 - stays a str subclass for JSON and Redis
    """Where a game is in its life."""

    WAITING = "waiting"
    ACTIVE = "active"
    OVER = "over"


@dataclass
class SeatRecord:
    """Who sits in a seat: a human (joined with a token) or a bundled bot."""

    kind: str
    name: str = ""
    bot: str | None = None
    token_digest: str | None = None
    joined: bool = False
    account: str | None = None
    invite_digest: str | None = None
    """A private game's human seat: the digest of the invite token that may take it."""
    bot_options: dict[str, Any] | None = None
    """A bundled bot's options (the search bot's ``budget_ms`` or ``iterations``)."""

    def public(self, seat: int) -> dict[str, Any]:
        return {
            "seat": seat,
            "kind": self.kind,
            "name": self.name,
            "bot": self.bot,
            "joined": self.joined,
            "account": self.account,
        }


@dataclass
class GameRecord:
    """Everything stored about one game. ``state`` is the engine's JSON form of the state."""

    id: str
    game: str
    seats: list[SeatRecord]
    options: dict[str, Any]
    seed: str
    commitment: str
    creator_digest: str
    created_at: float
    status: GameStatus = GameStatus.WAITING
    version: int = 0
    counter: int = 0
    state: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    decision_seconds: float | None = None
    tournament: str | None = None
    due: dict[str, float] = field(default_factory=dict)
    forked_from: dict[str, Any] | None = None
    """for a fork: the origin's ``game`` id, the ``version`` forked at, ``dice`` ("fresh" or
    "original"), the dice ``counter`` this game's draws start from and the ``state`` it
    started from (so its past does not depend on the origin staying stored)."""
    """seat (as text) -> when its current decision fell due (epoch seconds)."""
    decisions: dict[str, int] = field(default_factory=dict)
    """seat (as text) -> the version at which its current decision fell due: the seat's
    concurrency token (``If-Match`` at or after it succeeds while the decision stands)."""

    def decision(self, seat: int) -> int:
        """The id of ``seat``'s current decision (the game's version for a record that
        predates decision ids)."""
        return self.decisions.get(str(seat), self.version)

    siblings: list[str] = field(default_factory=list)
    """Other games dealt the same seed (the tables of a mirrored tournament round)."""
    revealed: bool = False
    """Set once this game and every sibling are over: the seed may then be published."""
    visibility: str = "public"
    """``public``: listed, open seats joinable by anyone; ``private``: unlisted, seats taken
    with their invite token or the creator's token."""
    stamp: str | None = field(default=None, repr=False, compare=False)
    """A random mark the store writes anew with every write of the record (``stamp`` in the
    hash), so a record this process wrote is known to be the stored one when the hash holds
    both its version and its stamp (:meth:`GameStore.commit_if`'s ``stamp``), even if a
    write was lost and another record took the same version. None for a record never
    written or read with one."""
    state_json: bytes | None = field(default=None, repr=False, compare=False)
    """``state`` as the store holds it (its JSON bytes), for a record read from the store
    (:class:`StoredRecord`) since it was last read or written; None once ``state`` is set
    anew, and always for any other record. What ``service.decoded`` compares: equal bytes,
    equal state."""

    @property
    def seed_public(self) -> bool:
        """Whether the seed (and the log's draws) may be shown: the game is over and no
        game sharing its seed is still being played."""
        return self.status is GameStatus.OVER and (self.revealed or not self.siblings)

    time_bank: list[float] | None = None
    """``[start, increment]`` in seconds: every seat's clock starts with ``start`` and gains
    ``increment`` whenever a decision falls due to it (a chess clock with an increment);
    a decision owed when its seat's clock runs out gets the fallback move, as at a deadline."""
    banks: dict[str, float] = field(default_factory=dict)
    """seat (as text) -> seconds on its clock: as of when its current decision fell due (the
    increment included), or as of its last move."""

    def deadline(self, seat: int) -> float | None:
        """When ``seat``'s current decision times out (the earlier of ``decision_seconds``
        after it fell due and its clock running out), if the game has a clock."""
        since = self.due.get(str(seat))
        if since is None:
            return None
        limits = []
        if self.decision_seconds is not None:
            limits.append(since + self.decision_seconds)
        if self.time_bank is not None:
            limits.append(since + self.banks.get(str(seat), sum(self.time_bank)))
        return min(limits) if limits else None

    def run_clocks(self, seat: int | None, took: float, due_now: Iterable[int]) -> None:
        """Take the ``took`` seconds of ``seat``'s move off its clock (never below zero),
        and add the increment to the clock of each seat a decision falls due to now."""
        if self.time_bank is None:
            return
        start, increment = self.time_bank
        if seat is not None:
            self.banks[str(seat)] = max(0.0, self.banks.get(str(seat), start) - took)
        for due in due_now:
            self.banks[str(due)] = self.banks.get(str(due), start) + increment


class StoredRecord(GameRecord):
    """A record read from the store, its ``state`` parsed from the stored bytes
    (``state_json``) only when something first reads it: a request that finds the state
    already decoded (``service.decoded`` compares the bytes) parses nothing."""

    def __init__(self, state_json: bytes, **fields: Any) -> None:
        super().__init__(**fields)  # sets ``state`` to its default, {}: unset it
        self._parsed: dict[str, Any] | None = None
        self.state_json = state_json

    @property  # type: ignore[override]
    def state(self) -> dict[str, Any]:
        if self._parsed is None:
            self._parsed = _loads(self.state_json or b"{}")
        return self._parsed

    @state.setter
    def state(self, value: dict[str, Any]) -> None:
        self._parsed = value
        self.state_json = None  # the stored bytes no longer describe it


@dataclass(frozen=True)
class Backoff:
    """How compare-and-set retries: full-jitter exponential backoff, a bounded number of
    attempts (then :class:`Contention`)."""

    attempts: int = 24
    base: float = 0.002
    cap: float = 0.1

    def delay(self, attempt: int) -> float:
        return random.uniform(0, min(self.cap, self.base * 2**attempt))


class Rider(Protocol):
    """Commands that ride along with the next read of a game instead of costing a round trip
    of their own (the rate limiter's counters)."""

    def queue(self, pipe: Pipeline) -> int:
        """Queue the commands on ``pipe``; returns how many."""
        ...

    def settle(self, replies: list[Any]) -> None:
        """Judge the replies of the queued commands (may raise: the read is then refused)."""
        ...


class Counter(Protocol):
    """A :class:`Rider` that only counts (the rate limiter's): its commands are INCRBY 1 and
    EXPIRE of each of its ``counters``, so a guarded commit's script can run them instead
    (:meth:`GameStore.commit_if`), and refuse to write when one goes over its limit."""

    def queue(self, pipe: Pipeline) -> int: ...

    def settle(self, replies: list[Any]) -> None: ...

    def counters(self) -> list[tuple[str, int, int]]:
        """Each counter's key, its lifetime (s) and its limit, in the order of ``queue``'s
        commands (its INCRBY and EXPIRE)."""
        ...


_riders: ContextVar[tuple[Rider, ...]] = ContextVar("dicehall_riders", default=())


def ride_along(rider: Rider) -> None:
    """Send ``rider``'s commands with the next :meth:`GameStore.load` in this context (the
    request being served)."""
    _riders.set((*_riders.get(), rider))


def pending_riders() -> tuple[Rider, ...]:
    """The riders waiting for a read in this context (left there)."""
    return _riders.get()


def take_riders() -> tuple[Rider, ...]:
    """The riders still waiting for a read, removed from the context."""
    riders = _riders.get()
    if riders:
        _riders.set(())
    return riders


_ANSWERED = """
if ARGV[2] == '1' then
  local earlier = redis.call('GET', KEYS[2])
  if earlier then return {'answered', earlier} end
end
"""
_WRITES = """
while i <= #ARGV do
  local n = tonumber(ARGV[i])
  redis.call(unpack(ARGV, i + 1, i + n))
  i = i + n + 1
end
return {'done'}
"""
"""The end of a guarded commit's script: the writes, from ARGV[i] on (each as its argument
count and its arguments)."""
GUARDED_COMMIT = (
    _ANSWERED
    + """if redis.call('HGET', KEYS[1], 'version') ~= ARGV[1] then return {'moved'} end
local i = 3"""
    + _WRITES
)
"""The script of :meth:`GameStore.commit_if`. KEYS[1]: the game's hash; KEYS[2]: the
idempotency key when ARGV[2] is '1'; ARGV[1]: the version the writes were decided at; then
the writes, each as its argument count and its arguments."""
GUARDED_SHA = hashlib.sha1(GUARDED_COMMIT.encode()).hexdigest()

HELD_COMMIT = (
    """
local i = 5
local counts = {}
local over = false
for c = 1, tonumber(ARGV[4]) do
  counts[c] = redis.call('INCRBY', ARGV[i], 1)
  redis.call('EXPIRE', ARGV[i], ARGV[i + 1])
  if counts[c] > tonumber(ARGV[i + 2]) then over = true end
  i = i + 3
end
if over then return {'limited', unpack(counts)} end"""
    + _ANSWERED
    + """if redis.call('HGET', KEYS[1], 'version') ~= ARGV[1]
  or redis.call('HGET', KEYS[1], 'stamp') ~= ARGV[3] then return {'moved'} end"""
    + _WRITES
)
"""The script of :meth:`GameStore.commit_if` given a ``stamp``: the request's counters are
counted first (INCRBY and EXPIRE, as :class:`Counter` queues them; ``limited`` with their
counts, nothing written, when one is over its limit), then :data:`GUARDED_COMMIT`'s checks
with the stamp's beside the version. ARGV[1]: the version; ARGV[2]: '1' when KEYS[2] is the
idempotency key; ARGV[3]: the stamp; ARGV[4]: the number of counters, then each counter's
key, lifetime and limit; then the writes, as for :data:`GUARDED_COMMIT`."""
HELD_SHA = hashlib.sha1(HELD_COMMIT.encode()).hexdigest()
SCRIPTS = {GUARDED_SHA: GUARDED_COMMIT, HELD_SHA: HELD_COMMIT}


@dataclass(frozen=True)
class Committed:
    """What :meth:`GameStore.commit_if` did: ``done`` (written), ``moved`` (the game's
    version changed: nothing written) or ``answered`` (the idempotency key already holds
    ``earlier``, the stored answer: nothing written)."""

    status: str
    earlier: str | None = None


def fingerprint(body: Any) -> str:
    """What identifies a request body for an idempotency key (canonical JSON, hashed)."""
    return hashlib.sha256(codec.canonical_json(body).encode()).hexdigest()


_BINARY_FIELDS = frozenset({"meta", "state", "result", "due", "decisions", "banks", "archive"})
"""Fields a read leaves as bytes: the archive (compressed) and the JSON ones (parsed from
their bytes by :func:`_loads`)."""


def _loads(text: str | bytes) -> Any:
    """Parse a stored JSON field: orjson (several times faster on a game's state), or the
    standard library for what orjson refuses (integers beyond 64 bits)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def _dumps(data: Any) -> str:
    """JSON text of what the store writes (records' fields, log entries, events, answers):
    orjson, compact (the standard library for what orjson refuses: integers beyond 64 bits).
    Readers parse it; nothing compares the text."""
    try:
        return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(data)


def _state_json(state: dict[str, Any]) -> bytes:
    """A game state's stored JSON: sorted keys, no spaces, the text ``codec.canonical_json``
    gives for the engines' (ASCII) states, written by orjson (ten times faster on a state),
    or by the standard library for what orjson refuses (integers beyond 64 bits, keys that
    are not text). Equal states give equal bytes (``service.decoded`` compares them)."""
    try:
        return orjson.dumps(state, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # orjson.JSONEncodeError
        return codec.canonical_json(state).encode()


_FIELDS = (
    "meta",
    "state",
    "version",
    "counter",
    "status",
    "result",
    "due",
    "decisions",
    "revealed",
    "archive",
    "banks",
    "stamp",
)
"""The hash's fields. A finished game, once compacted, has no meta, state or due: its
``archive`` holds the meta and the final state (with the log and statistics)."""

ANSWER_GRACE = 300
"""Seconds a finished game keeps its idempotency answers (a retry of the last move)."""


@dataclass(frozen=True)
class Replicas:
    """How many replicas a game write must reach before it is answered (``WAIT``), and how
    long it waits for them (``DICEHALL_MIN_REPLICAS``, ``DICEHALL_REPLICA_TIMEOUT_MS``)."""

    count: int = 0
    timeout_ms: int = 1000


@dataclass(frozen=True)
class Retention:
    """How long games stay in Redis (seconds) and how long their lists may grow.

    A waiting game lives ``waiting`` seconds after its last change, an active one ``active``
    seconds after its last move, a finished one ``finished`` seconds after its end (then
    compacted to its archive: record, final state, action log, per-seat statistics).
    """

    waiting: int = 24 * 3600
    active: int = 7 * 24 * 3600
    finished: int = 30 * 24 * 3600
    events: int = 2000
    """The newest events a game's stream keeps (approximately: XADD MAXLEN ~)."""
    index: int = 10_000
    """The newest games the listing index keeps."""

    def ttl(self, status: GameStatus) -> int:
        return {
            GameStatus.WAITING: self.waiting,
            GameStatus.ACTIVE: self.active,
            GameStatus.OVER: self.finished,
        }[status]


def _resp2(reply: Any) -> list[Any]:
    """A reply as the RESP2 list it is (redis-py types every protocol's shape at once)."""
    return cast("list[Any]", reply)


def _stream_id(text: str) -> tuple[int, int]:
    ms, _, seq = text.partition("-")
    return int(ms), int(seq or 0)


class GameStore:
    """Reads and compare-and-set writes of games; the connection is passed in."""

    def __init__(
        self,
        client: redis.Redis,
        keys: Keys | None = None,
        retention: Retention | None = None,
        backoff: Backoff | None = None,
        on_retry: Callable[[], None] | None = None,
        replicas: Replicas | None = None,
        index_shards: int = 8,
    ) -> None:
        self.redis = client
        self.keys = keys or Keys()
        self.prefix = self.keys.prefix
        self.retention = retention or Retention()
        self.backoff = backoff or Backoff()
        self.on_retry = on_retry
        self.replicas = replicas or Replicas()
        self.counts_in_commits = not isinstance(client, RedisCluster)
        """Whether a guarded commit's script can count a request's rate-limit counters (one
        Redis holds them with the game; a cluster's slots do not)."""
        self.retries = 0
        """Compare-and-set retries made by this store (also reported through ``on_retry``)."""
        self.listed = ShardedIndex(client, self.keys, "games", index_shards, self.retention.index)
        """Public games, by creation time (listing)."""
        self.live = ShardedIndex(client, self.keys, "live", index_shards)
        """Games that are not over yet, by creation time: what the sweep reads.

        A game enters it before its record is first written and leaves it when the sweep
        finds it over or gone, so no crash between the two writes can hide a game from the
        sweep."""

    # --- keys -----------------------------------------------------------------------------
    def key_for(self, game_id: str, part: str) -> str:
        """The key of one part of a game: ``<prefix>:{<game_id>}:<part>``."""
        return self.keys.game(game_id, part)

    def idempotency_key(self, game_id: str, seat: int, key: str) -> str:
        return self.keys.idempotency(game_id, seat, key)

    def _times_keys(self, game_id: str, seats: int) -> list[str]:
        return [self.keys.times(game_id, seat) for seat in range(seats)]

    # --- records --------------------------------------------------------------------------
    @staticmethod
    def _encode(record: GameRecord, meta: bool = True) -> dict[str, str | bytes]:
        """The hash fields of ``record``; ``meta=False`` leaves out (and does not encode) what
        a move never changes."""
        return {
            **({"meta": _dumps(GameStore._meta(record))} if meta else {}),
            "state": _state_json(record.state),
            "version": str(record.version),
            "counter": str(record.counter),
            "status": record.status.value,
            "result": _dumps(record.result),
            "due": _dumps(record.due),
            "decisions": _dumps(record.decisions),
            "revealed": "1" if record.revealed else "",
            "banks": _dumps(record.banks),
        }

    @staticmethod
    def _meta(record: GameRecord) -> dict[str, Any]:
        return {
            "id": record.id,
            "game": record.game,
            "seats": [asdict(seat) for seat in record.seats],
            "options": record.options,
            "seed": record.seed,
            "commitment": record.commitment,
            "creator_digest": record.creator_digest,
            "created_at": record.created_at,
            "decision_seconds": record.decision_seconds,
            "tournament": record.tournament,
            "siblings": record.siblings,
            "visibility": record.visibility,
            "forked_from": record.forked_from,
            "time_bank": record.time_bank,
        }

    @staticmethod
    def _decode(values: Sequence[Any]) -> GameRecord | None:
        raw = dict(zip(_FIELDS, values, strict=True))
        archived = archives.unpack(raw["archive"], with_log=False) if raw["archive"] else None
        if archived is not None:
            meta, result = archived.meta, archived.meta["result"]
        elif raw["meta"] is not None:
            meta, result = _loads(raw["meta"]), _loads(raw["result"] or "null")
        else:
            return None
        fields: dict[str, Any] = dict(
            id=meta["id"],
            game=meta["game"],
            seats=[SeatRecord(**seat) for seat in meta["seats"]],
            options=meta["options"],
            seed=meta["seed"],
            commitment=meta["commitment"],
            creator_digest=meta["creator_digest"],
            created_at=meta["created_at"],
            status=GameStatus(raw["status"]),
            version=int(raw["version"] or 0),
            counter=int(raw["counter"] or 0),
            result=result,
            decision_seconds=meta.get("decision_seconds"),
            tournament=meta.get("tournament"),
            forked_from=meta.get("forked_from"),
            due=_loads(raw["due"] or "{}"),
            decisions=_loads(raw["decisions"] or "{}"),
            time_bank=meta.get("time_bank"),
            banks=_loads(raw["banks"] or "{}"),
            siblings=meta.get("siblings") or [],
            visibility=meta.get("visibility", "public"),
            revealed=bool(raw["revealed"]),
            stamp=raw["stamp"],
        )
        if archived is not None:
            return GameRecord(state=archived.state, **fields)
        if raw["state"] is None:  # not read (``glance``): nothing to parse, nothing to compare
            return GameRecord(**fields)
        return StoredRecord(state_json=raw["state"], **fields)

    def load(self, game_id: str, pipe: Pipeline | redis.Redis | None = None) -> GameRecord | None:
        """The game's record, or None. With a watching pipeline, reads immediately; else the
        commands of any pending :class:`Rider` go with the read (one round trip)."""
        riders = take_riders() if pipe is None else ()
        if riders:
            values = self._read_with(riders, game_id)
        else:
            values = self.read_fields(pipe if pipe is not None else self.redis, game_id)
        return self.record_of(values)

    def load_seat(self, game_id: str, seat: int) -> tuple[GameRecord | None, float | None]:
        """The game's record and ``seat``'s latest decision time (:meth:`last_time`), read in
        one round trip (a decision notice needs both)."""
        with self.redis.pipeline(transaction=False) as pipe:
            self.read_fields(pipe, game_id)
            pipe.lindex(self.keys.times(game_id, seat), -1)
            values, last = pipe.execute()
        return self.record_of(values), None if last is None else float(last)

    def read_fields(self, client: Pipeline | redis.Redis, game_id: str) -> Any:
        """Read the fields of the game's record on ``client`` (an HMGET without decoding): their
        values, or queued on a pipeline; :meth:`record_of` makes the record of them."""
        key = self.key_for(game_id, "game")
        return client.execute_command("HMGET", key, *_FIELDS, **{NEVER_DECODE: True})

    def record_of(self, values: Sequence[Any]) -> GameRecord | None:
        """The record in the values :meth:`read_fields` read: the JSON fields are parsed from
        their bytes, the others decoded."""
        return self._decode(
            [
                value if value is None or name in _BINARY_FIELDS else value.decode()
                for name, value in zip(_FIELDS, values, strict=True)
            ]
        )

    def _read_with(self, riders: Sequence[Rider], game_id: str) -> list[Any]:
        """HMGET the game's hash after the riders' commands, in one pipeline; the riders
        judge their replies."""
        with self.redis.pipeline(transaction=False) as pipe:
            counts = [rider.queue(pipe) for rider in riders]
            self.read_fields(pipe, game_id)
            replies = self.send(pipe)
        start = 0
        for rider, count in zip(riders, counts, strict=True):
            rider.settle(replies[start : start + count])
            start += count
        values: list[Any] = replies[-1]
        return values

    def _archive(self, game_id: str) -> bytes | None:
        """A compacted game's archive (binary, read with decoding off)."""
        return self.redis.execute_command(
            "HGET", self.key_for(game_id, "game"), "archive", **{NEVER_DECODE: True}
        )

    def write(self, pipe: Pipeline, record: GameRecord, meta: bool = True) -> None:
        """Queue the record's write on a pipeline (inside MULTI), and renew the lifetime of
        the game's keys for its status. ``meta=False`` leaves out what a move never changes
        (the seats, options, seed...)."""
        fields = self._encode(record, meta)
        fields["stamp"] = record.stamp = os.urandom(8).hex()
        # redis-py types ``mapping`` with an invariant key type, which refuses dict[str, str]
        pipe.hset(self.key_for(record.id, "game"), mapping=fields)  # type: ignore[arg-type]
        if isinstance(record, StoredRecord):
            record.state_json = cast(bytes, fields["state"])  # the bytes a read will find
        self.touch(pipe, record)

    def touch(self, pipe: Pipeline, record: GameRecord) -> None:
        """Give the game's hash, log and events the lifetime of its status (in MULTI)."""
        ttl = self.retention.ttl(record.status)
        for part in ("game", "log", "events"):
            pipe.expire(self.key_for(record.id, part), ttl)

    def create(
        self,
        record: GameRecord,
        events: Sequence[dict[str, Any]] = (),
        log: Sequence[dict[str, Any]] = (),
    ) -> None:
        """Store a new game with its first events and log entries (and list it, if public).
        Raises Conflict if the id exists."""
        key = self.key_for(record.id, "game")

        def decide(pipe: Pipeline) -> Callable[[Pipeline], None]:
            if pipe.exists(key):
                raise Conflict(f"a game {record.id!r} exists already")

            def writes(p: Pipeline) -> None:
                self.write(p, record)
                for event in events:
                    self.publish(p, record.id, event)
                for entry in log:
                    self.append_log(p, record.id, entry)
                self.touch(p, record)

            return writes

        if record.status is not GameStatus.OVER:
            self.live.add({record.id: record.created_at})
        self.transact([key], lambda pipe: (decide(pipe), None))
        if record.visibility == "public":
            self.listed.add({record.id: record.created_at})

    def transact(
        self,
        keys: Sequence[str],
        decide: Callable[[Pipeline], tuple[Callable[[Pipeline], None] | None, T]],
    ) -> T:
        """Compare-and-set: WATCH ``keys``, let ``decide`` read and return (writes, value),
        run the writes in MULTI/EXEC, retry from the start on ``WatchError``.

        ``decide`` may raise to abort without writing; ``writes`` None means nothing to write.
        Either way the answer stands only if nothing watched changed meanwhile: an error or a
        read-only answer is confirmed by an empty transaction, so no caller ever acts on a
        torn read (a key read before a concurrent commit, the record after it). Retries back
        off with jitter; after ``backoff.attempts`` it raises :class:`Contention`.
        """
        with self.redis.pipeline(transaction=True) as pipe:
            for attempt in range(self.backoff.attempts):
                try:
                    pipe.watch(*keys)
                    try:
                        writes, value = decide(pipe)
                    except redis.RedisError:
                        raise
                    except Exception:
                        self._confirm(pipe)
                        raise
                    pipe.multi()
                    if writes is not None:
                        writes(pipe)
                    self.commit(pipe)
                    if writes is not None:
                        self.replicate(keys[0])
                    return value
                except redis.WatchError:
                    self.pause(attempt)
        raise Contention(self.backoff.attempts)

    def pause(self, attempt: int) -> None:
        """Count a compare-and-set retry and wait before attempt ``attempt + 1``."""
        self.retries += 1
        if self.on_retry is not None:
            self.on_retry()
        time.sleep(self.backoff.delay(attempt))

    def _confirm(self, pipe: Pipeline) -> None:
        """Raise WatchError if a watched key changed since WATCH (an empty MULTI/EXEC)."""
        pipe.multi()
        self.commit(pipe)

    def commit(self, pipe: Pipeline) -> list[Any]:
        """Send the writes queued on ``pipe`` (a MULTI block, or the pipeline holding a
        guarded script) and return their replies: the one place every write of a game
        reaches Redis."""
        return self.send(pipe)

    @staticmethod
    def send(pipe: Pipeline) -> list[Any]:
        """The replies of the commands queued on ``pipe``, in one round trip: a plain
        pipeline (not a transaction, watching nothing) through :func:`service.wire.round_trip`,
        which spares redis-py's pipeline bookkeeping (the same replies and errors), any other
        (a transaction, a cluster's pipeline) by itself."""
        plain = type(pipe) is Pipeline and pipe.transaction is False  # a flag on a pipeline
        if plain and not (pipe.watching or pipe.scripts or pipe.explicit_transaction):
            try:
                return round_trip(pipe, pipe.command_stack)
            finally:
                pipe.command_stack = []  # sent: as execute() leaves it
        replies: list[Any] = pipe.execute()
        return replies

    def commit_if(
        self,
        game_id: str,
        version: int,
        writes: Callable[[Pipeline], None],
        answered: str | None = None,
        stamp: str | None = None,
        counters: Sequence[Counter] = (),
    ) -> Committed:
        """Run ``writes`` (queued on a pipeline, as for :meth:`transact`) atomically, in one
        round trip, if the game is still at ``version`` and the idempotency key
        ``answered`` (if given) holds no answer yet: a script checks both, then runs the
        writes (every key they touch is the game's, so one hash slot, except the rq keys of
        bot jobs that ride a commit, which only a single Redis or a Sentinel's primary
        holding the queue too lets them do: ``service.runtime.RqJobs``). With
        ``replicas.count`` > 0 a ``WAIT`` rides in the same round trip; fewer replicas
        raise :class:`NotReplicated` (the write stands).

        With ``stamp`` (the one the decided record was read or written with), the game must
        also still hold that stamp (:attr:`GameRecord.stamp`; ``moved`` otherwise, as for a
        version that changed): a record lost and replaced at the same version, or one the
        caller holds from its own last write instead of reading it, is told apart. The
        ``counters`` (the request's rate-limit count, which no read took along) are then
        counted first in the same script; one over its limit is settled (it raises its
        refusal) and nothing is written."""
        game_key = self.key_for(game_id, "game")
        recorder = self._node_of(game_key).pipeline(transaction=False)  # never sent
        writes(recorder)
        keys = [game_key] + ([answered] if answered else [])
        argv: list[Any] = [version, "1" if answered else "0"]
        sha = GUARDED_SHA
        counted = [counted for counter in counters for counted in counter.counters()]
        if stamp is not None:
            sha = HELD_SHA
            argv += [stamp, len(counted)]
            for key, seconds, limit in counted:
                argv += [key, seconds, limit]
                keys.append(key)
        for args, _options in recorder.command_stack:
            argv += [len(args), *args]
            if args[1] not in keys:
                keys.append(args[1])
        recorder.reset()
        wanted = self.replicas.count
        for _ in range(3):
            # the node's own client: a cluster pipeline refuses scripts, and the WAIT must
            # go on the connection that wrote (it counts that connection's writes)
            node = self._node_of(game_key)
            with node.pipeline(transaction=False) as pipe:
                pipe.evalsha(sha, len(keys), *keys, *argv)
                if wanted > 0:
                    pipe.execute_command("WAIT", wanted, self.replicas.timeout_ms)
                try:
                    replies = self.commit(pipe)
                except redis.exceptions.NoScriptError:
                    node.script_load(SCRIPTS[sha])
                    continue
                except (redis.exceptions.MovedError, redis.exceptions.AskError):
                    self._refresh_slots()  # not run: the slot is served elsewhere now
                    continue
            if replies[0][0] == "limited":
                self._settle_counts(counters, replies[0][1:])
            committed = Committed(*replies[0])
            if committed.status == "done" and wanted > 0 and int(replies[1]) < wanted:
                raise NotReplicated(int(replies[1]), wanted)
            if committed.status == "answered":  # written before, maybe not yet replicated
                self.replicate(game_key)
            return committed
        raise redis.exceptions.NoScriptError("the guarded commit did not run on its node")

    @staticmethod
    def _settle_counts(counters: Sequence[Counter], counts: Sequence[int]) -> None:
        """Let each counter judge its counts, as the replies of the commands it queues (an
        INCRBY's count, then its EXPIRE's reply); the one over its limit raises."""
        start = 0
        for counter in counters:
            mine = counts[start : start + len(counter.counters())]
            start += len(mine)
            counter.settle([reply for count in mine for reply in (count, 1)])
        raise RuntimeError("the commit's script found a counter over its limit; none says so")

    def replicate(self, key: str) -> None:
        """Wait until ``replicas.count`` replicas hold every write made so far on the node
        that holds ``key``'s slot (nothing to do when the count is 0). Raises
        :class:`NotReplicated` when fewer confirm within ``replicas.timeout_ms``: the write
        stands, and a retry with the same ``Idempotency-Key`` answers once it is replicated.

        ``WAIT`` counts the writes of its own connection, and the commit's connection is
        back in the pool, so a marker in the same slot is written first on the connection
        that waits: replication is in order, so a replica that has the marker has the
        commit. One round trip (the marker and the ``WAIT`` in one pipeline)."""
        if self.replicas.count <= 0:
            return
        marker = self.keys.beside(key, "synced")
        for _ in range(2):
            client = self._node_of(marker)
            try:
                with client.pipeline(transaction=False) as pipe:
                    pipe.set(marker, "1", px=max(1000, 2 * self.replicas.timeout_ms))
                    pipe.execute_command("WAIT", self.replicas.count, self.replicas.timeout_ms)
                    reached = int(pipe.execute()[1])
            except (redis.exceptions.MovedError, redis.exceptions.AskError):
                self._refresh_slots()
                continue
            if reached >= self.replicas.count:
                return
            raise NotReplicated(reached, self.replicas.count)
        raise NotReplicated(0, self.replicas.count)

    def _node_of(self, key: str) -> redis.Redis:
        """The client of the node that holds ``key`` (a cluster's node; else the client)."""
        if isinstance(self.redis, RedisCluster):
            node = self.redis.get_node_from_key(key)
            return cast(redis.Redis, self.redis.get_redis_connection(node))
        return self.redis

    def _refresh_slots(self) -> None:
        """Learn the cluster's slots again (after a MOVED: a failover or a resharding)."""
        if isinstance(self.redis, RedisCluster):
            self.redis.nodes_manager.initialize()

    def delete(self, pipe: Pipeline, game_id: str) -> None:
        """Queue the removal of a game that never started (inside MULTI); it leaves the
        listing after the commit (:meth:`unlist`)."""
        parts = ("game", "log", "events", "stats", "answers")
        pipe.delete(*(self.key_for(game_id, part) for part in parts))

    def unlist(self, game_id: str) -> None:
        """Take a deleted game out of the listing and the live index (another slot than the
        game's, so after its transaction; a miss is harmless: listing skips missing games,
        the sweep drops gone ones from the live index)."""
        self.listed.remove([game_id])
        self.live.remove([game_id])

    # --- sibling games -----------------------------------------------------------------------
    def reveal_if_all_over(self, record: GameRecord, gone: Collection[str] = ()) -> bool:
        """Mark ``record`` and its siblings revealed when every one of them is over (the last
        of them to end does it) or among ``gone`` (known dropped unfinished: a tournament's
        table whose game expired; a sibling merely not stored may not be created yet).
        Returns whether the seed is now public."""
        if record.status is not GameStatus.OVER:
            return False
        if not record.siblings or record.revealed:
            return True
        with self.redis.pipeline(transaction=False) as pipe:
            for sibling in record.siblings:
                pipe.hget(self.key_for(sibling, "game"), "status")
            statuses = pipe.execute()
        if any(
            status != GameStatus.OVER.value and sibling not in gone
            for sibling, status in zip(record.siblings, statuses, strict=True)
        ):
            return False
        # one slot per game, so not one transaction: each write is idempotent, and a game
        # missed by a crash is marked by the next sibling's end or the tournament's tick
        with self.redis.pipeline(transaction=False) as pipe:
            for game_id in [record.id, *record.siblings]:
                pipe.hset(self.key_for(game_id, "game"), "revealed", "1")
            self.commit(pipe)
        record.revealed = True
        return True

    # --- log ------------------------------------------------------------------------------
    def restart_log(self, pipe: Pipeline, game_id: str, entry: dict[str, Any]) -> None:
        """Queue replacing the whole log by its set-up ``entry`` (a game dealt again)."""
        pipe.delete(self.key_for(game_id, "log"))
        self.append_log(pipe, game_id, entry)

    def append_log(self, pipe: Pipeline, game_id: str, entry: dict[str, Any]) -> None:
        pipe.rpush(self.key_for(game_id, "log"), _dumps(entry))

    def log(self, game_id: str, after: int = -1, limit: int | None = None) -> list[dict[str, Any]]:
        """Log entries numbered after ``after`` (entry ``n`` is the list's item ``n``), at
        most ``limit``; from the archive once the game is compacted."""
        stop = -1 if limit is None else after + limit
        archive = self._archive(game_id)
        if archive is None:
            items = self.redis.lrange(self.key_for(game_id, "log"), after + 1, stop)
            if items:
                return [json.loads(item) for item in items]
            archive = self._archive(game_id)  # compacted in between, or nothing there
        if archive is None:
            return []
        entries = archives.unpack(archive).log
        return entries[after + 1 : None if limit is None else after + 1 + limit]

    # --- idempotency ----------------------------------------------------------------------
    def remember(
        self, pipe: Pipeline, key: str, body: Any, response: dict[str, Any], ttl: int
    ) -> None:
        """Keep the answer to the request ``body`` under its idempotency key; the game's set
        of such keys lets compaction find them (both queued in the move's MULTI)."""
        stored = {"fingerprint": fingerprint(body), "answer": response}
        pipe.set(key, _dumps(stored), ex=ttl)
        answers = self.keys.answers_beside(key)
        pipe.sadd(answers, key)
        pipe.expire(answers, max(ttl, self.retention.active))

    def recall(self, client: Pipeline | redis.Redis, key: str, body: Any) -> dict[str, Any] | None:
        """The answer kept under ``key``, or None. Raises KeyReused when it answered another
        body."""
        raw = client.get(key)
        if raw is None:
            return None
        answer = self.answer_of(key, raw, body)
        self.replicate(key)  # an answer given out is a kept one (DICEHALL_MIN_REPLICAS)
        return answer

    @staticmethod
    def answer_of(key: str, raw: str | bytes, body: Any) -> dict[str, Any]:
        """The answer in ``raw`` (what :meth:`remember` stored under ``key``). Raises
        KeyReused when it answered another body."""
        stored = _loads(raw)
        if stored["fingerprint"] != fingerprint(body):
            raise KeyReused(
                "this Idempotency-Key was used for a different action; use a new key per move"
            )
        answer: dict[str, Any] = stored["answer"]
        return answer

    # --- events ---------------------------------------------------------------------------
    def publish(self, pipe: Pipeline | redis.Redis, game_id: str, event: dict[str, Any]) -> None:
        """Append an event to the game's stream (inside MULTI when given a pipeline)."""
        pipe.xadd(
            self.key_for(game_id, "events"),
            {"data": _dumps(event)},
            maxlen=self.retention.events,
            approximate=True,
        )

    def read_events(
        self, game_id: str, after: str, block_ms: int | None, count: int = 500
    ) -> list[tuple[str, dict[str, Any]]]:
        """Events after cursor ``after`` ("0" for all); blocks up to ``block_ms`` if none."""
        key = self.key_for(game_id, "events")
        if block_ms:
            reply = self.redis.xread({key: after}, count=count, block=block_ms)
        else:
            reply = self.redis.xread({key: after}, count=count)
        if not reply:
            return self._final_event(game_id, after)
        return [(event_id, _loads(fields["data"])) for event_id, fields in _resp2(reply)[0][1]]

    def _final_event(self, game_id: str, after: str) -> list[tuple[str, dict[str, Any]]]:
        """A compacted game's last event, ``game_over`` (its stream is gone), if it is after
        ``after``; its result (and seed, once public) come from the record."""
        raw = self.redis.hget(self.key_for(game_id, "game"), "final_event")
        record = self.load(game_id) if raw is not None else None
        if raw is None or record is None:
            return []
        event_id, event = json.loads(raw)
        if after != "0" and _stream_id(after) >= _stream_id(event_id):
            return []
        event["result"] = record.result
        if "seed" in event:
            event["seed"] = record.seed if record.seed_public else None
        return [(event_id, event)]

    def last_event_id(self, game_id: str) -> str:
        info = self.redis.xrevrange(self.key_for(game_id, "events"), count=1)
        if info:
            return cast(str, info[0][0])  # decode_responses: replies are str
        final = self._final_event(game_id, "0")
        return final[0][0] if final else "0"

    # --- per-seat diagnostics -------------------------------------------------------------
    def count(self, client: Pipeline | redis.Redis, game_id: str, what: str, seat: int) -> None:
        """Count one ``what`` (illegal, missed) against a seat."""
        key = self.key_for(game_id, "stats")
        pipe = client if isinstance(client, Pipeline) else client.pipeline(transaction=False)
        pipe.hincrby(key, f"{what}:{seat}", 1)
        pipe.expire(key, self.retention.active)
        if pipe is not client:
            self.commit(pipe)

    def record_time(self, pipe: Pipeline, game_id: str, seat: int, seconds: float) -> None:
        key = self.keys.times(game_id, seat)
        pipe.rpush(key, f"{seconds:.4f}")
        pipe.expire(key, self.retention.active)

    def last_time(self, game_id: str, seat: int) -> float | None:
        """The seat's decision time (s) for its latest decision, or None before its first."""
        last = self.redis.lindex(self.keys.times(game_id, seat), -1)
        return None if last is None else float(last)

    def stats(self, game_id: str, seats: int) -> list[dict[str, Any]]:
        """Per seat: illegal actions attempted, deadlines missed, decision times (s)."""
        archive = self._archive(game_id)
        if archive is None:
            with self.redis.pipeline(transaction=True) as pipe:
                pipe.hgetall(self.key_for(game_id, "stats"))
                for key in self._times_keys(game_id, seats):
                    pipe.lrange(key, 0, -1)
                counts, *times = pipe.execute()
            if counts or any(times) or self._archive(game_id) is None:
                archive = None
            else:
                archive = self._archive(game_id)  # compacted in between
        if archive is not None:
            stats = archives.unpack(archive, with_log=False).stats
            return stats or [{"illegal": 0, "missed": 0, "times": []} for _ in range(seats)]
        return [
            {
                "illegal": int(counts.get(f"illegal:{seat}", 0)),
                "missed": int(counts.get(f"missed:{seat}", 0)),
                "times": [float(t) for t in times[seat]],
            }
            for seat in range(seats)
        ]

    # --- retention ------------------------------------------------------------------------
    def compact(self, game_id: str) -> bool:
        """Fold a finished game into its hash (see :mod:`service.archive`): meta, final state,
        action log and, for a tournament game, per-seat statistics become one compressed
        ``archive`` field; the meta and state fields, the log list, the statistics, the
        per-move times and the event stream are dropped (the stream's last event, the
        ``game_over``, stays as the field ``final_event``, without the result the
        archive holds); the idempotency answers expire
        within ``ANSWER_GRACE`` s, and what is left expires ``retention.finished`` s from
        now. Idempotent; returns whether it compacted now."""
        game_key = self.key_for(game_id, "game")
        events_key, answers_key = self.key_for(game_id, "events"), self.key_for(game_id, "answers")

        def decide(pipe: Pipeline) -> tuple[Callable[[Pipeline], None] | None, bool]:
            # Everything the archive needs in one read, after the WATCH: on another
            # connection, since a write after the WATCH fails the EXEC all the same.
            with self.redis.pipeline(transaction=False) as reads:
                self.read_fields(reads, game_id)
                reads.hexists(game_key, "archive")
                reads.lrange(self.key_for(game_id, "log"), 0, -1)
                reads.xrevrange(events_key, count=1)
                reads.smembers(answers_key)
                values, archived, log, last, answers = self.send(reads)
            record = self.record_of(values)
            if record is None or record.status is not GameStatus.OVER or archived:
                return None, False
            seats = len(record.seats)
            packed = archives.pack(
                archives.Archive(
                    meta={**json.loads(self._encode(record)["meta"]), "result": record.result},
                    state=record.state,
                    log=[json.loads(item) for item in log],
                    stats=self.stats(game_id, seats) if record.tournament else None,
                )
            )
            dropped = [self.key_for(game_id, part) for part in ("log", "stats")]
            dropped += [events_key, answers_key, *self._times_keys(game_id, seats)]

            def writes(p: Pipeline) -> None:
                p.hset(game_key, "archive", packed)
                if last:
                    event = json.loads(cast("dict[str, str]", last[0][1])["data"])
                    event.pop("result", None)
                    p.hset(game_key, "final_event", json.dumps([last[0][0], event]))
                p.hdel(game_key, "meta", "state", "due", "result", "banks")
                p.delete(*dropped)
                for key in answers:
                    p.expire(key, ANSWER_GRACE)
                p.expire(game_key, self.retention.finished)

            return writes, True

        return self.transact([game_key], decide)

    def game_ids(self, offset: int = 0, limit: int = 50) -> list[str]:
        """Public games, newest first."""
        return self.listed.newest(offset, limit)

    # --- games not over yet (for the sweep) -----------------------------------------------
    def live_ids(self) -> list[str]:
        return self.live.members()

    def drop_live(self, game_ids: Sequence[str]) -> None:
        self.live.remove(game_ids)

    def glance(self, game_ids: Sequence[str]) -> list[GameRecord | None]:
        """The records of ``game_ids`` without their states (``state`` is left empty): what the
        sweep needs to see who owes what, read in one round trip."""
        fields = [f for f in _FIELDS if f != "state"]
        with self.redis.pipeline(transaction=False) as pipe:
            for game_id in game_ids:
                # decoding off: a compacted game's ``archive`` field is binary (as in ``load``)
                pipe.execute_command(
                    "HMGET", self.key_for(game_id, "game"), *fields, **{NEVER_DECODE: True}
                )
            replies = pipe.execute()
        records = []
        for values in replies:
            raw = {
                name: value if value is None or name == "archive" else value.decode()
                for name, value in zip(fields, values, strict=True)
            }
            records.append(self._decode([raw.get(f) for f in _FIELDS]))
        return records
