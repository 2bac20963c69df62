"""The play data of King of the Dice: a dataclass tree that round-trips through JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

THROWS = 3
"""Throws of the six dice a turn at most (the first roll and two rerolls)."""


class Phase(StrEnum):
    """What the active player decides now."""

    ROLL = "roll"  # phase 1: throw all six dice
    KEEP = "keep"  # phase 1: reroll some dice or stop
    HIRE = "hire"  # phase 2: discard joker pairs, hire a card, or take one face down
    PLACE = "place"  # phase 3: place a drawn castle tile with a marker
    STEAL_CARD = "steal_card"  # stack 2a
    STEAL_GEM = "steal_gem"  # stack 2b
    FREE_DRAGON = "free_dragon"  # stack 3
    RAID = "raid"  # stack 4
    PLACE_DRAGON = "place_dragon"  # phase 3b: place the drawn tile with a dragon fire
    OVER = "over"


@dataclass
class ExtraDie:
    """A pretend die made by discarding a pair of joker symbols."""

    number: int
    colour: str


@dataclass
class Player:
    """A player's personal area."""

    face_up: list[int] = field(default_factory=list)
    face_down: list[int] = field(default_factory=list)
    gold: int = 0
    white: int = 0
    fires: int = 0
    markers: int = 16


@dataclass
class KingState:
    """Everything about a game of King of the Dice.

    Hidden parts: ``stock`` (the castle-tile stockpile; its order), ``removed`` (the two tiles
    put back in the box unseen), the order of each card stack below its top card, and the
    identity of face-down cards. ``view`` redacts them.
    """

    seats: int
    occupant: list[int]  # per space: seat, -1 nobody, -2 dragon fire
    tiled: list[bool]  # per space: a castle tile lies there
    face_down: list[bool]  # per space: a set-up tile lying castle side up
    gem: list[str]  # per space: "", "gold" or "white"
    stock: list[str]  # castle tiles by terrain; the last is the top
    removed: list[str]
    known_in_stock: list[str]  # tiles seen and shuffled back (public), sorted
    stacks: list[list[int]]  # card ids per stack; index 0 is the face-up top card
    players: list[Player]
    gold_stock: int
    white_stock: int
    fire_stock: int
    box: list[int] = field(default_factory=list)  # discarded citizen cards
    active: int = 0
    turn: int = 1
    phase: Phase = Phase.ROLL
    rolls: int = 0
    dice: list[int] = field(default_factory=list)  # numbers on the six dice
    extra: list[ExtraDie] = field(default_factory=list)
    hired: int = -1  # card hired this turn (face up) or -1
    grade: int = 0  # conditions met on the hired card
    drawn: list[str] = field(default_factory=list)  # tiles drawn face up, to place
    to_place: int = 0
    dragon_alarm: bool = False
    start_rolls: list[list[int]] = field(default_factory=list)
    log: list[dict[str, Any]] = field(default_factory=list)
    winner: int = -1  # set when a player must place a 17th marker (the result detail)
    over: bool = False  # mirrors phase OVER, kept in the stored shape; ask Game.is_over
