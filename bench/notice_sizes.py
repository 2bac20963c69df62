"""How large a ``decision_due`` notice gets, per game: what the feeds carry for one decision.

    python bench/notice_sizes.py [--games 20] [--json FILE]

Plays ``--games`` seeded games of each game with its heuristic bots (two seats and the most
seats the game allows, half each) in this process, and at every decision measures what a
notice carries for the seat to answer from (``service.briefing.what_to_answer``: its view
and its legal actions), as JSON bytes, in the ``full`` form (actions with their texts) and
the ``compact`` one (bare actions). A notice's other fields (ids, deadline, round trip,
prompt) add about 300 bytes. Prints per game the decisions measured, p50 and largest size of
each form, and the longest legal-action list.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.cluster import machine_line, machine_state, percentile
from engine.contract import Game
from engine.games import get_game
from engine.simulate import make_bots, play
from service.briefing import what_to_answer

GAMES = ("carcassonne", "burgundy", "diceland", "kingdice")


class Sizes:
    """Each decision's notice size (bytes) in both forms, and the longest action list."""

    def __init__(self) -> None:
        self.full: list[int] = []
        self.compact: list[int] = []
        self.most_actions = 0

    def __call__(self, game: Game, state: Any, seat: int, action: Any) -> None:
        full = what_to_answer(game, state, seat, "full")
        self.full.append(len(json.dumps(full)))
        self.compact.append(len(json.dumps(what_to_answer(game, state, seat, "compact"))))
        self.most_actions = max(self.most_actions, len(full["actions"]))

    def figures(self) -> dict[str, Any]:
        return {
            "decisions": len(self.full),
            "full_p50_bytes": percentile([float(x) for x in self.full], 50),
            "full_max_bytes": max(self.full),
            "compact_p50_bytes": percentile([float(x) for x in self.compact], 50),
            "compact_max_bytes": max(self.compact),
            "most_actions": self.most_actions,
        }


def measure(name: str, games: int) -> dict[str, Any]:
    game = get_game(name)
    sizes = Sizes()
    for n in range(games):
        seats = game.max_seats if n % 2 else max(2, game.min_seats)
        play(game, make_bots(game, ["heuristic"] * seats), f"notice-{n}", on_step=sizes)
    return sizes.figures()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=20, help="games played per game")
    parser.add_argument("--game", choices=("all", *GAMES), default="all")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    machine = machine_state()
    names = GAMES if args.game == "all" else (args.game,)
    figures = {name: measure(name, args.games) for name in names}
    machine["load_after"] = os.getloadavg()
    table = Table(title=f"decision_due notice sizes, {args.games} heuristic games per game")
    columns = ("decisions", "full p50", "full largest", "compact p50", "compact largest")
    for column in ("game", *columns, "most actions"):
        table.add_column(column, justify="right")
    for name, row in figures.items():
        table.add_row(
            name,
            f"{row['decisions']:,}",
            f"{row['full_p50_bytes'] / 1000:.1f} kB",
            f"{row['full_max_bytes'] / 1000:.1f} kB",
            f"{row['compact_p50_bytes'] / 1000:.1f} kB",
            f"{row['compact_max_bytes'] / 1000:.1f} kB",
            f"{row['most_actions']:,}",
        )
    console = Console(width=max(Console().width, 110))
    console.print(table)
    console.print(machine_line(machine))
    if args.json:
        args.json.write_text(json.dumps({"machine": machine, "games": figures}, indent=2))


if __name__ == "__main__":
    main()
