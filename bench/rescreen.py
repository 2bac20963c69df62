"""Screen a changed search on a logged tournament's own games, paired with the logged search.

``bench/search.py tournaments --games-log FILE`` records every game of a seeded tournament
(seating, ranks). This replays its games in which search met the heuristic, in schedule order,
with ``--bot`` in the search's place and everything else as logged (the deal, the seats, the
bot seed, the other bots), and compares per game whether each search placed above the
heuristic: a paired screen against the logged search on the very games the tournament was
rated on, for a third of a tournament's CPU (the other games are not replayed)::

    nice -n 19 python bench/rescreen.py --log carc2.jsonl --game carcassonne --seats 2 \\
        --bot 'search,iterations=32' --games 60 --out screen.jsonl

``--out`` keeps each replayed game, so a screen resumes (and several may run at once with
``--part``/``--parts``, each on every ``parts``-th game).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console
from rich.progress import Progress

from bench.search import TOURNAMENT_ITERATIONS, RatedRun, TimedBot
from engine.contract import Bot
from engine.games import get_game
from engine.match import parse_bot
from engine.simulate import play

SEARCH, HEURISTIC = 0, 1
"""The entrants' numbers in ``bench/search.py``'s tournaments (``entrants``)."""


def above(seating: list[int], ranks: list[int]) -> float:
    """1 if search placed above the heuristic in this game, 0.5 level, 0 below."""
    mine, theirs = ranks[seating.index(SEARCH)], ranks[seating.index(HEURISTIC)]
    return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval (normal)."""
    if len(values) < 2:
        return (values[0] if values else 0.0), math.inf
    return statistics.fmean(values), 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def replay(run: RatedRun, spec: str, index: int, seating: list[int], seed: str) -> dict[str, Any]:
    """Play game ``index`` of the schedule with ``spec`` in the search's seat."""
    game = run.game
    make = parse_bot(game, spec)[1]
    times: list[float] = []
    bots: list[Bot] = []
    for p in seating:
        kind = run.names[p].split("-")[0]
        bots.append(TimedBot(make(), times) if p == SEARCH else game.bots[kind]())
    start = time.process_time()
    ranks = list(play(game, bots, seed, {}, bot_seed=index).result.ranks)
    cpu = time.process_time() - start
    times.sort()
    p95 = times[int(0.95 * (len(times) - 1))] if times else 0.0
    return {"index": index, "above": above(seating, ranks), "cpu": cpu, "p95": p95}


def main(argv: Sequence[str] | None = None) -> None:
    """Replay, then print the paired figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--log", required=True, help="a games log of bench/search.py")
    parser.add_argument("--game", default="carcassonne")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=0, help="the logged search's")
    parser.add_argument("--bot", required=True, help="what plays the search's seat")
    parser.add_argument("--games", type=int, default=60, help="search-heuristic games")
    parser.add_argument("--out", help="keep (and resume from) the replayed games, JSON lines")
    parser.add_argument("--part", type=int, default=0)
    parser.add_argument("--parts", type=int, default=1)
    args = parser.parse_args(argv)
    game = get_game(args.game)
    run = RatedRun(game, args.seats, args.iterations or TOURNAMENT_ITERATIONS[game.name])
    logged: dict[int, dict[str, Any]] = {}
    with open(args.log) as lines:
        for row in map(json.loads, lines):
            if row["tournament"] == run.key():
                logged[row["index"]] = row
    meetings = [i for i in sorted(logged) if {SEARCH, HEURISTIC} <= set(logged[i]["seating"])]
    chosen = meetings[: args.games][args.part :: args.parts]
    done: dict[int, dict[str, Any]] = {}
    if args.out and os.path.exists(args.out):
        with open(args.out) as lines:
            done = {row["index"]: row for row in map(json.loads, lines)}
    console = Console()
    plan = run.plan(max(chosen) // args.seats + 1) if chosen else []
    with Progress(console=console) as progress:
        task = progress.add_task(f"{args.bot} (games)", total=len(chosen))
        for i in chosen:
            if i not in done:
                seating, seed = plan[i]
                if seating != logged[i]["seating"]:
                    raise SystemExit(f"game {i}: the log's seating is not the schedule's")
                done[i] = replay(run, args.bot, i, seating, seed)
                if args.out:
                    with open(args.out, "a") as out:
                        out.write(json.dumps(done[i]) + "\n")
            progress.advance(task)
    new = [done[i]["above"] for i in chosen]
    old = [above(logged[i]["seating"], logged[i]["ranks"]) for i in chosen]
    diff = [a - b for a, b in zip(new, old, strict=True)]
    for label, values in (("replayed", new), ("logged", old), ("paired difference", diff)):
        m, half = mean_ci(values)
        console.print(f"{label}: search above the heuristic {m:.3f} +- {half:.3f}")
    cpu = sum(done[i]["cpu"] for i in chosen)
    console.print(f"{len(chosen)} games, {cpu:.0f} CPU s replayed or read back")


if __name__ == "__main__":
    main()
