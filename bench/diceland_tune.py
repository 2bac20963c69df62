"""Tune Diceland's maps by playtesting: hill-climb each map toward the field with fine edits.

Run by hand (CPU-heavy; nice it): ``nice -n 19 python bench/diceland_tune.py --rounds 3
--jobs 2 --save /tmp/edits.json``. The maps start as ``engine/diceland/mapgen.py`` builds
them (each design's seeded ``attempt`` and its ``edits``). A round measures every map
against **the field**, the other seven maps as they stand: heads-up games, each seed played
both ways (the map in either seat, one dice seed), the opponent cycling through the seven, by
heuristic bots and by random bots. Alongside the current layout (the baseline) play a few
**candidates**, each the layout with one or two fine edits (``mapgen.edit_options``: a
treasure moved to another hex of its colour, or a hex handed to a neighbouring territory;
every edit passes the data tests' checks and keeps the design's character). A map that
won too often (the mean of the two bots' rates) gets treasure moves away from the start,
one that lost too often moves toward it; hex moves are drawn either way. Every candidate of a
map plays the same seeds as its baseline (common random numbers), new seeds each round.

Candidates are cut by successive halving (``--stages``: seeds per opponent, then how many
survive; the baseline always goes on). The objective is the worse of the two bots'
distances from 50 %; the best survivor replaces the baseline if it beats it on the same
seeds. All maps of a round play against the field as it stood when the round began; the
winners are installed together. ``--jobs`` spreads the games over processes.

It prints each round's figures and, at the end, the ``edits`` to write into each design of
``engine/diceland/mapgen.py``; ``--save`` keeps them in a JSON file after every round and
``--resume`` starts from such a file. Then ``python -m engine.diceland.mapgen`` rewrites the
JSON and ``bench/diceland_fairness.py`` checks the whole set.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console
from rich.progress import Progress

from bench.diceland_fairness import SerialExecutor, install_maps, score
from engine.diceland.mapgen import DESIGNS, Design, Edit, apply_edit, build, distance, edit_options
from engine.diceland.maps import MAP_NAMES

BOTS = ("heuristic", "random")
Maps = dict[str, dict[str, Any]]


@dataclass
class Candidate:
    """A map's layout (its edits from the unedited attempt) and its heads-up results against
    the field, per bot (one unit a mirrored seed)."""

    edits: list[Edit]
    data: dict[str, Any]
    units: dict[str, list[float]] = field(default_factory=lambda: {b: [] for b in BOTS})

    def rate(self, bot: str) -> float:
        return statistics.fmean(self.units[bot])

    def objective(self) -> float:
        """The worse of the two bots' distances from 50 %."""
        return max(abs(self.rate(b) - 0.5) for b in BOTS)


def play_units(
    field_maps: Maps, name: str, data: dict[str, Any], bot: str, seeds: list[tuple[str, str]]
) -> list[float]:
    """Map ``name`` (as ``data``) against the field: one mirrored unit per (seed, opponent)."""
    install_maps({**field_maps, name: data})
    return [
        (score([name, other], 0, bot, seed) + score([other, name], 1, bot, seed)) / 2
        for seed, other in seeds
    ]


def design_of(name: str) -> Design:
    return next(d() for d in DESIGNS if d().name == name)


def unedited(design: Design) -> dict[str, Any]:
    return build(Design(**{**design.__dict__, "edits": ()}))


def rebuild(design: Design, edits: Sequence[Edit]) -> dict[str, Any]:
    base = unedited(design)
    data = base
    for edit in edits:
        nxt = apply_edit(design, base, data, edit)
        if nxt is None:
            raise ValueError(f"map {design.name}: edit {edit} fails the checks")
        data = nxt
    return data


def proposals(
    design: Design, current: Candidate, lean: float, count: int, rng: random.Random
) -> list[Candidate]:
    """Up to ``count`` candidates: one or two edits on the current layout; treasure moves
        away from the start if ``lean`` > 0 (the map wins too often), toward it if < 0, either
    way if 0 (not measured yet)."""
    base = unedited(design)
    start = (base["start"][0], base["start"][1])
    options = list(edit_options(design, base, current.data))

    def toward(e: Edit) -> bool:  # the move goes the way the map needs (any way at first)
        step = distance(e[2], start) - distance(e[1], start)
        return step * lean > 0 or (lean == 0 and step != 0)

    treasure = [(e, d) for e, d in options if e[0] == "treasure" and toward(e)]
    hexes = [(e, d) for e, d in options if e[0] == "hex"]
    picks = rng.sample(treasure, min(len(treasure), count * 2 // 3))
    picks += rng.sample(hexes, min(len(hexes), count - len(picks)))
    found = []
    for edit, data in picks:
        edits = [*current.edits, edit]
        if abs(lean) > 0.06 and edit[0] == "treasure":
            more = [
                (e, d)
                for e, d in edit_options(design, base, data)
                if e[0] == "treasure" and (distance(e[2], start) - distance(e[1], start)) * lean > 0
            ]
            if more:
                second, data = rng.choice(more)
                edits.append(second)
        found.append(Candidate(edits, data))
    return found


def measure(
    pool: Executor,
    field_maps: Maps,
    jobs: list[tuple[str, Candidate]],
    seeds: int,
    tag: str,
    progress: Progress,
) -> None:
    """Bring every candidate to ``seeds`` seeds per opponent, both bots."""
    futures = []
    for name, cand in jobs:
        others = [m for m in MAP_NAMES if m != name]
        for bot in BOTS:
            have = len(cand.units[bot])
            todo = [
                (f"{tag}-{bot}-{k}", others[k % len(others)])
                for k in range(have, seeds * len(others))
            ]
            for i in range(0, len(todo), 7):
                chunk = todo[i : i + 7]
                futures.append(
                    (cand, bot, i, pool.submit(play_units, field_maps, name, cand.data, bot, chunk))
                )
    task = progress.add_task(f"{tag}: {seeds} seeds x 7", total=len(futures))
    results: dict[tuple[int, str], dict[int, list[float]]] = {}
    for cand, bot, i, fut in futures:
        results.setdefault((id(cand), bot), {})[i] = fut.result()
        progress.advance(task)
    for _name, cand in jobs:
        for bot in BOTS:
            got = results.get((id(cand), bot), {})
            for i in sorted(got):
                cand.units[bot].extend(got[i])
    progress.remove_task(task)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--maps", nargs="+", default=list(MAP_NAMES))
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--candidates", type=int, default=8)
    parser.add_argument(
        "--stages", default="3:2,12:1", help="seeds per opponent : candidates kept, per stage"
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes for the games")
    parser.add_argument("--save", help="write the edits found so far to this JSON file")
    parser.add_argument("--resume", help="start from the edits in this JSON file")
    parser.add_argument("--first-round", type=int, default=0, help="seeds differ per round")
    args = parser.parse_args()
    stages = [(int(a), int(b)) for a, b in (s.split(":") for s in args.stages.split(","))]
    console = Console(width=120) if not sys.stdout.isatty() else Console()
    designs = {m: design_of(m) for m in MAP_NAMES}
    edits: dict[str, list[Edit]] = {m: list(designs[m].edits) for m in MAP_NAMES}
    if args.resume:
        saved = json.loads(Path(args.resume).read_text())
        edits.update(
            {m: [(k, (a[0], a[1]), (b[0], b[1])) for k, a, b in e] for m, e in saved.items()}
        )
    current = {m: Candidate(edits[m], rebuild(designs[m], edits[m])) for m in MAP_NAMES}
    lean: dict[str, float] = dict.fromkeys(MAP_NAMES, 0.0)
    pool: Executor = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else SerialExecutor()
    with pool, Progress(console=console, transient=True) as progress:
        for rnd in range(args.first_round, args.first_round + args.rounds):
            started = time.perf_counter()
            field_maps = {m: c.data for m, c in current.items()}
            rng = random.Random(f"tune-round-{rnd}")
            pools: dict[str, list[Candidate]] = {}
            for m in args.maps:
                base = Candidate(current[m].edits, current[m].data)
                pools[m] = [base, *proposals(designs[m], base, lean[m], args.candidates, rng)]
            for seeds, keep in stages:
                jobs = [(m, c) for m in args.maps for c in pools[m]]
                measure(pool, field_maps, jobs, seeds, f"round {rnd}", progress)
                for m in args.maps:
                    base = pools[m][0]
                    ranked = sorted(pools[m][1:], key=Candidate.objective)
                    pools[m] = [base, *ranked[:keep]]
            for m in args.maps:
                base, *rest = pools[m]
                best = min(rest, key=Candidate.objective, default=base)
                chosen = best if best.objective() < base.objective() else base
                current[m] = Candidate(chosen.edits, chosen.data)
                rates = {b: chosen.rate(b) for b in BOTS}
                lean[m] = statistics.fmean(r - 0.5 for r in rates.values())
                console.print(
                    f"round {rnd} {m}: baseline h {base.rate('heuristic'):.3f} "
                    f"r {base.rate('random'):.3f} ({len(base.units['random'])} units); best "
                    f"h {best.rate('heuristic'):.3f} r {best.rate('random'):.3f} "
                    f"-> {'new edit' if chosen is best and best is not base else 'kept'} "
                    f"({len(chosen.edits)} edits, link {chosen.data['link_cost']})"
                )
            console.print(f"round {rnd}: {time.perf_counter() - started:.0f} s")
            if args.save:
                Path(args.save).write_text(
                    json.dumps({m: current[m].edits for m in MAP_NAMES}, indent=1)
                )
    for m in MAP_NAMES:
        console.print(f"{m}: edits={tuple(current[m].edits)!r}")


if __name__ == "__main__":
    main()
