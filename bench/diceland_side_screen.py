"""Screen map edits on Diceland's boards: one side forced, paired with the side as it is.

Run by hand (CPU-heavy; nice it): ``nice -n 19 python bench/diceland_side_screen.py
bench/diceland_candidates/u1.json --seeds 150 --jobs 2``. The candidates file is in the
format of ``bench/diceland_candidates/`` (``{"label": ["B", [["treasure", [q, r], [q, r]],
...]], ...}``: edits on top of the design's own). From edition 6 each seat is dealt a
double-sided board and picks its side (RULES.md, *Boards and sides*); an edit of one map
changes only the games in which its side is played, so here that side is always played:

- *four seats*: per seed, the edited map's board on that side and the other three boards on
  sides drawn from the seed, four games on one dice seed with the boards rotated over the
  seats; the unit is the edited side's share of the four (fair 0.25);
- *heads-up* (``--heads-up N``): per seed, that side against one other board (cycling through
  the three) on a side drawn from the seed, played both ways; the unit is its rate.

Every candidate of a map plays the same seeds as the map as it is (common random numbers),
both bots (heuristic and random; ``--bots``). It prints each candidate's paired difference
from the map as it is with its 95 % interval, and what that makes of the **board's** figure
with the sides picked at random (half the side's: the other side's games do not change).

Why: the heuristic's board shares were near the band's edges (The Ridges/The Rim high, The
Crater/Mosaic low) while the random bots' were not, so an edit must move one bot and not the
other; the structural guess (the heuristic links treasures, the random bots fill outward) is
checked on the games themselves.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.diceland_fairness import Estimate, announce, executor, install_maps, score
from bench.diceland_tune import design_of, rebuild
from engine.diceland.maps import EDITION, MAP_NAMES, boards_of

BOARDS = boards_of(EDITION)


def board_of(side: str) -> tuple[str, str]:
    return next(b for b in BOARDS if side in b)


def company(side: str, seed: str) -> list[str]:
    """The other three boards' sides, drawn from ``seed``, in board order."""
    rng = random.Random(f"company-{seed}")
    return [rng.choice(b) for b in BOARDS if side not in b]


def four_units(maps: dict[str, Any], side: str, bot: str, seeds: list[str]) -> list[float]:
    """``side``'s share of four games on each seed, the boards rotated over the seats."""
    install_maps(maps)
    out = []
    for seed in seeds:
        group = [side, *company(side, seed)]
        won = 0.0
        for turn in range(4):
            order = group[turn:] + group[:turn]
            won += score(order, order.index(side), bot, seed)
        out.append(won / 4)
    return out


def heads_up_units(maps: dict[str, Any], side: str, bot: str, seeds: list[str]) -> list[float]:
    """``side``'s rate against one other board's drawn side on each seed, played both ways."""
    install_maps(maps)
    out = []
    for k, seed in enumerate(seeds):
        other = company(side, seed)[k % 3]
        out.append((score([side, other], 0, bot, seed) + score([other, side], 1, bot, seed)) / 2)
    return out


def layouts(path: Path) -> dict[str, tuple[str, dict[str, Any]]]:
    """Every map the file names as it is, then each candidate: label -> (map, data)."""
    spec = json.loads(path.read_text())
    out: dict[str, tuple[str, dict[str, Any]]] = {}
    for m in dict.fromkeys(name for name, _ in spec.values()):
        out[f"{m} now"] = (m, rebuild(design_of(m), design_of(m).edits))
    for label, (m, extra) in spec.items():
        design = design_of(m)
        more = [(k, (a[0], a[1]), (b[0], b[1])) for k, a, b in extra]
        out[label] = (m, rebuild(design, [*design.edits, *more]))
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("candidates", type=Path)
    parser.add_argument("--seeds", type=int, default=150, help="four-seat seeds (4 games each)")
    parser.add_argument("--heads-up", type=int, default=0, help="mirrored heads-up seeds")
    parser.add_argument("--bots", default="heuristic,random")
    parser.add_argument("--tag", default="screen", help="the seeds' prefix")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--chunk", type=int, default=10)
    parser.add_argument("--save", type=Path, help="every unit (JSON)")
    args = parser.parse_args(argv)
    announce(f"seeds {args.tag}-*")
    start = time.time()
    pool = executor(args.jobs)
    cands = layouts(args.candidates)
    plain = {m: rebuild(design_of(m), design_of(m).edits) for m in MAP_NAMES}
    kinds = {"four": (four_units, args.seeds), "heads-up": (heads_up_units, args.heads_up)}
    futures = []
    for bot in args.bots.split(","):
        for label, (m, data) in cands.items():
            maps = {**plain, m: data}
            for kind, (fn, n) in kinds.items():
                seeds = [f"{args.tag}-{kind}-{m}-{bot}-{k}" for k in range(n)]
                for i in range(0, n, args.chunk):
                    fut = pool.submit(fn, maps, m, bot, seeds[i : i + args.chunk])
                    futures.append(((label, bot, kind), fut))
    got: dict[tuple[str, str, str], list[float]] = {}
    for key, fut in futures:
        got.setdefault(key, []).extend(fut.result())
    print(f"  ({time.time() - start:.0f} s, load average {os.getloadavg()[0]:.1f})")
    target = {"four": 0.25, "heads-up": 0.5}
    for label, (m, data) in cands.items():
        row = []
        for bot in args.bots.split(","):
            for kind in kinds:
                units = got.get((label, bot, kind))
                if not units:
                    continue
                base = got[(f"{m} now", bot, kind)]
                diff = Estimate.of([a - b for a, b in zip(units, base, strict=True)])
                row.append(
                    f"{bot} {kind} {statistics.fmean(units):.3f} ({diff.mean:+.3f}±{diff.half:.3f};"
                    f" board {diff.mean / 2:+.3f})"
                )
        print(
            f"{label} [{'/'.join(board_of(m))}, link {data['link_cost']}, fair "
            f"{target['four']}]: " + "; ".join(row),
            flush=True,
        )
    if args.save:
        args.save.write_text(
            json.dumps(
                {
                    "edition": EDITION,
                    "candidates": str(args.candidates),
                    "units": {"|".join(k): v for k, v in got.items()},
                }
            )
        )


if __name__ == "__main__":
    main()
