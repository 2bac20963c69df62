"""Per-request access to the game service and the caller's token."""

from __future__ import annotations

from flask import current_app, request

from service.games import GameService
from service.problems import Problem
from service.runtime import game_service as build_game_service


def game_service() -> GameService:
    """The game service over the app's Redis and rq queue (one per app)."""
    if "dicehall.games" not in current_app.extensions:
        current_app.extensions["dicehall.games"] = build_game_service(
            current_app.config["DICEHALL"]
        )
    return current_app.extensions["dicehall.games"]


def bearer_token() -> str | None:
    """The request's bearer token, or None. Raises Problem 401 for a malformed header."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Problem(401, "unauthorized", "use 'Authorization: Bearer <token>'")
    return token.strip()
