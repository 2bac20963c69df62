"""Search bots: engine speed for lookahead, solo targets and mirrored tournaments.

    python bench/search.py speed [--seconds 3]
    python bench/search.py solo --game carcassonne --games 200 [--iterations 200 | --budget-ms 100]
        [--log FILE]
    python bench/search.py summary --game carcassonne --log FILE [--iterations 200]
    python bench/search.py tournament --game kingdice --seats 2 --rounds 40 [--iterations 48]

``speed``: steps per second per game on the checked path (``apply`` with verifiable ``Dice``,
what the service does), on the fast path (``perform`` with ``FastDice``, what search does)
with random moves, and heuristic-guided on the fast path (the heuristic choosing from each
view, what a search rollout costs); the checked path is the baseline measured in the same run.

``solo``: the search bot and the heuristic on the same seeds (Carcassonne: turns to 42;
Burgundy duchy A solo: points), means with 95% confidence intervals and the paired
difference. ``tournament``: search, heuristic and random (a second random for 4 seats) in a
mirrored tournament (each deal played with the seats rotated), rated in schedule order with
openskill Plackett-Luce as the service does (``mu +- 2 sigma``, ordinal ``mu - 3 sigma``).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from engine.contract import Bot, Game
from engine.dice import Dice
from engine.games import LISTED, get_game
from engine.search import FastDice, fast_step
from engine.simulate import play
from service.tournaments import Participant, Tournament, schedule

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.engine.burgundy_reference import ReferenceHeuristic

SOLO = {
    "carcassonne": ({}, lambda result: result.detail["solo_turns"], "turns to 42"),
    "burgundy": ({"variant": "solo", "duchy": "A"}, lambda result: result.scores[0], "points"),
}
SPEED_SEATS = {"burgundy": 2, "carcassonne": 2, "diceland": 2, "kingdice": 2}


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% confidence interval (normal approximation)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.inf
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


# --- speed ------------------------------------------------------------------------------
def steps_per_second(game: Game, mode: str, seconds: float, heuristic: Bot | None = None) -> float:
    """Steps/s over seeded games for one mode: checked, fast or guided (see module doc)."""
    seats = SPEED_SEATS[game.name]
    heuristic = heuristic or game.bots["heuristic"]()
    rng = random.Random(0)
    steps, n = 0, 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        seed = f"speed-{n}"
        n += 1
        dice: Dice = Dice(seed) if mode == "checked" else FastDice(seed)
        state = game.setup(seats, game.validate_options(seats, {}), dice)
        while not game.is_over(state) and time.process_time() - start < seconds:
            seat = min(game.to_act(state))
            legal = game.legal_actions(state, seat)
            if mode == "guided" and legal[0]["type"] == "pick_castle":
                action = legal[0]  # the reference heuristic covers round decisions only
            elif mode == "guided":
                action = heuristic.choose(game.view(state, seat), legal, rng)
            else:
                action = rng.choice(legal)
            if mode == "checked":
                game.apply(state, seat, action, dice)
            else:
                fast_step(game, state, seat, action, dice)
            steps += 1
    return steps / (time.process_time() - start)


def speed(console: Console, seconds: float) -> None:
    table = Table(title=f"engine steps per CPU second ({seconds:g} s a cell, 2 seats)")
    for column in ("game", "checked (apply, Dice)", "fast (perform, FastDice)", "x", "guided"):
        table.add_column(column, justify="right")
    for name in LISTED:
        game = get_game(name)
        checked = steps_per_second(game, "checked", seconds)
        fast = steps_per_second(game, "fast", seconds)
        guided = steps_per_second(game, "guided", seconds)
        table.add_row(
            name, f"{checked:,.0f}", f"{fast:,.0f}", f"{fast / checked:.1f}", f"{guided:,.0f}"
        )
    console.print(table)
    console.print("baseline: the checked path, measured in the same run")
    burgundy_heuristic(console, seconds)


def recorded_decisions(game: Game, count: int) -> list[tuple[Any, list[Any]]]:
    """Round decisions (view, legal actions) of seeded Burgundy games of 1 to 4 seats."""
    heuristic = game.bots["heuristic"]()
    found: list[tuple[Any, list[Any]]] = []
    n = 0
    while len(found) < count:
        seats = 1 + n % 4
        options = {"variant": "solo"} if seats == 1 else {}
        dice = Dice(f"evaluation-{n}")
        n += 1
        state = game.setup(seats, game.validate_options(seats, options), dice)
        while game.result(state) is None:
            seat = min(game.to_act(state))
            view, legal = game.view(state, seat), game.legal_actions(state, seat)
            if legal[0]["type"] != "pick_castle":
                found.append((view, legal))
            game.apply(state, seat, heuristic.choose(view, legal, random.Random(n)), dice)
    return found[:count]


def decisions_per_second(bot: Bot, decisions: list[tuple[Any, list[Any]]], seconds: float) -> float:
    """How many of ``decisions`` ``bot`` makes per CPU second (cycling through them)."""
    done = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for view, legal in decisions:
            bot.choose(view, legal, random.Random(done))
            done += 1
    return done / (time.process_time() - start)


def burgundy_heuristic(console: Console, seconds: float) -> None:
    """The Burgundy heuristic against the reference (its first, whole-sheet version)."""
    game = get_game("burgundy")
    decisions = recorded_decisions(game, 600)
    table = Table(title="Burgundy heuristic: fast evaluation against the reference")
    for column in ("measure", "reference", "fast", "x"):
        table.add_column(column, justify="right")
    for measure, rate in (
        (
            "decisions/s (600 recorded, 1-4 seats)",
            lambda b: decisions_per_second(b, decisions, seconds),
        ),
        (
            "guided steps/s (2 seats, fast path)",
            lambda b: steps_per_second(game, "guided", seconds, b),
        ),
    ):
        reference, fast = rate(ReferenceHeuristic()), rate(game.bots["heuristic"]())
        table.add_row(measure, f"{reference:,.0f}", f"{fast:,.0f}", f"{fast / reference:.1f}")
    console.print(table)


# --- solo -------------------------------------------------------------------------------
def search_bot(game: Game, args: argparse.Namespace) -> Bot:
    make: Any = game.bots["search"]  # a search factory takes its budget
    if args.iterations:
        return make(iterations=args.iterations)
    return make(budget_ms=args.budget_ms)


def solo(console: Console, args: argparse.Namespace) -> None:
    game = get_game(args.game)
    options, measure, unit = SOLO[args.game]
    found: dict[str, list[float]] = {"heuristic": [], "search": []}
    times: list[float] = []
    with Progress(console=console) as progress:
        task = progress.add_task(f"{args.game} solo", total=args.games)
        for n in range(args.first, args.first + args.games):
            seed = f"solo-{n}"
            heuristic = play(game, [game.bots["heuristic"]()], seed, options, bot_seed=n)
            found["heuristic"].append(measure(heuristic.result))
            start = time.process_time()
            searched = play(game, [search_bot(game, args)], seed, options, bot_seed=n)
            times.append((time.process_time() - start) / max(1, len(searched.moves)))
            found["search"].append(measure(searched.result))
            if args.log:
                with open(args.log, "a") as log:
                    row = {"seed": seed, "heuristic": found["heuristic"][-1]}
                    log.write(json.dumps({**row, "search": found["search"][-1]}) + "\n")
            progress.advance(task)
    report_solo(console, args, found, times, unit)


def report_solo(
    console: Console,
    args: argparse.Namespace,
    found: dict[str, list[float]],
    times: list[float],
    unit: str,
) -> None:
    """The solo table: each bot's mean with its 95% CI, and the paired difference."""
    games = len(found["search"])
    table = Table(title=f"{args.game} solo, {games} seeds, {unit} ({budget_text(args)})")
    for column in ("bot", "mean", "95% CI", "median"):
        table.add_column(column, justify="right")
    for name, values in found.items():
        mean, half = mean_ci(values)
        table.add_row(
            name,
            f"{mean:.2f}",
            f"{mean - half:.2f}-{mean + half:.2f}",
            f"{statistics.median(values):g}",
        )
    console.print(table)
    diff = [s - h for s, h in zip(found["search"], found["heuristic"], strict=True)]
    mean, half = mean_ci(diff)
    better = sum(1 for d in diff if (d < 0 if args.game == "carcassonne" else d > 0))
    worse = sum(1 for d in diff if (d > 0 if args.game == "carcassonne" else d < 0))
    console.print(
        f"search - heuristic: {mean:+.2f} (95% CI {mean - half:+.2f} to {mean + half:+.2f}); "
        f"search better on {better} seeds, worse on {worse}"
        + (f"; {statistics.fmean(times) * 1000:.0f} ms CPU per step" if times else "")
    )


def summary(console: Console, args: argparse.Namespace) -> None:
    """The solo table from a ``--log`` file (a run stopped early, or runs combined)."""
    found: dict[str, list[float]] = {"heuristic": [], "search": []}
    with open(args.log) as log:
        rows = {row["seed"]: row for row in map(json.loads, log)}
    for row in rows.values():
        for name in found:
            found[name].append(row[name])
    report_solo(console, args, found, [], SOLO[args.game][2])


def budget_text(args: argparse.Namespace) -> str:
    if args.iterations:
        return f"search: {args.iterations} simulations a decision"
    return f"search: {args.budget_ms:g} ms a decision"


# --- tournament ---------------------------------------------------------------------------
def tournament(console: Console, args: argparse.Namespace) -> None:
    game = get_game(args.game)
    names = ["search", "heuristic", "random"] + (["random-b"] if args.seats == 4 else [])
    t = Tournament(
        id="bench",
        game=game.name,
        options={},
        participants=[Participant(name, bot=name.split("-")[0]) for name in names],
        games=args.rounds * args.seats,
        format="mirrored",
        seats_per_game=args.seats,
        seed=f"bench-{args.game}-{args.seats}",
        decision_seconds=None,
        concurrency=1,
        created_at=0.0,
    )
    model = PlackettLuce()
    ratings = [model.rating(name=name) for name in names]
    wins = [0] * len(names)
    played = [0] * len(names)
    plan = schedule(t)
    with Progress(console=console) as progress:
        task = progress.add_task(f"{args.game} {args.seats} seats", total=len(plan))
        for index, (seating, seed) in enumerate(plan):
            bots = [
                search_bot(game, args)
                if names[p] == "search"
                else game.bots[names[p].split("-")[0]]()
                for p in seating
            ]
            result = play(game, bots, seed, {}, bot_seed=index).result
            ranks = [float(rank) for rank in result.ranks]  # openskill types them as floats
            teams = model.rate([[ratings[p]] for p in seating], ranks=ranks)
            for seat, p in enumerate(seating):
                ratings[p] = teams[seat][0]
                played[p] += 1
                wins[p] += result.ranks[seat] == 1
            progress.advance(task)
    table = Table(
        title=f"{args.game}, {args.seats} seats, mirrored, {len(plan)} games ({budget_text(args)})"
    )
    for column in ("bot", "mu", "mu +- 2 sigma", "ordinal", "games", "wins"):
        table.add_column(column, justify="right")
    order = sorted(range(len(names)), key=lambda n: -ratings[n].ordinal())
    for n in order:
        r = ratings[n]
        table.add_row(
            names[n],
            f"{r.mu:.2f}",
            f"{r.mu - 2 * r.sigma:.2f}-{r.mu + 2 * r.sigma:.2f}",
            f"{r.ordinal():.2f}",
            str(played[n]),
            str(wins[n]),
        )
    console.print(table)
    s, h, r = (ratings[names.index(x)] for x in ("search", "heuristic", "random"))
    console.print(
        "intervals separate: search > heuristic "
        f"{s.mu - 2 * s.sigma > h.mu + 2 * h.sigma}, heuristic > random "
        f"{h.mu - 2 * h.sigma > r.mu + 2 * r.sigma}"
    )


def main(argv: Sequence[str] | None = None) -> Any:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("what", choices=["speed", "solo", "summary", "tournament"])
    parser.add_argument("--game", default="carcassonne", choices=LISTED)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="first seed number (solo)")
    parser.add_argument("--rounds", type=int, default=40, help="deals (tournament)")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=0)
    parser.add_argument("--budget-ms", type=float, default=1000.0)
    parser.add_argument("--seconds", type=float, default=3.0, help="per cell (speed)")
    parser.add_argument("--log", help="append each solo seed's figures to this file (JSON lines)")
    args = parser.parse_args(argv)
    console = Console()
    if args.what == "speed":
        speed(console, args.seconds)
    elif args.what == "solo":
        solo(console, args)
    elif args.what == "summary":
        summary(console, args)
    else:
        tournament(console, args)


if __name__ == "__main__":
    main()
