"""Bots for Burgundy: the random baseline and a one-round-lookahead heuristic.

The heuristic sees only its view and the legal actions. It replays each candidate decision
on a copy of its own sheet (the duchy layout is public data named in the view), and scores
it as the points it makes now plus the change of a potential: partial progress on unfinished
areas (worth more early, in phases that pay more), each colour's progress at what completing
it can still pay, the bonuses held, and how many hexes are open to the next roll. Solo, a
correction fitted to the search's own values is added per kind of decision (the colour of
each hex marked and whether it starts, adds to or completes an area, the bonus spent, the
sale; ``CORRECTION``, ``data/policy.json``).
"""

from __future__ import annotations

import functools
import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

from engine.burgundy.duchy import (
    AREA_BONUS,
    BONUS_KINDS,
    COLOURS,
    DUCHIES,
    INDEX,
    NEIGHBOURS,
    Duchy,
)
from engine.burgundy.sheet import frontier, mark_error
from engine.burgundy.state import AREA_POINTS, UNMARKED
from engine.contract import Action, Bot, RandomBot, View
from engine.search import lazy_bot

BONUS_VALUE = {"monk": 2.0, "silver": 2.4, "commodity": 3.0, "worker": 1.6}
"""What holding one bonus is worth, in points (spending it costs as much)."""
TUNE = {
    "progress_pow": 1.0,
    "progress_base": 0.45,
    "progress_ease": 0.35,
    "front": 0.25,
    "open_colours": 0.6,
    "colour": 1.0,
    "soon": 0.4,
    "end_rounds": 5.0,
    "per_hex": 2.5,
    "mark_chance": 0.0,
}
"""Weights of the potential (tuned on seeded solo games, see bench/burgundy_report.py)."""
SOLO_CASTLE = "commodity"
"""The castle a solo game starts from: played on by the heuristic from each castle on the
same seeds, the commodity castle made the most on duchies A and B (C and D not measured;
RULES.md, "The commodity castle"); with seats the castle is chosen by the small areas
around it, as before (not measured)."""
KIND = {kind: n for n, kind in enumerate(BONUS_KINDS)}
MONK, SILVER, COMMODITY, WORKER = range(len(BONUS_KINDS))
HOLD_DECAY = 0.6
"""Each further bonus of a kind held is worth this fraction of the one before."""
COLOUR_PACE = 2.5
"""Rounds a colour's missing hex is reckoned to take, for the chance of completing the colour
while its higher amount is still paid (solo: by the end of phase II)."""
EASE = {"purple": 0.55, "gray": 0.55, "blue": 0.55, "orange": 0.9, "yellow": 0.7, "green": 0.5}
"""Rough chance per round that a hex of each colour can be marked when it is open."""


POLICY_FILE = Path(__file__).with_name("data") / "policy.json"
"""The solo correction's weights (``bench/burgundy_policy.py fit`` writes them)."""


def decision_features(
    duchy: Duchy,
    values: list[int],
    held: dict[str, int],
    sell: bool,
    spent: str | None,
    marks: tuple[int, ...],
) -> list[str]:
    """The kinds a round decision is of, for the solo correction: for each hex marked, its
    colour and whether it starts an area, adds to one or completes it; the bonus spent (or
    ``take_worker``), and whether it was the last of its kind; the sale."""
    found = []
    hexes = marks[0::2]
    for n, h in enumerate(hexes):
        area = duchy.areas[duchy.area_of[h]]
        done = sum(1 for o in area if values[o] != UNMARKED or o in hexes[:n])
        step = "new" if done == 0 else "done" if done + 1 == len(area) else "more"
        found.append(f"{duchy.colours[h]}:{step}")
    if spent is not None:
        found.append(f"spent:{spent}")
        if held.get(spent) == 1:
            found.append("spent:last")
    if sell:
        found.append("sell")
    return found


def decision_parts(view: View, action: Action) -> tuple[bool, str | None, tuple[int, ...]]:
    """A round decision as the heuristic reads it: the sale, the bonus kind spent (or
    ``take_worker``) and its marks (hex index, number, ...; the silver's second mark last)."""
    sell = bool(action["sell"])
    if action["type"] == "take_worker":
        return sell, "take_worker", ()
    pips = view["roll"]["pips"]
    bonus = action["bonus"]
    value = pips[action["pip"]]
    hx = action["hex"]
    spent: str | None = None
    marks: tuple[int, ...] = ()
    if bonus is not None:
        spent = bonus["kind"]
        if spent == "worker":
            value = bonus["value"]
        elif spent == "silver":
            hy = bonus["hex"]
            marks = (INDEX[(hy[0], hy[1])], pips[bonus["pip"]])
    return sell, spent, (INDEX[(hx[0], hx[1])], value, *marks)


CORRECTION_KINDS = (
    *(f"{c}:{step}" for c in COLOURS for step in ("new", "more", "done")),
    *(f"spent:{kind}" for kind in (*BONUS_KINDS, "take_worker")),
    "spent:last",
    "sell",
)
"""Every kind :func:`decision_features` can name."""


_KIND_WEIGHTS: dict[tuple[int, int], tuple[dict[str, float], dict[str, float]]] = {}


def _kind_weights(correction: dict[str, float], phase: int) -> dict[str, float]:
    """The weight of every kind in ``phase`` (0-2), 0.0 where ``correction`` names none
    (cached while the same correction is in play)."""
    found = _KIND_WEIGHTS.get((id(correction), phase))
    if found is None or found[0] is not correction:
        prefix = f"{phase + 1}:"
        weights = {kind: correction.get(prefix + kind, 0.0) for kind in CORRECTION_KINDS}
        found = _KIND_WEIGHTS[(id(correction), phase)] = (correction, weights)
    return found[1]


def load_correction(path: Path = POLICY_FILE) -> dict[str, float]:
    """The solo correction: per ``phase:feature`` (see :func:`decision_features`), what the
    search's values of decisions of that kind add to the heuristic's one-round score; empty
    if the file is missing."""
    if not path.exists():
        return {}
    return {str(k): float(v) for k, v in json.loads(path.read_text())["weights"].items()}


CORRECTION = load_correction()
"""The solo correction in play (RULES.md, "A correction fitted to the search's values"):
the heuristic adds it to a decision's score in the solo variant only (with seats it was
not fitted)."""


class _Plan:
    """A decision replayed on a copy of the seat's sheet."""

    def __init__(self, values: list[int]) -> None:
        self.values = list(values)
        self.points = 0.0
        self.bonus_delta = dict.fromkeys(BONUS_KINDS, 0)


def _values(view: View, seat: int) -> list[int]:
    return [-1 if v is None else v for row in view["players"][seat]["marks"] for v in row]


def _mark_chance(duchy: Duchy, values: list[int], front: list[int]) -> float:
    """The chance that the next roll allows a mark with no bonus (exact over the 6^4 rolls)."""
    accepts = [0] * 7  # per pip value: bitmask of colours some open hex accepts with it
    for h in front:
        bit = 1 << COLOURS.index(duchy.colours[h])
        for value in range(1, 7):
            if (
                not accepts[value] & bit
                and mark_error(duchy, values, h, duchy.colours[h], value) is None
            ):
                accepts[value] |= bit
    total = 0.0
    for a in range(1, 7):
        for b in range(1, 7):
            hit = (accepts[a] | accepts[b]).bit_count()
            total += 1 - ((6 - hit) / 6) ** 2
    return total / 36


@functools.lru_cache(maxsize=256)
def _holding(kind: str, count: int) -> float:
    """What holding ``count`` bonuses of a kind is worth: each one more is worth less."""
    return sum(BONUS_VALUE[kind] * HOLD_DECAY**i for i in range(max(0, count)))


def colour_amounts(view: View, colour: str, left_in_phase: float) -> tuple[int, int, float]:
    """What completing ``colour`` can still pay: the amount now, the amount later, and the
    rounds (this one included) in which the amount now is paid. Solo: the higher amount in
    phases I-II, the lower in III; otherwise the first amount until a seat claims it, then
    the second, then nothing (the claims are public)."""
    first, second = view["duchy"]["colour_bonus"][colour]
    phase = view["phase"] - 1
    if view["variant"] == "solo":
        if phase >= 2:
            return second, second, 0.0
        return first, second, left_in_phase + 1 + (1 - phase) * view["time"]["size"]
    claims = view["colour_claims"][colour]
    if not claims["first"]:
        return first, first, math.inf
    if not claims["second"]:
        return second, second, math.inf
    return 0, 0, math.inf


def colour_prospect(amounts: tuple[int, int, float], done: int, count: int) -> float:
    """A colour's share of the potential with ``done`` of its ``count`` hexes marked: the
    amount it can still pay (the amount now as far as its missing hexes fit in the rounds
    that pay it, see :data:`COLOUR_PACE`) times the share done, cubed; 0 once complete
    (its points are then made)."""
    missing = count - done
    if missing <= 0:
        return 0.0
    now, later, window = amounts
    amount = later + (now - later) * min(1.0, window / (missing * COLOUR_PACE))
    return amount * (done / count) ** 3 * TUNE["colour"]


def _rounds_left(view: View) -> float:
    """Rounds still to play after this one (an estimate outside the solo variant)."""
    size = view["time"]["size"]
    phase = view["phase"] - 1
    per_round = 1.0 if size != 10 else 4 / 3
    left_here = (size - view["time"]["columns"][phase]) / per_round
    return left_here + (2 - phase) * size / per_round


_COLOUR_HEXES: dict[str, dict[str, tuple[int, ...]]] = {}


_CITIES: dict[str, frozenset[int]] = {}


def _cities(duchy: Duchy) -> frozenset[int]:
    """The areas of ``duchy`` that are cities (orange; cached by duchy name)."""
    found = _CITIES.get(duchy.name)
    if found is None:
        found = _CITIES[duchy.name] = frozenset(
            n for n, colour in enumerate(duchy.area_colours) if colour == "orange"
        )
    return found


def _colour_hexes(duchy: Duchy) -> dict[str, tuple[int, ...]]:
    """The hexes of each colour on ``duchy`` (cached by duchy name)."""
    found = _COLOUR_HEXES.get(duchy.name)
    if found is None:
        found = _COLOUR_HEXES[duchy.name] = {c: tuple(duchy.hexes_of(c)) for c in COLOURS}
    return found


class _Context:
    """One decision's fixed inputs (the view's numbers) and the base sheet's potential, kept
    term by term so that a plan recomputes only the areas, frontier and colours it touches.

    Every term is computed with the same expression, and summed in the same order, as a
    whole recomputation would: the potential of a plan is the same float either way.
    """

    def __init__(self, duchy: Duchy, view: View, seat: int, values: list[int]) -> None:
        self.duchy = duchy
        self.view = view
        self.seat = seat
        self.values = values
        self.phase = phase = view["phase"] - 1
        size = view["time"]["size"]
        filled = view["time"]["columns"][phase]
        self.left_in_phase = max(0.0, (size - filled) / (1.5 if size == 10 else 1.0))
        self.rounds_left = _rounds_left(view)
        self.scale = min(1.0, self.rounds_left / TUNE["end_rounds"])
        me = view["players"][seat]
        self.held = {k: v["available"] for k, v in me["bonuses"].items()}
        self.silver_room = (
            view["duchy"]["bonus_limits"]["silver"] - me["bonuses"]["silver"]["circled"]
        )
        self.hexes = _colour_hexes(duchy)
        self.orange = frozenset(self.hexes["orange"])
        self.amounts = [colour_amounts(view, colour, self.left_in_phase) for colour in COLOURS]
        self.terms = [self.area_term(n, values) for n in range(len(duchy.areas))]
        self.prefix = [0.0]
        for term in self.terms:
            self.prefix.append(self.prefix[-1] + term)
        self.area_cache: dict[tuple[int, ...], float] = {}
        self.cities = _cities(duchy)
        self.front = set(frontier(values))
        self.front_counts = Counter(duchy.colours[h] for h in self.front)
        self.opened: dict[int, list[int]] = {}
        self.done = {c: sum(1 for h in self.hexes[c] if values[h] != UNMARKED) for c in COLOURS}
        self.colour_terms = [self.colour_term(i, self.done[c]) for i, c in enumerate(COLOURS)]
        self.holding: dict[tuple[str, int], float] = {}
        self.bonus_values: dict[tuple[int, ...], float] = {}
        self.worths: dict[tuple[Any, ...], float] = {}
        self.base = self.potential(values, ())
        self.correction = CORRECTION if view["variant"] == "solo" else {}
        if self.correction:
            self.kind_weights = _kind_weights(self.correction, phase)
            self.hex_weights: dict[int, float] = {}

    def hex_weight(self, h: int, before: int) -> float:
        """The correction's weight of marking hex ``h`` after ``before`` other hexes of its
        area in the same decision: its colour, and whether it starts, adds to or completes
        the area."""
        duchy = self.duchy
        area = duchy.areas[duchy.area_of[h]]
        done = sum(1 for o in area if self.values[o] != UNMARKED) + before
        step = "new" if done == 0 else "done" if done + 1 == len(area) else "more"
        return self.kind_weights[f"{duchy.colours[h]}:{step}"]

    def corrected(self, sell: bool, spent: str | None, marks: tuple[int, ...]) -> float:
        """The solo correction of a decision (0.0 with seats, or without a fitted file): the
        weights of its :func:`decision_features`, summed in their order."""
        if not self.correction:
            return 0.0
        weights, duchy = self.kind_weights, self.duchy
        total = 0.0
        first_area = -1
        for i in range(0, len(marks), 2):
            h = marks[i]
            n = duchy.area_of[h]
            if n != first_area:
                found = self.hex_weights.get(h)
                if found is None:
                    found = self.hex_weights[h] = self.hex_weight(h, 0)
                total += found
            else:
                total += self.hex_weight(h, 1)
            first_area = n
        if spent is not None:
            total += weights["spent:" + spent]
            if self.held.get(spent) == 1:
                total += weights["spent:last"]
        if sell:
            total += weights["sell"]
        return total

    def marks_key(self, marks: tuple[int, ...]) -> tuple[int, ...]:
        """What the effect of ``marks`` (hex, value, ...) depends on: the hexes, and the
        values only in cities (whose numbers must differ); not the order of two marks."""
        orange = self.orange
        if len(marks) < 4:
            if not marks:
                return marks
            return (marks[0], marks[1]) if marks[0] in orange else (marks[0],)
        first = (marks[0], marks[1] if marks[0] in orange else 0)
        second = (marks[2], marks[3] if marks[2] in orange else 0)
        return (*min(first, second), *max(first, second))

    def colour_term(self, i: int, done: int) -> float:
        """Colour ``COLOURS[i]``'s share of the potential with ``done`` of its hexes marked."""
        return colour_prospect(self.amounts[i], done, len(self.hexes[COLOURS[i]]))

    def bonus_value(self, delta: tuple[int, ...]) -> float:
        """What changing the bonuses held by ``delta`` (in BONUS_KINDS order) is worth."""
        found = self.bonus_values.get(delta)
        if found is None:
            found = self.bonus_values[delta] = self.scale * sum(
                self.holding_change(k, d) for k, d in zip(BONUS_KINDS, delta, strict=True) if d
            )
        return found

    def holding_change(self, kind: str, delta: int) -> float:
        """What ``delta`` more bonuses of ``kind`` change the worth of those held."""
        key = (kind, delta)
        found = self.holding.get(key)
        if found is None:
            held = self.held[kind]
            found = self.holding[key] = _holding(kind, held + delta) - _holding(kind, held)
        return found

    def area_term(self, n: int, values: list[int]) -> float:
        """Area ``n``'s share of the potential (0.0 untouched or complete)."""
        duchy = self.duchy
        area = duchy.areas[n]
        marked = [h for h in area if values[h] != UNMARKED]
        if not marked or len(marked) == len(area):
            return 0.0  # no progress (the product below is 0.0 too) or nothing left
        phase = self.phase
        colour = duchy.area_colours[n]
        missing = len(area) - len(marked)
        soon = phase if missing <= self.left_in_phase * TUNE["soon"] else min(phase + 1, 2)
        if colour == "green":
            worth = 1 + BONUS_VALUE[duchy.castle_square[area[0]] or "monk"]
        else:
            worth = AREA_POINTS[len(area)][soon] * (2 if colour == "yellow" else 1)
            kind = AREA_BONUS.get(colour)
            if kind is not None:
                worth += BONUS_VALUE[kind]
        progress = len(marked) / len(area)
        ease = EASE[colour]
        if colour == "yellow" and marked:
            ease = 0.35
        if colour == "orange" and marked:
            used = {values[h] for h in marked}
            ease = 0.9 * (6 - len(used)) / 6
        feasible = min(1.0, self.rounds_left / (missing * TUNE["per_hex"]))
        return (
            feasible
            * worth
            * progress ** TUNE["progress_pow"]
            * (TUNE["progress_base"] + TUNE["progress_ease"] * ease)
        )

    def opens(self, h: int) -> list[int]:
        """The unmarked hexes next to ``h`` that marking it adds to the frontier."""
        found = self.opened.get(h)
        if found is None:
            front, values = self.front, self.values
            found = self.opened[h] = [
                n for n in NEIGHBOURS[h] if values[n] == UNMARKED and n not in front
            ]
        return found

    def front_after(self, changed: tuple[int, ...]) -> tuple[int, int]:
        """The frontier's size and its number of colours once the hexes ``changed`` are
        marked: the base frontier without them, with the hexes they open."""
        colours, front = self.duchy.colours, self.front
        added: set[int] = set()
        for h in changed:
            added.update(self.opens(h))
        added.difference_update(changed)
        counts = dict(self.front_counts)
        removed = 0
        for h in changed:
            if h in front:
                counts[colours[h]] -= 1
                removed += 1
        for n in added:
            counts[colours[n]] = counts.get(colours[n], 0) + 1
        return len(front) - removed + len(added), sum(1 for c in counts.values() if c > 0)

    def changed_term(self, n: int, changed: tuple[int, ...], values: list[int]) -> float:
        """Area ``n``'s term with the hexes ``changed`` marked (cached: it depends on which
        of its hexes are marked, and on their numbers only in a city)."""
        area_of = self.duchy.area_of
        key = (n, *(h for h in changed if area_of[h] == n))
        if n in self.cities:
            key = (*key, *(values[h] for h in key[1:]))
        term = self.area_cache.get(key)
        if term is None:
            term = self.area_cache[key] = self.area_term(n, values)
        return term

    def potential(self, values: list[int], changed: tuple[int, ...]) -> float:
        """The potential of ``values``: the base sheet with the hexes ``changed`` marked.

        The area terms are summed from the first changed area on, starting from the base
        sheet's running sum up to it (the same additions in the same order)."""
        duchy = self.duchy
        terms = self.terms
        total = 0.0
        if len(changed) == 1:
            first = duchy.area_of[changed[0]]
            total = self.prefix[first] + self.changed_term(first, changed, values)
            for term in terms[first + 1 :]:
                total += term
        elif changed:
            areas = sorted({duchy.area_of[h] for h in changed})
            terms = list(terms)
            for n in areas:
                terms[n] = self.changed_term(n, changed, values)
            first = areas[0]
            total = self.prefix[first]
            for term in terms[first:]:
                total += term
        else:
            for term in terms:
                total += term
        if changed and not TUNE["mark_chance"]:
            front_size, open_count = self.front_after(changed)
            total += TUNE["front"] * front_size + TUNE["open_colours"] * open_count
        else:
            front = self.front
            if changed:
                front = front - set(changed)
                for h in changed:
                    front.update(n for n in NEIGHBOURS[h] if values[n] == UNMARKED)
            open_colours = {duchy.colours[h] for h in front}
            total += TUNE["front"] * len(front) + TUNE["open_colours"] * len(open_colours)
        if TUNE["mark_chance"]:
            chance = _mark_chance(duchy, values, frontier(values))
            total += TUNE["mark_chance"] * chance * min(1.0, self.rounds_left)
        colour_terms = self.colour_terms
        if changed:
            colour_terms = list(colour_terms)
            for colour in {duchy.colours[h] for h in changed}:
                i = COLOURS.index(colour)
                done = self.done[colour] + sum(1 for h in changed if duchy.colours[h] == colour)
                colour_terms[i] = self.colour_term(i, done)
        for term in colour_terms:
            total += term
        return total


class HeuristicBot(Bot):
    """Greedy over one round with a potential for unfinished work (see module docstring).

    Each decision builds one :class:`_Context`; a candidate's potential is recomputed only
    where its marks change the sheet (areas, frontier, colours), and cached by those marks.
    """

    name = "heuristic"

    def __init__(self) -> None:
        self._cache: dict[tuple[int, ...], tuple[int, tuple[tuple[str, int], ...], float]] = {}

    def choose(self, view: View, legal: list[Action], rng: Any) -> Action:
        if legal[0]["type"] == "pick_castle":
            return self._pick_castle(view, legal)
        best, best_score = legal[0], float("-inf")
        for action, score in zip(legal, self.scores(view, legal), strict=True):
            score += rng.random() * 1e-6
            if score > best_score:
                best, best_score = action, score
        return best

    def scores(self, view: View, legal: list[Action]) -> list[float]:
        """Each round decision's worth: points now, bonuses held and the potential's change."""
        seat = view["you"]
        duchy = DUCHIES[view["duchy"]["name"]]
        context = _Context(duchy, view, seat, _values(view, seat))
        self._cache = {}
        return [self._score(context, action) for action in legal]

    @staticmethod
    def _pick_castle(view: View, legal: list[Action]) -> Action:
        duchy = DUCHIES[view["duchy"]["name"]]
        if view["variant"] == "solo":
            for action in legal:
                if duchy.castle_square[INDEX[tuple(action["hex"])]] == SOLO_CASTLE:
                    return action
        order = {"silver": 0, "monk": 1, "worker": 2, "commodity": 3}

        def key(action: Action) -> tuple[int, int]:
            h = INDEX[tuple(action["hex"])]
            small = sum(
                1
                for n in NEIGHBOURS[h]
                if len(duchy.areas[duchy.area_of[n]]) <= 2 and duchy.colours[n] != "green"
            )
            return (-small, order[duchy.castle_square[h] or "silver"])

        return min(legal, key=key)

    def _score(self, context: _Context, action: Action) -> float:
        """The worth of ``action``: the sale and bonuses it spends or gains, plus the effect
        of its marks (points, bonuses won, potential after). Computed once per sale, bonus
        kind and set of marks (what the worth depends on: see :meth:`_Context.marks_key`),
        the effect of the marks once per set of marks."""
        sell, spent, marks = decision_parts(context.view, action)
        key = context.marks_key(marks)
        worth = context.worths.get((sell, spent, key))
        if worth is not None:
            return worth
        points = 0
        delta = [0, 0, 0, 0]  # in BONUS_KINDS order
        if sell:
            sold = context.held["commodity"]
            points += 2 * sold
            delta[COMMODITY] -= sold
            delta[SILVER] += min(sold, context.silver_room)
        if spent == "take_worker":
            delta[WORKER] += 1
        elif spent is not None:
            delta[KIND[spent]] -= 1
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = self._marks(context, marks)
        won, gained, after = found
        for kind, d in gained:
            delta[KIND[kind]] += d
        worth = points + won + context.bonus_value(tuple(delta)) + after - context.base
        worth += context.corrected(sell, spent, marks)
        context.worths[(sell, spent, key)] = worth
        return worth

    def _marks(
        self, context: _Context, marks: tuple[int, ...]
    ) -> tuple[int, tuple[tuple[str, int], ...], float]:
        """What writing ``marks`` (hex, value, ...) does: points, bonuses won, potential."""
        plan = _Plan(context.values)
        for i in range(0, len(marks), 2):
            self._write(context, plan, marks[i], marks[i + 1], marks[0:i:2])
        gained = tuple((k, d) for k, d in plan.bonus_delta.items() if d)
        changed = marks[0::2]
        after = context.potential(plan.values, changed) if changed else context.base
        return int(plan.points), gained, after

    @staticmethod
    def _write(
        context: _Context, plan: _Plan, h: int, value: int, earlier: tuple[int, ...]
    ) -> None:
        """Write ``value`` in hex ``h`` (after the hexes ``earlier`` of the same decision)."""
        duchy, view, phase = context.duchy, context.view, context.phase
        plan.values[h] = value
        area = duchy.areas[duchy.area_of[h]]
        colour = duchy.colours[h]
        if all(plan.values[o] != UNMARKED for o in area):
            if colour == "green":
                plan.points += 1
                plan.bonus_delta[duchy.castle_square[h] or "monk"] += 1
            else:
                mult = 2 if colour == "yellow" else 1
                plan.points += AREA_POINTS[len(area)][phase] * mult
                kind = AREA_BONUS.get(colour)
                if kind is not None:
                    plan.bonus_delta[kind] += 1
        done = context.done[colour] + 1 + sum(1 for o in earlier if duchy.colours[o] == colour)
        if done == len(context.hexes[colour]):
            first, second = view["duchy"]["colour_bonus"][colour]
            claims = view["colour_claims"][colour]
            if view["variant"] == "solo":
                plan.points += first if phase < 2 else second
            elif not claims["first"]:
                plan.points += first
            elif not claims["second"]:
                plan.points += second

    @staticmethod
    def potential(view: View, seat: int) -> float:
        """The potential of ``seat``'s sheet in ``view`` (the search's leaf value uses it)."""
        duchy = DUCHIES[view["duchy"]["name"]]
        return _Context(duchy, view, seat, _values(view, seat)).base


__all__ = ["HeuristicBot", "RandomBot"]


BOTS = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "search": lazy_bot("engine.burgundy.search:BurgundySearchBot"),
}
"""The bots a Burgundy seat may be given, by name."""
