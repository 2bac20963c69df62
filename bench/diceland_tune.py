"""Tune Diceland's maps by playtesting: hill-climb each map toward the field with fine edits.

Run by hand (CPU-heavy; nice it): ``nice -n 19 python bench/diceland_tune.py --maps G E
--rounds 1 --candidates 8 --stages 24:0:3,100:80:1 --jobs 2 --save /tmp/edits.json``. The maps
start as ``engine/diceland/mapgen.py`` builds them (each design's seeded ``attempt`` and its
``edits``). A round measures every map against **the field**, the other seven maps as they
stand, by heuristic bots and by random bots, in two kinds of units:

- *four seats*: the map and three maps of the field drawn from the seed play four games on
  one dice seed, the maps rotated over the seats (a balanced deal's group,
  ``bench/diceland_fairness.py``); the unit is the map's share of the four (fair 0.25);
- *heads-up*: one seed played both ways (the map in either seat), the opponent cycling
  through the seven; the unit is the map's rate over the two games (fair 0.5).

The baseline (the current layout) is measured first; its two bots' four-seat leans (share
minus 0.25) aim the **candidates**, each the layout with one to three fine edits
(``mapgen.edit_options``: a treasure moved to another hex of its colour, or a hex handed to a
neighbouring territory; every edit passes the data tests' checks and keeps the design's
character): hex moves that make the territories smaller (random bots win too often) or
bigger (too rarely), as measured by ``grain``; treasure moves away from the start where the
heuristic wins too often and toward it where it loses; and pairs of the two, the treasure
move giving the heuristic back what the grain move took from it. Every candidate of a map
plays the same seeds as its baseline (common random numbers), new seeds each round.

Candidates are cut by successive halving (``--stages``: four-seat units, heads-up units,
candidates kept; the baseline always goes on). The objective is the worst distance from a
target in tolerances of the issue's band, over both bots and both kinds measured
(``|share - 0.25| / 0.04``, ``|rate - 0.5| / 0.05``); the best survivor replaces the
baseline if it beats it on the same seeds. All maps of a round play against the field as
it stood when the round began; the winners are installed together. ``--jobs`` spreads the
games over processes.

It prints each round's figures and, at the end, the ``edits`` to write into each design of
``engine/diceland/mapgen.py``; ``--save`` keeps them in a JSON file after every round and
``--resume`` starts from such a file. Then ``python -m engine.diceland.mapgen`` rewrites the
JSON and ``bench/diceland_fairness.py`` checks the whole set.

``--measure FILE`` measures named candidates instead (hand-made edits on top of each design's,
e.g. ``bench/diceland_candidates/s1.json``): four-seat units against the maps as they stand,
both bots, each candidate on its map's seeds, with its paired difference from the map as it
is: ``nice -n 19 python bench/diceland_tune.py --measure bench/diceland_candidates/s1.json
--units 120 --tag s1 --jobs 2`` gives the figures of RULES.md's hand-aimed round, seed for
seed.

``--heads-up SAVED`` measures named candidates heads-up instead: each candidate's map against
the other seven on the first ``--seeds`` mirrored seeds of a saved fairness run
(``bench/diceland_fairness.py --save``), paired seed for seed with the saved units (a game is
fixed by its maps and its seed, so the saved edition's games need no replay). It prints the
map's rate against the field (paired difference, 95 % CI) and, from a strength model fitted to
the saved rates (``rate(A v B) = logistic(sA - sB)``, :func:`strengths`), the pairs the saved
run would have inside 45-55 % with the map's strength moved by what the candidate measured, and
the candidate's rate less the saved map's over all the saved seeds (a small edit soon parts
the games, so the pairing is weak and a paired difference on a few seeds carries the saved
map's luck on them, RULES.md, the twelfth round):
``nice -n 19 python bench/diceland_tune.py --heads-up e4_hu.json --seeds 40 --measure
bench/diceland_candidates/k1.json --jobs 2``. A file with one candidate a map also gets the
prediction with every candidate's shift together. ``--first-seed K`` takes the saved run's
seeds from K on: fresh seeds to measure a screen's pick again (a pick of the best of several
on the same seeds carries their luck, RULES.md, the eleventh round).

``--options MAP [MAP ...]`` with ``--heads-up SAVED`` screens every single edit the maps allow
(``mapgen.edit_options``; ``--kinds`` to keep some kinds) the same way, ranks them by the pairs
the model predicts inside for the two bots together, and writes the best ``--keep`` as a
candidates file (``--write``) for the measure on fresh seeds: ``nice -n 19 python
bench/diceland_tune.py --options F --heads-up m1_run.json --seeds 20 --first-seed 100 --keep 8
--write picks.json --jobs 2``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console
from rich.progress import Progress

from bench.diceland_fairness import (
    Estimate,
    SerialExecutor,
    group_games,
    install_maps,
    mirrored,
    on_maps,
    score,
)
from engine.diceland.board import Board
from engine.diceland.mapgen import DESIGNS, Design, Edit, apply_edit, build, edit_options
from engine.diceland.maps import MAP_NAMES

BOTS = ("heuristic", "random")
KINDS = ("four", "heads-up")
TARGET = {"four": 0.25, "heads-up": 0.5}
TOLERANCE = {"four": 0.04, "heads-up": 0.05}
"""The issue's targets: a four-seat share within 0.25 +- 0.04, a heads-up rate within 45-55 %."""
Maps = dict[str, dict[str, Any]]


@dataclass
class Candidate:
    """A map's layout (its edits from the unedited attempt) and its results against the
    field, per (kind, bot): a four-seat unit is the map's share of four games on one dice
    seed with the seats rotated, a heads-up unit a mirrored seed."""

    edits: list[Edit]
    data: dict[str, Any]
    units: dict[tuple[str, str], list[float]] = field(
        default_factory=lambda: {(k, b): [] for k in KINDS for b in BOTS}
    )

    def rate(self, kind: str, bot: str) -> float:
        got = self.units[(kind, bot)]
        return statistics.fmean(got) if got else TARGET[kind]

    def lean(self, bot: str) -> float:
        """How far the bot's four-seat share is above fair (heads-up if four-seat unmeasured)."""
        if self.units[("four", bot)]:
            return self.rate("four", bot) - TARGET["four"]
        return (self.rate("heads-up", bot) - TARGET["heads-up"]) / 2

    def objective(self) -> float:
        """The worst distance from a target, in tolerances, over the measured kinds and bots
        (1.0: on the edge of the issue's band)."""
        return max(
            abs(self.rate(k, b) - TARGET[k]) / TOLERANCE[k]
            for k in KINDS
            for b in BOTS
            if self.units[(k, b)]
        )

    def figures(self) -> str:
        rates = " ".join(
            f"{'4s' if k == 'four' else 'hu'}-{b[0]} {self.rate(k, b):.3f}"
            for k in KINDS
            for b in BOTS
            if self.units[(k, b)]
        )
        four, heads_up = (len(self.units[(k, "random")]) for k in KINDS)
        return f"{rates} ({four}/{heads_up} units)"


def play_units(
    field_maps: Maps, name: str, data: dict[str, Any], bot: str, seeds: list[tuple[str, str]]
) -> list[float]:
    """Map ``name`` (as ``data``) against the field heads-up: one mirrored unit per (seed,
    opponent)."""
    install_maps({**field_maps, name: data})
    return [
        (score([name, other], 0, bot, seed) + score([other, name], 1, bot, seed)) / 2
        for seed, other in seeds
    ]


def four_units(
    field_maps: Maps, name: str, data: dict[str, Any], bot: str, seeds: list[str]
) -> list[float]:
    """Map ``name`` (as ``data``) in four-seat games against three maps of the field drawn
    from each seed: per seed, its share of four games on one dice seed, the maps rotated over
    the seats (as a balanced deal's group, ``bench/diceland_fairness.py``)."""
    install_maps({**field_maps, name: data})
    others = [m for m in MAP_NAMES if m != name]
    out = []
    for seed in seeds:
        group = [name, *random.Random(seed).sample(others, 3)]
        out.append(group_games(bot, seed, 0, group)[name])
    return out


def design_of(name: str) -> Design:
    return next(d() for d in DESIGNS if d().name == name)


def unedited(design: Design) -> dict[str, Any]:
    return build(Design(**{**design.__dict__, "edits": ()}))


def rebuild(design: Design, edits: Sequence[Edit]) -> dict[str, Any]:
    base = unedited(design)
    data = base
    for edit in edits:
        nxt = apply_edit(design, base, data, edit)
        if nxt is None:
            raise ValueError(f"map {design.name}: edit {edit} fails the checks")
        data = nxt
    return data


def walk(data: dict[str, Any]) -> dict[tuple[int, int], int]:
    """Every hex's steps from the start round the obstacles (what a player crosses to get
    there; on The Serpent a hex two steps off as the crow flies can be twenty away)."""
    board = Board(data)
    steps = board.distances(1 << board.start)
    return {board.coords[i]: steps[i] for i in range(len(board.coords))}


def grain(data: dict[str, Any]) -> float:
    """The mean free room a placement meets: the mean of the territory sizes weighted by
    size (a hex's territory size, averaged over the hexes). A player who pushes at random
    often throws more dice of a colour than its territory has room for and loses the turn
    to the excess rule; small territories make that more likely. The heuristic stops in
    time and minds the grain much less (RULES.md, Fairness)."""
    sizes = [len(t["hexes"]) for t in data["territories"]]
    return sum(s * s for s in sizes) / sum(sizes)


def proposals(
    design: Design, current: Candidate, count: int, rng: random.Random
) -> list[Candidate]:
    """Up to ``count`` candidates of one to three edits on the current layout, aimed by the
    two bots' leans (four-seat share above fair > 0). The random bots' share follows the
    grain (``grain``): hex moves make territories smaller where random bots win too often
    and bigger where they lose too often. Both bots' shares follow the treasures' distance
    from the start, the heuristic's the more: treasure moves go away from the start where the
    heuristic wins too often and toward it where it loses. A third of the candidates pair a
    grain move with a treasure move that gives the heuristic back what the grain move took
    from it."""
    base = unedited(design)
    lean_h, lean_r = current.lean("heuristic"), current.lean("random")

    def grain_moves(data: dict[str, Any], sign: float) -> list[tuple[Edit, dict[str, Any]]]:
        now = grain(data)
        return [
            (e, d)
            for e, d in edit_options(design, base, data)
            if e[0] == "hex" and (grain(d) - now) * sign < 0
        ]

    def treasure_moves(data: dict[str, Any], sign: float) -> list[tuple[Edit, dict[str, Any]]]:
        steps = walk(data)
        return [
            (e, d)
            for e, d in edit_options(design, base, data)
            if e[0] == "treasure" and (steps[e[2]] - steps[e[1]]) * sign > 0
        ]

    found: list[Candidate] = []
    sign = lean_r if abs(lean_r) > 0.02 else 0.0
    firsts = grain_moves(current.data, sign) if sign else []
    for edit, data in rng.sample(firsts, min(len(firsts), count // 3)):
        edits = [*current.edits, edit]
        for _ in range(min(2, int(abs(lean_r) / 0.05))):  # far off: more steps
            more = grain_moves(data, sign)
            if more:
                step, data = rng.choice(more)
                edits.append(step)
        found.append(Candidate(edits, data))
    for edit, data in rng.sample(firsts, min(len(firsts), count // 3)):
        back = treasure_moves(data, lean_h - lean_r) if abs(lean_h - lean_r) > 0.02 else []
        if back:
            second, data = rng.choice(back)
            found.append(Candidate([*current.edits, edit, second], data))
    left = count - len(found)
    if abs(lean_h) > 0.02:
        moves = treasure_moves(current.data, lean_h)
        for edit, data in rng.sample(moves, min(len(moves), left)):
            found.append(Candidate([*current.edits, edit], data))
    left = count - len(found)
    hexes = [(e, d) for e, d in edit_options(design, base, current.data) if e[0] == "hex"]
    for edit, data in rng.sample(hexes, min(len(hexes), left)):
        found.append(Candidate([*current.edits, edit], data))
    return found


def measure(
    pool: Executor,
    field_maps: Maps,
    jobs: list[tuple[str, Candidate]],
    sizes: dict[str, int],
    tag: str,
    progress: Progress,
) -> None:
    """Bring every candidate to ``sizes[kind]`` units of each kind, both bots (every
    candidate of a map on the same seeds)."""
    futures = []
    for name, cand in jobs:
        others = [m for m in MAP_NAMES if m != name]
        for kind in KINDS:
            for bot in BOTS:
                have = len(cand.units[(kind, bot)])
                if kind == "four":
                    todo4 = [f"{tag}-{name}-4-{bot}-{k}" for k in range(have, sizes[kind])]
                    for i in range(0, len(todo4), 4):
                        fut = pool.submit(
                            four_units, field_maps, name, cand.data, bot, todo4[i : i + 4]
                        )
                        futures.append((cand, kind, bot, i, fut))
                else:
                    todo = [
                        (f"{tag}-{bot}-{k}", others[k % len(others)])
                        for k in range(have, sizes[kind])
                    ]
                    for i in range(0, len(todo), 14):
                        fut = pool.submit(
                            play_units, field_maps, name, cand.data, bot, todo[i : i + 14]
                        )
                        futures.append((cand, kind, bot, i, fut))
    task = progress.add_task(f"{tag}: {sizes}", total=len(futures))
    results: dict[tuple[int, str, str], dict[int, list[float]]] = {}
    for cand, kind, bot, i, fut in futures:
        results.setdefault((id(cand), kind, bot), {})[i] = fut.result()
        progress.advance(task)
    for _name, cand in jobs:
        for kind in KINDS:
            for bot in BOTS:
                got = results.get((id(cand), kind, bot), {})
                for i in sorted(got):
                    cand.units[(kind, bot)].extend(got[i])
    progress.remove_task(task)


def measure_named(
    pool: Executor, path: str, units: int, tag: str, console: Console, progress: Progress
) -> None:
    """Named candidates (``--measure FILE``: ``{"label": ["G", [["treasure", [q, r], [q, r]],
    ...]], ...}``, edits on top of the design's own) in four-seat units against the field as
    it stands, both bots, every candidate of a map on its baseline's seeds (``tag-map-bot-k``);
    prints each candidate's shares and its paired difference from the baseline (95 % CI)."""
    spec = json.loads(Path(path).read_text())
    field_maps = {m: rebuild(design_of(m), design_of(m).edits) for m in MAP_NAMES}
    cands: dict[str, tuple[str, dict[str, Any]]] = {}
    for m in dict.fromkeys(name for name, _ in spec.values()):
        cands[f"{m} now"] = (m, field_maps[m])
    for label, (m, extra) in spec.items():
        design = design_of(m)
        more = [(k, (a[0], a[1]), (b[0], b[1])) for k, a, b in extra]
        cands[label] = (m, rebuild(design, [*design.edits, *more]))
    futures = []
    for bot in BOTS:
        for label, (m, data) in cands.items():
            seeds = [f"{tag}-{m}-{bot}-{k}" for k in range(units)]
            for i in range(0, units, 5):
                fut = pool.submit(four_units, field_maps, m, data, bot, seeds[i : i + 5])
                futures.append((label, bot, fut))
    task = progress.add_task(f"{tag}: {len(cands)} layouts", total=len(futures))
    got: dict[tuple[str, str], list[float]] = {}
    for label, bot, fut in futures:
        got.setdefault((label, bot), []).extend(fut.result())
        progress.advance(task)
    progress.remove_task(task)
    console.print(f"{units} four-seat units a layout and bot, share (paired difference, 95 % CI):")
    for label, (m, data) in cands.items():
        row = []
        for bot in BOTS:
            diff = Estimate.of(
                [a - b for a, b in zip(got[(label, bot)], got[(f"{m} now", bot)], strict=True)]
            )
            share = statistics.fmean(got[(label, bot)])
            row.append(f"{bot} {share:.3f} ({diff.mean:+.3f}±{diff.half:.3f})")
        console.print(f"  {label}: link {data['link_cost']}; " + "; ".join(row), soft_wrap=True)


def saved_rates(saved: dict[str, Any], bot: str) -> dict[tuple[str, str], list[float]]:
    """A saved fairness run's per-seed heads-up units of ``bot``, both orders of every pair."""
    out: dict[tuple[str, str], list[float]] = {}
    for key, units in saved[bot]["heads_up"].items():
        a, b = key.split("-")
        out[(a, b)], out[(b, a)] = units, [1 - u for u in units]
    return out


def logit(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))


def strengths(rates: dict[tuple[str, str], float], sweeps: int = 2000) -> dict[str, float]:
    """Each map's strength (mean 0) such that ``rate(A v B) ~ logistic(sA - sB)``, fitted to
    ``rates`` by maximum likelihood (gradient steps)."""
    s = dict.fromkeys(MAP_NAMES, 0.0)
    for _ in range(sweeps):
        for m in MAP_NAMES:
            s[m] += 0.5 * sum(
                rates[(m, o)] - 1 / (1 + math.exp(s[o] - s[m])) for o in MAP_NAMES if o != m
            )
        mean = statistics.fmean(s.values())
        s = {m: v - mean for m, v in s.items()}
    return s


def inside_with(rates: dict[tuple[str, str], float], shifts: dict[str, float]) -> int:
    """Pairs inside 45-55 % when each map's strength moves by ``shifts`` (logit) from
    ``rates``."""
    return sum(
        abs(1 / (1 + math.exp(-(logit(rates[(a, b)]) + shifts.get(a, 0) - shifts.get(b, 0)))) - 0.5)
        <= 0.05
        for a, b in itertools.combinations(MAP_NAMES, 2)
    )


Spec = dict[str, tuple[str, list[Any]]]
"""Named candidates: label -> (map, edits on top of the design's own, as JSON lists)."""


def options_spec(
    names: Sequence[str], kinds: Sequence[str] = ("treasure", "hex", "colour")
) -> Spec:
    """Every single edit of ``kinds`` the maps ``names`` allow on top of their design's edits
    (``mapgen.edit_options``), as named candidates (``--options``)."""
    spec: Spec = {}
    for m in names:
        design = design_of(m)
        for (kind, a, b), _ in edit_options(
            design, unedited(design), rebuild(design, design.edits)
        ):
            if kind in kinds:
                spec[f"{m}-{kind}-{a[0]},{a[1]}-{b[0]},{b[1]}"] = (m, [[kind, list(a), list(b)]])
    return spec


def measure_heads_up(
    pool: Executor,
    spec: Spec,
    saved_path: str,
    seeds: range,
    console: Console,
    progress: Progress,
) -> dict[str, dict[str, tuple[float, int]]]:
    """Named candidates (``--measure FILE`` or ``--options``, with ``--heads-up SAVED``)
    heads-up against the field on the saved run's mirrored ``seeds``, paired with its units
    (module doc). Returns each candidate's paired difference and predicted pairs inside, per
    bot."""
    saved = json.loads(Path(saved_path).read_text())
    if any(len(v) < seeds.stop for v in saved[BOTS[0]]["heads_up"].values()):
        raise SystemExit(f"{saved_path} has fewer than {seeds.stop} seeds a pair")
    field_maps = {m: rebuild(design_of(m), design_of(m).edits) for m in MAP_NAMES}
    futures = []
    for label, (m, extra) in spec.items():
        design = design_of(m)
        more = [(k, (a[0], a[1]), (b[0], b[1])) for k, a, b in extra]
        maps = {**field_maps, m: rebuild(design, [*design.edits, *more])}
        for bot in BOTS:
            for other in MAP_NAMES:
                for k in seeds[::10] if other != m else ():
                    ks = range(k, min(seeds.stop, k + 10))
                    fut = pool.submit(on_maps, maps, mirrored, bot, m, other, ks)
                    futures.append((label, bot, other, fut))
    task = progress.add_task(f"{len(spec)} candidates heads-up", total=len(futures))
    got: dict[tuple[str, str, str], list[float]] = {}
    for label, bot, other, fut in futures:
        got.setdefault((label, bot, other), []).extend(fut.result())
        progress.advance(task)
    progress.remove_task(task)
    console.print(
        f"{len(seeds)} mirrored seeds a pair ({14 * len(seeds)} games a candidate and bot; "
        f"seeds {seeds.start}-{seeds.stop - 1}), the map "
        "against the field: saved -> candidate (paired difference, 95 % CI); pairs inside "
        "45-55 % predicted for the whole saved run with the map's strength moved"
    )
    shifts: dict[str, dict[str, float]] = {bot: {} for bot in BOTS}
    found: dict[str, dict[str, tuple[float, int]]] = {label: {} for label in spec}
    for bot in BOTS:
        units = saved_rates(saved, bot)
        full = {pair: statistics.fmean(v) for pair, v in units.items()}
        s = strengths(full)
        console.print(
            f"  {bot}: saved run inside {inside_with(full, {})} of 28; strengths "
            + " ".join(f"{m} {v:+.2f}" for m, v in s.items())
        )
        for label, (m, _) in spec.items():
            others = [o for o in MAP_NAMES if o != m]
            new = [
                statistics.fmean(got[(label, bot, o)][i] for o in others) for i in range(len(seeds))
            ]
            old = [statistics.fmean(units[(m, o)][i] for o in others) for i in seeds]
            diff = Estimate.of([a - b for a, b in zip(new, old, strict=True)])
            base = statistics.fmean(full[(m, o)] for o in others)
            shift = logit(base + diff.mean) - logit(base)
            shifts[bot][m] = shift
            found[label][bot] = (diff.mean, inside_with(full, {m: shift}))
            console.print(
                f"    {label} ({m}): {statistics.fmean(old):.3f} -> {statistics.fmean(new):.3f} "
                f"({diff.mean:+.3f}±{diff.half:.3f}); strength {s[m]:+.2f} -> "
                f"{s[m] + shift:+.2f}; predicted inside {inside_with(full, {m: shift})} of 28; "
                f"against all {len(units[(m, others[0])])} saved seeds "
                f"{statistics.fmean(new) - base:+.3f}",
                soft_wrap=True,
            )
        if 1 < len(shifts[bot]) == len(spec):
            console.print(
                f"    all together: predicted inside {inside_with(full, shifts[bot])} of 28"
            )
    return found


def rank_screen(
    found: dict[str, dict[str, tuple[float, int]]], spec: Spec, keep: int, console: Console
) -> Spec:
    """The ``keep`` candidates with the most pairs predicted inside for the two bots together
    (ties: the smaller shifts), printed; a screen's pick is to be measured again on fresh
    seeds (``--first-seed``) before it is judged."""
    ranked = sorted(
        found,
        key=lambda c: (
            -sum(found[c][b][1] for b in BOTS),
            sum(abs(found[c][b][0]) for b in BOTS),
        ),
    )[:keep]
    console.print(f"best {len(ranked)} by pairs predicted inside (heuristic + random):")
    for label in ranked:
        console.print(
            f"  {label}: "
            + "; ".join(f"{b} {found[label][b][0]:+.3f} -> {found[label][b][1]}" for b in BOTS)
        )
    return {label: spec[label] for label in ranked}


def parse_stages(text: str) -> list[tuple[dict[str, int], int]]:
    """``"24:0:6,100:100:2"``: per stage, four-seat units, heads-up units, candidates kept."""
    stages = []
    for part in text.split(","):
        four, heads_up, keep = (int(x) for x in part.split(":"))
        stages.append(({"four": four, "heads-up": heads_up}, keep))
    return stages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--maps", nargs="+", default=list(MAP_NAMES))
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--candidates", type=int, default=6)
    parser.add_argument(
        "--stages",
        default="24:0:2,100:100:1",
        help="per stage: four-seat units : heads-up units : candidates kept",
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes for the games")
    parser.add_argument("--save", help="write the edits found so far to this JSON file")
    parser.add_argument("--resume", help="start from the edits in this JSON file")
    parser.add_argument("--first-round", type=int, default=0, help="seeds differ per round")
    parser.add_argument(
        "--measure",
        help="measure the named candidates in this JSON file instead of tuning (four seats)",
    )
    parser.add_argument("--units", type=int, default=100, help="four-seat units (--measure)")
    parser.add_argument("--tag", default="s1", help="seed tag (--measure)")
    parser.add_argument(
        "--heads-up",
        help="with --measure: measure heads-up against this saved fairness run's seeds",
    )
    parser.add_argument("--seeds", type=int, default=40, help="mirrored seeds (--heads-up)")
    parser.add_argument(
        "--first-seed",
        type=int,
        default=0,
        help="the saved run's first seed to use (--heads-up): fresh seeds for a screen's pick",
    )
    parser.add_argument(
        "--options",
        nargs="+",
        metavar="MAP",
        help="with --heads-up: screen every single edit these maps allow (instead of --measure)",
    )
    parser.add_argument(
        "--kinds",
        nargs="+",
        default=["treasure", "hex", "colour"],
        help="the edit kinds to screen (--options)",
    )
    parser.add_argument("--keep", type=int, default=6, help="candidates to keep (--options)")
    parser.add_argument("--write", help="write the kept candidates to this file (--options)")
    args = parser.parse_args()
    stages = parse_stages(args.stages)
    console = Console(width=120, soft_wrap=True) if not sys.stdout.isatty() else Console()
    designs = {m: design_of(m) for m in MAP_NAMES}
    edits: dict[str, list[Edit]] = {m: list(designs[m].edits) for m in MAP_NAMES}
    if args.resume:
        saved = json.loads(Path(args.resume).read_text())
        edits.update(
            {m: [(k, (a[0], a[1]), (b[0], b[1])) for k, a, b in e] for m, e in saved.items()}
        )
    current = {m: Candidate(edits[m], rebuild(designs[m], edits[m])) for m in MAP_NAMES}
    pool: Executor = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else SerialExecutor()
    if args.measure or args.options:
        with pool, Progress(console=console, transient=True) as progress:
            if args.heads_up:
                seeds = range(args.first_seed, args.first_seed + args.seeds)
                spec: Spec = (
                    options_spec(args.options, args.kinds)
                    if args.options
                    else json.loads(Path(args.measure).read_text())
                )
                found = measure_heads_up(pool, spec, args.heads_up, seeds, console, progress)
                if args.options:
                    kept = rank_screen(found, spec, args.keep, console)
                    if args.write:
                        rows = (f" {json.dumps(k)}: {json.dumps(v)}" for k, v in kept.items())
                        Path(args.write).write_text("{\n" + ",\n".join(rows) + "\n}\n")
            elif args.measure:
                measure_named(pool, args.measure, args.units, args.tag, console, progress)
            else:
                parser.error("--options needs --heads-up")
        return
    with pool, Progress(console=console, transient=True) as progress:
        for rnd in range(args.first_round, args.first_round + args.rounds):
            started = time.perf_counter()
            field_maps = {m: c.data for m, c in current.items()}
            rng = random.Random(f"tune-round-{rnd}")
            tag = f"round {rnd}"
            bases = {m: Candidate(current[m].edits, current[m].data) for m in args.maps}
            # the baselines first: their leans aim the candidates
            measure(pool, field_maps, list(bases.items()), stages[0][0], tag, progress)
            pools = {
                m: [b, *proposals(designs[m], b, args.candidates, rng)] for m, b in bases.items()
            }
            for sizes, keep in stages:
                jobs = [(m, c) for m in args.maps for c in pools[m]]
                measure(pool, field_maps, jobs, sizes, tag, progress)
                for m in args.maps:
                    base = pools[m][0]
                    ranked = sorted(pools[m][1:], key=Candidate.objective)
                    pools[m] = [base, *ranked[:keep]]
            for m in args.maps:
                base, *rest = pools[m]
                best = min(rest, key=Candidate.objective, default=base)
                chosen = best if best.objective() < base.objective() else base
                current[m] = Candidate(chosen.edits, chosen.data)
                console.print(
                    f"round {rnd} {m}: baseline {base.figures()} obj {base.objective():.2f}; "
                    f"best {best.figures()} obj {best.objective():.2f} "
                    f"-> {'new edit' if chosen is best and best is not base else 'kept'} "
                    f"({len(chosen.edits)} edits, link {chosen.data['link_cost']}, "
                    f"grain {grain(chosen.data):.2f})"
                )
            console.print(f"round {rnd}: {time.perf_counter() - started:.0f} s")
            if args.save:
                Path(args.save).write_text(
                    json.dumps({m: current[m].edits for m in MAP_NAMES}, indent=1)
                )
    for m in MAP_NAMES:
        console.print(f"{m}: edits={tuple(current[m].edits)!r}")


if __name__ == "__main__":
    main()
