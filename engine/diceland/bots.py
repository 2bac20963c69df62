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
from engine.search import lazy_bot

TREASURE = 10.0
CROSS = 1.0
TARGET = 1.0
FINISH = 1.0
APPROACH = 0.5
FAR = 8


_BOARDS: dict[tuple[str, str, int, tuple[int, int]], Board] = {}
_PAIRS: dict[str, list[list[int]]] = {}


def board_from_view(view: View, name: str) -> Board:
    """The map's geometry, built once per map (keyed by name, how it was made, size and start:
    the maps' editions differ in how they were made) from the view."""
    data = view["maps"][name]
    made = str(data.get("generator", ""))
    key = (name, made, len(data["territories"]), (data["start"][0], data["start"][1]))
    board = _BOARDS.get(key)
    if board is None:
        board = _BOARDS[key] = Board(data)
    return board


def all_distances(board: Board) -> list[list[int]]:
    """Steps between every pair of hexes over non-obstacle hexes (cached per map)."""
    table = _PAIRS.get(board.name)
    if table is None:
        table = [board.distances(1 << i) for i in range(len(board.coords))]
        _PAIRS[board.name] = table
    return table


def binomial(n: int, k: int) -> float:
    return comb(n, k) * (1 / 6) ** k * (5 / 6) ** (n - k)


class Scorer:
    """Scores sets of crosses on one seat's map (the seat is ``view["you"]``)."""

    def __init__(self, view: View) -> None:
        me = view["players"][view["you"]]
        self.board = board_from_view(view, me["map"])
        b = self.board
        self.crossed = 0
        for q, r in me["crosses"]:
            self.crossed |= 1 << b.index[(q, r)]
        self.table = all_distances(b)
        self.open_treasures = list(bits(b.treasure_mask & ~self.crossed))
        crossed = list(bits(self.crossed))
        self.near = {t: min(FAR, *(self.table[c][t] for c in crossed)) for t in self.open_treasures}
        left = {c: (b.colour_mask[c] & ~self.crossed).bit_count() for c in COLOURS}
        self.target = min((c for c in COLOURS if left[c]), key=lambda c: left[c], default="")
        self.enough = me["treasure_total"] >= 9

    def score(self, colour: str, mask: int) -> float:
        """Treasures, crosses, progress on the target colour, a finished territory and how
        much nearer the uncrossed treasures come (all hexes are reachable on every map)."""
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
        return value + APPROACH * gain

    def best(self, colour: str, dice: int) -> float:
        """The best score of using ``dice`` dice of ``colour`` (0 if impossible)."""
        return max(
            (self.score(colour, m) for m in self.board.placements(self.crossed, colour, dice)),
            default=0.0,
        )

    def push_values(self, colour: str) -> tuple[list[float], list[float], list[float]]:
        """For k dice aside: the value of stopping, of throwing again and of playing well."""
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
        return stop, cont, best


class HeuristicBot(Bot):
    """Push-your-luck by expected value; crosses toward treasures and a completable colour."""

    name = "heuristic"

    def choose(self, view: View, legal: list[Action], rng: Any) -> Action:
        kinds = {a["type"] for a in legal}
        scorer = Scorer(view)
        if "stop" in kinds:
            stop, cont, _ = scorer.push_values(view["dice"]["chosen"])
            k = view["dice"]["aside"]
            return {"type": "throw"} if cont[k] > stop[k] + 1e-9 else {"type": "stop"}
        if "choose" not in kinds and not any(a["type"] == "cross" for a in legal):
            return legal[0]
        rated = self.rate(view, legal, scorer)
        return max(rated, key=lambda pair: pair[0])[1]

    @staticmethod
    def rate(
        view: View, legal: list[Action], scorer: Scorer | None = None
    ) -> list[tuple[float, Action]]:
        """The heuristic's value of each colour choice (the expected score of playing it
        well) or of each set of crosses (other actions are left out), in ``legal``'s order."""
        scorer = scorer or Scorer(view)
        if any(a["type"] == "choose" for a in legal):
            throw = view["dice"]["last_throw"]
            return [
                (scorer.push_values(a["colour"])[2][throw.count(a["colour"])], a)
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
    "search": lazy_bot("engine.diceland.search:DicelandSearchBot"),
}
"""The bots a Diceland seat may be given, by name."""
