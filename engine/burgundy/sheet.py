"""Marking hexes on one sheet: the placement rules, area completion and bonus bookkeeping.

Pure functions over a :class:`Sheet` and its :class:`Duchy`; nothing here knows about seats,
rounds or dice.
"""

from __future__ import annotations

from engine.burgundy.duchy import AREA_BONUS, BONUS_KINDS, COLOURS, NEIGHBOURS, PIP_RANGE, Duchy
from engine.burgundy.state import AREA_POINTS, CASTLE_POINTS, UNMARKED, Sheet

Error = tuple[str, str]


def frontier(values: list[int]) -> list[int]:
    """Unmarked hexes next to a marked hex, in index order: where a mark may go."""
    near: set[int] = set()
    for h, v in enumerate(values):
        if v != UNMARKED:
            near.update(NEIGHBOURS[h])
    return sorted(h for h in near if values[h] == UNMARKED)


def mark_error(duchy: Duchy, values: list[int], h: int, colour: str, value: int) -> Error | None:
    """Why writing ``value`` with a ``colour`` die in hex ``h`` is illegal, or None."""
    if values[h] != UNMARKED:
        return "hex_marked", "that hex is already marked"
    if not any(values[n] != UNMARKED for n in NEIGHBOURS[h]):
        return "not_adjacent", "a new mark must be next to a hex you have already marked"
    hex_colour = duchy.colours[h]
    if colour != hex_colour:
        return (
            "colour_mismatch",
            f"a {hex_colour} hex needs a {hex_colour} colour die, not {colour}",
        )
    return value_error(duchy, values, h, value)


PIPS = frozenset(range(1, 7))
"""The numbers a die writes."""
_RANGES = {colour: frozenset(range(low, high + 1)) for colour, (low, high) in PIP_RANGE.items()}
_NONE: frozenset[int] = frozenset()


def allowed_values(duchy: Duchy, values: list[int], h: int) -> frozenset[int]:
    """The numbers (of :data:`PIPS`) the number rules of its colour let go in the unmarked
    hex ``h`` now (see ``duchy.NUMBERS``): what :func:`value_error` checks."""
    colour = duchy.colours[h]
    fixed = _RANGES.get(colour)
    if fixed is not None:
        return fixed
    if colour == "orange":
        return PIPS.difference([values[o] for o in duchy.area_hexes[h]])
    if colour == "yellow":
        marked = {values[o] for o in duchy.area_hexes[h]}
        marked.discard(UNMARKED)
        if not marked:
            return PIPS
        return PIPS.intersection(marked) if len(marked) == 1 else _NONE
    return PIPS.intersection([values[n] for n in NEIGHBOURS[h]])  # green: a castle


def value_error(duchy: Duchy, values: list[int], h: int, value: int) -> Error | None:
    """Why ``value`` (one of :data:`PIPS`) may not go in the unmarked hex ``h`` (next to a
    mark, with a die of its colour), or None: the number rules of its colour, the last
    checks of :func:`mark_error`."""
    if value in allowed_values(duchy, values, h):
        return None
    hex_colour = duchy.colours[h]
    if hex_colour in PIP_RANGE:
        low, high = PIP_RANGE[hex_colour]
        return "value_not_allowed", f"a {hex_colour} hex takes only {low} or {high}"
    if hex_colour == "orange":
        return "city_repeats_number", f"this city already has a {value}: numbers must differ"
    if hex_colour == "yellow":
        return "pasture_numbers_differ", "every number in a pasture must be the same"
    return "castle_number_not_adjacent", f"a castle needs a {value} already in a hex next to it"


def available(duchy: Duchy, sheet: Sheet, kind: int) -> int:
    """Unspent bonuses of ``kind`` (index into BONUS_KINDS): colour circles plus castle
    circles of marked castles, minus those checked off."""
    values = sheet.values
    castles = len([h for h in duchy.castles_by_square[kind] if values[h] != UNMARKED])
    return sheet.circles[kind] + castles - sheet.used[kind]


def unused_total(duchy: Duchy, sheet: Sheet) -> int:
    """All unspent bonuses (the tie-breaker)."""
    return sum(available(duchy, sheet, k) for k in range(len(BONUS_KINDS)))


def circle(duchy: Duchy, sheet: Sheet, kind: int, count: int = 1) -> int:
    """Circle up to ``count`` bonuses of ``kind`` on its colour track; returns how many fit."""
    room = max(0, duchy.bonus_limits[kind] - sheet.circles[kind])
    got = min(room, count)
    sheet.circles[kind] += got
    return got


def is_colour_complete(duchy: Duchy, values: list[int], colour: str) -> bool:
    return UNMARKED not in [values[h] for h in duchy.hexes_by_colour.get(colour, ())]


def complete_colours(duchy: Duchy, values: list[int]) -> list[str]:
    """The colours (of :data:`COLOURS`, in that order) whose every hex is marked."""
    colours = duchy.colours
    unfinished = {colours[h] for h, v in enumerate(values) if v == UNMARKED}
    return [c for c in COLOURS if c not in unfinished]


def write(duchy: Duchy, sheet: Sheet, h: int, value: int, phase: int) -> dict[str, object]:
    """Write ``value`` in hex ``h`` (already checked) and score a completed area.

    Returns a description of what happened: the area completed (if any), its points and the
    bonus gained or lost (a full colour track loses it).
    """
    sheet.values[h] = value
    out: dict[str, object] = {}
    area = duchy.areas[duchy.area_of[h]]
    if any(sheet.values[o] == UNMARKED for o in area):
        return out
    colour = duchy.colours[h]
    if colour == "green":
        points = CASTLE_POINTS
        bonus = duchy.castle_square[h]
    else:
        points = AREA_POINTS[len(area)][phase] * (2 if colour == "yellow" else 1)
        bonus = AREA_BONUS.get(colour)
        if bonus is not None and circle(duchy, sheet, BONUS_KINDS.index(bonus)) == 0:
            out["bonus_lost"] = bonus
            bonus = None
    sheet.points[phase] += points
    out.update({"area": duchy.area_of[h], "size": len(area), "points": points, "bonus": bonus})
    return out
