"""Are Diceland's maps equally hard? Win shares per map, heads-up pairs, and the structure.

Run by hand (CPU-heavy; nice it): ``nice -n 15 python bench/diceland_fairness.py --games 400
--pairs 100``. For each bot (heuristic, random) it prints:

- four-seat games (``--games``, four different maps dealt at random from a seeded deck): each
  map's win share (wins / games it was dealt in; a shared win counts as a fraction), fair is
  0.25;
- heads-up (``--pairs`` games per pair of maps, the seats swapped every other game): the
  first map's win rate for every pair, fair is 50 %;
- the structural measure the data test keeps (``engine.diceland.fairness``): crosses needed to
  link nine treasures to the start.

The baseline ratio is the spread of the win shares (max - min) measured in the same run.
"""

from __future__ import annotations

import argparse
import itertools
import random
import time

from engine.diceland import GAME
from engine.diceland.fairness import link_cost, placements
from engine.diceland.maps import BOARDS, MAP_NAMES
from engine.simulate import make_bots, play


def four_seat(bot: str, games: int) -> dict[str, float]:
    """Each map's win share in ``games`` four-seat games with four different maps: the eight
    maps are shuffled (seeded) and split in two halves, one game each, so every map is dealt
    in half the games, at every seat alike."""
    dealt = dict.fromkeys(MAP_NAMES, 0)
    won = dict.fromkeys(MAP_NAMES, 0.0)
    deck = random.Random(f"fairness-{bot}")
    shuffled = list(MAP_NAMES)
    for n in range(games):
        if n % 2 == 0:
            deck.shuffle(shuffled)
        maps = shuffled[:4] if n % 2 == 0 else shuffled[4:]
        played = play(
            GAME, make_bots(GAME, [bot] * 4), f"fair-{bot}-{n}", {"maps": maps}, strict=False
        )
        winners = played.result.winners
        for seat, name in enumerate(maps):
            dealt[name] += 1
            if seat in winners:
                won[name] += 1 / len(winners)
    return {name: won[name] / dealt[name] for name in MAP_NAMES if dealt[name]}


def heads_up(bot: str, games: int) -> dict[tuple[str, str], float]:
    """The first map's win rate against the second, per pair: seats swapped every game, the
    two games of a swap with the same dice seed (so the deal, not the dice, differs)."""
    rates = {}
    for a, b in itertools.combinations(MAP_NAMES, 2):
        score = 0.0
        for n in range(games):
            maps = [a, b] if n % 2 == 0 else [b, a]
            played = play(
                GAME,
                make_bots(GAME, [bot] * 2),
                f"hu-{bot}-{a}{b}-{n // 2}",
                {"maps": maps},
                strict=False,
            )
            winners = played.result.winners
            mine = maps.index(a)
            if mine in winners:
                score += 1 / len(winners)
        rates[(a, b)] = score / games
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="four-seat games per bot")
    parser.add_argument("--pairs", type=int, default=100, help="heads-up games per map pair")
    parser.add_argument("--bots", nargs="+", default=["heuristic", "random"])
    args = parser.parse_args()
    print("link cost (crosses to link 9 treasures to the start) / placements (the same over")
    print("the mean territory size):")
    print(
        "  "
        + "  ".join(f"{m} {link_cost(BOARDS[m])}/{placements(BOARDS[m]):.2f}" for m in MAP_NAMES)
    )
    for bot in args.bots:
        started = time.perf_counter()
        shares = four_seat(bot, args.games)
        spread = max(shares.values()) - min(shares.values())
        print(f"{bot}: {args.games} four-seat games, win share per map (fair 0.25):")
        print("  " + "  ".join(f"{m} {s:.3f}" for m, s in shares.items()))
        print(
            f"  spread max-min {spread:.3f}; outside 0.25+-0.04: "
            f"{[m for m, s in shares.items() if abs(s - 0.25) > 0.04]}"
        )
        if args.pairs:
            rates = heads_up(bot, args.pairs)
            worst = max(rates.items(), key=lambda kv: abs(kv[1] - 0.5))
            outside = {
                f"{a}-{b}": round(r, 3) for (a, b), r in rates.items() if abs(r - 0.5) > 0.05
            }
            print(
                f"  heads-up, {args.pairs} games a pair: worst {worst[0]} {worst[1]:.3f}; "
                f"outside 45-55%: {outside or 'none'}"
            )
        print(f"  {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
