"""Fit the Diceland leaf (``engine.diceland.leaf.WEIGHTS``) and measure how well it predicts.

    python bench/diceland_leaf.py fit [--games 300] [--seat-counts 2,3,4]

Seeded games of heuristics for every seat (the search's rollout policy, on the fast path),
2, 3 and 4 seats; at the start of every turn, the features of every seat
(``engine.diceland.leaf.features``) and who went on to win. A conditional logit (the winner
drawn among the seats in proportion to ``exp(weights . features)``, Newton's method with a
small ridge term) is fitted on four games in five and scored on the fifth, against the
search's former leaf (the progress margin of ``engine.diceland.search.progress`` through
the same softmax with its best scale) and against no knowledge (every seat alike): mean
log-loss of the winner's predicted chance, lower is better. Prints the weights to paste
into ``engine/diceland/leaf.py``.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

import numpy as np
from rich.console import Console

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.cluster import machine_line, machine_state
from engine.diceland.bots import HeuristicBot
from engine.diceland.leaf import NAMES, features
from engine.diceland.search import progress
from engine.diceland.state import Phase
from engine.games import get_game
from engine.search import FastDice, fast_step

RIDGE = 1e-3

Sample = tuple[np.ndarray, np.ndarray, np.ndarray]
"""One position: features (seats x k), the former leaf's progress (seats) and the winners'
shares (seats, summing to one)."""


def positions(seats: int, games: int, seed: str) -> list[list[Sample]]:
    """Per game, its turn-start positions (games ended by the turn limit are left out)."""
    game = get_game("diceland")
    bot = HeuristicBot()
    found = []
    for n in range(games):
        dice = FastDice(f"{seed}-{seats}-{n}")
        rng = random.Random(n)
        state = game.setup(seats, game.validate_options(seats, {}), dice)
        rows: list[tuple[list[list[float]], list[float]]] = []
        turn = 0
        while not game.is_over(state):
            if state.phase == Phase.CHOOSE and state.turn != turn:
                turn = state.turn
                rows.append(
                    (
                        [features(state, s) for s in range(seats)],
                        [progress(state, s) for s in range(seats)],
                    )
                )
            prompts = game.to_act(state)
            actor = min(prompts)
            legal = game.legal_actions(state, actor)
            view = game.view(state, actor)
            action = legal[0] if len(legal) == 1 else bot.choose(view, legal, rng)
            fast_step(game, state, actor, action, dice)
        if not state.winners:
            continue
        won = np.zeros(seats)
        won[state.winners] = 1 / len(state.winners)
        found.append([(np.array(x, float), np.array(p, float), won) for x, p in rows])
    return found


def log_loss(samples: list[Sample], scores: list[np.ndarray]) -> float:
    """Mean over positions of minus the log of the chance given to the winners."""
    total = 0.0
    for (_, _, won), v in zip(samples, scores, strict=True):
        v = v - v.max()
        logp = v - math.log(np.exp(v).sum())
        total -= float((won * logp).sum())
    return total / len(samples)


def fit_logit(samples: list[Sample]) -> np.ndarray:
    """The conditional logit's weights by Newton's method (ridge ``RIDGE`` per position)."""
    k = samples[0][0].shape[1]
    w = np.zeros(k)
    for _ in range(30):
        grad = -RIDGE * len(samples) * w
        hess = -RIDGE * len(samples) * np.eye(k)
        for x, _, won in samples:
            v = x @ w
            p = np.exp(v - v.max())
            p /= p.sum()
            mean = p @ x
            grad += won @ x - mean
            hess -= (x.T * p) @ x - np.outer(mean, mean)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-7:
            break
    return w


def best_scale(samples: list[Sample]) -> float:
    """The softmax scale that makes the former leaf's progress predict best (golden search)."""
    lo, hi = 0.0, 1.0
    for _ in range(40):
        a, b = lo + 0.382 * (hi - lo), lo + 0.618 * (hi - lo)
        la = log_loss(samples, [a * p for _, p, _ in samples])
        lb = log_loss(samples, [b * p for _, p, _ in samples])
        lo, hi = (lo, b) if la < lb else (a, hi)
    return (lo + hi) / 2


def fit(console: Console, args: argparse.Namespace) -> None:
    machine = machine_state()
    start = time.process_time()
    train: list[Sample] = []
    test: list[Sample] = []
    counts = [int(c) for c in args.seat_counts.split(",")]
    for seats in counts:
        for n, rows in enumerate(positions(seats, args.games, args.seed)):
            (test if n % 5 == 4 else train).extend(rows)
    weights = fit_logit(train)
    scale = best_scale(train)
    console.print(
        f"{len(train):,} positions to fit, {len(test):,} to test, from {args.games} games "
        f"each at {args.seat_counts} seats ({time.process_time() - start:.0f} s CPU)"
    )
    for name, w in zip(NAMES, weights, strict=True):
        console.print(f"  {name:>15}: {w:+.5f}")
    console.print(f"WEIGHTS = ({', '.join(f'{w:.5f}' for w in weights)})")
    groups = [("all", test), *((f"{s} seats", [t for t in test if len(t[2]) == s]) for s in counts)]
    for label, group in groups:
        if not group:
            continue
        fitted = log_loss(group, [x @ weights for x, _, _ in group])
        former = log_loss(group, [scale * p for _, p, _ in group])
        none = log_loss(group, [np.zeros(len(p)) for _, p, _ in group])
        console.print(
            f"held-out log-loss ({label}, {len(group):,} positions): fitted {fitted:.4f}, "
            f"former leaf {former:.4f} (scale {scale:.4f}), no knowledge {none:.4f}"
        )
    console.print(machine_line(machine))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("what", choices=["fit"])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seat-counts", default="2,3,4")
    parser.add_argument("--seed", default="leaf")
    args = parser.parse_args(argv)
    fit(Console(), args)


if __name__ == "__main__":
    main()
