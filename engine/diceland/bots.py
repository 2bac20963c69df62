"""Diceland bots: the random baseline and a heuristic that sees only its view.

The heuristic scores a set of crosses by treasures taken, spaces crossed, progress on the
colour nearest completion and how much closer it brings the uncrossed treasures; in phase 1
it picks the colour and decides to stop or throw by the exact expected value of that score
under the excess rule (too many dice of a colour are worth nothing).
"""

from __future__ import annotations

from math import comb
from typing import Any

from engine.contract import Action, Bot, RandomBot, View
from engine.diceland.board import COLOURS, Board, bits
from engine.diceland.maps import edition_data
from engine.search import lazy_bot

TREASURE = 10.0
CROSS = 1.0
TARGET = 1.0
FINISH = 1.0
APPROACH = 0.5
FAR = 8


_BOARDS: dict[tuple[str, str, int, tuple[int, int]], Board] = {}


def board_from_view(view: View, name: str) -> Board:
    """The map's geometry, built once per map (keyed by name, how it was made, size and start:
    the maps' editions differ in how they were made) from the layout of the edition the view
    names."""
    data = edition_data(view["edition"])[name]
    made = str(data.get("generator", ""))
    key = (name, made, len(data["territories"]), (data["start"][0], data["start"][1]))
    board = _BOARDS.get(key)
    if board is None:
        board = _BOARDS[key] = Board(data)
    return board


def all_distances(board: Board) -> list[list[int]]:
    """Steps between every pair of hexes over non-obstacle hexes (kept on the board: two
    editions' or a candidate's map of one name can differ in their hexes)."""
    table = board.pair_distances
    if table is None:
        table = board.pair_distances = [board.distances(1 << i) for i in range(len(board.coords))]
    return table


def binomial(n: int, k: int) -> float:
    return comb(n, k) * (1 / 6) ** k * (5 / 6) ** (n - k)


SCORERS_KEPT = 4096
"""Scorers kept for reuse (a search's rollouts meet the same crosses again and again)."""
_SCORERS: dict[tuple[Board, int], Scorer] = {}


class Scorer:
    """Scores sets of crosses on one map with one set of hexes crossed. Pure in both, so
    one instance serves every view of that position (:meth:`of`) and remembers what it
    has computed (a search plays the same positions in many worlds)."""

    def __init__(self, board: Board, crossed: int) -> None:
        self.board = b = board
        self.crossed = crossed
        self.table = all_distances(b)
        self.open_treasures = list(bits(b.treasure_mask & ~crossed))
        hexes = list(bits(crossed))
        self.near = {t: min(FAR, *(self.table[c][t] for c in hexes)) for t in self.open_treasures}
        left = {c: (b.colour_mask[c] & ~crossed).bit_count() for c in COLOURS}
        self.target = min((c for c in COLOURS if left[c]), key=lambda c: left[c], default="")
        self.enough = b.treasure_count(crossed) >= 9
        self._scores: dict[tuple[str, int], float] = {}
        self._best: dict[tuple[str, int], tuple[float, int]] = {}
        self._pushes: dict[str, tuple[list[float], list[float], list[float]]] = {}

    @staticmethod
    def of(board: Board, crossed: int) -> Scorer:
        """The scorer of ``crossed`` on ``board`` (kept: the same object for the same pair)."""
        found = _SCORERS.get((board, crossed))
        if found is None:
            if len(_SCORERS) >= SCORERS_KEPT:
                _SCORERS.clear()
            found = _SCORERS[(board, crossed)] = Scorer(board, crossed)
        return found

    @staticmethod
    def of_view(view: View) -> Scorer:
        """The scorer of the viewing seat (``view["you"]``)."""
        me = view["players"][view["you"]]
        board = board_from_view(view, me["map"])
        crossed = 0
        for q, r in me["crosses"]:
            crossed |= 1 << board.index[(q, r)]
        return Scorer.of(board, crossed)

    def score(self, colour: str, mask: int) -> float:
        """Treasures, crosses, progress on the target colour, a finished territory and how
        much nearer the uncrossed treasures come (all hexes are reachable on every map)."""
        found = self._scores.get((colour, mask))
        if found is not None:
            return found
        b = self.board
        hexes = list(bits(mask))
        value = CROSS * len(hexes)
        value += TREASURE * (mask & b.treasure_mask).bit_count()
        if colour == self.target:
            value += TARGET * len(hexes) * (3 if self.enough else 1)
        terr = b.territories[b.territory_of[hexes[0]]]
        if terr.mask & ~(self.crossed | mask) == 0:
            value += FINISH
        gain = 0
        table = self.table
        for t in self.open_treasures:
            if (mask >> t) & 1:
                continue
            before = self.near[t]
            after = min(before, *(table[i][t] for i in hexes))
            gain += before - after
        value += APPROACH * gain
        self._scores[(colour, mask)] = value
        return value

    def best(self, colour: str, dice: int) -> float:
        """The best score of using ``dice`` dice of ``colour`` (0 if impossible)."""
        return self.best_placement(colour, dice)[0]

    def best_placement(self, colour: str, dice: int) -> tuple[float, int]:
        """The best score of ``dice`` crosses of ``colour`` and the first placement (in the
        rules' order) that scores it; ``(0.0, 0)`` if there is none (kept per colour and
        number of dice)."""
        found = self._best.get((colour, dice))
        if found is None:
            found = (0.0, 0)
            for mask in self.board.placements(self.crossed, colour, dice):
                value = self.score(colour, mask)
                if not found[1] or value > found[0]:
                    found = (value, mask)
            self._best[(colour, dice)] = found
        return found

    def push_values(self, colour: str) -> tuple[list[float], list[float], list[float]]:
        """For k dice aside: the value of stopping, of throwing again and of playing well
        (kept per colour: callers must not change the lists)."""
        found = self._pushes.get(colour)
        if found is not None:
            return found
        stop = [0.0] + [self.best(colour, k) for k in range(1, 7)]
        best = stop[:]
        cont = [0.0] * 7
        for k in range(5, 0, -1):
            rest = 6 - k
            expect = binomial(rest, 0) * stop[k]
            for x in range(1, rest + 1):
                expect += binomial(rest, x) * best[k + x]
            cont[k] = expect
            best[k] = max(stop[k], expect)
        found = self._pushes[colour] = (stop, cont, best)
        return found


class HeuristicBot(Bot):
    """Push-your-luck by expected value; crosses toward treasures and a completable colour."""

    name = "heuristic"

    def choose(self, view: View, legal: list[Action], rng: Any) -> Action:
        if view["phase"] == "side":
            return self.side(legal, rng)
        dice = view["dice"]
        return self.decide(
            Scorer.of_view(view), dice["chosen"], dice["aside"], dice["last_throw"], legal
        )

    @staticmethod
    def side(legal: list[Action], rng: Any) -> Action:
        """A side of its board, at random: no measure of a map read off its layout predicts
        which side is faster (RULES.md, *Boards and sides*), so the heuristic picks as the
        random bot does."""
        return rng.choice(legal)

    @classmethod
    def decide(
        cls, scorer: Scorer, chosen: str, aside: int, last_throw: list[str], legal: list[Action]
    ) -> Action:
        """The choice of the seat ``scorer`` scores for, given the dice (the colour chosen,
        the dice aside and the last throw): what :meth:`choose` reads off a view, and a
        search's rollouts off the state they simulate (no view built)."""
        kinds = {a["type"] for a in legal}
        if "stop" in kinds:
            stop, cont, _ = scorer.push_values(chosen)
            return {"type": "throw"} if cont[aside] > stop[aside] + 1e-9 else {"type": "stop"}
        if "choose" not in kinds and "cross" not in kinds:
            return legal[0]
        rated = cls.rated(scorer, last_throw, legal)
        return max(rated, key=lambda pair: pair[0])[1]

    @staticmethod
    def rate(view: View, legal: list[Action]) -> list[tuple[float, Action]]:
        """The heuristic's value of each colour choice (the expected score of playing it
        well) or of each set of crosses (other actions are left out), in ``legal``'s order."""
        return HeuristicBot.rated(Scorer.of_view(view), view["dice"]["last_throw"], legal)

    @staticmethod
    def rated(
        scorer: Scorer, last_throw: list[str], legal: list[Action]
    ) -> list[tuple[float, Action]]:
        """:meth:`rate` given the seat's scorer and the last throw."""
        if any(a["type"] == "choose" for a in legal):
            return [
                (scorer.push_values(a["colour"])[2][last_throw.count(a["colour"])], a)
                for a in legal
                if a["type"] == "choose"
            ]
        rated = []
        for action in legal:
            if action["type"] != "cross":
                continue
            mask = 0
            for q, r in action["hexes"]:
                mask |= 1 << scorer.board.index[(q, r)]
            rated.append((scorer.score(action["colour"], mask), action))
        return rated


__all__ = ["HeuristicBot", "RandomBot"]


BOTS = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "search": lazy_bot("engine.diceland.search:FittedSearchBot"),
}
"""The bots a Diceland seat may be given, by name."""
