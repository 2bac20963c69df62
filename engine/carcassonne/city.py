"""City geometry on the square grid: where a die fits, the cities it forms, their score.

A grid here is a ``dict`` from a cell ``(x, y)`` to the city-edge mask of the die placed
there, in placement order (built from the state or a view on demand; never stored). Pure
functions, shared by the rules, the view and the bots.

- A die fits a free cell when it is the first die of the turn at (0, 0), or when it shares an
  edge with at least one placed die and every edge it shares matches (city to city, field to
  field).
- A city is a group of dice joined through shared city edges (each city face is a single
  connected segment). It is closed when none of its city edges faces an empty cell.
- A closed city of ``n`` dice scores ``(n - 1)(n - 2) / 2``: 2 -> 0, 3 -> 1, ... 9 -> 28.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.carcassonne.faces import STEPS

Cell = tuple[int, int]
Grid = dict[Cell, int]

ORIGIN: Cell = (0, 0)


def points(size: int) -> int:
    """Points of a closed city of ``size`` dice: (n - 1)(n - 2) / 2, never negative."""
    return (size - 1) * (size - 2) // 2 if size >= 2 else 0


def fits(grid: Grid, cell: Cell, mask: int) -> bool:
    """Whether a die with city edges ``mask`` may be placed on ``cell``."""
    if cell in grid:
        return False
    if not grid:
        return cell == ORIGIN
    x, y = cell
    touching = False
    for i, (dx, dy) in enumerate(STEPS):
        other = grid.get((x + dx, y + dy))
        if other is None:
            continue
        touching = True
        if (mask >> i & 1) != (other >> ((i + 2) & 3) & 1):
            return False
    return touching


def shared_edges(grid: Grid, cell: Cell) -> tuple[int, int]:
    """The edges a die on the free ``cell`` shares with placed dice (a mask), and which of
    them must be city edges: for a cell of the :func:`frontier`, a die with city edges
    ``mask`` fits exactly when ``mask & shared == city`` (the first die of a turn, at the
    origin, shares none)."""
    x, y = cell
    shared = city = 0
    for i, (dx, dy) in enumerate(STEPS):
        other = grid.get((x + dx, y + dy))
        if other is not None:
            shared |= 1 << i
            city |= (other >> ((i + 2) & 3) & 1) << i
    return shared, city


def frontier(grid: Grid) -> list[Cell]:
    """Every free cell next to a placed die, sorted by row then column; (0, 0) when empty."""
    if not grid:
        return [ORIGIN]
    cells = {
        (x + dx, y + dy) for (x, y) in grid for dx, dy in STEPS if (x + dx, y + dy) not in grid
    }
    return sorted(cells, key=lambda c: (c[1], c[0]))


@dataclass(frozen=True)
class City:
    """One city: the cells of its dice (in placement order) and its open city edges."""

    cells: tuple[Cell, ...]
    open_edges: int

    @property
    def size(self) -> int:
        return len(self.cells)

    @property
    def is_closed(self) -> bool:
        return self.open_edges == 0

    @property
    def points(self) -> int:
        """What the city would score now: its points if closed, else nothing."""
        return points(self.size) if self.is_closed else 0


def cities(grid: Grid) -> list[City]:
    """Every city on the grid, ordered by the first-placed die of each."""
    rank = {cell: number for number, cell in enumerate(grid)}
    seen: set[Cell] = set()
    found: list[City] = []
    for start in grid:
        if start in seen or not grid[start]:
            continue
        seen.add(start)
        stack = [start]
        members: list[Cell] = []
        open_edges = 0
        while stack:
            cell = stack.pop()
            members.append(cell)
            x, y = cell
            mask = grid[cell]
            for i, (dx, dy) in enumerate(STEPS):
                if not mask >> i & 1:
                    continue
                other = (x + dx, y + dy)
                if other not in grid:
                    open_edges += 1
                elif other not in seen:
                    seen.add(other)
                    stack.append(other)
        members.sort(key=rank.__getitem__)
        found.append(City(tuple(members), open_edges))
    return found


def closed_size(grid: Grid, cell: Cell) -> int | None:
    """The size of the city of the die on ``cell`` if that city is closed, else None (also
    when the die has no city edge): what :func:`cities` says of it on a grid whose dice were
    placed as :func:`fits` allows (every shared edge matches, so the city reached from any of
    its dice is the same)."""
    if not grid.get(cell):
        return None
    members, free = reach(grid, cell)
    return None if free else len(members)


def reach(grid: Grid, start: Cell) -> tuple[frozenset[Cell], frozenset[Cell]]:
    """The dice reached from the die on ``start`` through city edges (itself included) and
    the free cells their city edges face."""
    seen = {start}
    free: set[Cell] = set()
    stack = [start]
    while stack:
        x, y = stack.pop()
        mask = grid[(x, y)]
        for i, (dx, dy) in enumerate(STEPS):
            if not mask >> i & 1:
                continue
            other = (x + dx, y + dy)
            if other not in grid:
                free.add(other)
            elif other not in seen:
                seen.add(other)
                stack.append(other)
    return frozenset(seen), frozenset(free)


class Closing:
    """:func:`closed_size` of a die about to be placed on a free cell of ``grid``, for many
    dice on one grid (a turn's placements): the dice each placed die's city edges lead to,
    step by step, and the free cells they face, are worked out once per die (when first
    asked), so a new die's city is the union of what its city edges reach."""

    def __init__(self, grid: Grid) -> None:
        self.grid = grid
        self._reach: dict[Cell, tuple[frozenset[Cell], frozenset[Cell]]] = {}

    def size(self, cell: Cell, mask: int) -> int | None:
        """``closed_size(grid | {cell: mask}, cell)`` for a ``cell`` not in the grid."""
        if not mask:
            return None
        grid = self.grid
        x, y = cell
        reached: list[frozenset[Cell]] = []
        faced: list[frozenset[Cell]] = []
        for i, (dx, dy) in enumerate(STEPS):
            if mask >> i & 1:
                other = (x + dx, y + dy)
                if other not in grid:
                    return None
                found = self._reach.get(other)
                if found is None:
                    found = self._reach[other] = reach(grid, other)
                reached.append(found[0])
                faced.append(found[1])
        if len(reached) == 1:
            members, free = reached[0], faced[0]
        else:
            members, free = frozenset().union(*reached), frozenset().union(*faced)
        if free and (len(free) > 1 or cell not in free):
            return None
        return len(members) + 1


def scoring_city(found: list[City]) -> City | None:
    """The largest closed city (the first placed among equals), or None if none is closed."""
    best: City | None = None
    for city in found:
        if city.is_closed and (best is None or city.size > best.size):
            best = city
    return best
