"""Dice conditions of the citizen cards: evaluation, and a simple keep strategy toward one.

A die result is a pair ``(number, colour)``. A condition is a JSON object with a ``kind``,
one of the types the rulebook lists:

- ``colours``: ``need`` is a list of ``[colour, count]``: that many dice of each colour.
- ``numbers``: ``need`` is a list of ``[number, count]``: that many dice showing each number.
- ``groups``: ``sizes`` is a list of group sizes; each group is that many dice showing one
  number, and different groups show different numbers (the rulebook's symbols).
- ``sum``: the total of all dice is at least ``at_least``.
- ``red_sum``: the total of the red dice is at least ``at_least``.
- ``ladder``: the red total is greater than the blue total, which is greater than the green.
- ``run``: ``length`` dice show consecutive numbers.

Every function here is pure and fast: bots and the engine call them on every step.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

Die = tuple[int, str]
NUMBER, COLOUR = 0, 1
"""The parts of a die, ``(number, colour)``."""
Condition = dict[str, Any]

COLOURS: tuple[str, ...] = ("red", "blue", "green")
KINDS: tuple[str, ...] = ("colours", "numbers", "groups", "sum", "red_sum", "ladder", "run")


def longest_run(numbers: Sequence[int]) -> int:
    """The length of the longest run of consecutive numbers among ``numbers``."""
    present = set(numbers)
    best = run = 0
    for n in range(1, 7):
        run = run + 1 if n in present else 0
        best = max(best, run)
    return best


def colour_totals(dice: Sequence[Die]) -> dict[str, int]:
    """The pip total of each colour."""
    totals = dict.fromkeys(COLOURS, 0)
    for number, colour in dice:
        totals[colour] += number
    return totals


def meets(cond: Condition, dice: Sequence[Die]) -> bool:
    """Whether the dice result ``dice`` fulfils ``cond``."""
    kind = cond["kind"]
    if kind == "colours":
        counts = Counter(colour for _, colour in dice)
        return all(counts[c] >= k for c, k in cond["need"])
    if kind == "numbers":
        numbers = Counter(number for number, _ in dice)
        return all(numbers[n] >= k for n, k in cond["need"])
    if kind == "groups":
        have = sorted(Counter(number for number, _ in dice).values(), reverse=True)
        sizes = sorted(cond["sizes"], reverse=True)
        if len(have) < len(sizes):
            return False
        return all(h >= s for h, s in zip(have, sizes, strict=False))
    if kind == "sum":
        return sum(number for number, _ in dice) >= cond["at_least"]
    if kind == "red_sum":
        return sum(number for number, colour in dice if colour == "red") >= cond["at_least"]
    if kind == "ladder":
        t = colour_totals(dice)
        return t["red"] > t["blue"] > t["green"]
    if kind == "run":
        return longest_run([number for number, _ in dice]) >= cond["length"]
    raise ValueError(f"unknown condition kind {kind!r}")


def level(conditions: Sequence[Condition], dice: Sequence[Die]) -> int:
    """How many of a card's conditions are met, counting from the first (graded cards).

    A card with one condition gives 0 or 1; a graded card (stack 1) gives 0 to 3.
    """
    met = 0
    for cond in conditions:
        if not meets(cond, dice):
            break
        met += 1
    return met


def best_level(
    conditions: Sequence[Condition], rolled: Sequence[Die], extra: Sequence[Die] = ()
) -> int:
    """The grade a result reaches when the player may leave any pretend (joker) dice out.

    Every condition type but ``ladder`` only gets easier with more dice; a pretend blue die
    could break red > blue > green, so for a card with a ladder condition the best subset of
    the pretend dice counts (a pretend die never makes a card harder to hire).
    """
    dice = [*rolled, *extra]
    if not extra or all(c["kind"] != "ladder" for c in conditions):
        return level(conditions, dice)
    best = 0
    for mask in range(1 << len(extra)):
        chosen = [d for i, d in enumerate(extra) if mask >> i & 1]
        best = max(best, level(conditions, [*rolled, *chosen]))
        if best == len(conditions):
            break
    return best


def describe(cond: Condition) -> str:
    """A short English phrase for a condition, e.g. ``"3 red + 2 blue dice"``."""
    kind = cond["kind"]
    if kind == "colours":
        return " + ".join(f"{k} {c}" for c, k in cond["need"]) + " dice"
    if kind == "numbers":
        return "dice showing " + " ".join(str(n) for n, k in cond["need"] for _ in range(k))
    if kind == "groups":
        sizes = cond["sizes"]
        if len(sizes) == 1:
            return f"{sizes[0]} alike"
        if len(set(sizes)) == 1 and sizes[0] in (2, 3):
            count = {2: "two", 3: "three"}[len(sizes)]
            return f"{count} {'pairs' if sizes[0] == 2 else 'triples'} (different numbers)"
        return " + ".join(f"{size} alike" for size in sizes) + " (different numbers)"
    if kind == "sum":
        return f"total >= {cond['at_least']}"
    if kind == "red_sum":
        return f"red total >= {cond['at_least']}"
    if kind == "ladder":
        return "red total > blue total > green total"
    if kind == "run":
        return f"run of {cond['length']}"
    return kind


def short(cond: Condition) -> str:
    """A very short label for a condition (board pictures): ``"3R 2B"``, ``"run5"``."""
    kind = cond["kind"]
    if kind == "colours":
        return " ".join(f"{k}{c[0].upper()}" for c, k in cond["need"])
    if kind == "numbers":
        return " ".join(f"{k}x{n}" for n, k in cond["need"])
    if kind == "groups":
        return "+".join(str(s) for s in cond["sizes"]) + " same"
    if kind == "sum":
        return f"sum>={cond['at_least']}"
    if kind == "red_sum":
        return f"red>={cond['at_least']}"
    if kind == "ladder":
        return "R>B>G"
    if kind == "run":
        return f"run{cond['length']}"
    return kind


def keep_toward(cond: Condition, dice: Sequence[Die]) -> list[int]:
    """Indices of ``dice`` a simple strategy keeps when rolling toward ``cond``.

    Greedy and cheap: keep the dice that already count toward the condition (up to the
    number needed), reroll the rest.
    """
    kind = cond["kind"]
    if kind == "colours":
        return _keep_wanted(dice, {c: k for c, k in cond["need"]}, COLOUR)
    if kind == "numbers":
        return _keep_wanted(dice, {n: k for n, k in cond["need"]}, NUMBER)
    if kind == "groups":
        counts = Counter(number for number, _ in dice)
        ranked = sorted(counts, key=lambda n: (-counts[n], -n))
        sizes = sorted(cond["sizes"], reverse=True)
        return _keep_wanted(dice, dict(zip(ranked, sizes, strict=False)), NUMBER)
    if kind == "run":
        return _keep_run(cond["length"], dice)
    return [i for i, die in enumerate(dice) if _counts_toward(kind, die)]


def _keep_wanted(dice: Sequence[Die], want: dict[Any, int], part: int) -> list[int]:
    """The first dice whose ``part`` is still wanted, each taking one of ``want``'s count."""
    left = dict(want)
    keep: list[int] = []
    for i, die in enumerate(dice):
        if left.get(die[part], 0) > 0:
            left[die[part]] -= 1
            keep.append(i)
    return keep


def _keep_run(length: int, dice: Sequence[Die]) -> list[int]:
    """One die of each number of the most complete run of ``length`` (ties: the highest)."""
    numbers = {number for number, _ in dice}
    best = max(
        range(1, 8 - length),
        key=lambda lo: (sum(1 for n in range(lo, lo + length) if n in numbers), lo),
    )
    seen: set[int] = set()
    keep: list[int] = []
    for i, (number, _) in enumerate(dice):
        if best <= number < best + length and number not in seen:
            seen.add(number)
            keep.append(i)
    return keep


def _counts_toward(kind: str, die: Die) -> bool:
    """Whether a die is worth keeping for a total (``sum``, ``red_sum``) or ``ladder``."""
    number, colour = die
    if kind == "sum":
        return number >= 4
    if kind == "red_sum":
        return colour == "red" and number >= 4
    if kind == "ladder":
        return (colour == "red" and number >= 4) or (colour == "blue" and 2 <= number <= 4)
    return False


def shortfall(cond: Condition, dice: Sequence[Die]) -> int:
    """A rough count of dice still missing toward ``cond`` (0 when met); for bots."""
    if meets(cond, dice):
        return 0
    kind = cond["kind"]
    if kind in ("colours", "numbers", "groups"):
        need = sum(k for _, k in cond["need"]) if kind != "groups" else sum(cond["sizes"])
        return max(1, need - len(keep_toward(cond, dice)))
    if kind == "run":
        return max(1, cond["length"] - len(keep_toward(cond, dice)))
    if kind == "sum":
        return max(1, (cond["at_least"] - sum(n for n, _ in dice) + 2) // 3)
    if kind == "red_sum":
        red = sum(n for n, c in dice if c == "red")
        return max(1, (cond["at_least"] - red + 3) // 4)
    return 2
