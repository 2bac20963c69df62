"""Carcassonne dice: the heuristic bot against the random bot, solo turns, engine speed.

    python bench/carcassonne_report.py [--games 200] [--solo 500] [--speed 100] [--random 3]

1. ``--games`` seeded 2-seat games, heuristic vs random, the heuristic taking seat 0 in the
   even games and seat 1 in the odd ones: the heuristic's win rate and the game length.
2. ``--solo`` seeded solo games with the heuristic: turns to reach 42 (the solo mode's
   measure), and how its turns ended (points per scoring turn, knights held).
3. ``--speed`` seeded 2-seat heuristic-vs-heuristic games: whole games per second through
   ``engine.simulate.play`` (bots included), engine steps per second, the largest
   legal-action list and the time ``legal_actions`` takes.
4. ``--random`` seeded random-vs-random games, to show how long uniform play takes.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from engine.carcassonne import GAME
from engine.contract import Bot
from engine.simulate import Played, make_bots, play


class Meter:
    """Largest legal list seen and the time spent listing legal actions."""

    def __init__(self) -> None:
        self.largest = 0
        self.calls = 0
        self.seconds = 0.0

    def __call__(self, game: Any, state: Any, seat: int, action: dict[str, Any]) -> None:
        start = time.perf_counter()
        legal = game.legal_actions(state, seat)
        self.seconds += time.perf_counter() - start
        self.calls += 1
        self.largest = max(self.largest, len(legal))


class TimedBot(Bot):
    """A bot that counts the time its strategy spends choosing (to separate engine time)."""

    def __init__(self, inner: Bot, clock: list[float]) -> None:
        self.inner = inner
        self.clock = clock

    def choose(self, view: dict[str, Any], legal: list[dict[str, Any]], rng: Any) -> Any:
        start = time.perf_counter()
        try:
            return self.inner.choose(view, legal, rng)
        finally:
            self.clock[0] += time.perf_counter() - start


def endings(played: list[Played]) -> dict[str, float]:
    """Per-turn figures from the events of finished games (every seat)."""
    scored = [e for p in played for e in p.events if e["type"] == "scored"]
    held = sum(1 for p in played for e in p.events if e["type"] == "knight_held")
    turns = sum(sum(p.result.detail["turns"]) for p in played)
    return {
        "turns": turns,
        "points per turn": sum(e["points"] for e in scored) / max(turns, 1),
        "scoring turns with points": sum(1 for e in scored if e["points"]) / max(turns, 1),
        "knights held per turn": held / max(turns, 1),
        "catapult wins": sum(1 for p in played if p.result.detail["won_by"] == "catapults"),
    }


def versus(games: int, progress: Progress) -> tuple[int, list[int]]:
    task = progress.add_task("heuristic vs random", total=games)
    wins, lengths = 0, []
    for n in range(games):
        names = ["heuristic", "random"] if n % 2 == 0 else ["random", "heuristic"]
        played = play(GAME, make_bots(GAME, names), f"carcassonne-vs-{n}", bot_seed=n)
        wins += names[played.result.winners[0]] == "heuristic"
        lengths.append(sum(played.result.detail["turns"]))
        progress.advance(task)
    return wins, lengths


def solo(games: int, progress: Progress) -> tuple[list[int], list[Played]]:
    task = progress.add_task("solo heuristic", total=games)
    turns, played = [], []
    for n in range(games):
        game = play(GAME, make_bots(GAME, ["heuristic"]), f"carcassonne-solo-{n}", bot_seed=n)
        turns.append(game.result.detail["solo_turns"])
        played.append(game)
        progress.advance(task)
    return turns, played


def speed(games: int, progress: Progress) -> tuple[float, float, int]:
    """Whole seconds, seconds spent inside the bots, and steps, over ``games`` games."""
    task = progress.add_task("heuristic vs heuristic (speed)", total=games)
    steps, clock = 0, [0.0]
    start = time.perf_counter()
    for n in range(games):
        bots = [TimedBot(bot, clock) for bot in make_bots(GAME, ["heuristic", "heuristic"])]
        game = play(GAME, bots, f"carcassonne-speed-{n}", bot_seed=n)
        steps += len(game.moves)
        progress.advance(task)
    return time.perf_counter() - start, clock[0], steps


def listing(games: int, meter: Meter, progress: Progress) -> None:
    task = progress.add_task("legal_actions timing", total=games)
    for n in range(games):
        play(
            GAME,
            make_bots(GAME, ["heuristic", "random"]),
            f"carcassonne-list-{n}",
            on_step=meter,
            bot_seed=n,
        )
        progress.advance(task)


def uniform(games: int, progress: Progress) -> tuple[float, list[int]]:
    task = progress.add_task("random vs random", total=games)
    turns = []
    start = time.perf_counter()
    for n in range(games):
        game = play(GAME, make_bots(GAME, ["random", "random"]), f"carcassonne-rr-{n}", bot_seed=n)
        turns.append(sum(game.result.detail["turns"]))
        progress.advance(task)
    return time.perf_counter() - start, turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--solo", type=int, default=500)
    parser.add_argument("--speed", type=int, default=100)
    parser.add_argument("--random", type=int, default=3)
    args = parser.parse_args()
    console = Console()
    meter = Meter()
    with Progress(console=console) as progress:
        wins, lengths = versus(args.games, progress)
        solo_turns, solo_games = solo(args.solo, progress)
        seconds, thinking, steps = speed(args.speed, progress)
        listing(args.speed, meter, progress)
        rr_seconds, rr_turns = uniform(args.random, progress) if args.random else (0.0, [])

    table = Table(title="Carcassonne: The Dice Game, bots-only report")
    table.add_column("measure")
    table.add_column("value", justify="right")
    games = max(args.games, 1)
    table.add_row(
        f"heuristic vs random, {args.games} 2-seat games (seats alternate)",
        f"{wins}/{args.games} = {100 * wins / games:.1f}% won",
    )
    if lengths:
        table.add_row("  turns per game (both seats)", f"{statistics.mean(lengths):.1f}")
    if solo_turns:
        table.add_row(
            f"solo heuristic, {args.solo} games: turns to 42",
            f"mean {statistics.mean(solo_turns):.2f}, median {statistics.median(solo_turns)}, "
            f"sd {statistics.pstdev(solo_turns):.1f}, best {min(solo_turns)}, "
            f"worst {max(solo_turns)}",
        )
        figures = endings(solo_games)
        table.add_row("  points per turn", f"{figures['points per turn']:.2f}")
        table.add_row(
            "  turns that scored points", f"{100 * figures['scoring turns with points']:.0f}%"
        )
        table.add_row(
            "  turns ended by holding a knight", f"{100 * figures['knights held per turn']:.1f}%"
        )
        table.add_row("  games won by nine catapults", str(figures["catapult wins"]))
    if steps:
        table.add_row(
            f"heuristic vs heuristic, {args.speed} games (bots included)",
            f"{args.speed / seconds:.1f} games/s, {steps / seconds:,.0f} steps/s",
        )
        engine = seconds - thinking
        table.add_row(
            "  the same without the bots' thinking (engine, views, legal lists)",
            f"{args.speed / engine:.1f} games/s, {steps / engine:,.0f} steps/s",
        )
    if meter.calls:
        table.add_row(
            "legal_actions (heuristic vs random games)",
            f"largest list {meter.largest}, {1e6 * meter.seconds / meter.calls:.0f} us a call",
        )
    if rr_turns:
        table.add_row(
            f"random vs random, {args.random} games",
            f"mean {statistics.mean(rr_turns):,.0f} turns, {rr_seconds / args.random:.1f} s a game",
        )
    console.print(table)


if __name__ == "__main__":
    main()
