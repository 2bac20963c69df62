"""The play data of a Burgundy game: dataclasses that round-trip through engine.codec."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from engine.burgundy.duchy import BONUS_KINDS, HEX_COUNT

HOURGLASS_FACES = (1, 1, 1, 1, 2, 2)
"""The hourglass die: four single and two double (blue) faces. Not published; one constant."""
COLUMN = 10
"""Boxes in each time column (phases I, II, III)."""
SOLO_ROUNDS = 8
"""Rounds in each phase of the solo variant "one and only"."""
AREA_POINTS = {1: (1, 1, 1), 2: (4, 3, 2), 3: (8, 6, 4), 4: (13, 10, 7)}
"""Points for completing an area by its size, in phases I, II, III."""
CASTLE_POINTS = 1
SALE_POINTS = 2
UNMARKED = -1
CHECKED = 0
"""Value of a starting castle: checked off, no number in it."""


class Stage(StrEnum):
    """Where the game is: castle picks, then rounds, then over (``BurgundyState.stage``)."""

    CASTLE = "castle"
    ROUND = "round"
    OVER = "over"


@dataclass
class Roll:
    """The five dice of the current round."""

    pips: list[int]
    colours: list[str]
    hourglass: int


@dataclass
class Sheet:
    """One player's duchy page.

    ``values[h]``: -1 unmarked, 0 a starting castle (checked, no number), else the pip value
    written in the hex. ``circles[k]``: circles drawn on the colour tracks per bonus kind (in
    :data:`BONUS_KINDS` order, capped by the duchy's limits); castle circles are counted from
    the marked castles. ``used[k]``: circles checked off (spent). ``points``: per phase.
    """

    values: list[int] = field(default_factory=lambda: [UNMARKED] * HEX_COUNT)
    circles: list[int] = field(default_factory=lambda: [0] * len(BONUS_KINDS))
    used: list[int] = field(default_factory=lambda: [0] * len(BONUS_KINDS))
    points: list[int] = field(default_factory=lambda: [0, 0, 0])
    castle: int = -1


@dataclass
class ColourClaim:
    """Who took the first and the second colour-completion points of one colour."""

    colour: str
    first: list[int] = field(default_factory=list)
    second: list[int] = field(default_factory=list)


@dataclass
class BurgundyState:
    """The whole game. ``pending[s]`` holds seat s's sealed decision as canonical JSON
    ("" while undecided); ``revealed`` holds the decisions of the last resolved round."""

    seats: int
    duchy: str
    variant: str
    castle_option: str
    stage: Stage
    sheets: list[Sheet]
    pending: list[str]
    claims: list[ColourClaim]
    time: list[int] = field(default_factory=lambda: [0, 0, 0])
    phase: int = 0
    round: int = 0
    round_in_phase: int = 0
    roll: Roll | None = None
    picker: int = -1
    revealed: list[str] = field(default_factory=list)
    revealed_round: int = 0


def column_size(state: BurgundyState) -> int:
    """Boxes in each time column of this game (the solo variant has fewer rounds)."""
    return SOLO_ROUNDS if state.variant == "solo" else COLUMN
