"""One Diceland map and the geometry of crossing it off: territories, adjacency, placements.

A :class:`Board` is built from a map's JSON data (the files in ``maps/``: the layouts of
the edition every view names), so the rules and the bots share exactly the same geometry
code. Hexes use axial coordinates ``[q, r]`` (pointy-top); internally each hex has an index
in reading order (by ``r``, then ``q``) and a set of crossed hexes is an ``int`` bit mask.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any

COLOURS: tuple[str, ...] = ("red", "yellow", "green", "blue", "orange", "grey")
"""The six die faces and territory colours, in the order used everywhere (actions, views)."""

TREASURES_TO_WIN = 9
AXIAL_STEPS: tuple[tuple[int, int], ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))

Hex = tuple[int, int]


def bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@dataclass(frozen=True)
class Territory:
    """A coloured territory: its id (position in the map file), colour and hex indices."""

    id: int
    colour: str
    hexes: tuple[int, ...]
    mask: int
    border: int
    """Every hex adjacent to the territory (outside it): it can be opened next to these."""


class Board:
    """The fixed data of one map and pure queries over a crossed-hex mask."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data
        self.name: str = data["name"]
        self.title: str = data.get("title", self.name)
        start = (int(data["start"][0]), int(data["start"][1]))
        obstacles = [(int(q), int(r)) for q, r in data["obstacles"]]
        owner: dict[Hex, int] = {}
        treasures: set[Hex] = set()
        for tid, terr in enumerate(data["territories"]):
            for q, r in terr["hexes"]:
                owner[(int(q), int(r))] = tid
            treasures.update((int(q), int(r)) for q, r in terr["treasures"])
        cells = sorted({start, *obstacles, *owner}, key=lambda h: (h[1], h[0]))
        self.coords: list[Hex] = cells
        self.index: dict[Hex, int] = {h: i for i, h in enumerate(cells)}
        self.start: int = self.index[start]
        self.obstacle_mask: int = sum(1 << self.index[h] for h in obstacles)
        self.territory_of: list[int] = [owner.get(h, -1) for h in cells]
        self.neighbour_mask: list[int] = []
        for q, r in cells:
            mask = 0
            for dq, dr in AXIAL_STEPS:
                j = self.index.get((q + dq, r + dr))
                if j is not None and not (self.obstacle_mask >> j) & 1:
                    mask |= 1 << j
            self.neighbour_mask.append(mask)
        self.treasure_mask: int = sum(1 << self.index[h] for h in treasures)
        self.territories: list[Territory] = []
        for tid, terr in enumerate(data["territories"]):
            idx = tuple(sorted(self.index[(int(q), int(r))] for q, r in terr["hexes"]))
            mask = sum(1 << i for i in idx)
            border = 0
            for i in idx:
                border |= self.neighbour_mask[i]
            self.territories.append(Territory(tid, terr["colour"], idx, mask, border & ~mask))
        self.colour_of: list[str | None] = [
            self.territories[t].colour if t >= 0 else None for t in self.territory_of
        ]
        self.by_colour: dict[str, list[Territory]] = {c: [] for c in COLOURS}
        for terr in self.territories:
            self.by_colour[terr.colour].append(terr)
        self.colour_mask: dict[str, int] = {
            c: sum((t.mask for t in self.by_colour[c]), 0) for c in COLOURS
        }
        self.treasure_colour_mask: dict[str, int] = {
            c: self.colour_mask[c] & self.treasure_mask for c in COLOURS
        }
        self.pair_distances: list[list[int]] | None = None  # worked out by the bots, once

    # --- conversions -------------------------------------------------------------------
    def mask_of(self, indices: list[int]) -> int:
        return sum(1 << i for i in indices)

    def hexes_of(self, mask: int) -> list[list[int]]:
        """``[[q, r], ...]`` in reading order (the canonical order of actions and views)."""
        return [list(self.coords[i]) for i in bits(mask)]

    def is_land(self, i: int) -> bool:
        return self.territory_of[i] >= 0

    # --- status ------------------------------------------------------------------------
    def treasures_by_colour(self, crossed: int) -> dict[str, int]:
        return {c: (m & crossed).bit_count() for c, m in self.treasure_colour_mask.items()}

    def treasure_count(self, crossed: int) -> int:
        return (self.treasure_mask & crossed).bit_count()

    def completed_colours(self, crossed: int) -> list[str]:
        return [c for c in COLOURS if self.colour_mask[c] & ~crossed == 0]

    def has_won(self, crossed: int) -> bool:
        """At least nine treasures and every space of one colour crossed."""
        return self.treasure_count(crossed) >= TREASURES_TO_WIN and bool(
            self.completed_colours(crossed)
        )

    def working_on(self, crossed: int, colour: str) -> Territory | None:
        """The territory of ``colour`` begun but not finished (there is at most one)."""
        for terr in self.by_colour[colour]:
            done = terr.mask & crossed
            if done and done != terr.mask:
                return terr
        return None

    def candidate_territories(self, crossed: int, colour: str) -> list[Territory]:
        """Where crosses of ``colour`` may go now: the unfinished territory of that colour,
        or else every untouched territory of that colour next to a cross."""
        current = self.working_on(crossed, colour)
        if current is not None:
            return [current]
        return [t for t in self.by_colour[colour] if not t.mask & crossed and t.border & crossed]

    # --- placements --------------------------------------------------------------------
    def is_linked(self, crossed: int, new: int) -> bool:
        """Can every hex of ``new`` be crossed one after another, each next to a cross
        (earlier crosses of the same placement count)?"""
        reached = crossed
        left = new
        while left:
            grown = 0
            for i in bits(left):
                if self.neighbour_mask[i] & reached:
                    grown |= 1 << i
            if not grown:
                return False
            reached |= grown
            left &= ~grown
        return True

    def placements(self, crossed: int, colour: str, dice: int) -> list[int]:
        """Every legal placement of exactly ``dice`` crosses of ``colour`` (bit masks), in a
        stable order: territory id, then hexes in reading order. Empty under the excess rule
        (more dice than free spaces in the territory)."""
        found: list[int] = []
        if dice <= 0:
            return found
        for terr in self.candidate_territories(crossed, colour):
            free = [i for i in terr.hexes if not (crossed >> i) & 1]
            if dice > len(free):
                continue
            if dice == len(free):
                mask = terr.mask & ~crossed
                if self.is_linked(crossed, mask):
                    found.append(mask)
                continue
            for combo in combinations(free, dice):
                mask = 0
                for i in combo:
                    mask |= 1 << i
                if self.is_linked(crossed, mask):
                    found.append(mask)
        return found

    def has_placement(self, crossed: int, colour: str, dice: int) -> bool:
        """Whether :meth:`placements` is non-empty (cheaper: a connected territory that
        touches a cross can always take up to its number of free spaces)."""
        if dice <= 0:
            return False
        for terr in self.candidate_territories(crossed, colour):
            if dice <= (terr.mask & ~crossed).bit_count():
                return True
        return False

    def capacity(self, crossed: int, colour: str) -> int:
        """The most dice of ``colour`` that could be used now (0 if none)."""
        return max(
            ((t.mask & ~crossed).bit_count() for t in self.candidate_territories(crossed, colour)),
            default=0,
        )

    def distances(self, crossed: int) -> list[int]:
        """Steps from the crossed area to every hex over non-obstacle hexes (-1: unreachable)."""
        dist = [-1] * len(self.coords)
        frontier = list(bits(crossed))
        for i in frontier:
            dist[i] = 0
        step = 0
        while frontier:
            step += 1
            nxt = []
            for i in frontier:
                for j in bits(self.neighbour_mask[i]):
                    if dist[j] < 0:
                        dist[j] = step
                        nxt.append(j)
            frontier = nxt
        return dist
