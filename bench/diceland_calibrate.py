"""Playtest candidate Diceland layouts to choose each map's ``link`` and ``pick`` (mapgen).

Run by hand (CPU-heavy; nice it): ``nice -n 15 python bench/diceland_calibrate.py --games 24``.
For every map and every link cost in ``--links``, the first ``--picks`` layouts the generator
accepts are played ``--games`` times by two heuristic bots on that same map (mirror games);
the mean number of turns until someone has nine treasures measures how fast the map is.
It prints every candidate and, per map, the one closest to the target length (``--turns``,
default: the median over all candidates): those are the ``link``/``pick`` values to write
into ``engine/diceland/mapgen.py``. Then ``bench/diceland_fairness.py`` checks the result.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
from itertools import islice

from engine.diceland import GAME
from engine.diceland.board import Board
from engine.diceland.mapgen import DESIGNS, layouts
from engine.diceland.maps import BOARDS, MAP_DATA
from engine.simulate import make_bots, play


def mean_turns(name: str, data: dict, games: int) -> float:
    """Mean game length (turns) of heuristic mirror games on the layout ``data``."""
    BOARDS[name], MAP_DATA[name] = Board(data), data  # this process only: a playtest
    turns = []
    for n in range(games):
        played = play(
            GAME,
            make_bots(GAME, ["heuristic"] * 2),
            f"cal-{name}-{n}",
            {"maps": [name] * 2},
            strict=False,
        )
        turns.append(played.state.turn)
    return statistics.mean(turns)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--picks", type=int, default=3)
    parser.add_argument("--links", type=int, nargs="+", default=[22, 24, 26])
    parser.add_argument("--turns", type=float, default=None)
    parser.add_argument("--maps", nargs="+", default=None)
    args = parser.parse_args()
    results: dict[str, list[tuple[float, int, int]]] = {}
    for make in DESIGNS:
        design = make()
        if args.maps and design.name not in args.maps:
            continue
        for link in args.links:
            candidates = layouts(dataclasses.replace(design, link=link))
            for pick, data in enumerate(islice(candidates, args.picks)):
                turns = mean_turns(design.name, data, args.games)
                results.setdefault(design.name, []).append((turns, link, pick))
                print(f"{design.name} link {link} pick {pick}: {turns:.1f} turns", flush=True)
    every = [t for found in results.values() for t, _, _ in found]
    target = args.turns if args.turns is not None else statistics.median(every)
    print(f"target {target:.1f} turns")
    for name, found in results.items():
        turns, link, pick = min(found, key=lambda c: abs(c[0] - target))
        print(f"{name}: link={link}, pick={pick}  ({turns:.1f} turns)")


if __name__ == "__main__":
    main()
