"""Are Diceland's four boards equally hard, each seat picking its side? Shares with intervals.

Run by hand (CPU-heavy; nice it): ``nice -n 19 python bench/diceland_boards.py --seeds 100
--pairs 250 --jobs 1 --save FILE``. From edition 6 each seat is dealt one of four double-sided
boards and picks a side (RULES.md, *Boards and sides*); the games here are the real ones, the
bots picking their sides through the game's own ``side`` action. For each bot (heuristic,
random) it prints:

- **four-seat games**: every game has all four boards; each seed plays four games on one dice
  seed with the boards rotated over the seats (option ``boards``), so every board meets the
  same dice from every seat; ``--seeds 100`` is 400 games (the issue's check). A board's share
  is its wins over the games (a shared win counts as a fraction), fair is 0.25, with a 95 %
  interval over the seeds (its per-seed share of the four);
- **heads-up board pairs** played both ways on the same dice seed (the same seeds for every
  pair): the first board's win rate, fair is 50 %, 95 % interval over the seeds;
- for information, each side's share of the four-seat games in which it was picked, and how
  often it was picked (a side's share says what the side is worth to a player who picks it);
- the same figures over the first ``--first-seeds`` four-seat seeds and ``--first-pairs`` pairs.

The baseline is measured in the same run: the first seat's four-seat share (the seat effect,
``--seat-games`` games with the boards dealt as a game deals them), against which the boards'
spread reads. The maps dealt singly (edition 5: 28 pairs, each map against the field) are read
from ``--singles`` (a ``bench/diceland_fairness.py --save`` file), not played, so the worst
board pair can be set beside the worst map pair of the same bots.

``--save FILE`` writes every unit to a JSON file.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.diceland_fairness import Estimate, announce, executor
from engine.diceland import GAME
from engine.diceland.mapgen import MAPS_DIR
from engine.diceland.maps import (
    BOARD_SIDES,
    CURRENT_LAYOUTS,
    EDITION,
    KEPT_IN,
    MAP_NAMES,
    MAP_TEXT,
    board_name,
    boards_of,
)
from engine.simulate import make_bots, play

BOARDS = [board_name(b) for b in boards_of(EDITION)]
TAG = "boards"
"""The games' seeds start with it (``--tag``: fresh seeds for a candidate picked on a run)."""

SAVED = Path(__file__).with_name("diceland_candidates") / "b7_run.json"
"""The run that judged the current edition's boards (the data test reads it; edition 6's,
``b6_run.json``, beside it)."""


def layouts_digest(edition: int = EDITION) -> str:
    """The SHA-256 of ``edition``'s map files (the current ones by default), in letter order: a
    saved run says which maps it measured, so a changed map makes the data test ask for the run
    again."""
    if edition in CURRENT_LAYOUTS:
        texts = [MAP_TEXT[m] for m in MAP_NAMES]
    else:
        folder = Path(MAPS_DIR, f"edition{KEPT_IN.get(edition, edition)}")
        texts = [(folder / f"{m}.json").read_text() for m in MAP_NAMES]
    return hashlib.sha256("".join(texts).encode()).hexdigest()


def inside(run: dict[str, Any]) -> tuple[int, int]:
    """A saved bot's run: the boards' four-seat shares inside 0.25 ± 0.04 and the board
    pairs inside 45-55 % (point estimates over the whole run)."""
    four = sum(abs(statistics.fmean(u) - 0.25) <= 0.04 for u in run["four_seat"].values())
    pairs = sum(abs(statistics.fmean(u) - 0.5) <= 0.05 for u in run["heads_up"].values())
    return four, pairs


def game(bot: str, boards: Sequence[str] | None, seed: str) -> tuple[list[str], list[float]]:
    """One game on the current edition with ``boards`` (None: dealt as a game deals them):
    the sides picked and each seat's win (a fraction if shared)."""
    options = {} if boards is None else {"boards": list(boards)}
    seats = 4 if boards is None else len(boards)
    played = play(GAME, make_bots(GAME, [bot] * seats), seed, options, strict=False)
    winners = played.result.winners
    return list(played.state.maps), [
        1 / len(winners) if s in winners else 0.0 for s in range(seats)
    ]


def rotations(bot: str, k: int) -> dict[str, Any]:
    """Seed ``k``'s four four-seat games, the boards rotated over the seats: each board's
    share of the four, and per game the side each board played and its win."""
    share = dict.fromkeys(BOARDS, 0.0)
    sides: list[tuple[str, float]] = []
    for turn in range(4):
        boards = BOARDS[turn:] + BOARDS[:turn]
        maps, won = game(bot, boards, f"{TAG}-{bot}-{k}")
        for board, side, w in zip(boards, maps, won, strict=True):
            share[board] += w / 4
            sides.append((side, w))
    return {"share": share, "sides": sides}


def mirrored(bot: str, a: str, b: str, k: int) -> float:
    """Board ``a``'s result against ``b`` on seed ``k``, played both ways."""
    seed = f"{TAG}-hu-{bot}-{k}"
    return (game(bot, [a, b], seed)[1][0] + game(bot, [b, a], seed)[1][1]) / 2


def seat_effect(bot: str, games: int) -> float:
    """The first seat's four-seat share with the boards dealt as a game deals them."""
    return statistics.fmean(game(bot, None, f"{TAG}-seat-{bot}-{n}")[1][0] for n in range(games))


def measure(bot: str, seeds: int, pairs: int, seat_games: int, pool: Executor) -> dict[str, Any]:
    """Every unit of one bot's run."""
    four = [pool.submit(rotations, bot, k) for k in range(seeds)]
    hu = {
        (a, b): [pool.submit(mirrored, bot, a, b, k) for k in range(pairs)]
        for a, b in itertools.combinations(BOARDS, 2)
    }
    seat = pool.submit(seat_effect, bot, seat_games)
    units = [f.result() for f in four]
    return {
        "four_seat": {b: [u["share"][b] for u in units] for b in BOARDS},
        "sides": [u["sides"] for u in units],
        "heads_up": {f"{a}-{b}": [f.result() for f in fs] for (a, b), fs in hu.items()},
        "seat_effect": seat.result(),
    }


def singles(path: Path | None, bot: str) -> float | None:
    """The worst map pair's distance from 50 % in a saved run of the maps dealt singly."""
    if path is None:
        return None
    saved = json.loads(path.read_text())
    rates = [statistics.fmean(v) for v in saved[bot]["heads_up"].values()]
    return max(abs(r - 0.5) for r in rates)


def report(
    bot: str, run: dict[str, Any], first: int, first_pairs: int, single: float | None
) -> None:
    """Print one bot's figures, over all units and over the first ones."""
    for label, n, m in (("all", None, None), (f"first {first} seeds", first, first_pairs)):
        four = {b: Estimate.of(u[:n]) for b, u in run["four_seat"].items()}
        hu = {p: Estimate.of(u[:m]) for p, u in run["heads_up"].items()}
        games = 4 * len(next(iter(run["four_seat"].values()))[:n])
        per_pair = 2 * len(next(iter(run["heads_up"].values()))[:m])
        print(f"{bot}, {label}: {games} four-seat games, {per_pair} games a board pair")
        print(
            "  four seats: "
            + "  ".join(f"{b} {e}{'' if e.within(0.25, 0.04) else '*'}" for b, e in four.items())
            + f"  (inside 0.25±0.04: {sum(e.within(0.25, 0.04) for e in four.values())} of 4)"
        )
        worst = max(abs(e.mean - 0.5) for e in hu.values())
        print(
            "  heads-up: "
            + "  ".join(f"{p} {e}{'' if e.within(0.5, 0.05) else '*'}" for p, e in hu.items())
            + f"  (inside 45-55 %: {sum(e.within(0.5, 0.05) for e in hu.values())} of 6; "
            f"worst off {worst:.3f})"
        )
    won: dict[str, list[float]] = {}
    for seed in run["sides"]:
        for side, w in seed:
            won.setdefault(side, []).append(w)
    games = len(run["sides"]) * 4
    print(
        "  each side when picked (four seats, share of its games; picked in % of its board's "
        "games): "
        + "  ".join(
            f"{s} {statistics.fmean(w):.3f} ({100 * len(w) / games:.0f}%)"
            for s, w in sorted(won.items())
        )
    )
    seat = run["seat_effect"]
    print(f"  baseline (same run): first seat's four-seat share {seat:.3f}")
    if single is not None:
        worst = max(abs(statistics.fmean(u) - 0.5) for u in run["heads_up"].values())
        print(
            f"  worst board pair off {worst:.3f} against the worst map pair dealt singly "
            f"(saved) {single:.3f}: ratio {worst / single:.2f}"
        )


def main(argv: Sequence[str] | None = None) -> None:
    global TAG
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=100, help="four-seat seeds (4 games each)")
    parser.add_argument("--pairs", type=int, default=250, help="mirrored seeds a board pair")
    parser.add_argument("--seat-games", type=int, default=40)
    parser.add_argument("--first-seeds", type=int, default=100)
    parser.add_argument("--first-pairs", type=int, default=25)
    parser.add_argument("--bots", default="heuristic,random")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--singles", type=Path, help="a saved run of the maps dealt singly")
    parser.add_argument("--save", type=Path)
    parser.add_argument(
        "--boards",
        help="a candidate pairing to play instead of the edition's, e.g. 'A/C B/H D/E F/G' "
        "(installed in this process; --jobs 1)",
    )
    parser.add_argument("--tag", default=TAG, help="the seeds' prefix (fresh seeds: another)")
    args = parser.parse_args(argv)
    TAG = args.tag
    if args.boards:
        pairing = tuple(tuple(b.split("/")) for b in args.boards.split())
        assert sorted(m for b in pairing for m in b) == list(MAP_NAMES), args.boards
        BOARD_SIDES[EDITION] = pairing  # type: ignore[assignment]
        BOARDS[:] = [board_name(b) for b in pairing]
    announce(f"boards {' '.join(BOARDS)}, seeds {TAG}-*")
    pool = executor(args.jobs)
    saved: dict[str, Any] = {
        "edition": EDITION,
        "boards": BOARDS,
        "tag": TAG,
        "maps_sha256": layouts_digest(),
    }
    for bot in args.bots.split(","):
        start = time.time()
        run = measure(bot, args.seeds, args.pairs, args.seat_games, pool)
        saved[bot] = run
        report(bot, run, args.first_seeds, args.first_pairs, singles(args.singles, bot))
        print(
            f"  ({time.time() - start:.0f} s, load average {os.getloadavg()[0]:.1f}, "
            f"{time.strftime('%H:%M:%S UTC', time.gmtime())})",
            flush=True,
        )
        if args.save:
            args.save.write_text(json.dumps(saved))


if __name__ == "__main__":
    main()
