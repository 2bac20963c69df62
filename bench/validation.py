"""Cost of checking an action's shape at the door (``Game.validate_action``), per game.

    python bench/validation.py [--games 3] [--rounds 5]

Collects the legal actions of every step of a few seeded games (heuristic against random),
then times, on those same actions and states: ``validate_action`` on each legal action,
``validate_action`` on a malformed copy (an integer field turned into a float, or an extra
key: the refusal path, which builds the error), the rules' ``check`` of the same actions
(which validates first), and as the baseline the JSON round trip of the state that the
service does on every move (dump, encode, decode, load). The last column says what share of
that round trip the door check costs.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from engine.contract import Game, IllegalAction
from engine.games import get_game
from engine.simulate import make_bots, play

LINE_UPS = {
    "burgundy": ["heuristic", "random"],
    "carcassonne": ["heuristic", "random"],
    "diceland": ["heuristic", "random"],
    "kingdice": ["heuristic", "random"],
    "toy": ["random", "random"],
}


def samples(game: Game, games: int) -> list[tuple[Any, int, dict[str, Any]]]:
    """(state copy, seat, legal action) of every step of ``games`` seeded games."""
    out: list[tuple[Any, int, dict[str, Any]]] = []

    def keep(g: Game, state: Any, seat: int, action: dict[str, Any]) -> None:
        copy = g.load_state(g.dump_state(state))
        out.extend((copy, seat, act) for act in g.legal_actions(state, seat)[:8])

    for n in range(games):
        play(game, make_bots(game, LINE_UPS[game.name]), f"bench-validation-{n}", on_step=keep)
    return out


def malformed(action: dict[str, Any]) -> dict[str, Any]:
    """A near miss: the first integer field as a float, else an extra key."""
    for key, value in action.items():
        if isinstance(value, int) and not isinstance(value, bool):
            return {**action, key: float(value)}
    return {**action, "extra": 1}


def per_call(fn: Any, items: list[Any], rounds: int) -> float:
    """Microseconds per call of ``fn`` over ``items`` (after one untimed pass)."""
    for item in items:
        fn(item)
    start = time.perf_counter()
    for _ in range(rounds):
        for item in items:
            fn(item)
    return (time.perf_counter() - start) / (rounds * len(items)) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    table = Table(title="validate_action cost per action (µs)")
    columns = ("game", "actions", "valid", "malformed", "check", "state round trip", "valid/trip")
    for column in columns:
        table.add_column(column, justify="right")
    for name in LINE_UPS:
        game = get_game(name)
        items = samples(game, args.games)
        bad = [malformed(action) for _, _, action in items]

        def refuse(action: dict[str, Any], game: Game = game) -> None:
            try:
                game.validate_action(action)
            except IllegalAction:
                return
            raise AssertionError(f"not refused: {action}")

        valid = per_call(lambda item, game=game: game.validate_action(item[2]), items, args.rounds)
        wrong = per_call(refuse, bad, args.rounds)
        check = per_call(
            lambda item, game=game: game.check(item[0], item[1], item[2]), items, args.rounds
        )
        trip = per_call(
            lambda item, game=game: game.load_state(
                json.loads(json.dumps(game.dump_state(item[0])))
            ),
            items,
            args.rounds,
        )
        table.add_row(
            name,
            str(len(items)),
            f"{valid:.1f}",
            f"{wrong:.1f}",
            f"{check:.1f}",
            f"{trip:.1f}",
            f"{valid / trip:.3f}",
        )
    Console().print(table)


if __name__ == "__main__":
    main()
