"""Game state in Redis: the only module that knows key names and the record layout.

Every key of one game carries the hash tag ``{game_id}`` so the layout works on Redis
Cluster. A game is one hash (``<prefix>:{id}:game``) holding its record, state, version and
dice counter; its action log is a list and its event feed a stream beside it. Writes are
compare-and-set: :meth:`GameStore.transact` WATCHes the game (and any extra keys), lets the
caller read and decide, then commits in MULTI/EXEC and retries on ``WatchError``.
"""

from __future__ import annotations

import enum
import hashlib
import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, TypeVar

import redis

from engine import codec

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
    """seat (as text) -> when its current decision fell due (epoch seconds)."""
    decisions: dict[str, int] = field(default_factory=dict)
    """seat (as text) -> the version at which its current decision fell due: the seat's
    concurrency token (``If-Match`` at or after it succeeds while the decision stands)."""

    def decision(self, seat: int) -> int:
        """The id of ``seat``'s current decision (the game's version for a record that
        predates decision ids)."""
        return self.decisions.get(str(seat), self.version)

    def deadline(self, seat: int) -> float | None:
        """When ``seat``'s current decision times out, if the game has a clock."""
        since = self.due.get(str(seat))
        if since is None or self.decision_seconds is None:
            return None
        return since + self.decision_seconds


class Conflict(Exception):
    """A record that should not exist yet does (create of an existing id)."""


class Contention(Exception):
    """Compare-and-set gave up: the watched keys kept changing through every attempt."""

    def __init__(self, attempts: int) -> None:
        super().__init__(f"gave up after {attempts} compare-and-set attempts")
        self.attempts = attempts


class KeyReused(Exception):
    """An idempotency key came back with a different request body."""


@dataclass(frozen=True)
class Backoff:
    """How compare-and-set retries: full-jitter exponential backoff, a bounded number of
    attempts (then :class:`Contention`)."""

    attempts: int = 24
    base: float = 0.002
    cap: float = 0.1

    def delay(self, attempt: int) -> float:
        return random.uniform(0, min(self.cap, self.base * 2**attempt))


_FIELDS = ("meta", "state", "version", "counter", "status", "result", "due", "decisions")


def fingerprint(body: Any) -> str:
    """What identifies a request body for an idempotency key (canonical JSON, hashed)."""
    return hashlib.sha256(codec.canonical_json(body).encode()).hexdigest()


class GameStore:
    """Reads and compare-and-set writes of games; the connection is passed in."""

    def __init__(
        self,
        client: redis.Redis,
        prefix: str = "dh",
        backoff: Backoff | None = None,
        on_retry: Callable[[], None] | None = None,
    ) -> None:
        self.redis = client
        self.prefix = prefix
        self.backoff = backoff or Backoff()
        self.on_retry = on_retry
        self.retries = 0
        """Compare-and-set retries made by this store (also reported through ``on_retry``)."""

    # --- keys -----------------------------------------------------------------------------
    def key_for(self, game_id: str, part: str) -> str:
        """The key of one part of a game: ``<prefix>:{<game_id>}:<part>``."""
        return f"{self.prefix}:{{{game_id}}}:{part}"

    def idempotency_key(self, game_id: str, seat: int, key: str) -> str:
        return self.key_for(game_id, f"idem:{seat}:{key}")

    @property
    def index_key(self) -> str:
        return f"{self.prefix}:games"

    # --- records --------------------------------------------------------------------------
    @staticmethod
    def _encode(record: GameRecord) -> dict[str, str]:
        meta = {
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
        }
        return {
            "meta": json.dumps(meta),
            "state": codec.canonical_json(record.state),
            "version": str(record.version),
            "counter": str(record.counter),
            "status": record.status.value,
            "result": json.dumps(record.result),
            "due": json.dumps(record.due),
            "decisions": json.dumps(record.decisions),
        }

    @staticmethod
    def _decode(values: Sequence[str | None]) -> GameRecord | None:
        raw = dict(zip(_FIELDS, values, strict=True))
        if raw["meta"] is None:
            return None
        meta = json.loads(raw["meta"])
        return GameRecord(
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
            state=json.loads(raw["state"] or "{}"),
            result=json.loads(raw["result"] or "null"),
            decision_seconds=meta.get("decision_seconds"),
            tournament=meta.get("tournament"),
            due=json.loads(raw["due"] or "{}"),
            decisions=json.loads(raw["decisions"] or "{}"),
        )

    def load(self, game_id: str, pipe: Pipeline | redis.Redis | None = None) -> GameRecord | None:
        """The game's record, or None. With a watching pipeline, reads immediately."""
        client = pipe if pipe is not None else self.redis
        return self._decode(client.hmget(self.key_for(game_id, "game"), list(_FIELDS)))

    def write(self, pipe: Pipeline, record: GameRecord) -> None:
        """Queue the record's write on a pipeline (inside MULTI)."""
        pipe.hset(self.key_for(record.id, "game"), mapping=self._encode(record))

    def create(
        self,
        record: GameRecord,
        events: Sequence[dict[str, Any]] = (),
        log: Sequence[dict[str, Any]] = (),
    ) -> None:
        """Store a new game with its first events and log entries. Raises Conflict if the id
        exists."""
        key = self.key_for(record.id, "game")

        def decide(pipe: Pipeline) -> Callable[[Pipeline], None]:
            if pipe.exists(key):
                raise Conflict(record.id)

            def writes(p: Pipeline) -> None:
                self.write(p, record)
                for event in events:
                    self.publish(p, record.id, event)
                for entry in log:
                    self.append_log(p, record.id, entry)

            return writes

        self.transact([key], lambda pipe: (decide(pipe), None))
        self.redis.zadd(self.index_key, {record.id: record.created_at})

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
        with self.redis.pipeline() as pipe:
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
                    pipe.execute()
                    return value
                except redis.WatchError:
                    self.retries += 1
                    if self.on_retry is not None:
                        self.on_retry()
                    time.sleep(self.backoff.delay(attempt))
        raise Contention(self.backoff.attempts)

    @staticmethod
    def _confirm(pipe: Pipeline) -> None:
        """Raise WatchError if a watched key changed since WATCH (an empty MULTI/EXEC)."""
        pipe.multi()
        pipe.execute()

    # --- log ------------------------------------------------------------------------------
    def append_log(self, pipe: Pipeline, game_id: str, entry: dict[str, Any]) -> None:
        pipe.rpush(self.key_for(game_id, "log"), json.dumps(entry))

    def log(self, game_id: str) -> list[dict[str, Any]]:
        return [json.loads(item) for item in self.redis.lrange(self.key_for(game_id, "log"), 0, -1)]

    # --- idempotency ----------------------------------------------------------------------
    def remember(
        self, pipe: Pipeline, key: str, body: Any, response: dict[str, Any], ttl: int
    ) -> None:
        """Keep the answer to the request ``body`` under its idempotency key."""
        stored = {"fingerprint": fingerprint(body), "answer": response}
        pipe.set(key, json.dumps(stored), ex=ttl)

    def recall(self, client: Pipeline | redis.Redis, key: str, body: Any) -> dict[str, Any] | None:
        """The answer kept under ``key``, or None. Raises KeyReused when it answered another
        body."""
        raw = client.get(key)
        if raw is None:
            return None
        stored = json.loads(raw)
        if stored["fingerprint"] != fingerprint(body):
            raise KeyReused(key)
        answer: dict[str, Any] = stored["answer"]
        return answer

    # --- events ---------------------------------------------------------------------------
    def publish(self, pipe: Pipeline | redis.Redis, game_id: str, event: dict[str, Any]) -> None:
        """Append an event to the game's stream (inside MULTI when given a pipeline)."""
        pipe.xadd(self.key_for(game_id, "events"), {"data": json.dumps(event)})

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
            return []
        return [(event_id, json.loads(fields["data"])) for event_id, fields in reply[0][1]]

    def last_event_id(self, game_id: str) -> str:
        info = self.redis.xrevrange(self.key_for(game_id, "events"), count=1)
        return info[0][0] if info else "0"

    # --- per-seat diagnostics -------------------------------------------------------------
    def count(self, client: Pipeline | redis.Redis, game_id: str, what: str, seat: int) -> None:
        """Count one ``what`` (illegal, missed) against a seat."""
        client.hincrby(self.key_for(game_id, "stats"), f"{what}:{seat}", 1)

    def record_time(self, pipe: Pipeline, game_id: str, seat: int, seconds: float) -> None:
        pipe.rpush(self.key_for(game_id, f"times:{seat}"), f"{seconds:.4f}")

    def last_time(self, game_id: str, seat: int) -> float | None:
        """The seat's decision time (s) for its latest decision, or None before its first."""
        last = self.redis.lindex(self.key_for(game_id, f"times:{seat}"), -1)
        return None if last is None else float(last)

    def stats(self, game_id: str, seats: int) -> list[dict[str, Any]]:
        """Per seat: illegal actions attempted, deadlines missed, decision times (s)."""
        counts = self.redis.hgetall(self.key_for(game_id, "stats"))
        return [
            {
                "illegal": int(counts.get(f"illegal:{seat}", 0)),
                "missed": int(counts.get(f"missed:{seat}", 0)),
                "times": [
                    float(t)
                    for t in self.redis.lrange(self.key_for(game_id, f"times:{seat}"), 0, -1)
                ],
            }
            for seat in range(seats)
        ]

    def game_ids(self, offset: int = 0, limit: int = 50) -> list[str]:
        return list(self.redis.zrevrange(self.index_key, offset, offset + limit - 1))
