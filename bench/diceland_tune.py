"""Tune Diceland's maps: choose each map's layout (its ``attempt`` in mapgen) by playtesting.

Run by hand (CPU-heavy; nice it): ``nice -n 10 python bench/diceland_tune.py --maps C H``.
For each map, the generator's first ``--candidates`` valid layouts (seeded, so the same
every run) plus the map's current layout are candidates. A candidate is measured against
**the field**, the other seven maps as they are now: heads-up games, each seed played both
ways (the candidate in either seat, one dice seed), the opponent cycling through the seven
maps, by heuristic bots and by random bots. Every candidate plays the same seeds (common
random numbers), so candidates differ by their layout, not their luck.

Candidates are cut by successive halving (``--stages``: seeds per opponent, then how many
survive; the current layout always goes on, as the baseline): the survivors of a stage play
more seeds, and the one whose rates are closest to
50 % for both bots (the sum of the two distances) wins. The cheap structural screen comes
first: only layouts whose placements (``engine.diceland.fairness``) lie in the data test's
band are candidates. It prints every figure and the ``attempt`` to write into
``engine/diceland/mapgen.py``; with ``--write`` it installs each winner in this process
before tuning the next map (so later maps are tuned against the new field). Then
``python -m engine.diceland.mapgen`` rewrites the JSON and ``bench/diceland_fairness.py``
checks the whole set.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.diceland_fairness import score
from engine.diceland import bots
from engine.diceland.board import Board
from engine.diceland.fairness import PLACEMENTS, placements
from engine.diceland.mapgen import DESIGNS, build, layouts
from engine.diceland.maps import BOARDS, MAP_DATA, MAP_NAMES

BOTS = ("heuristic", "random")


def install(data: dict) -> None:
    """Put a candidate layout in place of its map, in this process only (a playtest)."""
    name = data["name"]
    BOARDS[name], MAP_DATA[name] = Board(data), data
    bots._BOARDS.clear()  # the heuristic keeps each map's board by name: forget the last one


@dataclass
class Candidate:
    """One layout and its heads-up results against the field, per bot (one unit a seed)."""

    attempt: int
    data: dict
    units: dict[str, list[float]] = field(default_factory=lambda: {b: [] for b in BOTS})

    def rate(self, bot: str) -> float:
        return statistics.fmean(self.units[bot])

    def distance(self) -> float:
        return sum(abs(self.rate(b) - 0.5) for b in BOTS)

    def play(self, seeds: int, field_maps: list[str]) -> None:
        """Play up to ``seeds`` seeds per opponent (the seeds not yet played)."""
        install(self.data)
        name = self.data["name"]
        for bot in BOTS:
            for k in range(len(self.units[bot]), seeds * len(field_maps)):
                other = field_maps[k % len(field_maps)]
                seed = f"tune-{bot}-{k}"
                mine = score([name, other], 0, bot, seed) + score([other, name], 1, bot, seed)
                self.units[bot].append(mine / 2)


def tune(name: str, count: int, stages: list[tuple[int, int]]) -> Candidate:
    design = next(d() for d in DESIGNS if d().name == name)
    current = build(design)
    low, high = PLACEMENTS
    baseline = Candidate(design.attempt, current)
    pool = [baseline]
    for attempt, data in islice(layouts(design), count * 4):
        if len(pool) > count:
            break
        if attempt != design.attempt and low <= placements(Board(data)) <= high:
            pool.append(Candidate(attempt, data))
    field_maps = [m for m in MAP_NAMES if m != name]
    for seeds, keep in stages:
        for c in pool:
            c.play(seeds, field_maps)
        pool.sort(key=Candidate.distance)
        kept = pool[:keep]
        if all(c is not baseline for c in kept):
            kept.append(baseline)  # the current layout plays every stage: the baseline
        print(
            f"{name}: {seeds} seed(s) x {len(field_maps)} opponents: "
            + "  ".join(
                f"#{c.attempt}(link {c.data['link_cost']}) "
                f"h {c.rate('heuristic'):.3f} r {c.rate('random'):.3f}"
                for c in pool
            ),
            flush=True,
        )
        pool = kept
    install(current)
    best = pool[0]
    print(f"{name}: best attempt={best.attempt} (current {design.attempt})", flush=True)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--maps", nargs="+", default=list(MAP_NAMES))
    parser.add_argument("--candidates", type=int, default=16)
    parser.add_argument(
        "--stages",
        default="2:6,6:3,16:1",
        help="seeds per opponent : candidates kept, per stage",
    )
    parser.add_argument("--write", action="store_true", help="install each winner at once")
    args = parser.parse_args()
    stages = [(int(a), int(b)) for a, b in (s.split(":") for s in args.stages.split(","))]
    chosen = {}
    for name in args.maps:
        best = tune(name, args.candidates, stages)
        chosen[name] = best.attempt
        if args.write:
            install(best.data)
    print("attempts:", chosen)


if __name__ == "__main__":
    main()
