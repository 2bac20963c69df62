"""A fitted value of a Burgundy sheet: the points a seat may still expect to make.

``features`` reads cheap numbers off one seat's sheet (progress on unfinished areas and
colours, bonuses held, the frontier, the rounds left, each also scaled by the share of the
game left); ``LeafValue`` weighs them with weights fitted by least squares to the points
the heuristic went on to make in seeded solo games (``bench/burgundy_leaf.py`` writes
``data/leaf.json``). The search uses ``points + value`` at its leaves instead of the
heuristic's hand-tuned potential.
"""

from __future__ import annotations

import json
from pathlib import Path

from engine.burgundy.duchy import AREA_BONUS, BONUS_KINDS, COLOURS, DUCHIES, NEIGHBOURS
from engine.burgundy.sheet import available
from engine.burgundy.state import AREA_POINTS, UNMARKED, BurgundyState, column_size

LEAF_FILE = Path(__file__).with_name("data") / "leaf.json"
BASE_NAMES = (
    *(f"area_{c}" for c in COLOURS),
    *(f"colour_{c}" for c in COLOURS),
    *(f"held_{k}" for k in BONUS_KINDS),
    "front",
    "open_colours",
)
NAMES = ("bias", "rounds_left", *BASE_NAMES, *(f"{n}*left" for n in BASE_NAMES))
"""Feature names, in order (the data file's weights follow them)."""


def rounds_left(state: BurgundyState) -> float:
    """Rounds still to play after the current one, as a share of the whole game."""
    size = column_size(state)
    filled = sum(min(size, t) for t in state.time)
    return max(0.0, (3 * size - filled) / (3 * size))


def features(state: BurgundyState, seat: int) -> list[float]:
    """The features of ``seat``'s sheet in ``state`` (see :data:`NAMES`)."""
    duchy = DUCHIES[state.duchy]
    sheet = state.sheets[seat]
    values = sheet.values
    phase = min(state.phase, 2)
    area = dict.fromkeys(COLOURS, 0.0)
    for n, hexes in enumerate(duchy.areas):
        marked = sum(1 for h in hexes if values[h] != UNMARKED)
        if not marked or marked == len(hexes):
            continue
        colour = duchy.area_colours[n]
        if colour == "green":
            worth = 2.0
        else:
            worth = AREA_POINTS[len(hexes)][phase] * (2.0 if colour == "yellow" else 1.0)
            worth += 2.0 if colour in AREA_BONUS else 0.0
        area[colour] += worth * marked / len(hexes)
    colour_share = []
    for colour in COLOURS:
        of_colour = duchy.hexes_of(colour)
        done = sum(1 for h in of_colour if values[h] != UNMARKED)
        colour_share.append((done / len(of_colour)) ** 3)
    held = [float(available(duchy, sheet, k)) for k in range(len(BONUS_KINDS))]
    front = [
        h
        for h, v in enumerate(values)
        if v == UNMARKED and any(values[n] != UNMARKED for n in NEIGHBOURS[h])
    ]
    base = [
        *(area[c] for c in COLOURS),
        *colour_share,
        *held,
        float(len(front)),
        float(len({duchy.colours[h] for h in front})),
    ]
    left = rounds_left(state)
    return [1.0, left, *base, *(x * left for x in base)]


class LeafValue:
    """Points still expected from a sheet: the fitted weights over :func:`features`."""

    def __init__(self, weights: list[float]) -> None:
        if len(weights) != len(NAMES):
            raise ValueError(f"{len(weights)} weights for {len(NAMES)} features")
        self.weights = weights

    @classmethod
    def load(cls, path: Path = LEAF_FILE) -> LeafValue:
        data = json.loads(path.read_text())
        return cls([data["weights"][name] for name in NAMES])

    def __call__(self, state: BurgundyState, seat: int) -> float:
        return sum(w * x for w, x in zip(self.weights, features(state, seat), strict=True))
