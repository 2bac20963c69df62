"""Bearer tokens: random secrets handed out once and stored only as SHA-256 digests."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections import OrderedDict

VOUCHED_MAX = 100_000
"""Digests of verified tokens a process remembers (the least recently seen go first)."""
_vouched: OrderedDict[str, None] = OrderedDict()
_lock = threading.Lock()


def new_token(kind: str) -> str:
    """A fresh token; the prefix (``seat_``, ``creator_``, ``bot_``) says what it opens."""
    return f"{kind}_{secrets.token_urlsafe(24)}"


def digest(token: str) -> str:
    """What the store keeps of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


def matches(token: str | None, stored_digest: str | None) -> bool:
    """True when ``token`` is the one whose digest was stored (constant-time compare)."""
    if not token or not stored_digest:
        return False
    return digest_matches(digest(token), stored_digest)


def digest_matches(token_digest: str, stored_digest: str | None) -> bool:
    """:func:`matches` for a token whose digest is already worked out (a request that
    compares one token with several stored digests works it out once)."""
    if not stored_digest:
        return False
    return hmac.compare_digest(token_digest, stored_digest)


def vouch(token: str, token_digest: str | None = None) -> None:
    """Remember that ``token`` opened something in this process: the rate limiter then counts
    its requests per token instead of per client address. ``token_digest``: its digest, if
    the caller has it already."""
    key = digest(token) if token_digest is None else token_digest
    with _lock:
        _vouched[key] = None
        _vouched.move_to_end(key)
        while len(_vouched) > VOUCHED_MAX:
            _vouched.popitem(last=False)


def vouched_digest(token_digest: str) -> bool:
    """Whether the token of ``token_digest`` has opened something in this process (see
    :func:`vouch`)."""
    with _lock:
        return token_digest in _vouched
