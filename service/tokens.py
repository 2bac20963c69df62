"""Bearer tokens: random secrets handed out once and stored only as SHA-256 digests."""

from __future__ import annotations

import hashlib
import hmac
import secrets


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
    return hmac.compare_digest(digest(token), stored_digest)
