"""The Burgundy heuristic as first written: every candidate's potential recomputed over the
whole sheet. Kept as the specification the fast evaluation in ``engine/burgundy/bots.py``
must match decision for decision (``tests/engine/test_burgundy_bots.py``)."""

from __future__ import annotations

from typing import Any

from engine.burgundy import bots
from engine.burgundy.bots import (
    AREA_BONUS,
    BONUS_VALUE,
    EASE,
    TUNE,
    _holding,
    _mark_chance,
    _Plan,
    _rounds_left,
    _values,
    colour_amounts,
    colour_prospect,
    decision_features,
    decision_parts,
)
from engine.burgundy.duchy import COLOURS, DUCHIES, INDEX, Duchy
from engine.burgundy.sheet import frontier
from engine.burgundy.state import AREA_POINTS, UNMARKED
from engine.contract import Action, Bot, View


class ReferenceHeuristic(Bot):
    """Greedy over one round with a potential for unfinished work (see module docstring)."""

    name = "reference"

    def __init__(self) -> None:
        self._cache: dict[tuple[int, ...], float] = {}

    def choose(self, view: View, legal: list[Action], rng: Any) -> Action:
        if legal[0]["type"] == "pick_castle":
            raise ValueError("the reference covers round decisions only")
        seat = view["you"]
        duchy = DUCHIES[view["duchy"]["name"]]
        values = _values(view, seat)
        phase = view["phase"] - 1
        self._cache = {}
        base = self._potential(duchy, values, phase, view)
        best, best_score = legal[0], float("-inf")
        for action in legal:
            score = self._score(duchy, view, seat, values, phase, action, base)
            score += rng.random() * 1e-6
            if score > best_score:
                best, best_score = action, score
        return best

    def _score(
        self,
        duchy: Duchy,
        view: View,
        seat: int,
        values: list[int],
        phase: int,
        action: Action,
        base: float,
    ) -> float:
        plan = _Plan(values)
        roll = view["roll"]
        held = {k: v["available"] for k, v in view["players"][seat]["bonuses"].items()}
        if action["sell"]:
            sold = held["commodity"]
            plan.points += 2 * sold
            plan.bonus_delta["commodity"] -= sold
            room = (
                view["duchy"]["bonus_limits"]["silver"]
                - view["players"][seat]["bonuses"]["silver"]["circled"]
            )
            plan.bonus_delta["silver"] += min(sold, room)
        if action["type"] == "take_worker":
            plan.bonus_delta["worker"] += 1
        else:
            bonus = action["bonus"] or {}
            value = roll["pips"][action["pip"]]
            if bonus:
                plan.bonus_delta[bonus["kind"]] -= 1
                if bonus["kind"] == "worker":
                    value = bonus["value"]
            self._write(duchy, plan, INDEX[tuple(action["hex"])], value, phase, view, seat)
            if bonus.get("kind") == "silver":
                v2 = roll["pips"][bonus["pip"]]
                self._write(duchy, plan, INDEX[tuple(bonus["hex"])], v2, phase, view, seat)
        scale = min(1.0, _rounds_left(view) / TUNE["end_rounds"])
        bonus_value = scale * sum(
            _holding(k, held[k] + d) - _holding(k, held[k]) for k, d in plan.bonus_delta.items()
        )
        key = tuple(plan.values)
        after = self._cache.get(key)
        if after is None:
            after = self._cache[key] = self._potential(duchy, plan.values, phase, view)
        worth = plan.points + bonus_value + after - base
        correction = bots.CORRECTION if view["variant"] == "solo" else {}
        if correction:
            sell, spent, marks = decision_parts(view, action)
            kinds = decision_features(duchy, values, held, sell, spent, marks)
            worth += sum(correction.get(f"{phase + 1}:{kind}", 0.0) for kind in kinds)
        return worth

    @staticmethod
    def _write(
        duchy: Duchy, plan: _Plan, h: int, value: int, phase: int, view: View, seat: int
    ) -> None:
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
        hexes = [i for i, c in enumerate(duchy.colours) if c == colour]
        if all(plan.values[o] != UNMARKED for o in hexes):
            first, second = view["duchy"]["colour_bonus"][colour]
            claims = view["colour_claims"][colour]
            if view["variant"] == "solo":
                plan.points += first if phase < 2 else second
            elif not claims["first"]:
                plan.points += first
            elif not claims["second"]:
                plan.points += second

    @staticmethod
    def _potential(duchy: Duchy, values: list[int], phase: int, view: View) -> float:
        size = view["time"]["size"]
        filled = view["time"]["columns"][phase]
        left_in_phase = max(0.0, (size - filled) / (1.5 if size == 10 else 1.0))
        rounds_left = _rounds_left(view)
        total = 0.0
        for n, area in enumerate(duchy.areas):
            marked = [h for h in area if values[h] != UNMARKED]
            if len(marked) == len(area):
                continue
            colour = duchy.area_colours[n]
            missing = len(area) - len(marked)
            soon = phase if missing <= left_in_phase * TUNE["soon"] else min(phase + 1, 2)
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
            feasible = min(1.0, rounds_left / (missing * TUNE["per_hex"]))
            total += (
                feasible
                * worth
                * progress ** TUNE["progress_pow"]
                * (TUNE["progress_base"] + TUNE["progress_ease"] * ease)
            )
        front = frontier(values)
        open_colours = {duchy.colours[h] for h in front}
        total += TUNE["front"] * len(front) + TUNE["open_colours"] * len(open_colours)
        if TUNE["mark_chance"]:
            chance = _mark_chance(duchy, values, front)
            total += TUNE["mark_chance"] * chance * min(1.0, rounds_left)
        for colour in COLOURS:
            hexes = duchy.hexes_of(colour)
            done = sum(1 for h in hexes if values[h] != UNMARKED)
            amounts = colour_amounts(view, colour, left_in_phase)
            total += colour_prospect(amounts, done, len(hexes))
        return total
