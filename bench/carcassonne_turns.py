"""How a Carcassonne turn ends, by bot and dice: the distribution the 2-seat search's leaf uses.

Plays single turns from an empty grid (seeded, one process) with nine dice, or eight (the
other seat holds a knight), and counts each ending: the points scored (undoubled; 0 when
nothing closed) or a knight held. ``engine/carcassonne/search.py`` keeps the rounded result
(``TURN_OUTCOMES``)::

    nice -n 19 python bench/carcassonne_turns.py --turns 300 --bot heuristic
    nice -n 19 python bench/carcassonne_turns.py --turns 150 --bot search,iterations=32
    nice -n 19 python bench/carcassonne_turns.py --turns 150 --bot search,iterations=32 --doubled
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from collections.abc import Sequence

from rich.console import Console
from rich.progress import Progress

from engine.carcassonne.rules import Carcassonne
from engine.dice import Dice
from engine.games import get_game
from engine.match import parse_bot


def one_turn(game: Carcassonne, bot: object, dice_count: int, seed: str, doubled: bool) -> str:
    """Play one turn of seat 0 with ``dice_count`` dice (``doubled``: it held a knight); its
    ending (the undoubled points, ``"12"``, or ``"held"``)."""
    dice = Dice(seed)
    state = game.setup(2, {}, dice)
    if dice_count < 9 or doubled:
        state.held = [doubled, dice_count < 9]
        game._start_turn(state, 0, dice, [])
    rng = random.Random(seed)
    while state.turns[0] == 0 and not game.is_over(state):
        legal = game.legal_actions(state, 0)
        game.perform(state, 0, bot.choose(game.view(state, 0), legal, rng), dice)  # type: ignore[attr-defined]
    if state.held[0]:
        return "held"
    return str(state.scores[0] // (2 if doubled else 1))


def main(argv: Sequence[str] | None = None) -> None:
    """Measure and print the endings per dice count."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=300, help="turns per dice count")
    parser.add_argument("--bot", default="heuristic", help="a bot spec (dicehall match's)")
    parser.add_argument("--dice", default="9,8")
    parser.add_argument("--doubled", action="store_true", help="turns after holding a knight")
    args = parser.parse_args(argv)
    game = get_game("carcassonne")
    assert isinstance(game, Carcassonne)
    console = Console()
    bot = parse_bot(game, args.bot)[1]()
    start = time.process_time()
    with Progress(console=console) as progress:
        for count in map(int, args.dice.split(",")):
            task = progress.add_task(f"{args.bot}, {count} dice", total=args.turns)
            ends: Counter[str] = Counter()
            for n in range(args.turns):
                ends[one_turn(game, bot, count, f"turns-{count}-{n}", args.doubled)] += 1
                progress.advance(task)
            shares = {k: round(v / args.turns, 3) for k, v in sorted(ends.items())}
            mean = sum(int(k) * v for k, v in ends.items() if k != "held") / args.turns
            head = f"{args.bot}, {count} dice, doubled {args.doubled}, {args.turns} turns"
            console.print(f"{head}: {shares} mean {mean:.2f}")
    console.print(f"CPU {time.process_time() - start:.0f} s")


if __name__ == "__main__":
    main()
