"""The Carcassonne search bot: determinized Monte Carlo over the rest of the turn.

Nothing is hidden (``sample`` rebuilds the state from the view), so the only chance is the
re-rolls. Each candidate step (a placement, a knight kept, a re-roll, scoring, holding a
knight) is played out to the end of the turn by the heuristic on the same dice (common
random numbers), and the turn is worth minus the turns still expected to reach 42 from the
score and held knight it leaves (:func:`turns_left`, computed from the measured points of a
turn). Placements are pruned to the few the heuristic's outlook rates best.
"""

from __future__ import annotations

import functools
import random
from typing import Any

from engine.carcassonne.bots import grid_from_view, outlook
from engine.carcassonne.faces import face_mask
from engine.carcassonne.rules import TARGET
from engine.carcassonne.state import CarcassonneState
from engine.contract import Action, View
from engine.search import Lookahead, SearchBot

PLACEMENTS = 6
"""Placements kept as candidates (by the heuristic's outlook after each)."""
TURN_POINTS = {0: 0.45, 3: 0.06, 6: 0.12, 10: 0.10, 15: 0.23, 21: 0.03, 28: 0.01}
"""How often a turn scores each number of points (undoubled; 0: nothing closed, or a knight
held) when the search plays it: 82 turns of 12 seeded solo games at 100 simulations a
decision, rounded. Only its shape matters to :func:`turns_left`."""


@functools.cache
def turns_left(score: int, held: bool) -> float:
    """Expected turns still needed to reach 42 from ``score`` (``held``: the next turn is
    doubled), if every later turn scores as :data:`TURN_POINTS` says (a dynamic programme
    from 41 down; a turn that scores nothing is a turn spent)."""
    if score >= TARGET:
        return 0.0
    if held:
        return 1.0 + sum(p * turns_left(score + 2 * x, False) for x, p in TURN_POINTS.items())
    nothing = TURN_POINTS.get(0, 0.0)
    later = sum(p * turns_left(score + x, False) for x, p in TURN_POINTS.items() if x)
    return (1.0 + later) / (1.0 - nothing)


class CarcassonneLookahead(Lookahead):
    """Rollouts to the end of the searching seat's turn (see the module docstring)."""

    switch_z = 0.0
    """The best mean wins: the turn's lookahead is exact up to the re-rolls (measured on
    six seeds: 6.5 turns with the best mean, 7.2 keeping the heuristic's choice unless it is
    beaten by two standard errors)."""

    def candidates(self, view: View, legal: list[Action], rng: random.Random) -> list[Action]:
        places = [a for a in legal if a["type"] == "place"]
        others = [a for a in legal if a["type"] != "place"]
        if len(places) > PLACEMENTS:
            turn = view["turn"]
            grid = grid_from_view(view)
            free = {d["die"]: d["face"] for d in turn["roll"] if d["status"] == "free"}
            left = len(free) - 1

            def rate(action: Action) -> float:
                cell = (action["x"], action["y"])
                grid[cell] = face_mask(free[action["die"]], action["rotation"])
                value = outlook(grid, turn["rolls_left"], left)
                del grid[cell]
                return value

            places = sorted(places, key=rate, reverse=True)[:PLACEMENTS]
        favourite = self.rollout_bot.choose(view, legal, random.Random(0))
        ordered = [favourite] + [a for a in places + others if a != favourite]
        return ordered

    def worlds(self, view: View) -> int | None:
        """One world after the last roll: the rest of the turn has no chance left."""
        return 1 if view["turn"]["rolls_left"] == 0 else None

    def begin(self, root: CarcassonneState, seat: int) -> Any:
        return (root.turns[seat], root.scores[seat])

    def done(self, state: CarcassonneState, seat: int, mark: Any) -> bool:
        return state.turns[seat] != mark[0]

    def value(self, state: CarcassonneState, seat: int, mark: Any) -> float:
        if state.winner == seat:
            return 0.0
        held = state.held[seat] or (state.turn.seat == seat and state.turn.doubled)
        return -turns_left(state.scores[seat], held)


class CarcassonneSearchBot(SearchBot):
    """Determinized Monte Carlo over the rest of the turn (module docstring)."""

    game_name = "carcassonne"
    lookahead_class = CarcassonneLookahead
