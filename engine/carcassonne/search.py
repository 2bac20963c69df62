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
from engine.contract import Action, Game, View
from engine.search import Lookahead, SearchBot

PLACEMENTS = 6
"""Placements kept as candidates (by the heuristic's outlook after each)."""
TURN_POINTS = {0: 0.45, 3: 0.06, 6: 0.12, 10: 0.10, 15: 0.23, 21: 0.03, 28: 0.01}
"""How often a turn scores each number of points (undoubled; 0: nothing closed, or a knight
held) when the search plays it: 82 turns of 12 seeded solo games at 100 simulations a
decision, rounded. Only its shape matters to :func:`turns_left`."""

HELD = -1
"""A turn ending in :data:`TURN_OUTCOMES` that holds a knight (instead of points)."""
Outcomes = dict[int, float]
TURN_OUTCOMES: dict[str, dict[int, Outcomes]] = {
    "search": {
        9: {
            0: 0.377,
            1: 0.017,
            3: 0.057,
            6: 0.1,
            10: 0.12,
            15: 0.08,
            21: 0.033,
            28: 0.004,
            HELD: 0.214,
        },
        8: {0: 0.417, 1: 0.01, 3: 0.073, 6: 0.147, 10: 0.12, 15: 0.05, 21: 0.013, HELD: 0.17},
    },
    "heuristic": {
        9: {
            0: 0.434,
            1: 0.011,
            3: 0.043,
            6: 0.089,
            10: 0.122,
            15: 0.126,
            21: 0.031,
            28: 0.005,
            HELD: 0.138,
        },
        8: {0: 0.492, 1: 0.013, 3: 0.062, 6: 0.113, 10: 0.133, 15: 0.068, 21: 0.003, HELD: 0.117},
    },
}
"""How a turn ends (undoubled points, or :data:`HELD`) by who plays it and with how many
dice (eight while the other seat holds a knight): ``bench/carcassonne_turns.py``, single
seeded turns from an empty grid, turns after holding a knight (doubled) and not pooled
(they did not differ beyond noise): the heuristic 800 turns with nine dice and 400 with
eight, the search at 32 simulations a decision 300 and 300. The 2-seat leaf (:func:`race`)
assumes the search plays its own later turns and the heuristic the other seat's."""
TURN_OUTCOMES["solo games"] = {9: TURN_POINTS, 8: TURN_POINTS}
Players = tuple[str, str]
RACERS: Players = ("search", "heuristic")
"""Whose turn endings the race leaf assumes for the searching seat and the other seat."""
TOLERANCE = 1e-12
"""When the eight states of one pair of scores have settled (see :func:`race_table`)."""


def race(
    mine: int, my_held: bool, theirs: int, their_held: bool, players: Players = RACERS
) -> float:
    """The chance that the searching seat reaches 42 first in a 2-seat game, when the other
    seat is about to play its turn (``*_held``: that seat holds a knight, so its next turn is
    doubled and the other rolls one die fewer). Ties cannot happen: the first to 42 ends it."""
    if mine >= TARGET:
        return 1.0
    if theirs >= TARGET:
        return 0.0
    return race_table(players)[mine, my_held, theirs, their_held, False]


@functools.cache
def race_table(players: Players = RACERS) -> dict[tuple[int, bool, int, bool, bool], float]:
    """``(mine, my_held, theirs, their_held, my_move) ->`` the searching seat's chance of
    winning the race (see :func:`race`), for every pair of scores below 42, its own turns
    ending as ``TURN_OUTCOMES[players[0]]`` says and the other seat's as ``players[1]``.

    Scores only grow, so the pairs of scores are solved from 41 down; within a pair, a turn
    that scores nothing or holds a knight leads back to the pair's eight states, which are
    iterated until they settle (:data:`TOLERANCE`)."""
    table: dict[tuple[int, bool, int, bool, bool], float] = {}

    def get(a: int, ha: bool, b: int, hb: bool, me: bool) -> float:
        if a >= TARGET:
            return 1.0
        if b >= TARGET:
            return 0.0
        return table[a, ha, b, hb, me]

    Key = tuple[int, bool, int, bool, bool]
    for a in range(TARGET - 1, -1, -1):
        for b in range(TARGET - 1, -1, -1):
            fixed: dict[Key, float] = {}
            loops: dict[Key, list[tuple[float, Key]]] = {}
            for ha in (False, True):
                for hb in (False, True):
                    mine = TURN_OUTCOMES[players[0]][8 if hb else 9]
                    theirs = TURN_OUTCOMES[players[1]][8 if ha else 9]
                    me, them = (a, ha, b, hb, True), (a, ha, b, hb, False)
                    fixed[me] = sum(
                        p * get(a + x * (2 if ha else 1), False, b, hb, False)
                        for x, p in mine.items()
                        if x > 0
                    )
                    loops[me] = [
                        (mine.get(0, 0.0), (a, False, b, hb, False)),
                        (mine.get(HELD, 0.0), (a, True, b, hb, False)),
                    ]
                    fixed[them] = sum(
                        p * get(a, ha, b + x * (2 if hb else 1), False, True)
                        for x, p in theirs.items()
                        if x > 0
                    )
                    loops[them] = [
                        (theirs.get(0, 0.0), (a, ha, b, False, True)),
                        (theirs.get(HELD, 0.0), (a, ha, b, True, True)),
                    ]
            table.update(dict.fromkeys(fixed, 0.0))
            change = 1.0
            while change > TOLERANCE:
                change = 0.0
                for key, base in fixed.items():
                    value = base + sum(p * table[k] for p, k in loops[key])
                    change = max(change, abs(value - table[key]))
                    table[key] = value
    return table


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

    racers: Players = RACERS
    """Whose turn endings :func:`race` assumes (keys of :data:`TURN_OUTCOMES`)."""
    race_leaf = False
    """Two seats: value a turn by the chance of winning the race (:func:`race`) instead of
    the turns it leaves to 42. Off: screened, it placed above the heuristic less often than
    the turns-left leaf on the same games (the rules page, "Bots")."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        if self.race_leaf:
            race_table(self.racers)  # once a process (about 0.5 s), not in a timed decision

    def worlds(self, view: View) -> int | None:
        """One world after the last roll: the rest of the turn has no chance left."""
        return 1 if view["turn"]["rolls_left"] == 0 else None

    def begin(self, root: CarcassonneState, seat: int) -> Any:
        return (root.turns[seat], root.scores[seat])

    def done(self, state: CarcassonneState, seat: int, mark: Any) -> bool:
        return state.turns[seat] != mark[0]

    def value(self, state: CarcassonneState, seat: int, mark: Any) -> float:
        if state.seats == 2 and self.race_leaf:
            if state.winner is not None:
                return 1.0 if state.winner == seat else 0.0
            other = 1 - seat
            their_held = state.held[other] or (state.turn.seat == other and state.turn.doubled)
            mine_held = state.held[seat] or (state.turn.seat == seat and state.turn.doubled)
            return race(state.scores[seat], mine_held, state.scores[other], their_held, self.racers)
        if state.winner == seat:
            return 0.0
        held = state.held[seat] or (state.turn.seat == seat and state.turn.doubled)
        return -turns_left(state.scores[seat], held)


class CarcassonneSearchBot(SearchBot):
    """Determinized Monte Carlo over the rest of the turn (module docstring)."""

    game_name = "carcassonne"
    lookahead_class = CarcassonneLookahead
