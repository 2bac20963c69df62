"""King of the Dice bots-only report: N seeded games per line-up, checked for illegal actions.

Run by hand: ``/work/venv/bin/python bench/kingdice_report.py --games 1000``. Prints, per
line-up, the games played, illegal actions (a bot's choice not among the legal actions, or
one that apply refuses), the average game length in turns (one player's roll, hire and
effect) and in actions, how often a game ended by a 17th marker, and for
heuristic-against-random line-ups the heuristic's win rate (a shared win counts) beside the
rate a random seat would get. Then the chance, per card stack, that a three-roll turn with a
simple keep strategy meets a card (fixed seed).
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from engine.kingdice import GAME
from engine.kingdice.conditions import keep_toward, meets
from engine.kingdice.data import CARDS, DICE
from engine.simulate import make_bots, play

LINEUPS: list[list[str]] = [
    ["random", "random"],
    ["heuristic", "random"],
    ["heuristic", "random", "random"],
    ["heuristic", "random", "random", "random"],
    ["heuristic", "heuristic", "heuristic"],
]


@dataclass
class Tally:
    """Totals for one line-up."""

    games: int = 0
    illegal: int = 0
    turns: int = 0
    actions: int = 0
    seventeenth: int = 0
    heuristic_wins: int = 0
    seconds: float = 0.0


def play_one(names: list[str], seed: str, bot_seed: int) -> tuple[int, int, list[int], int, bool]:
    """Play one game; return (turns, actions, winners, illegal actions, ended by 17th marker)."""
    played = play(GAME, make_bots(GAME, names), seed, bot_seed=bot_seed, strict=False)
    state = played.state
    return state.turn, len(played.moves), played.result.winners, played.illegal, state.winner >= 0


def stack_chances(trials: int, seed: int = 20211) -> list[float]:
    """Per stack, the average chance that three rolls with a simple keep strategy meet a card."""
    rng = random.Random(seed)

    def roll(die: int) -> tuple[int, str]:
        n = rng.randint(1, 6)
        return (n, DICE[die][n - 1])

    out = []
    for stack in range(1, 6):
        chances = []
        for card in (c for c in CARDS if c["stack"] == stack):
            cond = card["conditions"][0]
            hits = 0
            for _ in range(trials):
                dice = [roll(d) for d in range(6)]
                for _ in range(2):
                    if meets(cond, dice):
                        break
                    keep = set(keep_toward(cond, dice))
                    dice = [dice[i] if i in keep else roll(i) for i in range(6)]
                hits += meets(cond, dice)
            chances.append(hits / trials)
        out.append(sum(chances) / len(chances))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per line-up")
    parser.add_argument("--trials", type=int, default=2000, help="throws a card (chances)")
    args = parser.parse_args()
    console = Console()
    tallies: list[tuple[list[str], Tally]] = []
    with Progress(console=console) as progress:
        for names in LINEUPS:
            tally = Tally()
            task = progress.add_task(" v ".join(names), total=args.games)
            for n in range(args.games):
                shift = n % len(names)  # every seat plays every position equally often
                seated = names[shift:] + names[:shift]
                seed = f"kingdice-report-{'-'.join(names)}-{n}"
                start = time.perf_counter()
                turns, actions, winners, illegal, won17 = play_one(seated, seed, n)
                tally.seconds += time.perf_counter() - start
                tally.games += 1
                tally.illegal += illegal
                tally.turns += turns
                tally.actions += actions
                tally.seventeenth += won17
                tally.heuristic_wins += any(seated[w] == "heuristic" for w in winners)
                progress.advance(task)
            tallies.append((names, tally))
    table = Table(title=f"King of the Dice bots-only report ({args.games} games per line-up)")
    for column in ("seats", "games", "illegal", "turns", "actions", "17th", "H wins", "fair", "ms"):
        table.add_column(column, justify="right", no_wrap=True)
    for names, t in tallies:
        mixed = "heuristic" in names and "random" in names
        table.add_row(
            " ".join("H" if name == "heuristic" else "R" for name in names),
            str(t.games),
            str(t.illegal),
            f"{t.turns / t.games:.1f}",
            f"{t.actions / t.games:.1f}",
            str(t.seventeenth),
            f"{100 * t.heuristic_wins / t.games:.1f}%" if mixed else "-",
            f"{100 / len(names):.1f}%" if mixed else "-",
            f"{1000 * t.seconds / t.games:.0f}",
        )
    console.print(table)
    console.print(
        "seats: H heuristic, R random (seats rotate); turns and actions: averages a game; "
        "17th: games won by a 17th marker; H wins: heuristic win rate (shared wins count); "
        "fair: one seat's share by chance"
    )
    chances = stack_chances(args.trials)
    stacks = Table(title="Chance that three rolls (simple keep strategy) meet a card, seed 20211")
    for stack in range(1, 6):
        stacks.add_column(f"stack {stack}", justify="right")
    stacks.add_row(*(f"{p:.3f}" for p in chances))
    console.print(stacks)


if __name__ == "__main__":
    main()
