"""The verifier behind ``dicehall verify``: :mod:`engine.verify`, re-playing a finished game's
published log on the caller's machine. It is the one client module, with ``dicehall match``,
that imports the engine; it never talks to Redis or imports ``service``."""

from engine.contract import IllegalAction
from engine.verify import Audit, Check, audit_game, fork_start

__all__ = ["Audit", "Check", "IllegalAction", "audit_game", "fork_start"]
