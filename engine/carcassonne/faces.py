"""The Carcassonne die: its six faces and the city edges of each, loaded from ``dice.json``.

Edges are a 4-bit mask: bit 0 north, bit 1 east, bit 2 south, bit 3 west. Rotation ``r``
turns a die ``r`` quarter turns clockwise, so the north edge goes east. The data file marks
which faces are confirmed by the rulebook and which are house design (the corner and the
three-edge city); :func:`validate_faces` checks its shape at import.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

EDGE_NAMES = ("N", "E", "S", "W")
"""Edge order of the bit mask: bit ``i`` is ``EDGE_NAMES[i]``."""

STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))
"""Grid step across each edge (x grows east, y grows south, as on a screen)."""

KNIGHT = "knight"
CATAPULT = "catapult"


def mask_of(edges: list[str]) -> int:
    """The bit mask of a list of edge names."""
    return sum(1 << EDGE_NAMES.index(edge) for edge in edges)


def rotate(mask: int, rotation: int) -> int:
    """``mask`` turned ``rotation`` quarter turns clockwise."""
    r = rotation % 4
    return ((mask << r) | (mask >> (4 - r))) & 15


def edge_list(mask: int) -> list[str]:
    """The edge names of a mask, in N, E, S, W order (a new list)."""
    return list(_EDGES[mask & 15])


_EDGES: tuple[tuple[str, ...], ...] = tuple(
    tuple(name for i, name in enumerate(EDGE_NAMES) if mask >> i & 1) for mask in range(16)
)
"""The edge names of each of the 16 masks (a mask's bits beyond the fourth name no edge)."""

EDGE_TEXT: tuple[str, ...] = tuple("+".join(names) for names in _EDGES)
"""The edges of each of the 16 masks as a sentence names them (``"N+E"``)."""


def validate_faces(data: dict[str, Any]) -> None:
    """Check the die data against what the rulebook confirms. Raises ValueError."""
    faces = data["faces"]
    kinds = [face["kind"] for face in faces]
    if len(faces) != 6 or kinds.count("city") != 4 or kinds.count("knight") != 1:
        raise ValueError("a die has six faces: four city faces, one knight, one catapult")
    if kinds.count("catapult") != 1 or data["dice"] != 9:
        raise ValueError("a die has one catapult face, and there are nine dice")
    city = [mask_of(face["city_edges"]) for face in faces if face["kind"] == "city"]
    if any(mask == 0 for mask in city):
        raise ValueError("every city face has at least one city edge")
    shapes = {_canonical(mask) for mask in city}
    if len(shapes) != 4:
        raise ValueError("the four city faces are four different shapes")
    if _canonical(mask_of(["N"])) not in shapes or _canonical(mask_of(["N", "S"])) not in shapes:
        raise ValueError("the city faces include a single-edge cap and an opposite-edge band")


def _canonical(mask: int) -> int:
    return min(rotate(mask, r) for r in range(4))


def _load() -> dict[str, Any]:
    data = json.loads((Path(__file__).with_name("dice.json")).read_text(encoding="utf-8"))
    validate_faces(data)
    return data


DATA = _load()
DICE: int = DATA["dice"]
"""Dice in the game (nine)."""

FACES: tuple[str, ...] = tuple(face["name"] for face in DATA["faces"])
"""The six faces in roll order: a roll draws an index into this tuple."""

CITY_FACES: tuple[str, ...] = tuple(f["name"] for f in DATA["faces"] if f["kind"] == "city")

BASE_MASK: dict[str, int] = {f["name"]: mask_of(f["city_edges"]) for f in DATA["faces"]}
"""City edges of each face at rotation 0 (0 for the knight and the catapult)."""

HOUSE_DESIGN: tuple[str, ...] = tuple(
    f["name"] for f in DATA["faces"] if f["source"] == "house design"
)


def _distinct_rotations(mask: int) -> tuple[int, ...]:
    seen: list[int] = []
    rotations: list[int] = []
    for r in range(4):
        if rotate(mask, r) not in seen:
            seen.append(rotate(mask, r))
            rotations.append(r)
    return tuple(rotations)


ROTATIONS: dict[str, tuple[int, ...]] = {
    face: _distinct_rotations(BASE_MASK[face]) for face in CITY_FACES
}
"""The rotations that give distinct placements (the band has two, the others four)."""


_MASKS: dict[str, tuple[int, ...]] = {
    face: tuple(rotate(mask, r) for r in range(4)) for face, mask in BASE_MASK.items()
}
"""Each face's city edges at rotations 0-3 (a placement's mask is looked up, not turned)."""


def face_mask(face: str, rotation: int) -> int:
    """The city edges of ``face`` turned ``rotation`` quarter turns clockwise."""
    try:
        return _MASKS[face][rotation]
    except IndexError:  # beyond -4..3: turned as rotate turns it
        return rotate(BASE_MASK[face], rotation)
