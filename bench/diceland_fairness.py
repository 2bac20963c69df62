"""Are Diceland's maps equally hard? Win shares per map with confidence intervals.

Run by hand (CPU-heavy; nice it): ``nice -n 19 python bench/diceland_fairness.py --deals 200
--pairs 100 --jobs 2`` (``--jobs``: processes for the games). It prints the date, the load
average and, for each bot (heuristic, random):

- four-seat games in **balanced deals**: a deal shuffles the eight maps (seeded) into two
  groups of four; each group plays four games on one dice seed, the maps rotated over the
  seats, so every map of the group meets the same dice from every seat. A deal is eight
  games and deals every map four times; ``--deals 50`` is 400 games, 200 per map. A map's
  share is its wins over the games it was dealt (a shared win counts as a fraction), fair is
  0.25;
- **heads-up pairs played both ways**: for every pair of maps and every seed, two games on
  the same dice seed with the seats swapped (the same seeds for every pair); ``--pairs 50``
  is 100 games a pair. The first map's win rate, fair is 50 %, and each map's mean rate
  against the other seven;
- the same figures over the first ``--first-deals`` deals and ``--first-pairs`` seeds alone
  (by default 400 four-seat games and 50 games a pair: what a run of the issue's size shows).

Why: the rotations take the seat out of the difference between maps and make every map of a
group meet the same first throws. The dice part once the bots' choices differ, so the games
of a deal are nearly independent: measured on 2026-11-23, the intervals are about what as
many independent games give (RULES.md), so this design is honest but not a big saving.

Confidence intervals are 95 % normal intervals over the independent units: a map's per-deal
share (the mean of its four games in a deal) over the deals, a pair's per-seed rate (the
mean of the two mirrored games) over the seeds: ``mean +- 1.96 sd / sqrt(units)``.

``--save FILE`` writes every unit (per-deal shares, per-seed heads-up rates, and edition N's
with ``--against N``) to a JSON file; ``bench/diceland_sides.py FILE`` reads it back (each
pair's interval, maps paired as boards' sides).

``--reuse SAVED`` takes from a saved run (of any edition) the heads-up units of every pair
whose two maps are as they were in it, instead of playing them again: a game is fixed by its
maps and its seed, so those units are what the run would play (a new edition that edits three
maps replays 18 of the 28 pairs); with ``--against`` the saved run's edition, that edition's
heads-up units all come from the file.

``--bottlenecks N`` also plays N four-seat games per bot and says, per map, what the losing
seats lacked at the end (a colour, treasures, or both): which part of the goal a map makes
slow for that bot (RULES.md, Fairness).

The structural measure the data test keeps (``engine.diceland.fairness``) is printed first.
The baseline measured in the same run is the seat effect: the first seat's share when every
seat plays the same map (mean over the maps), against which the spread between maps reads.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from math import sqrt
from pathlib import Path
from typing import Any, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console
from rich.progress import Progress

from engine.diceland import GAME, bots
from engine.diceland.board import TREASURES_TO_WIN, Board
from engine.diceland.fairness import link_cost, placements
from engine.diceland.maps import BOARDS, EDITION, MAP_DATA, MAP_NAMES, edition_data, map_data
from engine.simulate import make_bots, play

Tick = Callable[[], None]
T = TypeVar("T")


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


def install_maps(maps: dict[str, dict[str, Any]]) -> None:
    """Put these maps' data in place of the shipped ones, in this process only (a playtest of
    candidate layouts, ``bench/diceland_tune.py``)."""
    for name, data in maps.items():
        if MAP_DATA.get(name) != data:
            BOARDS[name], MAP_DATA[name] = Board(data), data
            bots._BOARDS.clear()  # the heuristic keeps boards by name: forget the old one


def on_maps(maps: dict[str, dict[str, Any]], fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` played on ``maps`` (in this process, which may be a pool's worker that
    played other maps before)."""
    install_maps(maps)
    return fn(*args)


def edition_maps(edition: int) -> dict[str, dict[str, Any]]:
    """A copy of every map's data in ``edition`` (the current one from its files, as shipped)."""
    if edition == EDITION:
        return {m: map_data(m) for m in MAP_NAMES}
    return {m: dict(d) for m, d in edition_data(edition).items()}


class SerialExecutor(Executor):
    """Runs each submitted call at once in this process (``--jobs 1``)."""

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        future: Future[T] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


def executor(jobs: int) -> Executor:
    """``jobs`` worker processes, or this process alone for one."""
    return ProcessPoolExecutor(jobs) if jobs > 1 else SerialExecutor()


def announce(what: str) -> None:
    """Print when a run starts, the machine's load and the maps' edition, then ``what``."""
    print(
        f"{time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}, load average "
        f"{os.getloadavg()[0]:.1f}; edition {EDITION}, {what}",
        flush=True,
    )


def score(maps: Sequence[str], seat_of: int, bot: str, seed: str) -> float:
    """Seat ``seat_of``'s win (1, a fraction if shared, or 0) in one game on ``maps``."""
    played = play(
        GAME, make_bots(GAME, [bot] * len(maps)), seed, {"maps": list(maps)}, strict=False
    )
    winners = played.result.winners
    return 1 / len(winners) if seat_of in winners else 0.0


def group_games(bot: str, d: int | str, g: int, group: list[str]) -> dict[str, float]:
    """One group of a balanced deal: four games on one dice seed, the maps rotated over the
    seats; each map's share of the four."""
    won = dict.fromkeys(group, 0.0)
    for turn in range(4):
        maps = group[turn:] + group[:turn]
        played = play(
            GAME, make_bots(GAME, [bot] * 4), f"deal-{bot}-{d}-{g}", {"maps": maps}, strict=False
        )
        for seat in played.result.winners:
            won[maps[seat]] += 1 / len(played.result.winners)
    return {m: w / 4 for m, w in won.items()}


def four_seat_units(
    bot: str,
    deals: int,
    names: Sequence[str] = MAP_NAMES,
    tick: Tick | None = None,
    pool: Executor | None = None,
    maps: dict[str, dict[str, Any]] | None = None,
) -> dict[str, list[float]]:
    """Each map's per-deal four-seat share over ``deals`` balanced deals (module doc), in
    deal order, on ``maps`` (default: the current edition)."""
    pool = pool or SerialExecutor()
    maps = maps or edition_maps(EDITION)
    deck = random.Random(f"fairness-{bot}")
    shuffled = list(names)
    futures = []
    for d in range(deals):
        deck.shuffle(shuffled)
        for g, group in enumerate((shuffled[:4], shuffled[4:])):
            futures.append(pool.submit(on_maps, maps, group_games, bot, d, g, list(group)))
    per_deal: dict[str, list[float]] = {m: [] for m in names}
    for future in futures:
        for m, share in future.result().items():
            per_deal[m].append(share)
        if tick:
            tick()
    return per_deal


def mirrored(bot: str, a: str, b: str, seeds: range) -> list[float]:
    """Map ``a``'s result against ``b`` per seed, each seed played both ways."""
    return [
        (score([a, b], 0, bot, f"hu-{bot}-{k}") + score([b, a], 1, bot, f"hu-{bot}-{k}")) / 2
        for k in seeds
    ]


def reusable(
    saved: dict[str, Any] | None, bot: str, maps: dict[str, dict[str, Any]], pairs: int
) -> dict[tuple[str, str], list[float]]:
    """The saved run's heads-up units (``--reuse``) of the pairs whose two maps are as they
    were in its edition, cut to ``pairs`` seeds (none if it has fewer)."""
    if not saved or bot not in saved:
        return {}
    then = edition_maps(saved["edition"])
    out = {}
    for key, units in saved[bot]["heads_up"].items():
        a, b = key.split("-")
        if maps[a] == then[a] and maps[b] == then[b] and len(units) >= pairs:
            out[(a, b)] = units[:pairs]
    return out


def heads_up_all(
    bot: str,
    pairs: int,
    tick: Tick,
    pool: Executor,
    chunk: int = 10,
    maps: dict[str, dict[str, Any]] | None = None,
    known: dict[tuple[str, str], list[float]] | None = None,
) -> dict[tuple[str, str], list[float]]:
    """Every pair of maps' per-seed units (``pairs`` mirrored seeds, the same for every
    pair), spread over ``pool``, on ``maps`` (default: the current edition); the pairs in
    ``known`` (``reusable``) are taken from it, not played."""
    maps = maps or edition_maps(EDITION)
    known = known or {}
    futures = []
    for a, b in itertools.combinations(MAP_NAMES, 2):
        for k in range(0, pairs, chunk) if (a, b) not in known else ():
            seeds = range(k, min(pairs, k + chunk))
            futures.append(
                (a, b, len(seeds), pool.submit(on_maps, maps, mirrored, bot, a, b, seeds))
            )
    units: dict[tuple[str, str], list[float]] = {}
    for (a, b), got in known.items():
        units[(a, b)] = list(got)
        for _ in got:
            tick()
    for a, b, n, future in futures:
        units.setdefault((a, b), []).extend(future.result())
        for _ in range(n):
            tick()
    return units


def seat_effect(bot: str, games: int, names: Sequence[str] = MAP_NAMES) -> float:
    """The baseline: the first seat's four-seat share with every seat on the same map."""
    total = 0.0
    for n in range(games):
        m = names[n % len(names)]
        total += score([m] * 4, 0, bot, f"seat-{bot}-{n}")
    return total / games


def bottlenecks(bot: str, games: int) -> dict[str, dict[str, int]]:
    """Why the seats that lose do not win: over ``games`` four-seat games on four different
    maps (seeded draws), each losing seat's end state per map: nine treasures but no colour
    complete (``colour``), a colour but too few treasures (``treasures``), or ``neither``;
    ``won`` counts the winning seats."""
    deck = random.Random(f"bottlenecks-{bot}")
    counts = {m: dict.fromkeys(("won", "colour", "treasures", "neither"), 0) for m in MAP_NAMES}
    for n in range(games):
        maps = deck.sample(MAP_NAMES, 4)
        played = play(
            GAME, make_bots(GAME, [bot] * 4), f"why-{bot}-{n}", {"maps": maps}, strict=False
        )
        for seat, m in enumerate(maps):
            board = BOARDS[m]
            crossed = board.mask_of(played.state.crosses[seat])
            found = board.treasure_count(crossed) >= TREASURES_TO_WIN
            coloured = bool(board.completed_colours(crossed))
            key = (
                "won"
                if seat in played.result.winners
                else "colour"
                if found
                else "treasures"
                if coloured
                else "neither"
            )
            counts[m][key] += 1
    return counts


def report_four_seat(console: Console, bot: str, units: dict[str, list[float]], deals: int) -> None:
    shares = {m: Estimate.of(v[:deals]) for m, v in units.items()}
    spread = max(s.mean for s in shares.values()) - min(s.mean for s in shares.values())
    console.print(
        f"{bot}: {deals * 8} four-seat games ({deals} balanced deals), "
        "share per map with 95 % CI (fair 0.25):"
    )
    console.print("  " + "  ".join(f"{m} {s}" for m, s in shares.items()))
    console.print(
        f"  spread max-min {spread:.3f}; outside 0.25±0.04: "
        f"{[m for m, s in shares.items() if not s.within(0.25, 0.04)] or 'none'}; "
        f"CI wholly outside: "
        f"{[m for m, s in shares.items() if s.clearly_outside(0.25, 0.04)] or 'none'}"
    )


def report_heads_up(
    console: Console, bot: str, units: dict[tuple[str, str], list[float]], seeds: int, full: bool
) -> None:
    rates = {pair: Estimate.of(v[:seeds]) for pair, v in units.items()}
    inside = sum(r.within(0.5, 0.05) for r in rates.values())
    clear = {f"{a}-{b}": str(r) for (a, b), r in rates.items() if r.clearly_outside(0.5, 0.05)}
    console.print(f"{bot}: heads-up, {2 * seeds} games a pair (mirrored), first map's rate:")
    if full:
        for a in MAP_NAMES:
            row = [f"{b}:{rates[(a, b)].mean:.2f}" for b in MAP_NAMES if (a, b) in rates]
            if row:
                console.print(f"    {a} v " + " ".join(row))
        field = {
            m: statistics.fmean(
                r.mean if a == m else 1 - r.mean for (a, b), r in rates.items() if m in (a, b)
            )
            for m in MAP_NAMES
        }
        console.print(
            "  each map against the other seven (mean of its pairs): "
            + "  ".join(f"{m} {v:.3f}" for m, v in field.items())
        )
    half = statistics.fmean(r.half for r in rates.values())
    console.print(
        f"  pairs within 45-55 %: {inside} of {len(rates)} (mean CI ±{half:.3f}); "
        f"CI wholly outside: {clear or 'none'}"
    )


def report_paired(
    console: Console,
    bot: str,
    edition: int,
    shares: tuple[dict[str, list[float]], dict[str, list[float]]],
    rates: tuple[dict[tuple[str, str], list[float]], dict[tuple[str, str], list[float]]],
) -> None:
    """The maps as they are against ``edition``'s on the same deals and seeds (``--against``):
    each map's four-seat share in both with the paired difference, and the heads-up pairs
    inside 45-55 % in both. ``shares`` and ``rates``: (``edition``'s, the current maps')."""
    old, new = shares
    four_seat = all(old.values())
    console.print(
        f"{bot}: paired with edition {edition} (same deals and seeds)"
        + (
            f", four-seat share edition {edition} -> now (paired difference with 95 % CI):"
            if four_seat
            else ":"
        ),
        soft_wrap=True,
    )
    for m in MAP_NAMES if four_seat else ():
        diff = Estimate.of([b - a for a, b in zip(old[m], new[m], strict=True)])
        console.print(
            f"    {m} {statistics.fmean(old[m]):.3f}->{statistics.fmean(new[m]):.3f} "
            f"({diff.mean:+.3f}±{diff.half:.3f})"
        )
    for label, got, pairs in ((f"edition {edition}", old, rates[0]), ("now", new, rates[1])):
        inside = sum(abs(statistics.fmean(v) - 0.5) <= 0.05 for v in pairs.values())
        four = ""
        if all(got.values()):
            means = {m: statistics.fmean(v) for m, v in got.items()}
            outside = [m for m, v in means.items() if abs(v - 0.25) > 0.04]
            worst = max(abs(v - 0.25) for v in means.values())
            four = f"outside 0.25±0.04: {outside or 'none'}; furthest {worst:.3f} off; "
        console.print(
            f"  {label}: {four}heads-up pairs within 45-55 %: {inside} of {len(pairs)}",
            soft_wrap=True,
        )
    if not four_seat:
        report_heads_up(
            console,
            f"{bot}, edition {edition}",
            rates[0],
            len(next(iter(rates[0].values()))),
            full=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=50, help="balanced deals (8 games each)")
    parser.add_argument("--pairs", type=int, default=50, help="mirrored seeds per map pair")
    parser.add_argument("--bots", nargs="+", default=["heuristic", "random"])
    parser.add_argument("--seat-games", type=int, default=80, help="games for the baseline")
    parser.add_argument("--jobs", type=int, default=1, help="processes for the games")
    parser.add_argument(
        "--bottlenecks",
        type=int,
        default=0,
        help="also play this many four-seat games per bot and say what the losers lacked",
    )
    parser.add_argument(
        "--first-deals",
        type=int,
        default=50,
        help="also report the first deals alone (50 deals: the issue's 400 games)",
    )
    parser.add_argument(
        "--first-pairs", type=int, default=25, help="also report the first seeds of each pair"
    )
    parser.add_argument(
        "--against",
        type=int,
        help="also play the same deals and seeds on this edition's maps and report the "
        "paired differences (is a new edition better?)",
    )
    parser.add_argument(
        "--save",
        help="also write every unit (per-deal shares, per-seed heads-up rates, both editions "
        "with --against) to this JSON file, for analysis after the run",
    )
    parser.add_argument(
        "--reuse",
        help="take the heads-up units of pairs whose maps are unchanged from this saved run "
        "(--save) instead of playing them",
    )
    args = parser.parse_args()
    reuse = json.loads(Path(args.reuse).read_text()) if args.reuse else None
    saved: dict[str, dict[str, Any]] = {}
    console = Console(width=110) if not sys.stdout.isatty() else Console()
    console.print(
        f"{time.strftime('%Y-%m-%d %H:%M:%S', time.gmtime())} UTC, load average "
        + " ".join(f"{x:.1f}" for x in os.getloadavg())
        + f", {os.cpu_count()} cores, {args.jobs} job(s)"
    )
    console.print("link cost (crosses to link 9 treasures) / placements (over mean territory):")
    console.print(
        "  "
        + "  ".join(f"{m} {link_cost(BOARDS[m])}/{placements(BOARDS[m]):.2f}" for m in MAP_NAMES)
    )
    pairs = list(itertools.combinations(MAP_NAMES, 2))
    pool: Executor = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else SerialExecutor()
    with pool:
        for bot in args.bots:
            started = time.perf_counter()
            with Progress(console=console, transient=True) as progress:
                task = progress.add_task(f"{bot} four seats", total=args.deals * 2)
                shares = four_seat_units(
                    bot, args.deals, tick=partial(progress.advance, task), pool=pool
                )
                task = progress.add_task(f"{bot} heads-up", total=len(pairs) * args.pairs)
                known = reusable(reuse, bot, edition_maps(EDITION), args.pairs)
                if known:
                    console.print(
                        f"  {bot}: {len(known)} pairs' heads-up units from {args.reuse}",
                        soft_wrap=True,
                    )
                rates = heads_up_all(
                    bot, args.pairs, partial(progress.advance, task), pool, known=known
                )
                baseline = seat_effect(bot, args.seat_games)
                if args.against:
                    old = edition_maps(args.against)
                    task = progress.add_task(
                        f"{bot} edition {args.against}",
                        total=args.deals * 2 + len(pairs) * args.pairs,
                    )
                    tick = partial(progress.advance, task)
                    old_shares = four_seat_units(bot, args.deals, tick=tick, pool=pool, maps=old)
                    old_known = reusable(reuse, bot, old, args.pairs)
                    old_rates = heads_up_all(bot, args.pairs, tick, pool, maps=old, known=old_known)
            saved[bot] = {
                "four_seat": shares,
                "heads_up": {f"{a}-{b}": v for (a, b), v in rates.items()},
            }
            if args.against:
                saved[bot][f"edition{args.against}"] = {
                    "four_seat": old_shares,
                    "heads_up": {f"{a}-{b}": v for (a, b), v in old_rates.items()},
                }
            if args.save:
                with open(args.save, "w") as out:
                    json.dump({"edition": EDITION, "against": args.against, **saved}, out)
            if args.deals:
                report_four_seat(console, bot, shares, args.deals)
            console.print(f"  baseline: the first seat's share on equal maps {baseline:.3f}")
            if 0 < args.first_deals < args.deals:
                report_four_seat(console, bot, shares, args.first_deals)
            if args.pairs:
                report_heads_up(console, bot, rates, args.pairs, full=True)
            if 0 < args.first_pairs < args.pairs:
                report_heads_up(console, bot, rates, args.first_pairs, full=False)
            if args.against:
                report_paired(console, bot, args.against, (old_shares, shares), (old_rates, rates))
            if args.bottlenecks:
                console.print(
                    f"  what the losing seats lacked ({args.bottlenecks} four-seat games): "
                    "won / a colour (had 9 treasures) / treasures (had a colour) / neither"
                )
                for m, c in bottlenecks(bot, args.bottlenecks).items():
                    console.print(
                        f"    {m}: {c['won']} / {c['colour']} / {c['treasures']} / {c['neither']}"
                    )
            console.print(
                f"  {time.perf_counter() - started:.0f} s wall, load average "
                + " ".join(f"{x:.1f}" for x in os.getloadavg())
            )


if __name__ == "__main__":
    main()
