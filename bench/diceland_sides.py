"""Diceland's heads-up pairs from a saved fairness run, and what boards with two sides would do.

Run after ``bench/diceland_fairness.py --save FILE``: ``python bench/diceland_sides.py FILE``
(no games are played; it reads the saved per-seed units). For each bot it prints:

- every heads-up pair's rate with its 95 % interval (over the mirrored seeds), the pairs
  outside 45-55 % and those whose whole interval is outside;
- **boards with two sides** (the rulebook: each player gets a board and picks its front or
  back): for each of the 105 ways to pair the eight maps into four boards, a board's heads-up
  rate against another when each player picks a side at random (the mean of the four map
  pairs) and when each picks the best side knowing only the other's board (the value of the
  2x2 zero-sum game of the four map pairs, mixed strategies allowed); the pairing whose worst
  board pair is nearest 50 %, against the worst map pair of the eight maps dealt singly. A
  pairing picked among 105 on noisy rates looks better than it is, so it is also picked on the
  first half of the seeds and judged on the second.

Why: RULES.md's ruling on boards and sides; the figures say whether pairing maps as sides is
a fairness lever for a player who picks at random and for one who picks well.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
from collections.abc import Iterator, Sequence
from math import sqrt
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.diceland_fairness import Estimate

Rates = dict[tuple[str, str], float]
Boards = tuple[tuple[str, str], ...]


def rate(rates: Rates, a: str, b: str) -> float:
    """Map ``a``'s heads-up rate against ``b`` (either order stored)."""
    return rates[(a, b)] if (a, b) in rates else 1 - rates[(b, a)]


def pairings(maps: Sequence[str]) -> Iterator[Boards]:
    """Every way to pair ``maps`` (an even number) into two-sided boards."""
    if not maps:
        yield ()
        return
    first, rest = maps[0], maps[1:]
    for i, other in enumerate(rest):
        for tail in pairings([*rest[:i], *rest[i + 1 :]]):
            yield ((first, other), *tail)


def game_value(m: Sequence[Sequence[float]]) -> float:
    """The row player's value of a 2x2 zero-sum game (``m[i][j]``: row side i's win rate
    against column side j), mixed strategies allowed."""
    (a, b), (c, d) = m
    lower = max(min(a, b), min(c, d))
    upper = min(max(a, c), max(b, d))
    if lower == upper:  # a saddle point: each side's pure choice
        return lower
    return (a * d - b * c) / (a + d - b - c)


def board_rates(rates: Rates, boards: Boards, chosen: bool) -> Rates:
    """Each board pair's heads-up rate: sides picked at random, or ``chosen`` well."""
    out: Rates = {}
    for x, y in itertools.combinations(boards, 2):
        m = [[rate(rates, s, t) for t in y] for s in x]
        out[("/".join(x), "/".join(y))] = (
            game_value(m) if chosen else statistics.fmean(v for row in m for v in row)
        )
    return out


def worst(rates: Rates) -> float:
    """The furthest rate from 50 %."""
    return max(abs(r - 0.5) for r in rates.values())


def best_pairing(rates: Rates, maps: Sequence[str], chosen: bool) -> tuple[Boards, Rates]:
    """The pairing into boards whose worst board pair is nearest 50 %."""
    boards = min(pairings(maps), key=lambda b: worst(board_rates(rates, b, chosen)))
    return boards, board_rates(rates, boards, chosen)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("saved", type=Path, help="a diceland_fairness.py --save file")
    args = parser.parse_args(argv)
    saved = json.loads(args.saved.read_text())
    for bot in ("heuristic", "random"):
        if bot not in saved or not saved[bot]["heads_up"]:
            continue
        units = {tuple(k.split("-")): v for k, v in saved[bot]["heads_up"].items()}
        estimates = {pair: Estimate.of(v) for pair, v in units.items()}
        seeds = min(len(v) for v in units.values())
        maps = sorted({m for pair in units for m in pair})
        print(
            f"{bot}: edition {saved['edition']}, {2 * seeds} games a pair (mirrored seeds), "
            "first map's rate with 95 % CI; outside 45-55 % marked * (** CI wholly outside)"
        )
        for (a, b), e in sorted(estimates.items(), key=lambda kv: -abs(kv[1].mean - 0.5)):
            mark = "**" if e.clearly_outside(0.5, 0.05) else "*" if not e.within(0.5, 0.05) else ""
            print(f"    {a}-{b} {e}{mark}")
        inside = sum(e.within(0.5, 0.05) for e in estimates.values())
        half = statistics.fmean(e.half for e in estimates.values())
        print(
            f"  inside 45-55 %: {inside} of {len(estimates)}; CI wholly outside: "
            f"{sum(e.clearly_outside(0.5, 0.05) for e in estimates.values())}; "
            f"mean CI ±{half:.3f}; a fair pair's sd at this size about "
            f"{0.5 / sqrt(2 * seeds):.3f}"
        )
        means: Rates = {pair: e.mean for pair, e in estimates.items()}
        print(f"  maps dealt singly: worst pair {0.5 + worst(means):.3f} (off {worst(means):.3f})")
        cut = max(1, seeds // 2)
        half_a = {pair: statistics.fmean(v[:cut]) for pair, v in units.items()}
        half_b = {pair: statistics.fmean(v[cut:] or v) for pair, v in units.items()}
        for chosen in (False, True):
            boards, got = best_pairing(means, maps, chosen)
            how = "each picks the best side" if chosen else "sides at random"
            print(
                f"  best boards, {how}: {' '.join('/'.join(b) for b in boards)}; worst board "
                f"pair off {worst(got):.3f}; "
                + " ".join(f"{x}v{y} {r:.3f}" for (x, y), r in got.items())
            )
            picked, _ = best_pairing(half_a, maps, chosen)
            named = " ".join("/".join(b) for b in picked)
            print(
                f"    picked on the first half of the seeds ({named}), "
                "worst board pair on the second half off "
                f"{worst(board_rates(half_b, picked, chosen)):.3f} (maps singly on it: "
                f"{worst(half_b):.3f}): the pick's own figure above flatters it"
            )


if __name__ == "__main__":
    main()
