"""Fit the Burgundy heuristic to the search's own decisions, and screen the result (solo, A).

    python bench/burgundy_policy.py record --games 40 --first 0 --worlds 12 --out FILE
    python bench/burgundy_policy.py fit --data FILE [FILE ...] [--out FILE]
    python bench/burgundy_policy.py screen --correction FILE [--games 2000] [--first 0]

``record``: seeded solo games (``fit-N``, away from the target's ``solo-N``) on the fast path,
played by a search: at every round decision the wide search's candidates (the heuristic's
16 best of distinct effect, its favourite first) are each played in the same ``--worlds``
worlds (no halving, so every candidate's value is measured on every world: the search's two
rolls of lookahead and its leaf), and the game goes on with the best mean when it beats the
favourite by one standard error of the paired differences (the catalogue search's rule),
else the favourite. Each decision is one JSON line: the view, the candidates, the mean value
of each (the search's Q) and the index played; each game's score ends its lines.

``fit``: the solo correction (``engine.burgundy.bots.CORRECTION``): per phase, one weight per
kind of decision (``decision_features``: for each hex marked its colour and whether it
starts, adds to or completes an area; the bonus spent or a worker taken, and whether it was
the last of its kind; the sale), fitted by least squares (``bench/burgundy_leaf.py``'s, with
its small ridge term) so that the heuristic's one-round score plus the correction, centred
per decision, follows the search's values centred the same way (the values are regressed on
the score and the features; the correction is the features' weights over the score's).
``--base``: the correction the recorded games were played with (their rollouts' and
favourites' heuristic), which the fit adds to.

The fit reports the search's value of the heuristic's favourite over the recorded
favourite's, before and after the fit (in sample). (The heuristic's own weights are tuned,
and compared, by ``bench/burgundy_tune.py``.)

``screen``: on the same seeds (``screen-N``) on the fast path, the heuristic with a fitted
correction (``--correction``) against it without one; means with 95% CIs and the paired
difference (``--log``: each seed's two scores).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import statistics
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.burgundy_leaf import least_squares
from bench.burgundy_tune import scores, today
from bench.cluster import machine_line, machine_state
from bench.search import with_ci
from engine.burgundy import bots
from engine.burgundy.bots import HeuristicBot, decision_features, decision_parts
from engine.burgundy.duchy import DUCHIES
from engine.burgundy.search import BurgundySearchBot
from engine.games import get_game
from engine.search import FastDice, clearly_better, fast_step

OPTIONS = {"variant": "solo", "duchy": "A"}


def record_game(seed: str, worlds: int, out: Any) -> int:
    """One recorded solo game (see the module docstring); its final score."""
    game = get_game("burgundy")
    bot = BurgundySearchBot(iterations=720)  # wide: 16 candidates of distinct effect
    look = bot.look
    dice = FastDice(seed)
    rng = random.Random(seed)
    state = game.setup(1, game.validate_options(1, dict(OPTIONS)), dice)
    rows = []
    while not game.is_over(state):
        legal = game.legal_actions(state, 0)
        view = game.view(state, 0)
        if len(legal) == 1:
            action = legal[0]
        elif legal[0]["type"] == "pick_castle":
            action = look.rollout_bot.choose(view, legal, rng)
        else:
            candidates = look.candidates(view, legal, rng)
            history: list[list[float]] = [[] for _ in candidates]
            for w in range(worlds):
                world_seed = f"{seed}:{state.round}:{w}"
                for i, candidate in enumerate(candidates):
                    history[i].append(bot.simulate(view, 0, candidate, world_seed))
            means = [statistics.fmean(h) for h in history]
            best = max(range(len(candidates)), key=lambda i: (means[i], -i))
            if best and not clearly_better(history[best], history[0], look.switch_z):
                best = 0
            action = candidates[best]
            rows.append({"view": view, "candidates": candidates, "q": means, "pick": best})
        fast_step(game, state, 0, action, dice)
    result = game.result(state)
    assert result is not None
    score = int(result.scores[0])
    for row in rows:
        out.write(json.dumps({"seed": seed, "score": score, **row}) + "\n")
    out.flush()
    return score


def record(console: Console, args: argparse.Namespace) -> None:
    machine = machine_state()
    found = []
    with open(args.out, "a") as out:
        for n in range(args.first, args.first + args.games):
            found.append(record_game(f"fit-{n}", args.worlds, out))
            console.print(f"fit-{n}: {found[-1]} (mean so far {with_ci(found)})")
    machine["load_after"] = list(os.getloadavg())
    console.print(machine_line(machine))


def load(paths: Sequence[str]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for path in paths:
        with open(path) as f:
            rows.extend(json.loads(line) for line in f if line.strip())
    return rows


def centred(values: Sequence[float]) -> list[float]:
    mean = statistics.fmean(values)
    return [v - mean for v in values]


@contextlib.contextmanager
def corrected(correction: dict[str, float]) -> Iterator[None]:
    """The heuristic with ``correction`` while the block runs (the module's table patched)."""
    before = bots.CORRECTION
    bots.CORRECTION = correction
    try:
        yield
    finally:
        bots.CORRECTION = before


def features_of(row: dict[str, Any]) -> list[list[str]]:
    """Each recorded candidate's correction features, prefixed by the phase."""
    view = row["view"]
    duchy = DUCHIES[view["duchy"]["name"]]
    values = bots._values(view, 0)
    held = {k: v["available"] for k, v in view["players"][0]["bonuses"].items()}
    found = []
    for action in row["candidates"]:
        sell, spent, marks = decision_parts(view, action)
        kinds = decision_features(duchy, values, held, sell, spent, marks)
        found.append([f"{view['phase']}:{k}" for k in kinds])
    return found


def fit(console: Console, args: argparse.Namespace) -> None:
    machine = machine_state()
    rows = load(args.data)
    base = json.loads(Path(args.base).read_text())["weights"] if args.base else {}
    bot = HeuristicBot()
    blocks: list[tuple[list[float], list[list[str]], list[float]]] = []
    with corrected(base):
        for row in rows:
            scored = bot.scores(row["view"], row["candidates"])
            blocks.append((centred(scored), features_of(row), centred(row["q"])))
    order = sorted({k for _, kinds, _ in blocks for ks in kinds for k in ks})
    index = {name: n for n, name in enumerate(order)}
    # the features centred per decision, as the scores and values are
    design: list[tuple[list[float], float]] = []
    for scores_, kinds, qs in blocks:
        xs = []
        for ks in kinds:
            x = [0.0] * len(order)
            for k in ks:
                x[index[k]] += 1.0
            xs.append(x)
        means = [statistics.fmean(col) for col in zip(*xs, strict=True)]
        for score, x, q in zip(scores_, xs, qs, strict=True):
            design.append(([score, *(a - m for a, m in zip(x, means, strict=True))], q))
    weights = least_squares(design)
    slope = weights[0]
    correction = dict(base)
    for name, w in zip(order, weights[1:], strict=True):
        correction[name] = round(correction.get(name, 0.0) + w / slope, 4)
    before_loss, before_gain = agreement(base, rows)
    after_loss, after_gain = agreement(correction, rows)
    console.print(
        f"{len(rows)} decisions, {len(design)} candidates; values on scores: slope {slope:.3f}; "
        f"favourite's value over the recorded one's {before_gain:+.3f} before the fit, "
        f"{after_gain:+.3f} after (squared error {before_loss:.3f} -> {after_loss:.3f})"
    )
    for name, w in correction.items():
        console.print(f"  {name}: {w:+.3f}")
    data = {
        "note": "fitted by bench/burgundy_policy.py fit: per phase, what the search's values "
        "of a kind of decision add to the heuristic's one-round score (solo, duchy A)",
        "decisions": len(rows),
        "games": len({row["seed"] for row in rows}),
        "base": args.base,
        "favourite_gain": [round(before_gain, 4), round(after_gain, 4)],
        "weights": correction,
        "machine": machine,
    }
    Path(args.out).write_text(json.dumps(data, indent=2) + "\n")
    machine["load_after"] = list(os.getloadavg())
    console.print(machine_line(machine))


def agreement(correction: dict[str, float], rows: list[dict[str, Any]]) -> tuple[float, float]:
    """:func:`loss` of the heuristic with ``correction``."""
    with corrected(correction):
        return loss(rows)


def loss(rows: list[dict[str, Any]]) -> tuple[float, float]:
    """Mean squared error of the centred scores against the centred values, and the mean
    value (the search's) of the best-scored candidate over the recorded favourite's."""
    bot = HeuristicBot()
    error = 0.0
    gain = 0.0
    for row in rows:
        s = bot.scores(row["view"], row["candidates"])
        error += sum((a - b) ** 2 for a, b in zip(centred(s), centred(row["q"]), strict=True))
        best = max(range(len(s)), key=lambda i: (s[i], -i))
        gain += row["q"][best] - row["q"][0]
    return error / len(rows), gain / len(rows)


def screen(console: Console, args: argparse.Namespace) -> None:
    machine = machine_state()
    if not args.correction:
        raise SystemExit("screen needs --correction FILE")
    seeds = [f"screen-{n}" for n in range(args.first, args.first + args.games)]
    with corrected({}):
        base = scores(today(), seeds)
    with corrected(json.loads(Path(args.correction).read_text())["weights"]):
        new = scores(today(), seeds)
    diffs = [a - b for a, b in zip(new, base, strict=True)]
    if args.log:
        with open(args.log, "a") as log:
            for seed, a, b in zip(seeds, base, new, strict=True):
                log.write(json.dumps({"seed": seed, "today": a, "fitted": b}) + "\n")
    console.print(f"today's heuristic: {with_ci(base)}; fitted: {with_ci(new)}")
    console.print(
        f"paired difference {with_ci(diffs, signed=True)} over {len(diffs)} seeds from "
        f"screen-{args.first}; better on {sum(d > 0 for d in diffs)}, "
        f"worse on {sum(d < 0 for d in diffs)}"
    )
    machine["load_after"] = list(os.getloadavg())
    console.print(machine_line(machine))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("what", choices=["record", "fit", "screen"])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--worlds", type=int, default=12)
    parser.add_argument("--out", default=str(bots.POLICY_FILE))
    parser.add_argument("--data", nargs="+", default=[])
    parser.add_argument("--correction", help="screen: a fitted correction (fit's file)")
    parser.add_argument("--base", help="fit: the correction the recorded games played with")
    parser.add_argument("--log", help="screen: append each seed's two scores (JSON lines)")
    args = parser.parse_args(argv)
    console = Console()
    {"record": record, "fit": fit, "screen": screen}[args.what](console, args)


if __name__ == "__main__":
    main()
