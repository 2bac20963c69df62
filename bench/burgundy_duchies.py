"""Are Burgundy's four duchies equally rewarding, each in its own way? Solo scores by source.

Run by hand (nice it): ``nice -n 15 python bench/burgundy_duchies.py --games 400``. For every
duchy it plays ``--games`` seeded solo games ("one and only") with the heuristic bot, the same
seeds on every duchy, and prints the mean score, its standard deviation, the share of games
at 70 or more (the rulebook's "incredible"), and where the points come from: sales, and per
colour its completed areas (green: the castles) and its colour completion. The baseline is
duchy A (as printed): the house-designed duchies B-D should score within 2 points of its mean with a
similar spread, and show their character (B, the trading duchy, sells most).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field

from engine.burgundy import GAME
from engine.burgundy.duchy import DUCHIES
from engine.simulate import make_bots, play

SOURCES = ("sales", "blue", "purple", "yellow", "gray", "green", "orange")


@dataclass
class Figures:
    """One duchy's solo scores and their sources (mean points a game per source)."""

    scores: list[int] = field(default_factory=list)
    points: Counter[str] = field(default_factory=Counter)

    @property
    def mean(self) -> float:
        return statistics.mean(self.scores)

    @property
    def sd(self) -> float:
        return statistics.stdev(self.scores)

    @property
    def high(self) -> float:
        """The share of games scoring 70 or more."""
        return sum(s >= 70 for s in self.scores) / len(self.scores)

    def per_game(self, source: str) -> float:
        return self.points[source] / len(self.scores)


def solo(name: str, games: int) -> Figures:
    """``games`` seeded solo games of the heuristic bot on duchy ``name``."""
    duchy = DUCHIES[name]
    out = Figures()
    for n in range(games):
        played = play(
            GAME,
            make_bots(GAME, ["heuristic"]),
            f"burgundy-solo-{n}",
            {"variant": "solo", "duchy": name},
            bot_seed=n,
        )
        out.scores.append(int(played.result.scores[0]))
        for event in played.events:
            if event["type"] == "sold":
                out.points["sales"] += event["points"]
            elif event["type"] == "colour_completed":
                out.points[event["colour"]] += event["points"]
            elif event["type"] == "area_completed":
                colour = duchy.area_colours[event["area"]]
                out.points[colour] += event["points"]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--duchies", nargs="+", default=sorted(DUCHIES))
    args = parser.parse_args()
    base: Figures | None = None
    print("duchy  mean    sd   >=70  | points a game: " + " ".join(f"{s:>7}" for s in SOURCES))
    for name in args.duchies:
        started = time.perf_counter()
        got = solo(name, args.games)
        base = base or got
        sources = " ".join(f"{got.per_game(s):7.1f}" for s in SOURCES)
        print(
            f"{name}     {got.mean:5.1f} {got.sd:5.1f} {got.high:5.1%}  | {' ' * 15}{sources}"
            f"   ({got.mean - base.mean:+.1f} vs {args.duchies[0]}, sd ratio "
            f"{got.sd / base.sd:.2f}; {time.perf_counter() - started:.0f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
