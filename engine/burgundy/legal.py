"""A round's decision: enumerating every legal one and explaining why any other is illegal.

One action is a seat's whole decision for a round (it is sealed until every seat decided): a
``mark`` (a pip die and a colour die, a hex, at most one bonus, an optional sale first) or a
``take_worker``, legal only when no mark is possible with the dice as rolled (see RULES.md,
Rulings). Their exact shapes are the JSON Schemas in ``schemas.py``; ``check_round`` sees
only well-formed actions.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable
from itertools import product
from typing import Any, TypeVar

from engine.burgundy.duchy import BONUS_KINDS, CELLS, COLOURS, INDEX, NEIGHBOURS, Duchy
from engine.burgundy.sheet import allowed_values, available, frontier, mark_error
from engine.burgundy.state import UNMARKED, Roll, Sheet
from engine.contract import Action, IllegalAction

MONK, SILVER, COMMODITY, WORKER = range(len(BONUS_KINDS))
Mark = tuple[int, int, int]
"""(pip die index, colour die index, hex index)."""


def can_sell(duchy: Duchy, sheet: Sheet, roll: Roll) -> bool:
    """The double hourglass was rolled and the seat holds a commodity to sell."""
    return roll.hourglass == 2 and available(duchy, sheet, COMMODITY) > 0


def silver_from_sale(duchy: Duchy, sheet: Sheet) -> int:
    """Silver a sale of every commodity would circle now (capped by the silver track)."""
    room = max(0, duchy.bonus_limits[SILVER] - sheet.circles[SILVER])
    return min(room, available(duchy, sheet, COMMODITY))


Targets = dict[str, list[list[int]]]
"""Where a die may write: per colour, per value (0-6), the frontier's hexes (in index
order) of that colour that take that value now."""
_NO_ROW: list[list[int]] = [[] for _ in range(7)]
"""The row of a colour with no hex on the frontier (read only)."""


def targets_of(
    duchy: Duchy, values: list[int], hexes: list[int], only: Collection[str] = COLOURS
) -> Targets:
    """The :data:`Targets` of the frontier ``hexes`` (in index order) of ``values``, for the
    colours ``only`` (the others' rows are left empty): the frontier's hexes are unmarked and
    next to a mark, so only the number rules of :func:`mark_error` (the numbers each takes)
    are left to check."""
    table: Targets = {}
    colours = duchy.colours
    for h in hexes:
        colour = colours[h]
        if colour in only:
            row = table.get(colour)
            if row is None:
                row = table[colour] = [[] for _ in range(7)]
            for value in allowed_values(duchy, values, h):
                row[value].append(h)
    return table


def _plain(table: Targets, roll: Roll) -> list[Mark]:
    """Every mark possible with the dice as rolled (no bonus), in a stable order."""
    pips, colours = roll.pips, roll.colours
    return [
        (p, c, h) for p in (0, 1) for c in (0, 1) for h in table.get(colours[c], _NO_ROW)[pips[p]]
    ]


def plain_marks(duchy: Duchy, values: list[int], roll: Roll) -> list[Mark]:
    """Every mark possible with the dice as rolled (no bonus), in a stable order."""
    return _plain(targets_of(duchy, values, frontier(values), roll.colours), roll)


def round_actions(duchy: Duchy, sheet: Sheet, roll: Roll) -> list[Action]:
    """Every legal decision of a seat this round, in a stable order."""
    values = sheet.values
    hexes = frontier(values)
    pips, colours = roll.pips, roll.colours
    monks = available(duchy, sheet, MONK) > 0  # a monk's mark may go in any colour
    table = targets_of(duchy, values, hexes, COLOURS if monks else colours)
    plain = _plain(table, roll)
    # Each decision once: two equal pip (or colour) dice make one choice, not two, and a
    # monk (a worker) makes the colour (pip) die it changes irrelevant. The dice named vary
    # slowest within each kind of bonus, so the first of each effect (what the mark writes
    # where, and the bonus) names the lowest dice: the one ``canonical_dice`` writes. The
    # monk's and the worker's marks are kept as they come, each effect the first time.
    monk = _monk_marks(pips, colours, table) if monks else []
    worker = _worker_marks(pips, colours, table) if available(duchy, sheet, WORKER) > 0 else []
    silver: list[tuple[Mark, Mark]] = []
    own_silver = available(duchy, sheet, SILVER)
    sale_silver = silver_from_sale(duchy, sheet) if can_sell(duchy, sheet, roll) else 0
    if own_silver + sale_silver > 0:
        silver = _silver_pairs(duchy, values, hexes, plain, roll, table)
    # With two different pips and two different colours, the dice a plain or silver mark
    # names are its effect: no two of those lists' items share one (the usual roll).
    unique_plain = plain
    if pips[0] == pips[1] or colours[0] == colours[1]:
        unique_plain = _first_of_each(plain, lambda m: (pips[m[0]], colours[m[1]], m[2]))
        silver = _first_of_each(
            silver,
            lambda m: (
                pips[m[0][0]],
                colours[m[0][1]],
                m[0][2],
                pips[m[1][0]],
                colours[m[1][1]],
                m[1][2],
            ),
        )
    out: list[Action] = []
    for sell in (False, True) if can_sell(duchy, sheet, roll) else (False,):
        paid = own_silver + (sale_silver if sell else 0) > 0
        out += _marks(sell, unique_plain, monk, worker, silver if paid else [])
        if not plain:
            out.append({"type": "take_worker", "sell": sell})
    return out


def _monk_marks(
    pips: list[int], colours: list[str], table: Targets
) -> list[tuple[int, int, str, int]]:
    """Every mark with a monk (pip die, colour die, the colour it becomes, hex), each effect
    once: the first time it comes, dice varying slowest."""
    monk: list[tuple[int, int, str, int]] = []
    had: set[tuple[int, str, int]] = set()
    for p in (0, 1):
        pip = pips[p]
        reach = [
            (colour, found) for colour in COLOURS if (found := table.get(colour, _NO_ROW)[pip])
        ]
        for c in (0, 1):
            own = colours[c]
            for colour, found in reach:
                if colour != own:
                    for h in found:
                        if (pip, colour, h) not in had:
                            had.add((pip, colour, h))
                            monk.append((p, c, colour, h))
    return monk


def _worker_marks(
    pips: list[int], colours: list[str], table: Targets
) -> list[tuple[int, int, int, int]]:
    """Every mark with a worker (pip die, colour die, the value it becomes, hex), each
    effect once: the first time it comes, dice varying slowest."""
    worker: list[tuple[int, int, int, int]] = []
    done: set[tuple[int, str, int]] = set()
    for p in (0, 1):
        pip = pips[p]
        for c in (0, 1):
            colour = colours[c]
            row = table.get(colour, _NO_ROW)
            for value in range(1, 7):
                if value != pip:
                    for h in row[value]:
                        if (value, colour, h) not in done:
                            done.add((value, colour, h))
                            worker.append((p, c, value, h))
    return worker


def _marks(
    sell: bool,
    plain: list[Mark],
    monk: list[tuple[int, int, str, int]],
    worker: list[tuple[int, int, int, int]],
    silver: list[tuple[Mark, Mark]],
) -> list[Action]:
    """The mark actions, plain then monk, worker and silver: each a new dict (keys type,
    sell, pip, colour, hex, bonus), its hexes new lists."""
    cells = CELLS
    marks: list[tuple[int, int, int, dict[str, Any] | None]]
    marks = [(p, c, h, None) for p, c, h in plain]
    marks += [(p, c, h, {"kind": "monk", "colour": col}) for p, c, col, h in monk]
    marks += [(p, c, h, {"kind": "worker", "value": v}) for p, c, v, h in worker]
    marks += [
        (p1, c1, h1, {"kind": "silver", "pip": p2, "colour": c2, "hex": [*cells[h2]]})
        for (p1, c1, h1), (p2, c2, h2) in silver
    ]
    return [
        {"type": "mark", "sell": sell, "pip": p, "colour": c, "hex": [*cells[h]], "bonus": bonus}
        for p, c, h, bonus in marks
    ]


def _silver_pairs(
    duchy: Duchy,
    values: list[int],
    hexes: list[int],
    plain: list[Mark],
    roll: Roll,
    table: Targets,
) -> list[tuple[Mark, Mark]]:
    """Every plain mark followed by a second one with other dice (a silver's two marks), in
    a stable order; ``hexes``: the frontier of ``values``; ``table``: its targets.

    The first mark changes what may go only in its own area and next to it (all that
    :func:`value_error` reads) and opens its unmarked neighbours: every other hex keeps its
    targets from ``table``, and those it touches are worked out again once per first mark
    (hex and value)."""
    on_front = set(hexes)
    pips, colours = roll.pips, roll.colours
    firsts: dict[tuple[int, int], tuple[frozenset[int], list[tuple[int, str, frozenset[int]]]]]
    firsts = {}
    silver: list[tuple[Mark, Mark]] = []
    for mark in plain:
        p1, c1, h1 = mark
        v1 = pips[p1]
        first = firsts.get((h1, v1))
        if first is None:
            after = list(values)
            after[h1] = v1
            touched = duchy.touched[h1]
            near = NEIGHBOURS[h1]
            first = firsts[h1, v1] = (
                touched,
                [  # a second mark takes a colour die as rolled
                    (h, duchy.colours[h], allowed_values(duchy, after, h))
                    for h in touched
                    if after[h] == UNMARKED
                    and duchy.colours[h] in colours
                    and (h in on_front or h in near)
                ],
            )
        touched, again = first
        for p2, c2 in ((0, 0), (0, 1), (1, 0), (1, 1)):
            if p2 != p1 or c2 != c1:
                colour, value = colours[c2], pips[p2]
                found = sorted(
                    [h for h in table.get(colour, _NO_ROW)[value] if h not in touched]
                    + [h for h, col, takes in again if col == colour and value in takes]
                )
                silver += [(mark, (p2, c2, h2)) for h2 in found]
    return silver


T = TypeVar("T")


def _first_of_each(items: list[T], key: Callable[[T], Hashable]) -> list[T]:
    """The items whose ``key`` no earlier item had, in order."""
    seen: set[Hashable] = set()
    out: list[T] = []
    for item in items:
        k = key(item)
        if k not in seen:
            seen.add(k)
            out.append(item)
    return out


def effect(action: Action, roll: Roll) -> tuple[Any, ...]:
    """What a decision does, whichever of two equal dice it names: the sale, then every mark
    as (value, colour, hex) and the bonus spent."""
    if action["type"] != "mark":
        return (action["type"], action["sell"])
    value, colour = roll.pips[action["pip"]], roll.colours[action["colour"]]
    bonus = action["bonus"] or {}
    kind = bonus.get("kind")
    second: tuple[Any, ...] = ()
    if kind == "monk":
        colour = bonus["colour"]
    elif kind == "worker":
        value = bonus["value"]
    elif kind == "silver":
        second = (roll.pips[bonus["pip"]], roll.colours[bonus["colour"]], tuple(bonus["hex"]))
    return ("mark", action["sell"], kind, value, colour, tuple(action["hex"]), second)


def canonical_dice(action: Action, roll: Roll) -> Action:
    """The same decision naming the lowest dice that make it: with two equal pip (or colour)
    dice, using either is one choice, written with die 0 (RULES.md, Rulings)."""
    if action["type"] != "mark":
        return action
    key = effect(action, roll)
    bonus = action["bonus"] or {}
    kind = bonus.get("kind")
    dice_pairs = list(product((0, 1), (0, 1)))
    for p, c in dice_pairs:
        if kind == "monk" and roll.colours[c] == bonus["colour"]:
            continue
        if kind == "worker" and roll.pips[p] == bonus["value"]:
            continue
        for second in dice_pairs if kind == "silver" else [None]:
            variant = {**action, "pip": p, "colour": c}
            if second is not None:
                if second == (p, c):
                    continue
                variant["bonus"] = {**bonus, "pip": second[0], "colour": second[1]}
            if effect(variant, roll) == key:
                return variant
    return action


def parse_hex(value: list[int]) -> int:
    """A hex index from a well-formed ``[row, col]``. Raises IllegalAction off the duchy."""
    cell = (value[0], value[1])
    if cell not in INDEX:
        raise IllegalAction("unknown_hex", f"there is no hex {list(cell)} on the duchy")
    return INDEX[cell]


def check_round(duchy: Duchy, sheet: Sheet, roll: Roll, action: Action) -> None:
    """Raise IllegalAction (with the rule broken) unless ``action`` is a legal decision.

    ``action`` is well formed (``Game.validate_action``: the shapes are in ``schemas.py``,
    where one object or null for ``bonus`` is what makes two bonuses a round impossible).
    """
    kind = action["type"]
    if kind not in ("mark", "take_worker"):
        raise IllegalAction("wrong_stage", f"{kind!r} is not a round decision")
    sell = action["sell"]
    if sell and roll.hourglass != 2:
        raise IllegalAction("no_sale", "commodities sell only in a round with the double hourglass")
    if sell and available(duchy, sheet, COMMODITY) == 0:
        raise IllegalAction("no_commodity", "you have no commodity to sell")
    values = sheet.values
    if kind == "take_worker":
        if plain_marks(duchy, values, roll):
            raise IllegalAction(
                "mark_possible", "you may take a worker only when no mark is possible with the dice"
            )
        return
    p, c, h = action["pip"], action["colour"], parse_hex(action["hex"])
    value, colour = roll.pips[p], roll.colours[c]
    bonus = action["bonus"]
    second: tuple[int, int, int] | None = None
    if bonus is not None:
        bkind = bonus["kind"]
        if bkind == "monk":
            if available(duchy, sheet, MONK) == 0:
                raise IllegalAction("no_monk", "you have no monk to use")
            if bonus["colour"] == colour:
                raise IllegalAction(
                    "monk_same_colour", "a monk must change the die to another colour"
                )
            colour = bonus["colour"]
        elif bkind == "worker":
            if available(duchy, sheet, WORKER) == 0:
                raise IllegalAction("no_worker", "you have no worker to use")
            if bonus["value"] == value:
                raise IllegalAction("worker_same_value", "a worker must change the pip value")
            value = bonus["value"]
        else:
            sale = silver_from_sale(duchy, sheet) if sell else 0
            if available(duchy, sheet, SILVER) + sale == 0:
                raise IllegalAction("no_silver", "you have no silver to use")
            second = (bonus["pip"], bonus["colour"], parse_hex(bonus["hex"]))
    err = mark_error(duchy, values, h, colour, value)
    if err is not None:
        raise IllegalAction(*err)
    if second is not None:
        p2, c2, h2 = second
        if (p2, c2) == (p, c):
            raise IllegalAction(
                "silver_reuses_dice",
                "a silver's second mark must use at least one die other than the first mark's",
            )
        after = list(values)
        after[h] = value
        err = mark_error(duchy, after, h2, roll.colours[c2], roll.pips[p2])
        if err is not None:
            code, reason = err
            if code in ("colour_mismatch", "value_not_allowed"):
                code = "silver_needs_change"
                reason = f"{reason}; a silver's second mark cannot change a die"
            raise IllegalAction(code, f"second mark: {reason}")
    same = canonical_dice(action, roll)
    if same != action:
        raise IllegalAction(
            "same_dice",
            "equal dice are one choice, written with the lower die index: "
            + ", ".join(f"{k} {same[k]}" for k in ("pip", "colour"))
            + (f", silver {same['bonus']}" if second is not None else ""),
        )


_HEX_TEXTS: dict[tuple[str, ...], list[str]] = {}
"""Per duchy layout (its hex colours, so two sheets under one name never share), each hex
as the sentences name it ("blue hex [2, 3]"): a move's answer describes some 70 actions,
most of them naming hexes."""


def _hex_texts(duchy: Duchy) -> list[str]:
    texts = _HEX_TEXTS.get(duchy.colours)
    if texts is None:
        texts = [f"{duchy.colours[n]} hex {list(CELLS[n])}" for n in range(len(CELLS))]
        _HEX_TEXTS[duchy.colours] = texts
    return texts


def describe_round(duchy: Duchy, roll: Roll, action: Action) -> str:
    """A short sentence for a menu."""
    return _sentence(_hex_texts(duchy), roll, action)


def describe_rounds(duchy: Duchy, roll: Roll, actions: list[Action]) -> list[str]:
    """:func:`describe_round`'s sentence of each of ``actions`` (the duchy's hex names
    looked up once)."""
    texts = _hex_texts(duchy)
    return [_sentence(texts, roll, action) for action in actions]


def _sentence(texts: list[str], roll: Roll, action: Action) -> str:
    sell = action.get("sell")
    if action["type"] == "take_worker":
        lead = "Sell all commodities, then take" if sell else "Take"
        return f"{lead} a worker (no mark is possible)"
    p, c = action["pip"], action["colour"]
    h = INDEX[tuple(action["hex"])]
    value, colour = roll.pips[p], roll.colours[c]
    bonus = action["bonus"] or {}
    change = ""
    if bonus.get("kind") == "monk":
        change = f" (monk: {colour} die as {bonus['colour']})"
    elif bonus.get("kind") == "worker":
        change = f" (worker: {value} as {bonus['value']})"
        value = bonus["value"]
    lead = "Sell all commodities, then mark" if sell else "Mark"
    text = f"{lead} {texts[h]} with {value}{change}"
    if bonus.get("kind") == "silver":
        h2 = INDEX[tuple(bonus["hex"])]
        v2 = roll.pips[bonus["pip"]]
        text += f", then pay a silver to mark {texts[h2]} with {v2}"
    return text
