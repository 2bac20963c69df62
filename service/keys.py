"""Every Redis key the service uses, built in one place (no other module formats a key).

The layout is made for Redis Cluster: a key's hash tag (the part in braces) decides its slot,
and every transaction or script touches one slot only.

- a game's parts (hash, log, events, stats, answers, per-seat times, idempotency answers, bot
  job markers, replay counters) share the tag ``{<game id>}``;
- an account's parts (record, games, feed) share ``{<account id>}``; a token digest's key
  lives in a slot of its own and is written after the account (registration needs no
  transaction: an account whose token write was lost opens nothing, and expires);
- a tournament's parts share ``{<tournament id>}``;
- the global indexes (games listed, games not over, tournaments) are sharded
  (``service.indexes``): shard ``n`` of index ``name`` is tagged ``{<name>-<n>}``, so the
  shards spread over the cluster's nodes;
- the rest (rate-limit windows, worker heartbeats, the sweep's lock, holder and statistics,
  the readiness probe) are single keys, each in a slot of its own.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Keys:
    """The key names under one prefix (``DICEHALL_PREFIX``, default ``dh``)."""

    prefix: str = "dh"

    # --- one game (tag: the game id) ------------------------------------------------------
    def game(self, game_id: str, part: str = "game") -> str:
        """One part of a game: ``<prefix>:{<game id>}:<part>``."""
        return f"{self.prefix}:{{{game_id}}}:{part}"

    def idempotency(self, game_id: str, seat: int, key: str) -> str:
        """A move's stored answer under its ``Idempotency-Key``."""
        return self.game(game_id, f"idem:{seat}:{key}")

    def answers(self, game_id: str) -> str:
        """The set of a game's idempotency keys (compaction expires them)."""
        return self.game(game_id, "answers")

    def answers_beside(self, idempotency_key: str) -> str:
        """The answers set of the game an idempotency key belongs to."""
        return idempotency_key.split("}", 1)[0] + "}:answers"

    def times(self, game_id: str, seat: int) -> str:
        """A seat's decision times."""
        return self.game(game_id, f"times:{seat}")

    def bot_job(self, game_id: str, seat: int) -> str:
        """The id of the last bot job enqueued for a seat (kept on the queue's Redis)."""
        return self.game(game_id, f"botjob:{seat}")

    def replays(self, game_id: str, seat: int) -> str:
        """How many bot jobs the sweep made for a seat's decision."""
        return self.game(game_id, f"replays:{seat}")

    def beside(self, key: str, part: str) -> str:
        """The key ``part`` with the same hash tag as ``key`` (same slot): the short-lived
        marker written before ``WAIT`` (see ``GameStore.replicate``)."""
        head, brace, _ = key.partition("}")
        return f"{head}{brace}:{part}" if brace else f"{key}:{part}"

    # --- accounts (tag: the account id) ---------------------------------------------------
    def account(self, account_id: str, part: str = "") -> str:
        """An account's record, or one of its parts (``games``, ``feed``)."""
        return f"{self.prefix}:account:{{{account_id}}}" + (f":{part}" if part else "")

    def account_token(self, token_digest: str) -> str:
        """Which account a token (by digest) opens."""
        return f"{self.prefix}:account-token:{token_digest}"

    # --- tournaments (tag: the tournament id) ---------------------------------------------
    def tournament(self, tournament_id: str, part: str = "") -> str:
        """A tournament's record, or one of its parts (``over``, ``beat``, ``chain``, ``lock``)."""
        return f"{self.prefix}:tournament:{{{tournament_id}}}" + (f":{part}" if part else "")

    # --- sharded global indexes -----------------------------------------------------------
    def index_shard(self, name: str, shard: int) -> str:
        """Shard ``shard`` of the global index ``name`` (``games``, ``live``,
        ``tournaments``), in a slot of its own."""
        return f"{self.prefix}:{name}:{{{name}-{shard}}}"

    def legacy_index(self, name: str) -> str:
        """An index as it was before sharding (read once by the sweep's backfill)."""
        return f"{self.prefix}:{name}"

    @property
    def live_filled(self) -> str:
        """Set once the live index was backfilled from the games index."""
        return f"{self.prefix}:live:filled"

    # --- the rest -------------------------------------------------------------------------
    def rate(self, name: str, window: int) -> str:
        """A rate-limit counter of ``name`` (``t:<digest>``, ``a:<address>``...) for one
        window."""
        return f"{self.prefix}:rate:{name}:{window}"

    def worker_alive(self, worker_name: str) -> str:
        """A worker's heartbeat."""
        return f"{self.prefix}:worker:{worker_name}:alive"

    @property
    def sweep_stats(self) -> str:
        return f"{self.prefix}:sweep:stats"

    @property
    def sweep_holder(self) -> str:
        """Who holds the sweep lock: ``<worker name> <pid>``."""
        return f"{self.prefix}:sweep:holder"

    @property
    def sweep_lock(self) -> str:
        return f"{self.prefix}:sweep:lock"

    @property
    def ready(self) -> str:
        """The readiness probe's test write."""
        return f"{self.prefix}:ready"
