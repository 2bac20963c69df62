"""Diceland's play data: one dataclass tree that round-trips through ``engine.codec``."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Phase(StrEnum):
    """The step the game is at."""

    SIDE = "side"
    """Before the first turn: every seat picks a side of its board (sealed choices)."""
    CHOOSE = "choose"
    """Phase 1: the active player picks one colour of the first throw."""
    PUSH = "push"
    """Phase 1: the active player stops or throws the other dice again."""
    CROSS = "cross"
    """Phase 2: the active player and the inactive players cross off (sealed choices)."""
    TREASURE = "treasure"
    """Treasure throws, one player at a time, clockwise from the active player."""
    OVER = "over"


@dataclass
class Choice:
    """A seat's phase-2 decision: ``cross`` (colour and hex indices), ``pass``, or ``none``
    (the seat had no legal placement, so it owed nothing)."""

    kind: str
    colour: str = ""
    hexes: list[int] = field(default_factory=list)


@dataclass
class DicelandState:
    """The whole game. ``crosses[s]`` are the hex indices crossed on seat ``s``'s map
    (sorted, the start hex included)."""

    seats: int
    maps: list[str]
    crosses: list[list[int]]
    active: int
    turn: int = 1
    phase: Phase = Phase.CHOOSE
    last_throw: list[str] = field(default_factory=list)
    throws: int = 0
    chosen: str = ""
    aside: int = 0
    choices: list[Choice | None] = field(default_factory=list)
    treasure_queue: list[int] = field(default_factory=list)
    treasure_dice: list[str] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    last_phase2: list[Choice] = field(default_factory=list)
    """Everyone's phase-2 choice of the last resolved turn (public once resolved)."""
    boards: list[list[str]] = field(default_factory=list)
    """Each seat's board as its two sides (front, back), when the edition has boards and the
    maps were not assigned; ``maps[s]`` is the front until the sides are revealed."""
    sides: list[str] = field(default_factory=list)
    """The sides picked so far in phase ``SIDE`` (sealed; ``""``: not yet)."""
    edition: int = 1
    """The maps' edition the game plays (``engine.diceland.maps``); a state stored before
    editions existed has none and plays edition 1."""
