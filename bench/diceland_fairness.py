"""Are Diceland's maps equally hard? Win shares per map with confidence intervals.

Run by hand (CPU-heavy; nice it): ``nice -n 10 python bench/diceland_fairness.py --deals 50
--pairs 50``. For each bot (heuristic, random) it prints:

- four-seat games in **balanced deals**: a deal shuffles the eight maps (seeded) into two
  groups of four; each group plays four games on one dice seed, the maps rotated over the
  seats, so every map of the group meets the same dice from every seat. A deal is eight
  games and deals every map four times; ``--deals 50`` is 400 games, 200 per map. A map's
  share is its wins over the games it was dealt (a shared win counts as a fraction), fair is
  0.25;
- **heads-up pairs played both ways**: for every pair of maps and every seed, two games on
  the same dice seed with the seats swapped (the same seeds for every pair); ``--pairs 50``
  is 100 games a pair. The first map's win rate, fair is 50 %.

Why: the rotations take the seat out of the difference between maps and make every map of a
group meet the same first throws. The dice part once the bots' choices differ, so the games
of a deal are nearly independent: measured on 2026-11-23, the intervals are about what as
many independent games give (RULES.md), so this design is honest but not a big saving.

Confidence intervals are 95 % normal intervals over the independent units: a map's per-deal
share (the mean of its four games in a deal) over the deals, a pair's per-seed rate (the
mean of the two mirrored games) over the seeds: ``mean +- 1.96 sd / sqrt(units)``.

The structural measure the data test keeps (``engine.diceland.fairness``) is printed first.
The baseline measured in the same run is the seat effect: the first seat's share when every
seat plays the same map (mean over the maps), against which the spread between maps reads.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from math import sqrt

from rich.console import Console
from rich.progress import Progress

from engine.diceland import GAME
from engine.diceland.fairness import link_cost, placements
from engine.diceland.maps import BOARDS, MAP_NAMES
from engine.simulate import make_bots, play

Tick = Callable[[], None]


@dataclass(frozen=True)
class Estimate:
    """A mean over independent units with its 95 % normal confidence half-width."""

    mean: float
    half: float

    @classmethod
    def of(cls, units: Sequence[float]) -> Estimate:
        mean = statistics.fmean(units)
        sd = statistics.stdev(units) if len(units) > 1 else 0.0
        return cls(mean, 1.96 * sd / sqrt(len(units)))

    def within(self, target: float, tolerance: float) -> bool:
        """The point estimate lies in ``target +- tolerance``."""
        return abs(self.mean - target) <= tolerance

    def clearly_outside(self, target: float, tolerance: float) -> bool:
        """The whole interval lies outside ``target +- tolerance``."""
        return (
            self.mean - self.half > target + tolerance or self.mean + self.half < target - tolerance
        )

    def __str__(self) -> str:
        return f"{self.mean:.3f}±{self.half:.3f}"


def score(maps: Sequence[str], seat_of: int, bot: str, seed: str) -> float:
    """Seat ``seat_of``'s win (1, a fraction if shared, or 0) in one game on ``maps``."""
    played = play(
        GAME, make_bots(GAME, [bot] * len(maps)), seed, {"maps": list(maps)}, strict=False
    )
    winners = played.result.winners
    return 1 / len(winners) if seat_of in winners else 0.0


def four_seat(
    bot: str, deals: int, names: Sequence[str] = MAP_NAMES, tick: Tick | None = None
) -> dict[str, Estimate]:
    """Each map's four-seat win share over ``deals`` balanced deals (see the module doc)."""
    per_deal: dict[str, list[float]] = {m: [] for m in names}
    deck = random.Random(f"fairness-{bot}")
    shuffled = list(names)
    for d in range(deals):
        deck.shuffle(shuffled)
        for g, group in enumerate((shuffled[:4], shuffled[4:])):
            won = dict.fromkeys(group, 0.0)
            for turn in range(4):
                maps = group[turn:] + group[:turn]
                played = play(
                    GAME,
                    make_bots(GAME, [bot] * 4),
                    f"deal-{bot}-{d}-{g}",
                    {"maps": maps},
                    strict=False,
                )
                for seat in played.result.winners:
                    won[maps[seat]] += 1 / len(played.result.winners)
                if tick:
                    tick()
            for m in group:
                per_deal[m].append(won[m] / 4)
    return {m: Estimate.of(v) for m, v in per_deal.items()}


def heads_up(bot: str, a: str, b: str, pairs: int, tick: Tick | None = None) -> Estimate:
    """Map ``a``'s win rate against ``b``: ``pairs`` seeds, each played both ways."""
    units = []
    for k in range(pairs):
        seed = f"hu-{bot}-{k}"
        units.append((score([a, b], 0, bot, seed) + score([b, a], 1, bot, seed)) / 2)
        if tick:
            tick()
    return Estimate.of(units)


def seat_effect(bot: str, games: int, names: Sequence[str] = MAP_NAMES) -> float:
    """The baseline: the first seat's four-seat share with every seat on the same map."""
    total = 0.0
    for n in range(games):
        m = names[n % len(names)]
        total += score([m] * 4, 0, bot, f"seat-{bot}-{n}")
    return total / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=50, help="balanced deals (8 games each)")
    parser.add_argument("--pairs", type=int, default=50, help="mirrored seeds per map pair")
    parser.add_argument("--bots", nargs="+", default=["heuristic", "random"])
    parser.add_argument("--seat-games", type=int, default=80, help="games for the baseline")
    args = parser.parse_args()
    console = Console(width=110) if not sys.stdout.isatty() else Console()
    console.print("link cost (crosses to link 9 treasures) / placements (over mean territory):")
    console.print(
        "  "
        + "  ".join(f"{m} {link_cost(BOARDS[m])}/{placements(BOARDS[m]):.2f}" for m in MAP_NAMES)
    )
    pairs = list(itertools.combinations(MAP_NAMES, 2))
    for bot in args.bots:
        started = time.perf_counter()
        with Progress(console=console, transient=True) as progress:
            task = progress.add_task(f"{bot} four seats", total=args.deals * 8)
            shares = four_seat(bot, args.deals, tick=partial(progress.advance, task))
            task = progress.add_task(f"{bot} heads-up", total=len(pairs) * args.pairs)
            rates = {
                (a, b): heads_up(bot, a, b, args.pairs, partial(progress.advance, task))
                for a, b in pairs
            }
            baseline = seat_effect(bot, args.seat_games)
        spread = max(s.mean for s in shares.values()) - min(s.mean for s in shares.values())
        console.print(
            f"{bot}: {args.deals * 8} four-seat games ({args.deals} balanced deals), "
            "share per map with 95 % CI (fair 0.25):"
        )
        console.print("  " + "  ".join(f"{m} {s}" for m, s in shares.items()))
        console.print(
            f"  spread max-min {spread:.3f} (baseline: first seat's share on equal maps "
            f"{baseline:.3f}); outside 0.25±0.04: "
            f"{[m for m, s in shares.items() if not s.within(0.25, 0.04)] or 'none'}; "
            f"CI wholly outside: "
            f"{[m for m, s in shares.items() if s.clearly_outside(0.25, 0.04)] or 'none'}"
        )
        inside = sum(r.within(0.5, 0.05) for r in rates.values())
        clear = {f"{a}-{b}": str(r) for (a, b), r in rates.items() if r.clearly_outside(0.5, 0.05)}
        console.print(f"  heads-up, {2 * args.pairs} games a pair (mirrored), first map's rate:")
        for a in MAP_NAMES:
            row = [f"{b}:{rates[(a, b)].mean:.2f}" for b in MAP_NAMES if (a, b) in rates]
            if row:
                console.print(f"    {a} v " + " ".join(row))
        half = statistics.fmean(r.half for r in rates.values())
        console.print(
            f"  pairs within 45-55 %: {inside} of {len(rates)} (mean CI ±{half:.3f}); "
            f"CI wholly outside: {clear or 'none'}"
        )
        console.print(f"  {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
