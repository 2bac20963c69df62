"""Per-request access to the game service and the caller's token."""

from __future__ import annotations

from flask import Flask, current_app, request

from service.games import GameService
from service.problems import Problem
from service.runtime import game_service as build_game_service


def service_of(app: Flask) -> GameService:
    """The game service over ``app``'s Redis and rq queue (one per app)."""
    if "dicehall.games" not in app.extensions:
        app.extensions["dicehall.games"] = build_game_service(app.config["DICEHALL"])
    return app.extensions["dicehall.games"]


def game_service() -> GameService:
    """The current app's game service."""
    return service_of(current_app)


def bearer_token() -> str | None:
    """The request's bearer token, or None. Raises Problem 401 for a malformed header."""
    return parse_bearer(request.headers.get("Authorization"))


def parse_bearer(header: str | None) -> str | None:
    """The token of an ``Authorization`` header, or None without one. Raises Problem 401 for
    a malformed header."""
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Problem(401, "unauthorized", "use 'Authorization: Bearer <token>'")
    return token.strip()
