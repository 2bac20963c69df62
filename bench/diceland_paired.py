"""Pair two saved Diceland fairness runs unit for unit, after the runs.

A candidate edition is judged on the deals and seeds of the edition it would replace
(``diceland_fairness.py --save``, RULES.md, *The maps*). A game is fixed by its maps and its
seed, so the replaced edition's units need not be played again beside every candidate (what
``--against`` does): saved once, they pair with any candidate's run of the same deals and
seeds, and this prints what ``--against`` prints (each map's four-seat share in both with the
paired difference and its 95 % interval, the heads-up pairs inside 45-55 % in both) and the
candidate's heads-up table. The old edition's units may come from several files (its
four-seat deals from one run, its heads-up seeds from another); units are cut to the shorter
run's count. Usage:

    python bench/diceland_paired.py OLD.json [OLD.json ...] --new NEW.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console

from bench.diceland_fairness import report_heads_up, report_paired
from engine.diceland.maps import MAP_NAMES

Units = dict[str, list[float]]


def merged(runs: list[dict[str, Any]], bot: str) -> tuple[Units, Units]:
    """``bot``'s four-seat and heads-up units, each from the first run that has them."""
    four: Units = next((r[bot]["four_seat"] for r in runs if any(r[bot]["four_seat"].values())), {})
    heads: Units = next((r[bot]["heads_up"] for r in runs if any(r[bot]["heads_up"].values())), {})
    return four, heads


def cut(old: Units, new: Units) -> tuple[Units, Units]:
    """The keys both have, each cut to the shorter list."""
    keys = [k for k in new if old.get(k) and new[k]]
    n = min((min(len(old[k]), len(new[k])) for k in keys), default=0)
    return {k: old[k][:n] for k in keys}, {k: new[k][:n] for k in keys}


def pairs(units: Units) -> dict[tuple[str, str], list[float]]:
    """Saved heads-up units keyed by pair (``"A-B"`` -> ``("A", "B")``)."""
    out = {}
    for key, v in units.items():
        a, b = key.split("-")
        out[(a, b)] = v
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", nargs="+", help="saved runs of the edition it would replace")
    parser.add_argument("--new", required=True, help="the candidate's saved run")
    args = parser.parse_args()
    olds = [json.loads(Path(p).read_text()) for p in args.old]
    new = json.loads(Path(args.new).read_text())
    console = Console(width=110) if not sys.stdout.isatty() else Console()
    for bot in ("heuristic", "random"):
        if bot not in new or not all(bot in r for r in olds):
            continue
        old_four, old_heads = merged(olds, bot)
        new_four, new_heads = merged([new], bot)
        old_four, new_four = cut(old_four, new_four)
        old_heads, new_heads = cut(old_heads, new_heads)
        if not new_four and not new_heads:
            continue
        if not new_four:  # heads-up alone: report_paired skips the four-seat table
            old_four = new_four = {m: [] for m in MAP_NAMES}
        report_paired(
            console,
            bot,
            olds[0]["edition"],
            (old_four, new_four),
            (pairs(old_heads), pairs(new_heads)),
        )
        if new_heads and new_four:
            seeds = len(next(iter(new_heads.values())))
            report_heads_up(console, f"{bot}, now", pairs(new_heads), seeds, full=True)


if __name__ == "__main__":
    main()
