"""Tune the Burgundy heuristic's weights by CMA-ES on seeded solo games (duchy A).

    python bench/burgundy_tune.py tune [--generations 12] [--games 120] [--sigma 0.25]
        [--out FILE]
    python bench/burgundy_tune.py compare --weights FILE [--games 400] [--first 100000]
    python bench/burgundy_tune.py castles [--duchy A] [--games 2000] [--first 0] [--against KIND]

The weights are the potential's (``TUNE``), what a bonus held is worth (``BONUS_VALUE``) and
how fast holding more of a kind loses worth (``HOLD_DECAY``), in ``engine/burgundy/bots.py``.
A candidate is the vector ``x`` of log-factors on today's weights (weight = today's *
exp(x)), so CMA-ES (the ``cma`` package: Hansen's reference implementation) starts at
today's weights with the same relative step on each. A candidate's fitness is its mean
solo score on the generation's seeds, played on the fast path (``perform`` with
``FastDice``); every candidate of a generation meets the same seeds (common random numbers:
the same dice each round whatever was marked), and every generation has new seeds, so the
search cannot learn a few seeds' dice. ``tune`` writes the distribution's mean (the
estimate that noise biases least) and the best candidate seen with their fitness.

``compare``: today's weights and the tuned ones on the same held-out seeds (``--first``
onwards, away from the tuning seeds); means with 95% CIs and the paired difference.

``castles``: the heuristic from each castle of the duchy (solo), and from its own pick, on
the same seeds (``castle-N``; the same dice whatever is marked); each castle's mean and its
paired difference against the heuristic's own pick (since 2026-11-25 the commodity castle,
``SOLO_CASTLE``), or with ``--against KIND`` against the castle of that kind (``worker``: the
heuristic's pick on duchy A before, as RULES.md's figures are paired).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import random
import statistics
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import cma
from rich.console import Console
from rich.progress import Progress

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.cluster import machine_line, machine_state
from bench.search import with_ci
from engine.burgundy import bots
from engine.burgundy.duchy import DUCHIES, INDEX
from engine.games import get_game
from engine.search import FastDice, fast_step

OPTIONS = {"variant": "solo", "duchy": "A"}
TUNED = [f"TUNE.{k}" for k, v in bots.TUNE.items() if v] + [
    *(f"BONUS_VALUE.{k}" for k in bots.BONUS_VALUE),
    "HOLD_DECAY",
]
"""The weights tuned (``TUNE`` entries that are 0 switch a term off and stay off)."""


def today() -> dict[str, float]:
    """The weights as they are in ``engine/burgundy/bots.py``."""
    found: dict[str, float] = {}
    for name in TUNED:
        table, _, key = name.partition(".")
        found[name] = getattr(bots, table)[key] if key else getattr(bots, table)
    return found


def weights_of(x: Sequence[float], base: dict[str, float]) -> dict[str, float]:
    """The weights of candidate ``x`` (log-factors on ``base``); the decay stays below 1."""
    found = {name: base[name] * math.exp(v) for name, v in zip(TUNED, x, strict=True)}
    found["HOLD_DECAY"] = min(found["HOLD_DECAY"], 0.95)
    return found


@contextlib.contextmanager
def weighted(weights: dict[str, float]) -> Iterator[None]:
    """The heuristic with ``weights`` while the block runs (the module's tables patched)."""
    before = today()
    try:
        set_weights(weights)
        yield
    finally:
        set_weights(before)


def set_weights(weights: dict[str, float]) -> None:
    for name, value in weights.items():
        table, _, key = name.partition(".")
        if key:
            getattr(bots, table)[key] = value
        else:
            setattr(bots, table, value)
    bots._holding.cache_clear()


def solo_score(seed: str, duchy: str = "A", castle: int | None = None) -> int:
    """One solo game of the heuristic (as the module's tables stand) on the fast path, from
    the ``castle``-th legal castle if given (else from the heuristic's pick)."""
    game = get_game("burgundy")
    bot = bots.HeuristicBot()
    dice = FastDice(seed)
    rng = random.Random(seed)
    state = game.setup(1, game.validate_options(1, {**OPTIONS, "duchy": duchy}), dice)
    while not game.is_over(state):
        legal = game.legal_actions(state, 0)
        if castle is not None and legal[0]["type"] == "pick_castle":
            action = legal[castle]
        elif len(legal) == 1:
            action = legal[0]
        else:
            action = bot.choose(game.view(state, 0), legal, rng)
        fast_step(game, state, 0, action, dice)
    result = game.result(state)
    assert result is not None
    return int(result.scores[0])


def scores(weights: dict[str, float], seeds: Sequence[str]) -> list[int]:
    with weighted(weights):
        return [solo_score(seed) for seed in seeds]


def tune(console: Console, args: argparse.Namespace) -> None:
    machine = machine_state()
    base = today()
    es = cma.CMAEvolutionStrategy(
        [0.0] * len(TUNED), args.sigma, {"seed": 1, "verbose": -9, "popsize": args.popsize}
    )
    best: tuple[float, list[float]] = (-math.inf, [0.0] * len(TUNED))
    history = []
    with Progress(console=console) as progress:
        task = progress.add_task("candidates", total=args.generations * es.popsize)
        for generation in range(args.generations):
            seeds = [f"tune-{generation}-{n}" for n in range(args.games)]
            xs = es.ask()
            fitness = []
            for x in xs:
                mean = statistics.fmean(scores(weights_of(x, base), seeds))
                fitness.append(mean)
                if mean > best[0]:
                    best = (mean, list(map(float, x)))
                progress.advance(task)
            es.tell(xs, [-f for f in fitness])
            baseline = statistics.fmean(scores(base, seeds))
            history.append({"generation": generation, "baseline": baseline, "best": max(fitness)})
            console.print(
                f"generation {generation}: today's weights {baseline:.2f}, candidates "
                f"{min(fitness):.2f}-{max(fitness):.2f} (mean {statistics.fmean(fitness):.2f})"
                f" on {args.games} new seeds; step {es.sigma:.3f}"
            )
            write(args.out, base, es, best, history, machine)
    console.print(machine_line(machine))


def write(
    out: str,
    base: dict[str, float],
    es: Any,
    best: tuple[float, list[float]],
    history: list[dict[str, Any]],
    machine: dict[str, Any],
) -> None:
    data = {
        "mean": weights_of(list(es.mean), base),
        "best": weights_of(best[1], base),
        "best_fitness": best[0],
        "today": base,
        "history": history,
        "machine": machine,
    }
    Path(out).write_text(json.dumps(data, indent=2) + "\n")


def compare(console: Console, args: argparse.Namespace) -> None:
    machine = machine_state()
    tuned = json.loads(Path(args.weights).read_text())[args.which]
    seeds = [f"compare-{n}" for n in range(args.first, args.first + args.games)]
    found: dict[str, list[int]] = {}
    with Progress(console=console) as progress:
        for label, weights in (("today", today()), ("tuned", tuned)):
            task = progress.add_task(label, total=1)
            found[label] = scores(weights, seeds)
            progress.advance(task)
    for label, values in found.items():
        console.print(f"{label}: {with_ci(values)}")
    diffs = [t - b for t, b in zip(found["tuned"], found["today"], strict=True)]
    better = sum(d > 0 for d in diffs)
    worse = sum(d < 0 for d in diffs)
    console.print(
        f"paired difference {with_ci(diffs, signed=True)} over {len(diffs)} seeds; "
        f"better on {better}, worse on {worse}"
    )
    machine["load_after"] = list(os.getloadavg())
    console.print(machine_line(machine))


def castles(console: Console, args: argparse.Namespace) -> None:
    machine = machine_state()
    game = get_game("burgundy")
    options = game.validate_options(1, {**OPTIONS, "duchy": args.duchy})
    state = game.setup(1, options, FastDice("castles"))
    picks = game.legal_actions(state, 0)
    duchy = DUCHIES[args.duchy]
    seeds = [f"castle-{n}" for n in range(args.first, args.first + args.games)]
    own = [solo_score(seed, args.duchy) for seed in seeds]
    console.print(f"the heuristic's own pick: {with_ci(own)} ({args.games} seeds)")
    kinds = [duchy.castle_square[INDEX[(p["hex"][0], p["hex"][1])]] for p in picks]
    found = [[solo_score(seed, args.duchy, n) for seed in seeds] for n in range(len(picks))]
    base, label = own, "the own pick"
    if args.against != "own":
        if args.against not in kinds:
            raise SystemExit(f"duchy {args.duchy} has no {args.against} castle")
        base, label = found[kinds.index(args.against)], f"the {args.against} castle"
    for pick, kind, scores in zip(picks, kinds, found, strict=True):
        diffs = [a - b for a, b in zip(scores, base, strict=True)]
        console.print(
            f"castle {pick['hex']} ({kind}): {with_ci(scores)}; "
            f"against {label} {with_ci(diffs, signed=True)}"
        )
    machine["load_after"] = list(os.getloadavg())
    console.print(machine_line(machine))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("what", choices=["tune", "compare", "castles"])
    parser.add_argument("--generations", type=int, default=12)
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--popsize", type=int, default=10)
    parser.add_argument("--sigma", type=float, default=0.25)
    parser.add_argument("--out", default="burgundy_weights.json")
    parser.add_argument("--weights", default="burgundy_weights.json")
    parser.add_argument("--which", default="mean", choices=["mean", "best"])
    parser.add_argument("--first", type=int, default=100_000)
    parser.add_argument("--duchy", default="A", choices=sorted(DUCHIES))
    parser.add_argument(
        "--against",
        default="own",
        choices=["own", "commodity", "monk", "silver", "worker"],
        help="castles: pair each castle against the heuristic's own pick or this castle",
    )
    args = parser.parse_args(argv)
    console = Console()
    if args.what == "tune":
        tune(console, args)
    elif args.what == "castles":
        castles(console, args)
    else:
        compare(console, args)


if __name__ == "__main__":
    main()
