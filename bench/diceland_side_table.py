"""Which side of each Diceland board plays better for the heuristic? Every side forced, paired.

Run by hand (CPU-heavy; nice it): ``nice -n 19 python bench/diceland_side_table.py --seeds 150
--seats 2,4 --jobs 2 --save FILE``. From edition 6 each seat is dealt one of four double-sided
boards and picks a side (RULES.md, *Boards and sides*). Here no seat picks: for each number of
seats, every set of boards a game of that size can deal, every combination of their sides
(option ``maps``) and every rotation of the seats is played by heuristic bots on one dice seed,
so the two sides of a board meet the same dice, seats and company. Per number of seats it
prints:

- each board's **side advantage** against sides picked at random: the front's share of the
  games minus the back's, paired on the seed, the other boards and their sides, with a 95 %
  interval over the seeds (a seat's share: 1/n is even);
- per set of boards, the **equilibrium** of the sealed side choice (the sides from which no
  board gains by switching alone; the first pure one, else at two seats the 2x2 game's mix),
  and each board's share (at two seats: the first board's rate) with the sides picked at
  random (the heuristic's rule: the baseline), each board playing its better side on average,
  and the equilibrium, all read off the same games (the last two in-sample: a forecast, to be
  judged on fresh seeds with ``bench/diceland_boards.py``).

``--save FILE`` writes every game's result with the maps' SHA-256 (a data test reads
``diceland_candidates/sides_run.json``, made on edition 6's maps); ``--load FILE`` reads one
instead of playing; ``--table FILE`` writes the equilibria per number of seats and set of
boards (each board's chance of each side), for a bot that would pick by them.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import Executor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.diceland_boards import layouts_digest
from bench.diceland_fairness import Estimate, announce, executor
from engine.diceland import GAME
from engine.diceland.maps import EDITION, board_name, boards_of
from engine.simulate import make_bots, play

BOARDS = boards_of(EDITION)
TAG = "sides"
SAVED = Path(__file__).with_name("diceland_candidates") / "sides_run.json"
"""The run a data test reads (edition 6, the heuristic with its sides at random: every board
inside)."""

Units = dict[str, dict[str, list[float]]]
"""One seed at one size: per set of boards (``"A/C B/H"``) and per combination of their sides
(``"CB"``), each board's share of the games over the rotations."""


def unit(seats: int, k: int, tag: str) -> Units:
    """Seed ``k``'s games at ``seats`` seats: every set of boards, side combination and
    rotation."""
    seed = f"{tag}-{seats}-{k}"
    out: Units = {}
    for boards in itertools.combinations(BOARDS, seats):
        key = " ".join(board_name(b) for b in boards)
        out[key] = {}
        for sides in itertools.product(*boards):
            share = [0.0] * seats
            for turn in range(seats):
                order = list(range(turn, seats)) + list(range(turn))
                played = play(
                    GAME,
                    make_bots(GAME, ["heuristic"] * seats),
                    seed,
                    {"maps": [sides[i] for i in order]},
                    strict=False,
                )
                winners = played.result.winners
                for seat, i in enumerate(order):
                    if seat in winners:
                        share[i] += 1 / len(winners) / seats
            out[key]["".join(sides)] = share
    return out


Picks = Mapping[str, Mapping[str, float]]
"""Each board's chance of playing each of its sides."""


def share_of(units: Iterable[Units], deal: str, picks: Picks) -> list[list[float]]:
    """Per seed, each board's share of the games of ``deal`` when its boards pick their
    sides with the chances ``picks``."""
    names = deal.split()
    combos = list(itertools.product(*(picks[b].items() for b in names)))
    return [
        [
            sum(math.prod(w for _, w in c) * u[deal]["".join(s for s, _ in c)][i] for c in combos)
            for i in range(len(names))
        ]
        for u in units
    ]


def pure(side: str) -> dict[str, float]:
    return {side: 1.0}


AT_RANDOM: Picks = {board_name(b): dict.fromkeys(b, 0.5) for b in BOARDS}


def advantage(units: list[Units], board: str) -> Estimate:
    """The front's share minus the back's, paired, over every deal holding ``board``, the
    others picking at random."""
    front, back = board.split("/")
    diffs = [0.0] * len(units)
    deals = [d for d in units[0] if board in d.split()]
    for deal in deals:
        i = deal.split().index(board)
        a = share_of(units, deal, {**AT_RANDOM, board: pure(front)})
        b = share_of(units, deal, {**AT_RANDOM, board: pure(back)})
        for k in range(len(units)):
            diffs[k] += (a[k][i] - b[k][i]) / len(deals)
    return Estimate.of(diffs)


def equilibrium(units: list[Units], deal: str) -> tuple[dict[str, dict[str, float]], str]:
    """The sides of ``deal``'s boards from which no board gains by switching alone (the
    equilibrium of the sealed side choice, read off the forced games), and how it was found:
    the first pure one in side order; with none, at two seats the mixed one of the 2x2 game;
    else each side equally likely."""
    names = deal.split()
    mean = {
        sides: [statistics.fmean(u[deal][sides][i] for u in units) for i in range(len(names))]
        for sides in units[0][deal]
    }
    stable = []
    for sides in mean:
        switched = [
            sides[:i] + next(s for s in n.split("/") if s != sides[i]) + sides[i + 1 :]
            for i, n in enumerate(names)
        ]
        if all(mean[sides][i] >= mean[alt][i] for i, alt in enumerate(switched)):
            stable.append(sides)
    if stable:
        found = "pure" if len(stable) == 1 else f"first of {len(stable)} pure"
        return {n: pure(s) for n, s in zip(names, stable[0], strict=True)}, found
    if len(names) != 2:
        return {n: dict(AT_RANDOM[n]) for n in names}, "none: at random"
    (a0, a1), (b0, b1) = (n.split("/") for n in names)
    m = {k: v[0] for k, v in mean.items()}
    den = m[a0 + b0] - m[a1 + b0] - m[a0 + b1] + m[a1 + b1]
    p = (m[a1 + b1] - m[a1 + b0]) / den
    q = (m[a1 + b1] - m[a0 + b1]) / den
    return {names[0]: {a0: p, a1: 1 - p}, names[1]: {b0: q, b1: 1 - q}}, "mixed"


def measure(seeds: int, sizes: Sequence[int], tag: str, pool: Executor) -> dict[int, list[Units]]:
    futures = {n: [pool.submit(unit, n, k, tag) for k in range(seeds)] for n in sizes}
    return {n: [f.result() for f in fs] for n, fs in futures.items()}


def show(picks: Picks) -> str:
    return " ".join(
        "/".join(f"{s}" if w == 1 else f"{s}{w:.2f}" for s, w in p.items() if w)
        for p in picks.values()
    )


def report(runs: dict[int, list[Units]]) -> dict[str, dict[str, Picks]]:
    """Print the figures; the table: per number of seats and deal, each board's chances."""
    tables: dict[str, dict[str, Picks]] = {}
    for n, units in runs.items():
        print(f"{n} seats, {len(units)} seeds:")
        edge = {b: advantage(units, b) for b in AT_RANDOM}
        print(
            "  side advantage against sides at random (front - back share, paired): "
            + "  ".join(f"{b} {e}" for b, e in edge.items())
        )
        better = {b: pure(b[0] if e.mean > 0 else b[2]) for b, e in edge.items()}
        tables[str(n)] = {}
        for deal in units[0]:
            eq, found = equilibrium(units, deal)
            tables[str(n)][deal] = eq
            cells = []
            for label, picks in (
                ("at random", AT_RANDOM),
                ("better side", better),
                ("by the equilibrium", eq),
            ):
                est = [Estimate.of(c) for c in zip(*share_of(units, deal, picks), strict=True)]
                shown = est if n > 2 else est[:1]
                cells.append(f"{label} " + " ".join(str(e) for e in shown))
            print(f"  {deal}: equilibrium {show(eq)} ({found}); " + ";  ".join(cells))
    return tables


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=100, help="dice seeds a size")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--tag", default=TAG, help="the seeds' prefix")
    parser.add_argument(
        "--seats",
        default="2,3,4",
        help="the sizes measured (the heuristic picks at random at a size the table does not hold)",
    )
    parser.add_argument("--save", type=Path, help="every game's result (JSON)")
    parser.add_argument("--table", type=Path, help="the table for the heuristic (JSON)")
    parser.add_argument("--load", type=Path, help="a --save file to read instead of playing")
    args = parser.parse_args(argv)
    announce(f"seeds {args.tag}-*")
    start = time.time()
    pool = executor(args.jobs)
    if args.load:
        runs = {int(n): u for n, u in json.loads(args.load.read_text())["runs"].items()}
    else:
        runs = measure(args.seeds, [int(n) for n in args.seats.split(",")], args.tag, pool)
    tables = report(runs)
    print(
        f"  ({time.time() - start:.0f} s, load average {os.getloadavg()[0]:.1f}, "
        f"{time.strftime('%H:%M:%S UTC', time.gmtime())})"
    )
    made = {
        "edition": EDITION,
        "boards": [board_name(b) for b in BOARDS],
        "maps_sha256": layouts_digest(),
        "seeds": f"{args.tag}-*: " + ", ".join(f"{len(u)} at {n} seats" for n, u in runs.items()),
        "command": "python bench/diceland_side_table.py "
        + " ".join(a for a in (argv if argv is not None else sys.argv[1:])),
    }
    if args.save:
        args.save.write_text(json.dumps({**made, "runs": {str(n): u for n, u in runs.items()}}))
    if args.table:
        args.table.write_text(json.dumps({**made, "sides": tables}, indent=2) + "\n")


if __name__ == "__main__":
    main()
