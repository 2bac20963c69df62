"""Burgundy dice: the heuristic bot's solo score and the size of the legal-action lists.

    python bench/burgundy_report.py [--games 1000] [--multi 200]

Plays ``--games`` seeded solo games ("one and only", duchy A) with the heuristic bot and
prints its average score against the rulebook's ratings (>50 well done, >60 excellent,
>=70 incredible), plus the random bot over the same seeds as a baseline. Then plays
``--multi`` seeded 3-seat games (heuristic, random, random) for the heuristic's win rate.
Over every step of every game it records the largest legal-action list and the time
legal_actions takes.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from engine.burgundy import GAME
from engine.simulate import make_bots, play


class Meter:
    """Largest legal list seen (with its decision context) and time spent listing."""

    def __init__(self) -> None:
        self.largest = 0
        self.context = ""
        self.calls = 0
        self.seconds = 0.0
        self.sizes: list[int] = []

    def __call__(self, game: Any, state: Any, seat: int, action: dict[str, Any]) -> None:
        start = time.perf_counter()
        legal = game.legal_actions(state, seat)
        self.seconds += time.perf_counter() - start
        self.calls += 1
        self.sizes.append(len(legal))
        if len(legal) > self.largest:
            self.largest = len(legal)
            bonuses = game.view(state, seat)["players"][seat]["bonuses"]
            held = {k: v["available"] for k, v in bonuses.items()}
            self.context = f"roll {state.roll}, held {held}"


def solo(bot: str, games: int, meter: Meter, progress: Progress) -> list[int]:
    task = progress.add_task(f"solo {bot}", total=games)
    scores = []
    for n in range(games):
        played = play(
            GAME,
            make_bots(GAME, [bot]),
            f"burgundy-solo-{n}",
            {"variant": "solo"},
            on_step=meter,
            bot_seed=n,
        )
        scores.append(int(played.result.scores[0]))
        progress.advance(task)
    return scores


def multi(games: int, meter: Meter, progress: Progress) -> tuple[float, float]:
    task = progress.add_task("3 seats: heuristic vs 2 random", total=games)
    wins, margin = 0, []
    for n in range(games):
        played = play(
            GAME,
            make_bots(GAME, ["heuristic", "random", "random"]),
            f"burgundy-3p-{n}",
            {},
            on_step=meter,
            bot_seed=n,
        )
        wins += played.result.ranks[0] == 1
        margin.append(played.result.scores[0] - max(played.result.scores[1:]))
        progress.advance(task)
    return wins / max(1, games), statistics.mean(margin) if margin else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--random-games", type=int, default=200)
    parser.add_argument("--multi", type=int, default=200)
    args = parser.parse_args()
    console = Console()
    meter = Meter()
    with Progress(console=console) as progress:
        start = time.perf_counter()
        heur = solo("heuristic", args.games, meter, progress)
        heur_time = time.perf_counter() - start
        rand = solo("random", args.random_games, meter, progress)
        rate, margin = multi(args.multi, meter, progress)
    table = Table(title=f"Burgundy solo (duchy A), seeds burgundy-solo-0..{args.games - 1}")
    for column in ("bot", "games", "mean", "stdev", "min", "max", ">50", ">60", ">=70"):
        table.add_column(column, justify="right")
    for name, scores in (("heuristic", heur), ("random", rand)):
        n = len(scores)
        table.add_row(
            name,
            str(n),
            f"{statistics.mean(scores):.2f}",
            f"{statistics.pstdev(scores):.2f}",
            str(min(scores)),
            str(max(scores)),
            f"{sum(s > 50 for s in scores) / n:.1%}",
            f"{sum(s > 60 for s in scores) / n:.1%}",
            f"{sum(s >= 70 for s in scores) / n:.1%}",
        )
    console.print(table)
    console.print(f"heuristic solo: {1000 * heur_time / max(1, args.games):.0f} ms a game")
    console.print(
        f"3 seats: heuristic wins {rate:.1%} against two random bots, "
        f"mean margin over the best random {margin:+.1f}"
    )
    console.print(f"largest legal-action list: {meter.largest} ({meter.context})")
    sizes = sorted(meter.sizes)
    console.print(
        f"legal-action list sizes: mean {statistics.mean(sizes):.0f}, median "
        f"{sizes[len(sizes) // 2]}, 99th percentile {sizes[int(len(sizes) * 0.99)]}"
    )
    console.print(
        f"legal_actions: {meter.calls} calls, "
        f"{1000 * meter.seconds / max(1, meter.calls):.2f} ms each on average"
    )


if __name__ == "__main__":
    main()
