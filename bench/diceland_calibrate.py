"""Playtest candidate Diceland layouts to choose each map's ``link`` and ``pick`` (mapgen).

Run by hand (CPU-heavy; nice it): ``nice -n 15 python bench/diceland_calibrate.py --maps E F
--links 17 18 19 --picks 4``. Every map is measured against one reference map (``--reference``,
default B): a candidate plays four-seat games against three players on the reference, its
seat rotating, with the same seeds for every candidate (so candidates differ by their layout,
not their luck). Equal to the reference means a win share of 0.25, and maps that all equal
the reference are equal to each other (the target is fixed while maps change).

For every map and every link cost in ``--links``, the first ``--picks`` layouts the generator
accepts are screened with ``--screen`` heads-up heuristic games against the reference; those
within ``--keep`` of 0.5 play ``--games`` four-seat games by heuristic bots and by random
bots. It prints every figure and, per map, the candidate closest to fair for both bots: the
``link``/``pick`` to write into ``engine/diceland/mapgen.py``. Then
``bench/diceland_fairness.py`` checks the whole set.
"""

from __future__ import annotations

import argparse
import dataclasses
from itertools import islice

from engine.diceland import GAME, bots
from engine.diceland.board import Board
from engine.diceland.mapgen import DESIGNS, layouts
from engine.diceland.maps import BOARDS, MAP_DATA
from engine.simulate import make_bots, play


def win_share(
    data: dict, reference: str, bot: str, games: int, first: int = 0, seats: int = 4
) -> float:
    """The layout ``data`` (a candidate for its map)'s win share in games of ``seats`` seats
    against players on the ``reference`` map (games ``first`` .. ``first + games - 1``, the
    candidate's seat rotating). Fair: 1 / seats."""
    name = data["name"]
    BOARDS[name], MAP_DATA[name] = Board(data), data  # this process only: a playtest
    bots._BOARDS.clear()  # the heuristic keeps each map's board by name: forget the last one
    won = 0.0
    for n in range(first, first + games):
        maps = [reference] * (seats - 1)
        maps.insert(n % seats, name)
        played = play(
            GAME, make_bots(GAME, [bot] * seats), f"cal-{n}", {"maps": maps}, strict=False
        )
        winners = played.result.winners
        if n % seats in winners:
            won += 1 / len(winners)
    return won / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--maps", nargs="+", default=None)
    parser.add_argument("--links", type=int, nargs="+", default=[20, 22, 24])
    parser.add_argument("--picks", type=int, default=3)
    parser.add_argument("--reference", default="B")
    parser.add_argument("--screen", type=int, default=40, help="heads-up games to screen")
    parser.add_argument("--keep", type=float, default=0.15, help="screen: |share - 0.5|")
    parser.add_argument("--games", type=int, default=120, help="games per bot after screening")
    args = parser.parse_args()
    for make in DESIGNS:
        design = make()
        if design.name == args.reference or (args.maps and design.name not in args.maps):
            continue
        found = []
        for link in args.links:
            candidates = layouts(dataclasses.replace(design, link=link))
            for pick, data in enumerate(islice(candidates, args.picks)):
                screen = win_share(data, args.reference, "heuristic", args.screen, seats=2)
                line = f"{design.name} link {link} pick {pick}: heads-up {screen:.3f}"
                if abs(screen - 0.5) <= args.keep:
                    heuristic = win_share(data, args.reference, "heuristic", args.games)
                    rand = win_share(data, args.reference, "random", args.games)
                    found.append((abs(heuristic - 0.25) + abs(rand - 0.25), link, pick))
                    line += f"  heuristic {heuristic:.3f}  random {rand:.3f}"
                print(line, flush=True)
        if found:
            _, link, pick = min(found)
            print(f"{design.name}: best link={link}, pick={pick}", flush=True)


if __name__ == "__main__":
    main()
