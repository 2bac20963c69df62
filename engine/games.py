"""The registry of games by short name: the one place the service looks a game up."""

from __future__ import annotations

import importlib

from engine.contract import Game

_MODULES: dict[str, str] = {
    "burgundy": "engine.burgundy",
    "carcassonne": "engine.carcassonne",
    "diceland": "engine.diceland",
    "kingdice": "engine.kingdice",
    "toy": "engine.toy",
}
"""Short name -> package exposing ``GAME``. ``toy`` is the contract's test game (not listed)."""

REGISTERED: tuple[str, ...] = tuple(_MODULES)
"""Every game folder of the engine, the toy included."""

LISTED: tuple[str, ...] = tuple(name for name in _MODULES if name != "toy")
"""The games the catalogue offers to players."""

_cache: dict[str, Game] = {}


class UnknownGame(KeyError):
    """No game is registered under that name."""


def get_game(name: str) -> Game:
    """The game registered as ``name``. Raises UnknownGame."""
    if name not in _MODULES:
        raise UnknownGame(name)
    if name not in _cache:
        _cache[name] = importlib.import_module(_MODULES[name]).GAME
    return _cache[name]


def catalogue() -> list[Game]:
    """Every listed game, in a stable order."""
    return [get_game(name) for name in LISTED]
