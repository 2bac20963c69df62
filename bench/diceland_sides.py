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


def best_pairing(maps: Sequence[str], *ways: tuple[Rates, bool]) -> Boards:
    """The pairing into boards whose worst board pair, over every ``(rates, chosen)`` way of
    playing (a bot's rates, sides chosen well or at random), is nearest 50 %."""
    return min(pairings(maps), key=lambda b: max(worst(board_rates(r, b, c)) for r, c in ways))


def report_pairing(
    label: str,
    maps: Sequence[str],
    halves: Sequence[Sequence[Rates]],
    means: Sequence[Rates],
    chosen: Sequence[bool],
) -> None:
    """The best pairing for these ways of playing on all seeds, and picked on the first half
    of the seeds and judged on the second (``halves``: per way, its two halves' rates)."""
    boards = best_pairing(maps, *zip(means, chosen, strict=True))
    got = [board_rates(r, boards, c) for r, c in zip(means, chosen, strict=True)]
    print(
        f"  best boards, {label}: {' '.join('/'.join(b) for b in boards)}; worst board pair "
        f"off {max(worst(g) for g in got):.3f}"
    )
    for g in got:
        print("      " + " ".join(f"{x}v{y} {r:.3f}" for (x, y), r in g.items()))
    picked = best_pairing(maps, *((h[0], c) for h, c in zip(halves, chosen, strict=True)))
    held = max(worst(board_rates(h[1], picked, c)) for h, c in zip(halves, chosen, strict=True))
    print(
        f"    picked on the first half of the seeds ({' '.join('/'.join(b) for b in picked)}), "
        f"worst board pair on the second half off {held:.3f} (maps singly on it: "
        f"{max(worst(h[1]) for h in halves):.3f}): the pick's own figure above flatters it"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("saved", type=Path, help="a diceland_fairness.py --save file")
    args = parser.parse_args(argv)
    saved = json.loads(args.saved.read_text())
    kept: dict[str, tuple[Rates, tuple[Rates, Rates]]] = {}
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
        halves = (
            {pair: statistics.fmean(v[:cut]) for pair, v in units.items()},
            {pair: statistics.fmean(v[cut:] or v) for pair, v in units.items()},
        )
        kept[bot] = (means, halves)
        for chosen in (False, True):
            how = "each picks the best side" if chosen else "sides at random"
            report_pairing(how, maps, [halves], [means], [chosen])
    if len(kept) == 2:
        (h, h_halves), (r, r_halves) = kept["heuristic"], kept["random"]
        print("both bots, one pairing: the heuristic picks its side well, the random bot at random")
        report_pairing(
            "both bots",
            sorted({m for p in h for m in p}),
            [h_halves, r_halves],
            [h, r],
            [True, False],
        )


if __name__ == "__main__":
    main()
