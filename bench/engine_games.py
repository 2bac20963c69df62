"""Engine speed: whole games per second, bots against bots, no I/O.

    python bench/engine_games.py [--game carcassonne] [--games 300] [--seats 2]

Plays seeded games in memory through the public contract (the same calls the workers make)
and prints games/s and steps/s for random-vs-random (the baseline) and heuristic-vs-
heuristic, with the ratio of the two, all measured in this run.
"""

from __future__ import annotations

import argparse
import time

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from engine.games import get_game
from engine.simulate import make_bots, play


def measure(game_name: str, bots: list[str], games: int, progress: Progress) -> tuple[float, float]:
    game = get_game(game_name)
    task = progress.add_task(f"{game_name} {'-'.join(bots)}", total=games)
    steps = 0
    start = time.perf_counter()
    for n in range(games):
        steps += len(play(game, make_bots(game, bots), f"bench-{n}").moves)
        progress.advance(task)
    elapsed = time.perf_counter() - start
    return games / elapsed, steps / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="carcassonne")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seats", type=int, default=2)
    args = parser.parse_args()
    console = Console()
    rows = []
    with Progress(console=console) as progress:
        for bots in (["random"] * args.seats, ["heuristic"] * args.seats):
            rows.append((bots, *measure(args.game, bots, args.games, progress)))
    table = Table(title=f"engine: {args.game}, {args.seats} seats, {args.games} games each")
    for column in ("bots", "games/s", "steps/s", "vs baseline"):
        table.add_column(column, justify="right")
    base = rows[0][1]
    for bots, gps, sps in rows:
        table.add_row("-".join(bots), f"{gps:,.1f}", f"{sps:,.0f}", f"{gps / base:.2f}x")
    console.print(table)


if __name__ == "__main__":
    main()
