"""A fast proxy for Diceland map fairness: each map's time to win, played past the first winner.

Run by hand (CPU-heavy; nice it): ``nice -n 19 python bench/diceland_race.py --games 60
--jobs 2`` prints, per bot, each map's predicted four-seat share from its **race times**
(``--heads-up N``: also every pair's heads-up rate from N two-seat races a map;
``--mixed N``: also the shares from N balanced deals' groups raced, mixed maps;
``--edition N``: another edition's maps; ``--against N``: edition N's too, on the same
seeds; ``--candidate FILE``: the current maps with a candidate's edits, in the format of
``bench/diceland_candidates/``, raced in place of the current maps). ``--search G E
--steps 2 --screen 6 --confirm 24 --keep 6`` hill-climbs those maps' edits on the proxy
(:func:`climb`) and ``--save FILE`` keeps what it found.

Why: a four-seat game tells who won and nothing about the three losers, so a map's share
of 400 games is only +-0.04. A game played **past its first winner** (the win check off,
each seat's first moment of nine treasures and a whole colour recorded) gives every seat's
time to win, and the real game's winner is exactly the first in the race (up to the first
win the two are the same game). A map's four-seat share then follows from the maps' time
distributions: ``P(T_map < min of three other maps' T)``, averaged over the 35 ways to draw
three of the other seven (as a balanced deal draws its groups), ties split; a heads-up rate
likewise from two-seat races. Each race puts all its seats on one map, four samples a game.

The one assumption is that a seat's time does not depend on the other seats' maps. For
random bots it does not (the active player's choices ignore every map): measured against the
fairness bench's 1,600-game shares, equal-map races are within 0.035 on every map and mixed
races (``--mixed``) within 0.015 (RULES.md, The race proxy). For the heuristic it does (an
active heuristic player sets aside the colour its own map needs, so on equal maps it takes
what the others need as well): equal-map races are off by up to 0.066, mixed races by up to
0.033. So the heuristic's figures should come from mixed races; the climb (:func:`climb`)
still races candidates on equal maps, its heuristic shifts a guide only, and a new edition
is judged by ``bench/diceland_fairness.py --against``.

The clock is the turn (all players' turns counted together) at which a seat first meets
the win condition, plus a half when it met it in a treasure throw after phase 2 (a phase-2
win comes first and ends the real game before the treasure throws); ties at one clock
value share the win. Races stop when every seat has won or after turn ``CAP`` (a seat still
going counts as never winning: by then three others have long won).
"""

from __future__ import annotations

import argparse
import copy
import itertools
import json
import os
import random
import statistics
import sys
import time
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from math import inf
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console
from rich.progress import Progress

from bench.diceland_fairness import SerialExecutor, edition_maps, install_maps
from bench.diceland_tune import design_of, rebuild
from engine.contract import Event
from engine.dice import Dice
from engine.diceland.board import Board
from engine.diceland.mapgen import DESIGNS, Edit, edit_options, layout
from engine.diceland.maps import EDITION, MAP_NAMES
from engine.diceland.rules import Diceland
from engine.diceland.state import DicelandState, Phase
from engine.diceland.view import board_of, crossed_mask
from engine.simulate import make_bots, play

CAP = 150
"""Turns a race goes on for at most (random four-seat games end by turn 82 at most)."""

Maps = dict[str, dict[str, Any]]
Runs = list[list[float]]
"""Races: per dice seed, each seat's time to win."""
BOTS = ("heuristic", "random")
Times = dict[str, list[float]]

_ENDLESS: dict[int, Board] = {}


def _endless(board: Board) -> Board:
    """A copy of ``board`` on which nobody ever wins (the race records wins instead)."""
    copied = _ENDLESS.get(id(board))
    if copied is None or copied.name != board.name:
        copied = copy.copy(board)
        copied.has_won = lambda crossed: False  # type: ignore[method-assign]
        _ENDLESS[id(board)] = copied
    return copied


class Race(Diceland):
    """Diceland played past its winners: ``times[seat]`` is the clock (module doc) at which
    the seat first met the win condition; the game ends when all have or at turn ``cap``."""

    def __init__(self, cap: int = CAP) -> None:
        super().__init__()
        self.cap = cap
        self.times: dict[int, float] = {}

    def board(self, state: DicelandState, seat: int) -> Board:  # type: ignore[override]
        return _endless(board_of(state, seat))

    def perform(
        self, state: DicelandState, seat: int, action: dict[str, Any], dice: Dice
    ) -> list[Event]:
        turn, phase = state.turn, state.phase
        events = super().perform(state, seat, action, dice)
        clock = turn + (0.5 if phase == Phase.TREASURE else 0.0)
        for s in range(state.seats):
            if s not in self.times and board_of(state, s).has_won(crossed_mask(state, s)):
                self.times[s] = clock
        if len(self.times) == state.seats or state.turn > self.cap:
            first = min(self.times.values(), default=inf)
            state.phase = Phase.OVER
            state.winners = [s for s, t in self.times.items() if t == first]
        return events


def race(maps: Sequence[str], bot: str, seed: str, cap: int = CAP) -> list[float]:
    """Each seat's time to win in one four-seat game on ``maps`` (``inf``: not by ``cap``)."""
    game = Race(cap)
    play(game, make_bots(game, [bot] * len(maps)), seed, {"maps": list(maps)}, strict=False)
    return [game.times.get(s, inf) for s in range(len(maps))]


class Distribution:
    """A map's race times (samples), as the chance of winning after and at each clock."""

    def __init__(self, times: Sequence[float]) -> None:
        self.n = len(times)
        self.times = sorted(times)

    def after(self, t: float) -> float:
        """P(T > t)."""
        return (self.n - bisect_right(self.times, t)) / self.n

    def at(self, t: float) -> float:
        """P(T == t)."""
        return (bisect_right(self.times, t) - bisect_left(self.times, t)) / self.n


def win_chance(t: float, others: Sequence[Distribution]) -> float:
    """A seat's expected share of the win when it wins at ``t`` and each other seat's time is
    drawn from its distribution (independently): every other must be later, ties split."""
    if t == inf:
        return 0.0
    total = 0.0
    for tied in itertools.product((False, True), repeat=len(others)):
        p = 1.0
        for o, tie in zip(others, tied, strict=True):
            p *= o.at(t) if tie else o.after(t)
        total += p / (1 + sum(tied))
    return total


def four_seat_share(mine: Sequence[float], field: Sequence[Distribution]) -> float:
    """A map's expected four-seat share from its race times ``mine`` against three maps drawn
    (uniformly, without repeats) from ``field``."""
    triples = list(itertools.combinations(field, 3))
    return statistics.fmean(
        statistics.fmean(win_chance(t, triple) for triple in triples) for t in mine
    )


def heads_up_rate(mine: Sequence[float], other: Distribution) -> float:
    """A map's expected heads-up rate against ``other`` from its two-seat race times."""
    return statistics.fmean(win_chance(t, [other]) for t in mine)


def race_batch(
    maps: Maps, name: str, seats: int, bot: str, seeds: Sequence[str], cap: int = CAP
) -> list[list[float]]:
    """Races with every seat on map ``name`` (as in ``maps``): per seed, the seats' times."""
    install_maps(maps)
    return [race([name] * seats, bot, seed, cap) for seed in seeds]


def measure(
    maps: Maps,
    names: Sequence[str],
    seats: int,
    bot: str,
    games: int,
    pool: Executor,
    progress: Progress | None = None,
    chunk: int = 10,
) -> dict[str, list[list[float]]]:
    """Each named map's races (all seats on it; the same seeds for every map, so that
    candidates of one map are compared on the same dice): per seed, the seats' times."""
    task = progress.add_task(f"{bot} {seats} seats", total=games * len(names)) if progress else None
    futures = {
        name: [
            pool.submit(
                race_batch,
                maps,
                name.split(":")[0],
                seats,
                bot,
                [f"race-{seats}-{bot}-{k}" for k in range(c, min(games, c + chunk))],
            )
            for c in range(0, games, chunk)
        ]
        for name in names
    }
    out: dict[str, list[list[float]]] = {}
    for name, fs in futures.items():
        out[name] = []
        for f in fs:
            got = f.result()
            out[name].extend(got)
            if progress is not None and task is not None:
                progress.advance(task, len(got))
    return out


def mixed_batch(maps: Maps, bot: str, seeds: Sequence[str]) -> dict[str, Runs]:
    """Races of a balanced deal's groups (the eight maps shuffled by the seed into two
    groups of four, each raced once on the seed): each map's time, one run per seed."""
    install_maps(maps)
    out: dict[str, Runs] = {m: [] for m in MAP_NAMES}
    for seed in seeds:
        deck = list(MAP_NAMES)
        random.Random(seed).shuffle(deck)
        for group in (deck[:4], deck[4:]):
            for m, t in zip(group, race(group, bot, seed), strict=True):
                out[m].append([t])
    return out


def measure_mixed(
    maps: Maps, bot: str, seeds: int, pool: Executor, chunk: int = 10
) -> dict[str, Runs]:
    """Every map's races in mixed groups (:func:`mixed_batch`) over ``seeds`` seeds: a
    seat's time as it is when the others play other maps (the heuristic's active choices
    depend on its own map, so equal-map races do not show it)."""
    futures = [
        pool.submit(
            mixed_batch, maps, bot, [f"mixed-{bot}-{k}" for k in range(c, min(seeds, c + chunk))]
        )
        for c in range(0, seeds, chunk)
    ]
    out: dict[str, Runs] = {m: [] for m in MAP_NAMES}
    for f in futures:
        for m, runs in f.result().items():
            out[m].extend(runs)
    return out


LEVELS = {
    "heuristic": dict(A=0.222, B=0.279, C=0.238, D=0.226, E=0.240, F=0.246, G=0.271, H=0.278),
    "random": dict(A=0.229, B=0.231, C=0.236, D=0.291, E=0.175, F=0.268, G=0.341, H=0.229),
}
"""Edition 3's four-seat shares by the fairness bench (1,600 games a bot, RULES.md, `r2`
paired with edition 2): where a map stands, to which the race adds a candidate's paired
shift. (Edition 2's were A .224/.222 B .280/.228 C .242/.221 D .231/.302 E .256/.159
F .259/.268 G .245/.392 H .262/.209, heuristic/random.)"""


def flat(runs: Sequence[Sequence[float]]) -> list[float]:
    return [t for run in runs for t in run]


@dataclass
class Screened:
    """A candidate layout of one map and its paired shifts in four-seat share, per bot."""

    edits: list[Edit]
    data: dict[str, Any]
    shift: dict[str, float]
    runs: dict[str, Runs] = field(default_factory=dict)
    """The races behind ``shift``, per bot (empty for the layout as it is)."""

    def badness(self, name: str, levels: dict[str, dict[str, float]]) -> float:
        """The worse of the two bots' distance from 0.25 after the shift, in the band's 0.04."""
        return max(abs(levels[b][name] + s - 0.25) / 0.04 for b, s in self.shift.items())


def race_layouts(
    maps: Maps,
    name: str,
    layouts: Sequence[dict[str, Any]],
    bot: str,
    games: int,
    pool: Executor,
    progress: Progress | None = None,
    seats: int = 4,
    chunk: int = 8,
    first: int = 0,
) -> list[Runs]:
    """Races of each layout of map ``name`` (all seats on it) on seeds ``first`` to
    ``games`` of :func:`measure`."""
    task = (
        progress.add_task(f"{name} {bot} x{len(layouts)}", total=(games - first) * len(layouts))
        if progress
        else None
    )
    futures = [
        [
            pool.submit(
                race_batch,
                {**maps, name: data},
                name,
                seats,
                bot,
                [f"race-{seats}-{bot}-{k}" for k in range(c, min(games, c + chunk))],
            )
            for c in range(first, games, chunk)
        ]
        for data in layouts
    ]
    out = []
    for fs in futures:
        runs: list[list[float]] = []
        for f in fs:
            runs.extend(f.result())
            if progress is not None and task is not None:
                progress.advance(task, chunk)
        out.append(runs)
    return out


def climb(
    name: str,
    maps: Maps,
    base: dict[str, Runs],
    fields: dict[str, list[Distribution]],
    pool: Executor,
    console: Console,
    steps: int = 2,
    screen: int = 8,
    confirm: int = 24,
    keep: int = 8,
    levels: dict[str, dict[str, float]] = LEVELS,
) -> list[Screened]:
    """Greedy edits of map ``name`` on the race proxy. Each step screens every single edit
    (``mapgen.edit_options``) with both bots on ``screen`` seeds, keeps the ``keep`` of least
    :meth:`Screened.badness`, races them with both bots on ``confirm``
    seeds and takes the one with the least :meth:`Screened.badness` if it beats the layout as
    it is; the chosen layout is raced on as many seeds as ``base`` before the next step.
    Shifts are against the layout as it is on all of ``base``'s seeds (``base``: its races
    per bot; ``fields``: the other seven maps' distributions per bot): a small edit soon
    parts the bots' choices and the dice, so the same seeds pair the games only weakly, and a
    short prefix of the base would carry its own luck into every candidate's shift."""
    design = next(d for d in (make() for make in DESIGNS) if d.name == name)
    unedited = layout(design, design.attempt)
    assert unedited is not None
    games = min(len(runs) for runs in base.values())

    def share(bot: str, runs: Runs) -> float:
        return four_seat_share(flat(runs), fields[bot])

    current = Screened([], maps[name], dict.fromkeys(BOTS, 0.0))
    start = {bot: share(bot, base[bot]) for bot in BOTS}

    def raced(edits: list[tuple[Edit, dict[str, Any]]], seeds: int) -> list[Screened]:
        """Each (edit, layout) raced with both bots on ``seeds`` seeds, as a candidate."""
        with Progress(console=console, transient=True) as progress:
            runs = {
                bot: race_layouts(maps, name, [o for _, o in edits], bot, seeds, pool, progress)
                for bot in BOTS
            }
        return [
            Screened(
                [*current.edits, edit],
                out,
                {bot: share(bot, runs[bot][k]) - start[bot] for bot in BOTS},
                runs={bot: runs[bot][k] for bot in BOTS},
            )
            for k, (edit, out) in enumerate(edits)
        ]

    chosen = []
    for step in range(steps):
        options = list(edit_options(design, unedited, current.data))
        screened = raced(options, screen)
        ranked = sorted(range(len(options)), key=lambda i: screened[i].badness(name, levels))
        cands = raced([options[i] for i in ranked[:keep]], confirm)
        for c in cands:
            console.print(
                f"  {name} step {step + 1}: {c.edits[-1]} heuristic {c.shift['heuristic']:+.3f} "
                f"random {c.shift['random']:+.3f} badness {c.badness(name, levels):.2f}"
            )
        best = min(cands, key=lambda c: c.badness(name, levels))
        if best.badness(name, levels) >= current.badness(name, levels):
            console.print(f"  {name}: no edit beats the layout as it is")
            break
        with Progress(console=console, transient=True) as progress:
            for bot in BOTS:
                more = race_layouts(
                    maps, name, [best.data], bot, games, pool, progress, first=confirm
                )[0]
                best.shift[bot] = share(bot, best.runs[bot] + more) - start[bot]
        current = best
        chosen.append(best)
        console.print(
            f"[bold]{name} step {step + 1}: {best.edits} heuristic "
            f"{best.shift['heuristic']:+.3f} random {best.shift['random']:+.3f} "
            f"({games} races a bot)[/bold]"
        )
    return chosen


PerMap = dict[str, dict[str, Runs]]
"""Races per bot, then per map."""


def report(
    console: Console, title: str, runs: PerMap, names: Sequence[str], heads_up: bool = False
) -> dict[str, dict[Any, float]]:
    """Print (and return) per bot each map's predicted four-seat share from its races or,
    with ``heads_up`` (two-seat races), every pair's heads-up rate."""
    out: dict[str, dict[Any, float]] = {}
    for bot, per_map in runs.items():
        times = {m: flat(per_map[m]) for m in names}
        dists = {m: Distribution(t) for m, t in times.items()}
        if heads_up:
            rates = {
                (a, b): heads_up_rate(times[a], dists[b])
                for a, b in itertools.combinations(names, 2)
            }
            inside = sum(1 for r in rates.values() if abs(r - 0.5) <= 0.05)
            worst = sorted(rates.items(), key=lambda kv: -abs(kv[1] - 0.5))[:4]
            console.print(
                f"{title} {bot} heads-up: {inside} of {len(rates)} pairs within 45-55 %; "
                "furthest " + ", ".join(f"{a}-{b} {r:.3f}" for (a, b), r in worst)
            )
            out[bot] = dict(rates)
            continue
        shares = {m: four_seat_share(times[m], [dists[o] for o in names if o != m]) for m in names}
        console.print(
            f"{title} {bot} ({len(per_map[names[0]])} races a map, {len(times[names[0]])} "
            "times): "
            + " ".join(f"{m} {s:.3f}" for m, s in shares.items())
            + f"  spread {max(shares.values()) - min(shares.values()):.3f}"
        )
        out[bot] = dict(shares)
    return out


def candidate_maps(path: Path) -> Maps:
    """The maps a candidate file changes (``{"label": ["G", [["treasure", [q, r], [q, r]],
    ...]], ...}``: edits on top of each design's own, entries for one map applied in order),
    rebuilt from their designs."""
    extra: dict[str, list[Edit]] = {}
    for name, edits in json.loads(path.read_text()).values():
        extra.setdefault(name, []).extend((k, (a[0], a[1]), (b[0], b[1])) for k, a, b in edits)
    return {
        name: rebuild(design_of(name), [*design_of(name).edits, *more])
        for name, more in extra.items()
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=60, help="four-seat races a map and bot")
    parser.add_argument("--heads-up", type=int, default=0, help="two-seat races a map and bot")
    parser.add_argument(
        "--mixed", type=int, default=0, help="also race N balanced deals (mixed maps) a bot"
    )
    parser.add_argument("--edition", type=int, default=None, help="the maps' edition (current)")
    parser.add_argument("--against", type=int, default=None, help="also race edition N, paired")
    parser.add_argument(
        "--candidate",
        type=Path,
        default=None,
        help="race the current maps with this file's edits (bench/diceland_candidates format)",
    )
    parser.add_argument("--search", nargs="*", default=[], help="maps to hill-climb (--steps)")
    parser.add_argument("--steps", type=int, default=2)
    parser.add_argument("--screen", type=int, default=8, help="random races an edit, first cut")
    parser.add_argument("--confirm", type=int, default=24, help="races a bot, the short list")
    parser.add_argument("--keep", type=int, default=8, help="edits on the short list")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--save", type=Path, default=None, help="write the searched edits here")
    args = parser.parse_args(argv)
    if args.candidate and args.edition not in (None, EDITION):
        parser.error("--candidate edits the current edition's designs")
    console = Console(highlight=False)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    console.print(f"{time.strftime('%Y-%m-%d %H:%M:%S', time.gmtime())} UTC, load {load}")
    editions = [args.edition or EDITION] + ([args.against] if args.against else [])
    games = max(args.games, args.confirm if args.search else 0)
    pool: Executor = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else SerialExecutor()
    found: dict[str, list[dict[str, Any]]] = {}
    with pool:
        for edition in editions:
            maps = edition_maps(edition)
            title = f"edition {edition}"
            if args.candidate and edition == editions[0]:
                maps.update(candidate_maps(args.candidate))
                title += f" + {args.candidate.stem}"
            with Progress(console=console, transient=True) as progress:
                four = {b: measure(maps, MAP_NAMES, 4, b, games, pool, progress) for b in BOTS}
                two = {
                    b: measure(maps, MAP_NAMES, 2, b, args.heads_up, pool, progress)
                    for b in BOTS
                    if args.heads_up
                }
            if games:
                report(console, title, four, MAP_NAMES)
            if two:
                report(console, title, two, MAP_NAMES, heads_up=True)
            if args.mixed:
                mixed = {b: measure_mixed(maps, b, args.mixed, pool) for b in BOTS}
                report(console, f"{title} mixed", mixed, MAP_NAMES)
            if edition != editions[0] or not args.search:
                continue
            for name in args.search:
                fields = {
                    b: [Distribution(flat(four[b][o])) for o in MAP_NAMES if o != name]
                    for b in BOTS
                }
                steps = climb(
                    name,
                    maps,
                    {b: four[b][name] for b in BOTS},
                    fields,
                    pool,
                    console,
                    steps=args.steps,
                    screen=args.screen,
                    confirm=args.confirm,
                    keep=args.keep,
                )
                found[name] = [{"edits": s.edits, "shift": s.shift} for s in steps]
                if args.save:
                    args.save.write_text(json.dumps(found, indent=1) + "\n")
    console.print(f"done {time.strftime('%H:%M:%S', time.gmtime())} UTC")


if __name__ == "__main__":
    main()
