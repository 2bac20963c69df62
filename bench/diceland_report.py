"""Diceland bots-only report: N seeded games per line-up, checked for illegal actions.

Run by hand: ``/work/venv/bin/python bench/diceland_report.py --games 1000``. Prints, per
line-up, the games played, illegal actions (any IllegalAction a bot's choice raises, or a
choice not among the legal actions), the average number of turns until the game was won
(a turn is one player's phase 1 + phase 2 + treasure throws) and rounds (turns / seats), and
for heuristic-against-random line-ups the heuristic's win rate (a shared win counts).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from engine.diceland import GAME
from engine.simulate import make_bots, play

LINEUPS: list[list[str]] = [
    ["random", "random"],
    ["heuristic", "random"],
    ["heuristic", "heuristic"],
    ["heuristic", "random", "random"],
    ["heuristic", "random", "random", "random"],
]


@dataclass
class Tally:
    """Totals for one line-up."""

    games: int = 0
    illegal: int = 0
    turns: int = 0
    rounds: float = 0.0
    heuristic_wins: int = 0
    seconds: float = 0.0


def play_one(names: list[str], seed: str, bot_seed: int) -> tuple[int, list[int], int]:
    """Play one game; return (turns, winners, illegal actions seen)."""
    played = play(GAME, make_bots(GAME, names), seed, bot_seed=bot_seed, strict=False)
    return played.state.turn, played.result.winners, played.illegal


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per line-up")
    args = parser.parse_args()
    console = Console(width=100) if not sys.stdout.isatty() else Console()
    tallies: list[tuple[list[str], Tally]] = []
    with Progress(console=console) as progress:
        for names in LINEUPS:
            tally = Tally()
            task = progress.add_task(" v ".join(names), total=args.games)
            for n in range(args.games):
                # rotate the seats so the heuristic plays every seat equally often
                shift = n % len(names)
                seated = names[shift:] + names[:shift]
                seed = f"diceland-report-{'-'.join(names)}-{n}"
                start = time.perf_counter()
                turns, winners, illegal = play_one(seated, seed, n)
                tally.seconds += time.perf_counter() - start
                tally.games += 1
                tally.illegal += illegal
                tally.turns += turns
                tally.rounds += turns / len(names)
                tally.heuristic_wins += any(seated[w] == "heuristic" for w in winners)
                progress.advance(task)
            tallies.append((names, tally))
    table = Table(title=f"Diceland bots-only report ({args.games} games per line-up)")
    for column in (
        "line-up",
        "games",
        "illegal",
        "avg turns",
        "avg rounds",
        "heuristic wins",
        "ms/game",
    ):
        table.add_column(column, justify="right", no_wrap=True)
    for names, t in tallies:
        share = (
            f"{100 * t.heuristic_wins / t.games:.1f}%"
            if "heuristic" in names and "random" in names
            else "-"
        )
        table.add_row(
            " v ".join(n[0].upper() for n in names),
            str(t.games),
            str(t.illegal),
            f"{t.turns / t.games:.1f}",
            f"{t.rounds / t.games:.1f}",
            share,
            f"{1000 * t.seconds / t.games:.0f}",
        )
    console.print(table)
    console.print("H = heuristic, R = random; seats rotate from game to game.")


if __name__ == "__main__":
    main()
