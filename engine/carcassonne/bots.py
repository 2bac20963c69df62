"""Bots for Carcassonne: the uniform random baseline and a heuristic city builder.

Both see only the seat's view and the legal actions. The heuristic relies on one fact of the
rules: re-rolling never costs anything already built (built dice never move and a rolled die
need not be used), so it always re-rolls while it may, and its real choices are which dice
to build where, which knights to keep, and when to hold a knight instead of scoring.
"""

from __future__ import annotations

import functools
import math
from typing import Any

from engine.carcassonne import city as geometry
from engine.carcassonne.faces import CITY_FACES, KNIGHT, ROTATIONS, face_mask, mask_of
from engine.contract import Action, Bot, RandomBot, View
from engine.search import lazy_bot

CLOSING = 0.33
"""Rough chance that a rolled die can close an open city edge (a cap always can, a corner
sometimes). Tuned on 600 seeded solo games, mean turns to 42: 0.25 -> 9.9, 0.32 -> 10.1,
0.33 -> 9.8, 0.34 -> 10.6 (a fixed chance of 0.7 per edge, the first design: 12.8)."""

SEARCH_LIMIT = 4000
"""Most placements the last-roll search tries before it settles for what it found."""


def grid_from_view(view: View) -> geometry.Grid:
    """The turn's city grid (cell -> city-edge mask) as the view shows it."""
    return {(d["x"], d["y"]): mask_of(d["edges"]) for d in view["turn"]["grid"]}


@functools.lru_cache(maxsize=1024)
def chance_to_close(edges: int, dice: int, rerolls: int, p: float = CLOSING) -> float:
    """Chance that at least ``edges`` of ``dice`` dice come up closing (chance ``p`` a roll)
    within ``rerolls`` rolls, a die that fails being rolled again."""
    if edges > dice:
        return 0.0
    q = 1 - (1 - p) ** rerolls
    miss = sum(math.comb(dice, k) * q**k * (1 - q) ** (dice - k) for k in range(edges))
    return max(0.0, 1.0 - miss)


def city_stats(grid: geometry.Grid) -> list[tuple[int, int]]:
    """(size, open city edges) of every city on ``grid``: what the bots need of
    :func:`geometry.cities`, without naming the cells (the bots' hot path)."""
    seen: set[geometry.Cell] = set()
    found: list[tuple[int, int]] = []
    for start, first in grid.items():
        if not first or start in seen:
            continue
        seen.add(start)
        stack = [start]
        size = open_edges = 0
        while stack:
            x, y = cell = stack.pop()
            size += 1
            mask = grid[cell]
            for bit, other in (
                (1, (x, y - 1)),
                (2, (x + 1, y)),
                (4, (x, y + 1)),
                (8, (x - 1, y)),
            ):
                if mask & bit:
                    if other not in grid:
                        open_edges += 1
                    elif other not in seen:
                        seen.add(other)
                        stack.append(other)
        found.append((size, open_edges))
    return found


def closed_points(found: list[tuple[int, int]]) -> int:
    """What the largest closed city among ``found`` (from :func:`city_stats`) scores."""
    return max((geometry.points(size) for size, edges in found if not edges), default=0)


def outlook(
    grid: geometry.Grid,
    rerolls: int,
    dice_left: int,
    closing: float = CLOSING,
) -> float:
    """What a grid is worth: the points it scores now, or a guess at what its best open
    city could score once closed with the dice and re-rolls left, whichever is more."""
    found = city_stats(grid)
    value = float(closed_points(found))
    for size, edges in found:
        if edges and edges <= dice_left:
            chance = chance_to_close(edges, dice_left, rerolls, closing)
            guess = geometry.points(size + edges) * chance
            value = max(value, guess)
    return value


def _hot_cells(grid: geometry.Grid) -> list[geometry.Cell]:
    """Free cells that face an open city edge (the only cells that can close a city)."""
    cells = []
    for (x, y), mask in grid.items():
        for i, (dx, dy) in enumerate(((0, -1), (1, 0), (0, 1), (-1, 0))):
            cell = (x + dx, y + dy)
            if mask >> i & 1 and cell not in grid and cell not in cells:
                cells.append(cell)
    return cells


def best_finish(
    grid: geometry.Grid, faces: list[str]
) -> tuple[int, tuple[str, geometry.Cell, int] | None]:
    """The most points the city dice ``faces`` can still close on ``grid`` this roll, and
    the first placement (face, cell, rotation) of a way to get them (None: place nothing)."""
    budget = [SEARCH_LIMIT]

    def search(g: geometry.Grid, left: list[str]) -> tuple[int, Any]:
        best: tuple[int, Any] = (closed_points(city_stats(g)), None)
        tried: set[str] = set()
        for face in left:
            if face in tried:
                continue
            tried.add(face)
            rest = list(left)
            rest.remove(face)
            for cell in _hot_cells(g) if g else [geometry.ORIGIN]:
                for rotation in ROTATIONS[face]:
                    mask = face_mask(face, rotation)
                    if budget[0] <= 0 or not geometry.fits(g, cell, mask):
                        continue
                    budget[0] -= 1
                    g[cell] = mask
                    score, _ = search(g, rest)
                    del g[cell]
                    if score > best[0]:
                        best = (score, (face, cell, rotation))
        return best

    return search(dict(grid), list(faces))


class HeuristicBot(Bot):
    """Builds toward one large closed city; keeps knights when three are in reach; holds a
    knight when the points on offer are small.

    Before the last roll it builds a die only when that raises :func:`outlook` (points now,
    or a closed-city guess from the dice and re-rolls left); on the last roll it searches
    for the largest city the dice on the table can close. ``hold_below``: hold a knight
    (given three) when scoring now gives fewer points; ``closing``: see :data:`CLOSING`;
    ``knights_early``: before the last roll, keep knights only when this many are in reach.
    """

    name = "heuristic"

    def __init__(
        self,
        hold_below: int = 3,
        closing: float = CLOSING,
        knights_early: int = 3,
    ) -> None:
        self.hold_below = hold_below
        self.closing = closing
        self.knights_early = knights_early

    def choose(self, view: View, legal: list[Action], rng: Any) -> Action:
        turn = view["turn"]
        by_type: dict[str, list[Action]] = {}
        for action in legal:
            by_type.setdefault(action["type"], []).append(action)
        free = [d for d in turn["roll"] if d["status"] == "free"]
        knights_free = sum(1 for d in free if d["face"] == KNIGHT)
        rerolls = turn["rolls_left"]
        if "keep_knight" in by_type and (
            rerolls == 0 or turn["knights"] + knights_free >= self.knights_early
        ):
            return by_type["keep_knight"][0]
        places = by_type.get("place", [])
        if places:
            grid = grid_from_view(view)
            pick = (
                self._finish(grid, free, places)
                if rerolls == 0
                else self._grow(grid, turn, free, places)
            )
            if pick is not None:
                return pick
        if "reroll" in by_type:
            return by_type["reroll"][0]
        if "hold_knight" in by_type and turn["scoring"]["points"] < self.hold_below:
            return by_type["hold_knight"][0]
        return by_type["score"][0]

    def _grow(
        self, grid: geometry.Grid, turn: dict[str, Any], free: list[Any], places: list[Action]
    ) -> Action | None:
        rerolls = turn["rolls_left"]
        faces = {d["die"]: d["face"] for d in free}
        dice_left = len(free)
        base = outlook(grid, rerolls, dice_left, self.closing)
        best, pick = base + 0.01, None
        for action in places:
            cell = (action["x"], action["y"])
            grid[cell] = face_mask(faces[action["die"]], action["rotation"])
            value = outlook(grid, rerolls, dice_left - 1, self.closing)
            del grid[cell]
            if value > best:
                best, pick = value, action
        return pick

    def _finish(self, grid: geometry.Grid, free: list[Any], places: list[Action]) -> Action | None:
        faces = [d["face"] for d in free if d["face"] in CITY_FACES]
        now = geometry.scoring_city(geometry.cities(grid))
        score, move = best_finish(grid, faces)
        if move is None or score <= (now.points if now else 0):
            return None
        face, (x, y), rotation = move
        for action in places:
            if (action["x"], action["y"], action["rotation"]) == (x, y, rotation) and next(
                d["face"] for d in free if d["die"] == action["die"]
            ) == face:
                return action
        return None


BOTS = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "search": lazy_bot("engine.carcassonne.search:CarcassonneSearchBot"),
}
"""The bots a Carcassonne seat may be given, by name."""
