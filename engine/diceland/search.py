"""The Diceland search bot: determinized Monte Carlo over the rest of the turn.

Hidden are only the other seats' sealed phase-2 choices, which ``sample`` draws at random.
Each candidate (a colour to choose, throwing on or stopping, a placement) is played out by
the heuristic for every seat to the end of the turn after this one, so the search sees the
dice it pushes its luck against and the next active player's throw; the leaf is worth the
seat's progress toward the win (nine treasures and one colour complete: treasures, crosses,
and the fewest spaces left in any colour) minus the best other seat's, and a finished game
is worth its places first. Whole games run 120-270 steps, too long for a second's budget.
The candidates are the heuristic's choice and the five others its own values rate best.
"""

from __future__ import annotations

from typing import Any

from engine.contract import Action
from engine.diceland.board import COLOURS, TREASURES_TO_WIN
from engine.diceland.bots import HeuristicBot
from engine.diceland.state import DicelandState
from engine.diceland.view import board_of
from engine.search import Lookahead, SearchBot

TURNS_AHEAD = 2
"""Turns played (this one included) before the leaf is valued."""
FINISHED = 100.0
"""Weight of a finished game's places against the progress margin."""
TREASURE = 10.0
CROSS = 1.0
COLOUR_LEFT = 2.0


def progress(state: DicelandState, seat: int) -> float:
    """How near ``seat`` is to winning: treasures (up to nine), crosses, a colour nearly done."""
    board = board_of(state, seat)  # in the game's maps edition
    crossed = 0
    for i in state.crosses[seat]:
        crossed |= 1 << i
    treasures = min(TREASURES_TO_WIN, board.treasure_count(crossed))
    left = min((board.colour_mask[c] & ~crossed).bit_count() for c in COLOURS)
    return TREASURE * treasures + CROSS * len(state.crosses[seat]) - COLOUR_LEFT * left


class DicelandLookahead(Lookahead):
    """Rollouts over two turns, valued by the progress margin (module docstring)."""

    width = 6

    def seat(self, view: Any) -> int:
        return int(view["you"])

    def shortlist(self, view: Any, actions: list[Action]) -> list[Action] | None:
        """Colours and sets of crosses, best first by the heuristic's own value."""
        rated = HeuristicBot.rate(view, actions)
        if not rated:
            return None
        return [action for _, action in sorted(rated, key=lambda pair: -pair[0])]

    def begin(self, root: DicelandState, seat: int) -> Any:
        return root.turn

    def done(self, state: DicelandState, seat: int, mark: Any) -> bool:
        return state.turn >= mark + TURNS_AHEAD

    def value(self, state: DicelandState, seat: int, mark: Any) -> float:
        if self.game.is_over(state):
            return FINISHED * self.outcome(state, seat)
        mine = progress(state, seat)
        return mine - max(progress(state, s) for s in range(state.seats) if s != seat)


class DicelandSearchBot(SearchBot):
    """Determinized Monte Carlo over two turns (module docstring)."""

    game_name = "diceland"
    lookahead_class = DicelandLookahead
