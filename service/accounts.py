"""Bot accounts: external bots register, get a token, and hold the seats they are invited to.

An account's token opens every seat whose ``account`` is that account, in any game. Each
account has a feed (a Redis stream) of what concerns it: game started, decision due (with
its deadline), game over.
"""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import asdict, dataclass
from typing import Any, cast

import redis

from service import tokens
from service.keys import Keys


@dataclass
class Account:
    """A registered external bot."""

    id: str
    name: str
    owner: str
    created_at: float

    def public(self) -> dict[str, Any]:
        return asdict(self)


class AccountStore:
    """Accounts, their token index, their active games and their feeds."""

    def __init__(
        self, client: redis.Redis, keys: Keys | None = None, ttl: int = 365 * 86400
    ) -> None:
        self.redis = client
        self.keys = keys or Keys()
        self.ttl = ttl
        """An account, its token, game set and feed expire this long after the token's last
        use (each use renews them)."""

    def _key(self, account_id: str, part: str = "") -> str:
        return self.keys.account(account_id, part)

    def _token_key(self, token_digest: str) -> str:
        return self.keys.account_token(token_digest)

    def register(self, name: str, owner: str) -> tuple[Account, str]:
        """A new account and its token (shown once).

        The account and its token digest are two slots on a cluster, so no transaction:
        the account is written first, then the token, in one pipeline (one round trip). A
        crash between leaves an account no token opens (the token was never shown), which
        expires with ``ttl``."""
        account = Account(uuid.uuid4().hex[:12], name, owner, time.time())
        token = tokens.new_token("bot")
        tokens.vouch(token)
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(self._key(account.id), json.dumps(account.public()), ex=self.ttl)
            pipe.set(self._token_key(tokens.digest(token)), account.id, ex=self.ttl)
            pipe.execute()
        return account, token

    def get(self, account_id: str) -> Account | None:
        raw = self.redis.get(self._key(account_id))
        return None if raw is None else Account(**json.loads(raw))

    def by_token(self, token: str) -> Account | None:
        """The token's account; renews the lifetime of both (GETEX: no extra round trip)."""
        account_id = self.redis.getex(self._token_key(tokens.digest(token)), ex=self.ttl)
        if account_id is None:
            return None
        raw = self.redis.getex(self._key(cast(str, account_id)), ex=self.ttl)
        return None if raw is None else Account(**json.loads(raw))

    # --- games ------------------------------------------------------------------------
    def add_game(self, account_id: str, game_id: str) -> None:
        key = self._key(account_id, "games")
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.sadd(key, game_id)
            pipe.expire(key, self.ttl)
            pipe.execute()

    def drop_game(self, account_id: str, game_id: str) -> None:
        self.redis.srem(self._key(account_id, "games"), game_id)

    def games(self, account_id: str) -> list[str]:
        return sorted(cast("set[str]", self.redis.smembers(self._key(account_id, "games"))))

    # --- feed -------------------------------------------------------------------------
    def notify(self, account_id: str, event: dict[str, Any]) -> None:
        key = self._key(account_id, "feed")
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.xadd(key, {"data": json.dumps(event)}, maxlen=10_000, approximate=True)
            pipe.expire(key, self.ttl)
            pipe.execute()

    def last_feed_id(self, account_id: str) -> str:
        """The id of the newest feed event ("0" when there is none): a fresh SSE connection
        starts after it, since ``pending`` already says what is owed."""
        newest = self.redis.xrevrange(self._key(account_id, "feed"), count=1)
        return cast(str, newest[0][0]) if newest else "0"

    def read_feed(
        self, account_id: str, after: str, block_ms: int | None
    ) -> list[tuple[str, dict[str, Any]]]:
        key = self._key(account_id, "feed")
        reply = self.redis.xread({key: after}, count=500, block=block_ms or None)
        if not reply:
            return []
        entries = cast("list[Any]", reply)[0][1]  # the RESP2 reply (redis-py types every shape)
        return [(event_id, json.loads(fields["data"])) for event_id, fields in entries]
