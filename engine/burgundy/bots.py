"""Bots for Burgundy: the random baseline and a one-round-lookahead heuristic.

The heuristic sees only its view and the legal actions. It replays each candidate decision
on a copy of its own sheet (the duchy layout is public data named in the view), and scores
it as the points it makes now plus the change of a potential: partial progress on unfinished
areas (worth more early, in phases that pay more), the bonuses held, and how many hexes are
open to the next roll.
"""

from __future__ import annotations

import functools
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
HOLD_DECAY = 0.6
"""Each further bonus of a kind held is worth this fraction of the one before."""
EASE = {"purple": 0.55, "gray": 0.55, "blue": 0.55, "orange": 0.9, "yellow": 0.7, "green": 0.5}
"""Rough chance per round that a hex of each colour can be marked when it is open."""


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


def _rounds_left(view: View) -> float:
    """Rounds still to play after this one (an estimate outside the solo variant)."""
    size = view["time"]["size"]
    phase = view["phase"] - 1
    per_round = 1.0 if size != 10 else 4 / 3
    left_here = (size - view["time"]["columns"][phase]) / per_round
    return left_here + (2 - phase) * size / per_round


_COLOUR_HEXES: dict[str, dict[str, tuple[int, ...]]] = {}


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
        self.firsts = [view["duchy"]["colour_bonus"][colour][0] for colour in COLOURS]
        self.terms = [self.area_term(n, values) for n in range(len(duchy.areas))]
        self.front = set(frontier(values))
        self.done = {c: sum(1 for h in self.hexes[c] if values[h] != UNMARKED) for c in COLOURS}
        self.colour_terms = [self.colour_term(i, self.done[c]) for i, c in enumerate(COLOURS)]
        self.holding: dict[tuple[str, int], float] = {}
        self.scores: dict[tuple[Any, ...], float] = {}
        self.base = self.potential(values, ())

    def colour_term(self, i: int, done: int) -> float:
        """Colour ``COLOURS[i]``'s share of the potential with ``done`` of its hexes marked."""
        return self.firsts[i] * (done / len(self.hexes[COLOURS[i]])) ** 3 * TUNE["colour"]

    def holding_change(self, kind: str, delta: int) -> float:
        """What ``delta`` more bonuses of ``kind`` change the worth of those held."""
        key = (kind, delta)
        found = self.holding.get(key)
        if found is None:
            held = self.held[kind]
            found = self.holding[key] = _holding(kind, held + delta) - _holding(kind, held)
        return found

    def area_term(self, n: int, values: list[int]) -> float:
        """Area ``n``'s share of the potential (0.0 once complete)."""
        duchy = self.duchy
        area = duchy.areas[n]
        marked = [h for h in area if values[h] != UNMARKED]
        if len(marked) == len(area):
            return 0.0
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

    def potential(self, values: list[int], changed: tuple[int, ...]) -> float:
        """The potential of ``values``: the base sheet with the hexes ``changed`` marked."""
        duchy = self.duchy
        terms = self.terms
        if changed:
            terms = list(terms)
            for n in {duchy.area_of[h] for h in changed}:
                terms[n] = self.area_term(n, values)
        total = 0.0
        for term in terms:
            total += term
        front = self.front
        if changed:
            front = front - set(changed)
            for h in changed:
                front.update(n for n in NEIGHBOURS[h] if values[n] == UNMARKED)
        open_colours = {duchy.colours[h] for h in front}
        total += TUNE["front"] * len(front) + TUNE["open_colours"] * len(open_colours)
        if TUNE["mark_chance"]:
            chance = _mark_chance(duchy, values, sorted(front))
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
        self._cache: dict[tuple[int, ...], float] = {}

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
        """The worth of ``action``; decisions that differ only in which die they name (same
        marks, values, bonus and sale) are worth the same and computed once."""
        key: tuple[Any, ...] = (action["sell"],)
        if action["type"] == "mark":
            pips = context.view["roll"]["pips"]
            bonus = action["bonus"]
            hx = action["hex"]
            if bonus is None:
                key = (key, hx[0], hx[1], pips[action["pip"]])
            elif bonus["kind"] == "silver":
                hy = bonus["hex"]
                pair = (hy[0], hy[1], pips[bonus["pip"]])
                key = (key, hx[0], hx[1], pips[action["pip"]], "silver", pair)
            else:
                value = bonus["value"] if bonus["kind"] == "worker" else pips[action["pip"]]
                key = (key, hx[0], hx[1], value, bonus["kind"])
        found = context.scores.get(key)
        if found is None:
            found = context.scores[key] = self._replay(context, action)
        return found

    def _replay(self, context: _Context, action: Action) -> float:
        view = context.view
        plan = _Plan(context.values)
        roll = view["roll"]
        held = context.held
        changed: list[int] = []
        if action["sell"]:
            sold = held["commodity"]
            plan.points += 2 * sold
            plan.bonus_delta["commodity"] -= sold
            plan.bonus_delta["silver"] += min(sold, context.silver_room)
        if action["type"] == "take_worker":
            plan.bonus_delta["worker"] += 1
        else:
            bonus = action["bonus"] or {}
            value = roll["pips"][action["pip"]]
            if bonus:
                plan.bonus_delta[bonus["kind"]] -= 1
                if bonus["kind"] == "worker":
                    value = bonus["value"]
            h = INDEX[tuple(action["hex"])]
            self._write(context, plan, h, value)
            changed.append(h)
            if bonus.get("kind") == "silver":
                h2 = INDEX[tuple(bonus["hex"])]
                self._write(context, plan, h2, roll["pips"][bonus["pip"]])
                changed.append(h2)
        bonus_value = context.scale * sum(
            context.holding_change(k, d) for k, d in plan.bonus_delta.items() if d
        )
        key = tuple(x for h in changed for x in (h, plan.values[h]))
        after = self._cache.get(key)
        if after is None:
            after = self._cache[key] = context.potential(plan.values, tuple(changed))
        return plan.points + bonus_value + after - context.base

    @staticmethod
    def _write(context: _Context, plan: _Plan, h: int, value: int) -> None:
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
        if all(plan.values[o] != UNMARKED for o in context.hexes[colour]):
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
