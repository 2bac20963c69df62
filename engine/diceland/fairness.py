"""A cheap structural measure of how hard a Diceland map is: crosses to link nine treasures.

A player wins with nine treasures, and every cross must touch an earlier one, so the crosses
a map needs to reach nine of its treasures from the start are a good first estimate of how
long a game on it lasts. :func:`link_cost` grows a tree from the start greedily (always the
cheapest treasure to reach next, by breadth-first search over open hexes) and counts the
hexes crossed on the way, treasures included. It ignores territories and dice (that is what
the bench's simulation is for: ``bench/diceland_fairness.py``).

Crosses alone mislead across maps of different grain: a die crosses one hex, but the excess
rule lets a throw's dice of one colour go only into one territory with room for all of
them, so small territories take more placements for the same crosses. :func:`placements`
divides the link cost by the map's mean territory size: about the placements that link nine
treasures. The maps were chosen by playtesting (``bench/diceland_tune.py``); the data
test keeps every map's placements within the band the chosen maps span (``PLACEMENTS``), so a
regenerated map far from them fails before any simulation.
"""

from __future__ import annotations

from collections import deque

from engine.diceland.board import TREASURES_TO_WIN, Board, bits

PLACEMENTS = (5.0, 7.5)
"""The band of :func:`placements` every map lies in."""


def _cheapest_path(board: Board, tree: int, targets: int) -> list[int]:
    """The shortest run of new hexes from ``tree`` to a hex of ``targets`` (ties: lowest
    index first), including that hex."""
    came: dict[int, int] = {}
    queue: deque[int] = deque()
    for i in bits(tree):
        for j in bits(board.neighbour_mask[i] & ~tree):
            if j not in came:
                came[j] = -1
                queue.append(j)
    while queue:
        i = queue.popleft()
        if (targets >> i) & 1:
            path = [i]
            while came[path[-1]] != -1:
                path.append(came[path[-1]])
            return path
        for j in bits(board.neighbour_mask[i] & ~tree):
            if j not in came:
                came[j] = i
                queue.append(j)
    return []


def link_cost(board: Board, treasures: int = TREASURES_TO_WIN) -> int:
    """Crosses (start excluded) that link ``treasures`` treasures to the start, greedily."""
    tree = 1 << board.start
    left = board.treasure_mask
    crosses = 0
    for _ in range(treasures):
        path = _cheapest_path(board, tree, left)
        if not path:
            raise ValueError(f"map {board.name}: fewer than {treasures} treasures reachable")
        for i in path:
            tree |= 1 << i
        left &= ~tree
        crosses += len(path)
    return crosses


def placements(board: Board) -> float:
    """Placements that link nine treasures: the link cost over the mean territory size."""
    sizes = [len(t.hexes) for t in board.territories]
    return link_cost(board) * len(sizes) / sum(sizes)
