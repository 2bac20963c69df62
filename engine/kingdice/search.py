"""The King of the Dice search bot: determinized Monte Carlo over the rest of the turn.

Hidden are the castle-tile stockpile and the card stacks below their top cards; ``sample``
re-deals them for each world. A decision (which dice to keep, which card to hire, where to
place, raid or send a dragon) is played out by the heuristic for every seat to the end of
the turn after this one, so the next player's raids and thefts answer it, and the leaf is
worth the seat's points by the end-of-game scoring minus the best other seat's (the same
count the result uses; a finished game is worth its places first). Rollouts to the end of
the game (150-300 steps) would leave a second's budget only a few dozen games to compare a
dozen candidates; two turns are about 40 steps. The candidates are the heuristic's choice
and five others it rates well (:meth:`KingdiceLookahead.shortlist`), not a random draw.
"""

from __future__ import annotations

from typing import Any

from engine.contract import Action, View
from engine.kingdice import queries
from engine.kingdice.bots import HeuristicBot, market_cards, view_dice
from engine.kingdice.conditions import keep_toward
from engine.kingdice.legal import canonical_keep
from engine.kingdice.state import KingState
from engine.search import Lookahead, SearchBot

TURNS_AHEAD = 2
"""Turns played (this one included) before the leaf is valued."""
FINISHED = 100.0
"""Weight of a finished game's places against the point margin."""


class KingdiceLookahead(Lookahead):
    """Rollouts over two turns, valued by the point margin (module docstring)."""

    width = 6

    def seat(self, view: View) -> int:
        return int(view["you"])

    def shortlist(self, view: View, actions: list[Action]) -> list[Action] | None:
        """Keeps: stopping and rolling toward each market card's conditions (what the
        heuristic would do for another target); spaces: the heuristic's best by its own
        value; anything else (hires, jokers, thefts: few) drawn at random."""
        if view["phase"] == "keep":
            rolled = view_dice(view)[:6]
            wanted: list[Action] = [{"type": "stop"}]
            for card in market_cards(view):
                for cond in card["conditions"]:
                    keep = sorted(keep_toward(cond, rolled))[:5]
                    wanted.append({"type": "reroll", "keep": canonical_keep(rolled, keep)})
            return [a for n, a in enumerate(wanted) if a in actions and a not in wanted[:n]]
        rated = HeuristicBot.rate(view, actions)
        if rated is not None:
            return [action for _, action in sorted(rated, key=lambda pair: -pair[0])]
        return None

    def begin(self, root: KingState, seat: int) -> Any:
        return root.turn

    def done(self, state: KingState, seat: int, mark: Any) -> bool:
        return state.turn >= mark + TURNS_AHEAD

    def value(self, state: KingState, seat: int, mark: Any) -> float:
        if self.game.is_over(state):
            return FINISHED * self.outcome(state, seat)
        totals = [part["total"] for part in queries.scores(state)]
        return float(totals[seat] - max(t for n, t in enumerate(totals) if n != seat))


class KingdiceSearchBot(SearchBot):
    """Determinized Monte Carlo over two turns (module docstring)."""

    game_name = "kingdice"
    lookahead_class = KingdiceLookahead
