"""The house-data benches still run: Diceland's fairness and calibration, Burgundy's duchies.

Each runs with a handful of games and prints its table; no figure is asserted beyond the
table's shape (the figures come from running the benches by hand, RULES.md pages).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_bench(script: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, f"{script} exited {done.returncode}:\n{done.stderr[-3000:]}"
    return done.stdout


def test_diceland_fairness_prints_win_shares_heads_up_pairs_and_the_structure():
    out = run_bench("diceland_fairness.py", "--games", "4", "--pairs", "2", "--bots", "random")
    assert "link cost" in out and "placements" in out
    assert "random: 4 four-seat games, win share per map" in out
    assert "heads-up, 2 games a pair" in out


def test_diceland_calibrate_screens_candidates_against_the_reference():
    out = run_bench(
        "diceland_calibrate.py",
        *("--maps", "E", "--links", "15", "--picks", "1", "--screen", "2", "--keep", "0.5"),
        *("--games", "2"),
    )
    assert "E link 15 pick 0: heads-up" in out and "heuristic" in out and "random" in out
    assert "E: best link=15, pick=0" in out


def test_burgundy_duchies_prints_every_duchy_against_duchy_a():
    out = run_bench("burgundy_duchies.py", "--games", "3")
    lines = [line for line in out.splitlines() if line[:1] in "ABCD"]
    assert [line[0] for line in lines] == ["A", "B", "C", "D"]
    assert all("vs A" in line for line in lines)
