"""Duchy sheets: the 37-hex map, its areas, castles and per-duchy numbers, loaded from JSON.

The data files live in ``data/duchy_<x>.json`` next to this module and are read once at
import. Duchy A is as printed (RULES.md, Data); B, C and D are house designs and say so in
their files (``"house_design": true``). :func:`problems` lists everything wrong with a duchy's
data (the tests require it to be empty for every duchy).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

ROW_LENGTHS = (4, 5, 6, 7, 6, 5, 4)
Q_START = (0, -1, -2, -3, -3, -3, -3)
AXIAL_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
COLOURS = ("blue", "purple", "yellow", "gray", "green", "orange")
"""The six colours of a colour die, one per face (also the six hex colours)."""
BONUS_KINDS = ("monk", "silver", "commodity", "worker")
"""The four bonus types, in the order used by every per-kind list in the state."""
LETTERS = {"B": "blue", "P": "purple", "Y": "yellow", "G": "gray", "C": "green", "O": "orange"}
AREA_BONUS = {"purple": "monk", "gray": "silver", "blue": "commodity", "orange": "worker"}
"""The bonus a completed area of each colour gives (green: its castle's square; yellow: none)."""
PIP_RANGE = {"purple": (1, 2), "gray": (3, 4), "blue": (5, 6)}
"""The pip values a monastery, mine or river hex accepts."""
LAND = {
    "blue": "river",
    "purple": "monastery",
    "yellow": "pasture",
    "gray": "mine",
    "green": "castle",
    "orange": "city",
}
"""What the hexes of each colour are on the sheet."""
NUMBERS = {
    "blue": "range",
    "purple": "range",
    "yellow": "same",
    "gray": "range",
    "green": "neighbour",
    "orange": "differ",
}
"""Which numbers a hex of each colour takes (``sheet.mark_error`` applies them): ``range``
the colour's :data:`PIP_RANGE`, ``same`` the number already in its area (a pasture's are all
equal), ``differ`` none already in its area (a city's all differ), ``neighbour`` a number
already in a hex next to it (a castle)."""

HEX_COUNT = sum(ROW_LENGTHS)
CELLS: tuple[tuple[int, int], ...] = tuple(
    (row, col) for row, n in enumerate(ROW_LENGTHS) for col in range(n)
)
INDEX = {cell: i for i, cell in enumerate(CELLS)}


def _neighbours(row: int, col: int) -> list[int]:
    q, r = Q_START[row] + col, row - 3
    out = []
    for dq, dr in AXIAL_STEPS:
        nrow = r + dr + 3
        if 0 <= nrow < len(ROW_LENGTHS):
            ncol = q + dq - Q_START[nrow]
            if 0 <= ncol < ROW_LENGTHS[nrow]:
                out.append(INDEX[(nrow, ncol)])
    return sorted(out)


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(tuple(_neighbours(r, c)) for r, c in CELLS)
"""Hex index -> indices of the adjacent hexes (the grid is the same for every duchy)."""


@dataclass(frozen=True)
class Duchy:
    """One duchy sheet: hex colours, areas, castles and the sheet's printed numbers."""

    name: str
    title: str
    house_design: bool
    note: str
    colours: tuple[str, ...]
    area_of: tuple[int, ...]
    areas: tuple[tuple[int, ...], ...]
    area_colours: tuple[str, ...]
    castle_square: tuple[str | None, ...]
    bonus_limits: tuple[int, ...]
    colour_bonus: dict[str, tuple[int, int]]
    colour_counts: dict[str, int]
    raw: dict[str, Any]

    @cached_property
    def castles(self) -> tuple[int, ...]:
        """Hex indices of the four castles, in map order (worked out once: every count of
        available bonuses reads them)."""
        return tuple(i for i, sq in enumerate(self.castle_square) if sq is not None)

    @cached_property
    def area_hexes(self) -> tuple[tuple[int, ...], ...]:
        """Hex index -> the hexes of its area (itself included), in index order."""
        return tuple(self.areas[a] for a in self.area_of)

    @cached_property
    def touched(self) -> tuple[frozenset[int], ...]:
        """Hex index -> the hexes whose number rules a mark in it may change: its area and
        its neighbours (itself included)."""
        return tuple(
            frozenset(self.area_hexes[h]).union(NEIGHBOURS[h]) for h in range(len(self.colours))
        )

    @cached_property
    def castles_by_square(self) -> tuple[tuple[int, ...], ...]:
        """Per bonus kind (:data:`BONUS_KINDS` order), the castles with that square."""
        return tuple(
            tuple(h for h in self.castles if self.castle_square[h] == kind) for kind in BONUS_KINDS
        )

    def hexes_of(self, colour: str) -> list[int]:
        """Hex indices of ``colour``, in map order."""
        return list(self.hexes_by_colour.get(colour, ()))

    @cached_property
    def hexes_by_colour(self) -> dict[str, tuple[int, ...]]:
        """Hex indices of each colour of the sheet, in map order (worked out once)."""
        return {
            colour: tuple(i for i, c in enumerate(self.colours) if c == colour)
            for colour in set(self.colours)
        }


def _cell(pair: Any) -> int:
    return INDEX[(int(pair[0]), int(pair[1]))]


def parse(data: dict[str, Any]) -> Duchy:
    """Build a :class:`Duchy` from its JSON data (no validation: see :func:`problems`)."""
    letters = [row.split() for row in data["rows"]]
    colours = tuple(LETTERS[ch] for row in letters for ch in row)
    squares: list[str | None] = [None] * HEX_COUNT
    for castle in data["castles"]:
        squares[_cell(castle["hex"])] = castle["square"]
    areas = tuple(tuple(sorted(_cell(h) for h in a["hexes"])) for a in data["areas"])
    area_of = [-1] * HEX_COUNT
    for n, area in enumerate(areas):
        for h in area:
            area_of[h] = n
    return Duchy(
        name=data["name"],
        title=data["title"],
        house_design=bool(data["house_design"]),
        note=data.get("note", ""),
        colours=colours,
        area_of=tuple(area_of),
        areas=areas,
        area_colours=tuple(a["colour"] for a in data["areas"]),
        castle_square=tuple(squares),
        bonus_limits=tuple(int(data["bonus_limits"][k]) for k in BONUS_KINDS),
        colour_bonus={c: (int(v[0]), int(v[1])) for c, v in data["colour_bonus"].items()},
        colour_counts={c: int(v) for c, v in data["colour_counts"].items()},
        raw=data,
    )


def components(colours: tuple[str, ...]) -> list[list[int]]:
    """The connected same-colour groups of a map; every castle is a group of its own."""
    seen = [False] * HEX_COUNT
    groups = []
    for start in range(HEX_COUNT):
        if seen[start]:
            continue
        seen[start] = True
        group, stack = [start], [start]
        if colours[start] != "green":
            while stack:
                h = stack.pop()
                for n in NEIGHBOURS[h]:
                    if not seen[n] and colours[n] == colours[start]:
                        seen[n] = True
                        group.append(n)
                        stack.append(n)
        groups.append(sorted(group))
    return sorted(groups)


def problems(duchy: Duchy) -> list[str]:
    """Everything wrong with a duchy's data; empty when it follows the composition rules."""
    return (
        _layout_problems(duchy)
        + _castle_problems(duchy)
        + _scoring_problems(duchy)
        + _reach_problems(duchy)
    )


def _layout_problems(duchy: Duchy) -> list[str]:
    """The rows, the hexes and the areas (sizes, colours, exactly the same-colour groups)."""
    out: list[str] = []
    rows = [row.split() for row in duchy.raw["rows"]]
    if [len(r) for r in rows] != list(ROW_LENGTHS):
        out.append(f"rows must have lengths {ROW_LENGTHS}")
    if len(duchy.colours) != HEX_COUNT:
        out.append("a duchy has 37 hexes")
    if sorted(h for a in duchy.areas for h in a) != list(range(HEX_COUNT)):
        out.append("areas must cover every hex exactly once")
    for n, area in enumerate(duchy.areas):
        if not 1 <= len(area) <= 4:
            out.append(f"area {n} has {len(area)} hexes (1-4 allowed)")
        if any(duchy.colours[h] != duchy.area_colours[n] for h in area):
            out.append(f"area {n} mixes colours")
        if duchy.area_colours[n] == "green" and len(area) != 1:
            out.append(f"castle area {n} must be a single hex")
    if sorted(sorted(a) for a in duchy.areas) != components(duchy.colours):
        out.append("areas must be exactly the connected same-colour groups (castles alone)")
    return out


def _castle_problems(duchy: Duchy) -> list[str]:
    """Four castles on green hexes, four different squares, each next to a numbered hex."""
    out: list[str] = []
    castles = duchy.castles
    if len(castles) != 4 or len(duchy.hexes_of("green")) != 4:
        out.append("a duchy has four castles, every green hex a castle")
    if sorted(sq for sq in duchy.castle_square if sq) != sorted(BONUS_KINDS):
        out.append("the four castles need four different squares")
    for c in castles:
        if all(duchy.colours[n] == "green" for n in NEIGHBOURS[c]):
            out.append(f"castle {CELLS[c]} has no numbered neighbour")
    return out


def _scoring_problems(duchy: Duchy) -> list[str]:
    """The colour counts and bonuses, and the bonus limits against the areas granting them."""
    out: list[str] = []
    for colour in COLOURS:
        if duchy.colour_counts.get(colour) != len(duchy.hexes_of(colour)):
            out.append(f"colour_counts[{colour}] disagrees with the map")
        first, second = duchy.colour_bonus.get(colour, (0, 0))
        if not first > second > 0:
            out.append(f"colour bonus for {colour} must be first > second > 0")
    for kind, limit in zip(BONUS_KINDS, duchy.bonus_limits, strict=True):
        granting = sum(1 for c in duchy.area_colours if AREA_BONUS.get(c) == kind)
        if limit < granting + 1:
            out.append(f"{kind} limit {limit} is below the {granting} areas granting it + 1")
    return out


def _reach_problems(duchy: Duchy) -> list[str]:
    """Every hex reachable from every castle."""
    out: list[str] = []
    for start in duchy.castles:
        reach, stack = {start}, [start]
        while stack:
            for n in NEIGHBOURS[stack.pop()]:
                if n not in reach:
                    reach.add(n)
                    stack.append(n)
        if len(reach) != HEX_COUNT:
            out.append(f"not every hex is reachable from castle {CELLS[start]}")
    return out


def _load_all() -> dict[str, Duchy]:
    folder = Path(__file__).with_name("data")
    out = {}
    for name in ("a", "b", "c", "d"):
        data = json.loads((folder / f"duchy_{name}.json").read_text(encoding="utf-8"))
        duchy = parse(data)
        out[duchy.name] = duchy
    return out


DUCHIES: dict[str, Duchy] = _load_all()
"""Every duchy by its letter, loaded once at import."""
