"""Map arithmetic: distances between spaces, connected areas of markers, and scoring."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from engine.kingdice.data import Layout

NOBODY = -1
DRAGON = -2
"""Occupant codes of a space: a seat number (a player's marker), NOBODY or DRAGON."""


def distances_from(layout: Layout, sources: Sequence[int]) -> list[int]:
    """Map distance (steps between adjacent spaces) from the nearest of ``sources``; -1 when
    there is no source."""
    dist = [-1] * layout.size
    frontier = list(sources)
    for s in frontier:
        dist[s] = 0
    while frontier:
        nxt = []
        for s in frontier:
            for n in layout.neighbours[s]:
                if dist[n] < 0:
                    dist[n] = dist[s] + 1
                    nxt.append(n)
        frontier = nxt
    return dist


def closest_targets(layout: Layout, occupant: Sequence[int], seat: int) -> list[int]:
    """Spaces holding another player's marker closest to ``seat``'s markers (stack 4).

    Closeness is map distance from the nearest of the seat's markers; a seat with no marker
    on the map finds every other player's marker closest.
    """
    others = [s for s, o in enumerate(occupant) if o >= 0 and o != seat]
    if not others:
        return []
    mine = [s for s, o in enumerate(occupant) if o == seat]
    if not mine:
        return others
    dist = distances_from(layout, mine)
    best = min(dist[s] for s in others)
    return [s for s in others if dist[s] == best]


def _connected(layout: Layout, occupant: Sequence[int], seat: int) -> Iterator[list[int]]:
    """Each connected area of ``seat``'s markers, in order of its lowest space (its spaces
    in the order they were reached)."""
    seen: set[int] = set()
    for start, o in enumerate(occupant):
        if o != seat or start in seen:
            continue
        area = [start]
        seen.add(start)
        i = 0
        while i < len(area):
            for n in layout.neighbours[area[i]]:
                if occupant[n] == seat and n not in seen:
                    seen.add(n)
                    area.append(n)
            i += 1
        yield area


def areas(layout: Layout, occupant: Sequence[int], seat: int) -> list[list[int]]:
    """The connected areas of ``seat``'s markers, largest first (ties by lowest space)."""
    found = [sorted(area) for area in _connected(layout, occupant, seat)]
    found.sort(key=lambda a: (-len(a), a[0]))
    return found


def largest_area(layout: Layout, occupant: Sequence[int], seat: int) -> int:
    """Size of ``seat``'s largest connected area of markers (0 without markers): the first
    of :func:`areas`, measured without sorting them."""
    return max((len(area) for area in _connected(layout, occupant, seat)), default=0)


def score_breakdown(
    layout: Layout,
    occupant: Sequence[int],
    fires: Sequence[int],
    gold: Sequence[int],
    white: Sequence[int],
) -> list[dict[str, int]]:
    """Each seat's points by the rulebook's end scoring.

    3 a space in the largest connected area, 1 a space outside it, 4 to every player with
    the most dragon fires (nobody when the most is 0), 3 a gold and 2 a white gemstone.
    """
    most = max(fires) if fires else 0
    out = []
    for seat in range(len(fires)):
        placed = occupant.count(seat)
        big = largest_area(layout, occupant, seat)
        parts = {
            "largest_area": big,
            "area_points": 3 * big,
            "other_points": placed - big,
            "dragon_points": 4 if most > 0 and fires[seat] == most else 0,
            "gold_points": 3 * gold[seat],
            "white_points": 2 * white[seat],
        }
        parts["total"] = (
            parts["area_points"]
            + parts["other_points"]
            + parts["dragon_points"]
            + parts["gold_points"]
            + parts["white_points"]
        )
        out.append(parts)
    return out
