"""The Burgundy search bot: expectimax over the next two rolls, with the heuristic as leaf value.

One full-game rollout scores with a standard deviation of about 5 points while the best
two decisions of a round differ by about 1, so rollouts to the end cannot tell decisions
apart in a second. The search therefore looks two rolls ahead: each candidate (the few
decisions the heuristic rates best) is played, the next two rounds are rolled from the
world's dice and played by the heuristic for every seat, and the leaf is worth the points
made plus the heuristic's own value of the sheet (bonuses held, partial areas, open hexes):
the same scale the heuristic uses for one round, so the search corrects it where the next
rolls decide (which decision keeps the most good options open, which area two rounds can
finish). Every candidate meets the same sampled rolls (common random numbers). Two rounds
instead of one: +1.16 points over the heuristic solo on 200 paired seeds, against +0.25 on
the same seeds for one round (RULES.md, "search"). A challenger replaces the heuristic's
favourite when it beats it by one standard error of their paired differences (the shared
default is two): the rolls are shared, so the differences are measured closely. With
480 simulations a decision or more (and under a time budget, 1 s by default) the search is
wide: the heuristic's 16 best decisions of distinct effect instead of its eight best as
listed (where a silver's two marks in either order took two places), halved first after
eight worlds instead of four, so the extra simulations look at more decisions rather than
only at the last two (RULES.md, "search").
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from engine.burgundy.bots import TUNE, HeuristicBot, _holding, _rounds_left
from engine.burgundy.leaf import NAMES, LeafValue, features
from engine.burgundy.state import BurgundyState
from engine.contract import Action, View
from engine.search import Lookahead, SearchBot

CANDIDATES = 8
"""Decisions kept as candidates (by the heuristic's one-round score)."""
ROUNDS_AHEAD = 2
"""Rounds the heuristic plays after the candidate's round before the leaf is valued."""
WIDE_FROM = 480
"""Iteration budgets from which the search is wide (a time budget always is): :data:`WIDE`
candidates of distinct effect, the first halving after :data:`WIDE_FIRST_CUT` worlds."""
WIDE = 16
WIDE_FIRST_CUT = 8


def effect(action: Action, pips: list[int]) -> Any:
    """What a round decision does to its own sheet: the sale, the bonus kind spent and the
    marks (hex and number, in either order). Two decisions with the same effect leave the
    same sheet and bonuses (e.g. a silver's two marks given in either order, or a monk
    changing either of two colour dice to the same colour)."""
    if action["type"] != "mark":
        return (action["sell"], action["type"])
    bonus = action["bonus"]
    value = pips[action["pip"]]
    marks = []
    kind = None
    if bonus is not None:
        kind = bonus["kind"]
        if kind == "worker":
            value = bonus["value"]
        elif kind == "silver":
            marks.append((tuple(bonus["hex"]), pips[bonus["pip"]]))
    marks.append((tuple(action["hex"]), value))
    return (action["sell"], kind, frozenset(marks))


def hand_terms(view: View, seat: int) -> tuple[float, float]:
    """The heuristic's leaf terms of ``seat``'s sheet: bonuses held (scaled down in the
    last rounds) and the potential."""
    scale = min(1.0, _rounds_left(view) / TUNE["end_rounds"])
    held = sum(
        _holding(kind, bonus["available"])
        for kind, bonus in view["players"][seat]["bonuses"].items()
    )
    return scale * held, HeuristicBot.potential(view, seat)


class BurgundyLookahead(Lookahead):
    """Two rolls of lookahead with the heuristic's sheet value at the leaf."""

    rollout_bot: HeuristicBot
    switch_z = 1.0
    """A challenger overrides the heuristic's favourite when its mean beats it by one
    standard error of the paired differences (two before 2026-11-25: +0.62 (+-0.97) on 40
    paired seeds at 240 simulations, RULES.md)."""

    width = CANDIDATES
    """Most candidates kept (the wide search keeps :data:`WIDE`)."""
    distinct = False
    """Whether candidates with the same :func:`effect` as a better-rated one are left out
    (the wide search's; the narrow one keeps the heuristic's eight best as they are)."""

    def candidates(self, view: View, legal: list[Action], rng: random.Random) -> list[Action]:
        bot = self.rollout_bot
        if legal[0]["type"] == "pick_castle":
            return [bot.choose(view, legal, rng)]
        scored = [(score, n) for n, score in enumerate(bot.scores(view, legal))]
        scored.sort(key=lambda pair: (-pair[0], pair[1]))
        if not self.distinct:
            return [legal[n] for _, n in scored[: self.width]]
        kept: list[Action] = []
        seen: set[Any] = set()
        pips = view["roll"]["pips"]
        for _, n in scored:
            key = effect(legal[n], pips)
            if key not in seen:
                seen.add(key)
                kept.append(legal[n])
                if len(kept) == self.width:
                    break
        return kept

    def begin(self, root: BurgundyState, seat: int) -> Any:
        return root.round

    def done(self, state: BurgundyState, seat: int, mark: Any) -> bool:
        return state.round > mark + ROUNDS_AHEAD

    def value(self, state: BurgundyState, seat: int, mark: Any) -> float:
        points = float(sum(state.sheets[seat].points))
        if self.game.is_over(state):
            return points
        held, potential = hand_terms(self.game.view(state, seat), seat)
        return points + held + potential


class BurgundySearchBot(SearchBot):
    """Expectimax over the next two rolls with the heuristic's leaf value (module docstring)."""

    game_name = "burgundy"
    lookahead_class = BurgundyLookahead
    look: BurgundyLookahead

    def __init__(self, budget_ms: float | None = None, iterations: int | None = None) -> None:
        super().__init__(budget_ms, iterations)
        if self.iterations is None or self.iterations >= WIDE_FROM:
            look = self.look
            look.width, look.first_cut, look.distinct = WIDE, WIDE_FIRST_CUT, True


class FittedLookahead(BurgundyLookahead):
    """The same lookahead with the fitted leaf (``engine.burgundy.leaf``) at the leaves."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.leaf = LeafValue.load()

    def value(self, state: BurgundyState, seat: int, mark: Any) -> float:
        points = float(sum(state.sheets[seat].points))
        if self.game.is_over(state):
            return points
        return points + self.leaf(state, seat)


class FittedSearchBot(SearchBot):
    """Expectimax over the next rolls with the fitted leaf value (not in the catalogue: on 40
    paired solo seeds, one roll ahead, it scored no better than the hand-tuned potential,
    RULES.md)."""

    game_name = "burgundy"
    lookahead_class = FittedLookahead


RETURNS_FILE = Path(__file__).with_name("data") / "leaf_returns.json"
RETURNS_NAMES = (*NAMES, "held", "potential", "held*left", "potential*left")
"""The returns leaf's features: the fitted leaf's (``engine.burgundy.leaf``) and the
heuristic's own two leaf terms (bonuses held, potential), each also scaled by the share of
the game left."""


def returns_features(state: BurgundyState, view: View, seat: int) -> list[float]:
    """The returns leaf's features (:data:`RETURNS_NAMES`)."""
    base = features(state, seat)
    held, potential = hand_terms(view, seat)
    left = base[1]
    return [*base, held, potential, held * left, potential * left]


class ReturnsLookahead(BurgundyLookahead):
    """The same lookahead with the leaf fitted to the points the corrected heuristic went on
    to make in whole games (``bench/burgundy_leaf.py returns``)."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        data = json.loads(RETURNS_FILE.read_text())
        self.weights = [data["weights"][name] for name in RETURNS_NAMES]

    def value(self, state: BurgundyState, seat: int, mark: Any) -> float:
        points = float(sum(state.sheets[seat].points))
        if self.game.is_over(state):
            return points
        x = returns_features(state, self.game.view(state, seat), seat)
        return points + sum(w * v for w, v in zip(self.weights, x, strict=True))


class ReturnsSearchBot(BurgundySearchBot):
    """The catalogue's search with the returns leaf (:class:`ReturnsLookahead`); not in the
    catalogue: on 87 paired solo seeds outside the target's, at 240 simulations, it made
    -0.20 (-1.51 to +1.11) against the heuristic's own leaf (RULES.md)."""

    lookahead_class = ReturnsLookahead
