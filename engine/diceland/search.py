"""The Diceland search bots: determinized Monte Carlo over the rest of the turn.

Hidden are only the other seats' sealed phase-2 choices, which ``sample`` draws at random.
Each candidate (a colour to choose, throwing on or stopping, a placement) is played out by
the heuristic for every seat to the end of the turn after this one, so the search sees the
dice it pushes its luck against and the next active player's throw. Whole games run
120-270 steps, too long for a second's budget. The candidates are the heuristic's choice and
the five others its own values rate best.

The catalogue's ``search`` is :class:`FittedSearchBot`: the rollouts' dice are keyed to the
moment of the game (the turn, its n-th throw, the treasure throws due: ``chance_key``), so a
candidate that stops and one that throws on meet the same next throws in a world (common
random numbers past the first difference; the paired differences' spread falls by about a
quarter), and a leaf is worth the seat's chance of winning under a model fitted to whole
games (``engine.diceland.leaf``; a finished game: 1 shared among the winners).

The others, reachable as ``module:Class`` for matches and screens: :class:`DicelandSearchBot`
(the catalogue's until 2026-11-25: one dice stream per world, and the leaf is the seat's
progress toward the win, treasures, crosses and the fewest spaces left in any colour, minus
the best other seat's, a finished game worth its places first) and :class:`KeyedSearchBot`
(keyed dice, and the progress leaf also counts, until nine treasures are found, how far the
uncrossed treasures still are: screened without a measurable gain).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from engine.contract import Action, View
from engine.diceland.board import COLOURS, TREASURES_TO_WIN, Board, bits
from engine.diceland.bots import APPROACH, FAR, HeuristicBot, Scorer
from engine.diceland.leaf import win_chances
from engine.diceland.rules import GAME as RULES
from engine.diceland.state import DicelandState, Phase
from engine.diceland.view import board_of, crossed_mask
from engine.search import Lookahead, SearchBot

PUSH_LEGAL: list[Action] = [{"type": "throw"}, {"type": "stop"}]
"""The legal actions of a decision to stop or throw on (the rules' order)."""
TURNS_AHEAD = 2
"""Turns played (this one included) before the leaf is valued."""
FINISHED = 100.0
"""Weight of a finished game's places against the progress margin."""
TREASURE = 10.0
CROSS = 1.0
COLOUR_LEFT = 2.0


_BALLS: dict[int, tuple[Board, list[tuple[int, list[int]]]]] = {}


def treasure_balls(board: Board) -> list[tuple[int, list[int]]]:
    """For each treasure hex, the masks of the hexes within 0, 1, ..., ``FAR - 1`` steps
    of it over non-obstacle hexes (built once per board)."""
    found = _BALLS.get(id(board))
    if found is None or found[0] is not board:
        balls = []
        for t in bits(board.treasure_mask):
            dist = board.distances(1 << t)
            masks = [0] * FAR
            for i, d in enumerate(dist):
                for k in range(d, FAR) if d >= 0 else ():
                    masks[k] |= 1 << i
            balls.append((t, masks))
        found = _BALLS[id(board)] = (board, balls)
    return found[1]


def treasure_distance(board: Board, crossed: int) -> int:
    """The steps from the crossed area to each uncrossed treasure, each capped at ``FAR``,
    summed (the heuristic's approach term, as a leaf: how far the treasures still are)."""
    total = 0
    for t, masks in treasure_balls(board):
        if (crossed >> t) & 1:
            continue
        steps = FAR
        for d, mask in enumerate(masks):
            if mask & crossed:
                steps = d
                break
        total += steps
    return total


def progress(state: DicelandState, seat: int, approach: bool = False) -> float:
    """How near ``seat`` is to winning: treasures (up to nine), crosses, a colour nearly done,
    and (``approach``) while treasures are still wanted, how near the uncrossed ones are."""
    board = board_of(state, seat)  # in the game's maps edition
    crossed = 0
    for i in state.crosses[seat]:
        crossed |= 1 << i
    found = board.treasure_count(crossed)
    treasures = min(TREASURES_TO_WIN, found)
    left = min((board.colour_mask[c] & ~crossed).bit_count() for c in COLOURS)
    value = TREASURE * treasures + CROSS * len(state.crosses[seat]) - COLOUR_LEFT * left
    if approach and found < TREASURES_TO_WIN:
        value -= APPROACH * treasure_distance(board, crossed)
    return value


class DicelandLookahead(Lookahead):
    """Rollouts over two turns, valued by the progress margin (module docstring)."""

    width = 6
    keyed = False
    """Whether the rollouts' dice are keyed to the moment of the game (:meth:`chance_key`)."""
    approach = False
    """Whether the leaf counts the steps to the uncrossed treasures (:func:`progress`)."""
    fitted = False
    """Whether the leaf is the seat's fitted chance of winning (``engine.diceland.leaf``)
    instead of the progress margin."""
    turns_ahead = TURNS_AHEAD

    def seat(self, view: Any) -> int:
        return int(view["you"])

    def shortlist(self, view: Any, actions: list[Action]) -> list[Action] | None:
        """Colours and sets of crosses, best first by the heuristic's own value."""
        rated = HeuristicBot.rate(view, actions)
        if not rated:
            return None
        return [action for _, action in sorted(rated, key=lambda pair: -pair[0])]

    def policy(
        self, state: DicelandState, seat: int, legal: list[Action], rng: random.Random
    ) -> Action:
        """The heuristic's move, read off the state (the same move as from the seat's view,
        without building the view: a third of a rollout's cost)."""
        if len(legal) == 1:
            return legal[0]
        scorer = Scorer.of(board_of(state, seat), crossed_mask(state, seat))
        return HeuristicBot.decide(scorer, state.chosen, state.aside, state.last_throw, legal)

    def rollout_move(
        self, state: DicelandState, seat: int, rng: random.Random
    ) -> tuple[int, Action]:
        """:meth:`policy`'s move for the seat to act, worked out without listing the legal
        actions: the same seat (``seat`` if it is to act, else the lowest that is) and the
        same move (the heuristic's first best in the rules' order of the legal actions),
        without building an action for every placement (most of a rollout step's cost)."""
        phase = state.phase
        if phase == Phase.CHOOSE or phase == Phase.PUSH:
            actor = state.active
        elif phase == Phase.CROSS:
            choices = state.choices
            actor = seat if choices[seat] is None else choices.index(None)
        else:  # Phase.TREASURE (a rollout stops at the end of the game)
            actor = state.treasure_queue[0]
        board = board_of(state, actor)
        scorer = Scorer.of(board, crossed_mask(state, actor))
        if phase == Phase.PUSH:
            return actor, HeuristicBot.decide(
                scorer, state.chosen, state.aside, state.last_throw, PUSH_LEGAL
            )
        if phase == Phase.CHOOSE:
            throw = state.last_throw
            best, pick = 0.0, ""
            for colour in COLOURS:
                if colour in throw:
                    value = scorer.push_values(colour)[2][throw.count(colour)]
                    if not pick or value > best:
                        best, pick = value, colour
            return actor, {"type": "choose", "colour": pick}
        top, colour, mask = 0.0, "", 0
        for c, n in RULES.dice_for(state, actor).items():
            value, placement = scorer.best_placement(c, n)
            if placement and (not colour or value > top):
                top, colour, mask = value, c, placement
        if not colour:
            return actor, {"type": "pass"}
        return actor, {"type": "cross", "colour": colour, "hexes": board.hexes_of(mask)}

    def copy(self, state: DicelandState) -> DicelandState:
        """A copy a rollout may change: the lists copied, the sealed choices shared (the
        rules replace a seat's choice, never change one)."""
        return replace(
            state,
            maps=list(state.maps),
            crosses=[list(c) for c in state.crosses],
            last_throw=list(state.last_throw),
            choices=list(state.choices),
            treasure_queue=list(state.treasure_queue),
            treasure_dice=list(state.treasure_dice),
            winners=list(state.winners),
            last_phase2=list(state.last_phase2),
        )

    def chance_key(self, state: DicelandState) -> Any:
        """Which throw the next die belongs to: the turn's first throw, its n-th throw on,
        or a treasure throw (with the queue of treasure throws at that moment), so every
        candidate of a world meets the same throws at the same moments (``KeyedDice``);
        None (one stream per world) unless ``keyed``."""
        if not self.keyed:
            return None
        if state.phase == Phase.TREASURE:
            return (state.turn, "treasure", *state.treasure_queue)
        return (state.turn, state.phase.value, state.throws)

    def begin(self, root: DicelandState, seat: int) -> Any:
        return root.turn

    def done(self, state: DicelandState, seat: int, mark: Any) -> bool:
        return state.turn >= mark + self.turns_ahead

    def value(self, state: DicelandState, seat: int, mark: Any) -> float:
        if self.fitted:
            if self.game.is_over(state):
                return 1 / len(state.winners) if seat in state.winners else 0.0
            return win_chances(state)[seat]
        if self.game.is_over(state):
            return FINISHED * self.outcome(state, seat)
        mine = progress(state, seat, self.approach)
        others = (progress(state, s, self.approach) for s in range(state.seats) if s != seat)
        return mine - max(others)


class KeyedLookahead(DicelandLookahead):
    """The lookahead with keyed dice and the treasure-distance leaf (screened 2026-11-24:
    no gain measured, so not the catalogue's; see RULES.md)."""

    keyed = True
    approach = True


class FittedLookahead(DicelandLookahead):
    """The lookahead with keyed dice and the fitted chance of winning as its leaf."""

    keyed = True
    fitted = True


class DicelandSearchBot(SearchBot):
    """Determinized Monte Carlo over two turns valued by the progress margin (module
    docstring; ``engine.diceland.search:DicelandSearchBot``)."""

    game_name = "diceland"
    lookahead_class = DicelandLookahead

    def choose(self, view: View, legal: list[Action], rng: Any) -> Action:
        """A board's side as the heuristic picks it (a rollout from before the first turn
        would be a whole game a world); every later decision searched."""
        if view["phase"] == Phase.SIDE:
            self.last = None
            return HeuristicBot.side(legal, rng)
        return super().choose(view, legal, rng)


class KeyedSearchBot(DicelandSearchBot):
    """The search with :class:`KeyedLookahead`, for matches and screens
    (``engine.diceland.search:KeyedSearchBot``)."""

    lookahead_class = KeyedLookahead


class FittedSearchBot(DicelandSearchBot):
    """The catalogue's search: :class:`FittedLookahead`'s keyed dice and fitted leaf."""

    lookahead_class = FittedLookahead
