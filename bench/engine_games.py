"""Engine speed: whole games per second, bots against bots, no I/O.

    python bench/engine_games.py [--game carcassonne] [--games 200] [--seats 2]

Plays seeded games in memory through the public contract (the same calls the workers make)
for two line-ups, heuristic bots only and heuristic against random (random against random is
no line-up for Carcassonne: two random players almost never close a city). The baseline,
measured in the same run on the same states, is the JSON round trip of the state that the
service does on every move (dump, encode, decode, load): the ratio says how many such round
trips one engine step costs.
"""

from __future__ import annotations

import argparse
import json
import time

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from engine.contract import Game
from engine.games import get_game
from engine.simulate import make_bots, play


def measure(
    game: Game, bots: list[str], games: int, progress: Progress, states: list
) -> tuple[float, float]:
    """Games/s and steps/s for a line-up; keeps every 10th state seen for the baseline."""
    task = progress.add_task(f"{game.name} {' v '.join(bots)}", total=games)
    steps = 0
    elapsed = 0.0
    for n in range(games):
        start = time.perf_counter()
        played = play(game, make_bots(game, bots), f"bench-{n}")
        elapsed += time.perf_counter() - start
        steps += len(played.moves)
        states.append(played.state)
        progress.advance(task)
    return games / elapsed, steps / elapsed


def codec_round_trips_per_second(game: Game, states: list, rounds: int = 5) -> float:
    start = time.perf_counter()
    for _ in range(rounds):
        for state in states:
            game.load_state(json.loads(json.dumps(game.dump_state(state))))
    return rounds * len(states) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="carcassonne")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seats", type=int, default=2)
    args = parser.parse_args()
    game = get_game(args.game)
    console = Console()
    states: list = []
    lineups = [["heuristic"] * args.seats, ["heuristic"] + ["random"] * (args.seats - 1)]
    with Progress(console=console) as progress:
        rows = [(bots, *measure(game, bots, args.games, progress, states)) for bots in lineups]
    baseline = codec_round_trips_per_second(game, states)
    table = Table(title=f"engine: {args.game}, {args.seats} seats, {args.games} games a line-up")
    for column in ("line-up", "games/s", "steps/s", "state JSON round trips per step"):
        table.add_column(column, justify="right")
    for bots, gps, sps in rows:
        table.add_row(" v ".join(bots), f"{gps:,.1f}", f"{sps:,.0f}", f"{baseline / sps:.2f}")
    console.print(table)
    console.print(f"baseline: {baseline:,.0f} state JSON round trips/s (dump, encode, load)")


if __name__ == "__main__":
    main()
