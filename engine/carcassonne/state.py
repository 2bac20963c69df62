"""The play data of a Carcassonne dice game: plain dataclasses that round-trip through JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Status(StrEnum):
    """What became of a die of the current roll."""

    FREE = "free"
    """A die still on the table: it may be placed, kept (a knight) or re-rolled."""
    PLACED = "placed"
    """A die built into the city grid."""
    ASIDE = "aside"
    """A knight set aside (never re-rolled)."""
    GONE = "gone"
    """A catapult: it left the turn at once."""


FREE, PLACED, ASIDE, GONE = Status.FREE, Status.PLACED, Status.ASIDE, Status.GONE
STATUSES = tuple(status.value for status in Status)


@dataclass
class RolledDie:
    """One die of the current roll: the face it shows and what became of it."""

    face: str
    status: Status = Status.FREE


@dataclass
class PlacedDie:
    """A city die built into this turn's grid (it never moves)."""

    x: int
    y: int
    face: str
    rotation: int


@dataclass
class Turn:
    """The turn in progress: its dice, its rolls and what has been built or set aside."""

    seat: int
    dice: int
    """Dice this turn (nine minus the knights the other players hold)."""
    doubled: bool
    """The seat held a knight at the start of the turn: its score this turn counts double."""
    rolls: int = 0
    """Rolls made so far (at most three)."""
    roll: list[RolledDie] = field(default_factory=list)
    placed: list[PlacedDie] = field(default_factory=list)
    knights: int = 0
    """Knights set aside this turn."""
    catapults: int = 0
    """Catapults rolled this turn, over all its rolls."""


@dataclass
class TurnRecord:
    """How a finished turn ended, shown to everybody until the next turn ends."""

    seat: int
    ending: str
    """``"scored"``, ``"held_knight"`` or ``"nine_catapults"``."""
    city: int = 0
    """Dice in the city that scored (0: none)."""
    points: int = 0
    doubled: bool = False


@dataclass
class CarcassonneState:
    """The whole game: scores, held knights and turns taken per seat, and the turn in play."""

    seats: int
    scores: list[int]
    held: list[bool]
    """Whether each seat holds a knight die between turns (at most one each)."""
    turns: list[int]
    """Turns each seat has finished."""
    turn: Turn
    last: TurnRecord | None = None
    winner: int | None = None
    won_by: str = ""
    """``"points"`` (reached 42) or ``"catapults"`` (nine in one turn); empty while playing."""
