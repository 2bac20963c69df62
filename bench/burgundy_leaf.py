"""Fit the Burgundy leaf value (``engine/burgundy/data/leaf.json``) and measure it.

    python bench/burgundy_leaf.py fit [--games 600] [--explore 0.15]
    python bench/burgundy_leaf.py evaluate [--games 100] [--first 0] [--iterations 120]
        [--leaf fitted|potential]

``fit``: seeded solo games on duchy A played by the heuristic (with probability
``--explore`` a decision is drawn from its four best instead, so the fit also sees sheets
the heuristic would not have made); after every round, the features of the sheet
(``engine.burgundy.leaf.features``) and the points the game still went on to make. Least
squares (a small ridge term) gives one weight per feature; the file records the games,
the fit's R^2 and the residual standard deviation. ``evaluate``: the search with that leaf
(or the heuristic's potential, the baseline) against the heuristic on the same seeds, means
with 95% CIs and the paired difference.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.cluster import machine_line, machine_state
from bench.search import with_ci
from engine.burgundy.bots import HeuristicBot
from engine.burgundy.leaf import LEAF_FILE, NAMES, features
from engine.burgundy.search import (
    RETURNS_FILE,
    RETURNS_NAMES,
    BurgundySearchBot,
    FittedSearchBot,
    returns_features,
)
from engine.games import get_game
from engine.search import FastDice, fast_step
from engine.simulate import play

OPTIONS = {"variant": "solo", "duchy": "A"}
RIDGE = 1e-3


def samples(games: int, explore: float, progress: Progress) -> list[tuple[list[float], float]]:
    """(features after a round, points still to come) over seeded heuristic solo games."""
    return sheets("leaf", 0, games, explore, progress, lambda game, state: features(state, 0))


def return_samples(
    first: int, games: int, explore: float, progress: Progress
) -> list[tuple[list[float], float]]:
    """(the returns leaf's features after a step, points still to come) over seeded solo
    games (``returns-N``) of the heuristic as the search's rollouts play it (with the solo
    correction), exploring as :func:`samples` does."""
    return sheets(
        "returns",
        first,
        games,
        explore,
        progress,
        lambda game, state: returns_features(state, game.view(state, 0), 0),
    )


def sheets(
    prefix: str,
    first: int,
    games: int,
    explore: float,
    progress: Progress,
    read: Callable[[Any, Any], list[float]],
) -> list[tuple[list[float], float]]:
    """(``read`` of the state after each step, points still to come) over the seeded solo
    games ``prefix-N`` of the heuristic (with probability ``explore`` a decision is drawn
    from its four best instead)."""
    game = get_game("burgundy")
    bot = HeuristicBot()
    found: list[tuple[list[float], float]] = []
    task = progress.add_task("solo games", total=games)
    for n in range(first, first + games):
        dice = FastDice(f"{prefix}-{n}")
        rng = random.Random(n)
        state = game.setup(1, game.validate_options(1, dict(OPTIONS)), dice)
        rows: list[tuple[list[float], int]] = []
        while not game.is_over(state):
            view, legal = game.view(state, 0), game.legal_actions(state, 0)
            if legal[0]["type"] != "pick_castle" and rng.random() < explore:
                scores = bot.scores(view, legal)
                best = sorted(range(len(legal)), key=lambda i: -scores[i])[:4]
                action = legal[rng.choice(best)]
            else:
                action = bot.choose(view, legal, rng)
            fast_step(game, state, 0, action, dice)
            if not game.is_over(state):
                rows.append((read(game, state), sum(state.sheets[0].points)))
        final = sum(state.sheets[0].points)
        found.extend((x, float(final - points)) for x, points in rows)
        progress.advance(task)
    return found


def returns(console: Console, args: argparse.Namespace) -> None:
    """Fit the returns leaf on ``--games`` games and judge it on as many held-out games,
    against the heuristic's own leaf terms (held, potential) rescaled by the same fit."""
    machine = machine_state()
    with Progress(console=console) as progress:
        train = return_samples(args.first, args.games, args.explore, progress)
        test = return_samples(args.first + args.games, args.games, args.explore, progress)
    hand = [RETURNS_NAMES.index(n) for n in ("bias", "rounds_left", "held", "potential")]
    found = {}
    every = list(range(len(RETURNS_NAMES)))
    for label, keep in (("hand terms and rounds left", hand), ("all", every)):
        weights = least_squares([([x[i] for i in keep], y) for x, y in train])
        residual = [y - sum(w * x[i] for w, i in zip(weights, keep, strict=True)) for x, y in test]
        ys = [y for _, y in test]
        r2 = 1 - statistics.pvariance(residual) / statistics.pvariance(ys)
        console.print(
            f"{label}: held-out R^2 {r2:.4f}, residual sd {statistics.pstdev(residual):.3f}"
        )
        found[label] = (weights, r2, statistics.pstdev(residual))
    weights, r2, sd = found["all"]
    data: dict[str, Any] = {
        "note": "fitted by bench/burgundy_leaf.py returns: least squares of the points still "
        "to come on engine/burgundy/search.py's RETURNS_NAMES, corrected heuristic solo games "
        "on duchy A",
        "games": args.games,
        "explore": args.explore,
        "samples": len(train),
        "held_out_r2": round(r2, 4),
        "held_out_residual_sd": round(sd, 3),
        "hand_terms_held_out_r2": round(found["hand terms and rounds left"][1], 4),
        "weights": {name: round(w, 5) for name, w in zip(RETURNS_NAMES, weights, strict=True)},
    }
    Path(args.out or RETURNS_FILE).write_text(json.dumps(data, indent=2) + "\n")
    console.print(machine_line(machine))


def least_squares(rows: list[tuple[list[float], float]]) -> list[float]:
    """Weights minimising the squared error plus ``RIDGE`` times their squares (the normal
    equations, solved by Gauss-Jordan elimination with partial pivoting)."""
    k = len(rows[0][0])
    a = [[0.0] * k for _ in range(k)]
    b = [0.0] * k
    for x, y in rows:
        for i in range(k):
            xi = x[i]
            if xi:
                b[i] += xi * y
                row = a[i]
                for j in range(k):
                    row[j] += xi * x[j]
    for i in range(k):
        a[i][i] += RIDGE * len(rows)
    for col in range(k):
        pivot = max(range(col, k), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        b[col], b[pivot] = b[pivot], b[col]
        for r in range(k):
            if r != col and a[r][col]:
                f = a[r][col] / a[col][col]
                for j in range(col, k):
                    a[r][j] -= f * a[col][j]
                b[r] -= f * b[col]
    return [b[i] / a[i][i] for i in range(k)]


def fit(console: Console, args: argparse.Namespace) -> None:
    machine = machine_state()
    with Progress(console=console) as progress:
        rows = samples(args.games, args.explore, progress)
    weights = least_squares(rows)
    predicted = [sum(w * x for w, x in zip(weights, xs, strict=True)) for xs, _ in rows]
    ys = [y for _, y in rows]
    residual = [y - p for y, p in zip(ys, predicted, strict=True)]
    r2 = 1 - statistics.pvariance(residual) / statistics.pvariance(ys)
    data: dict[str, Any] = {
        "note": "fitted by bench/burgundy_leaf.py fit: least squares of the points still to "
        "come on the features of engine/burgundy/leaf.py, heuristic solo games on duchy A",
        "games": args.games,
        "explore": args.explore,
        "samples": len(rows),
        "r2": round(r2, 4),
        "residual_sd": round(statistics.pstdev(residual), 3),
        "weights": {name: round(w, 5) for name, w in zip(NAMES, weights, strict=True)},
    }
    LEAF_FILE.write_text(json.dumps(data, indent=2) + "\n")
    console.print(
        f"{len(rows):,} sheets from {args.games} games: R^2 {r2:.3f}, residual sd "
        f"{statistics.pstdev(residual):.2f} points; written to {LEAF_FILE.name}"
    )
    console.print(machine_line(machine))


def evaluate(console: Console, args: argparse.Namespace) -> None:
    machine = machine_state()
    game = get_game("burgundy")
    make = FittedSearchBot if args.leaf == "fitted" else BurgundySearchBot
    found: dict[str, list[float]] = {"heuristic": [], "search": []}
    start = time.process_time()
    steps = 0
    with Progress(console=console) as progress:
        task = progress.add_task(f"solo, {args.leaf} leaf", total=args.games)
        for n in range(args.first, args.first + args.games):
            seed = f"solo-{n}"
            plain = play(game, [HeuristicBot()], seed, OPTIONS, bot_seed=n)
            found["heuristic"].append(plain.result.scores[0])
            searched = play(game, [make(iterations=args.iterations)], seed, OPTIONS, bot_seed=n)
            found["search"].append(searched.result.scores[0])
            steps += len(searched.moves)
            progress.advance(task)
    for name, values in found.items():
        console.print(f"{name}: {with_ci(values)}")
    diff = [s - h for s, h in zip(found["search"], found["heuristic"], strict=True)]
    console.print(
        f"search ({args.leaf} leaf, {args.iterations} simulations) - heuristic over "
        f"{args.games} seeds from solo-{args.first}: {with_ci(diff, signed=True)}; "
        f"{(time.process_time() - start) / max(1, steps) * 1000:.0f} ms CPU a step (both bots)"
    )
    console.print(machine_line(machine))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("what", choices=["fit", "evaluate", "returns"])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--explore", type=float, default=0.15)
    parser.add_argument("--iterations", type=int, default=120)
    parser.add_argument("--leaf", choices=["fitted", "potential"], default="fitted")
    parser.add_argument("--out", help="returns: the weights' file (default: the engine's)")
    args = parser.parse_args(argv)
    console = Console()
    if args.what == "fit":
        fit(console, args)
    elif args.what == "returns":
        returns(console, args)
    else:
        evaluate(console, args)


if __name__ == "__main__":
    main()
