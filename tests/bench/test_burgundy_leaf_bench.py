"""The Burgundy leaf bench's ``returns`` fit still runs: a few heuristic games, the fit, its
held-out figures and a weight for every feature of the returns leaf."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from engine.burgundy.search import RETURNS_NAMES

ROOT = Path(__file__).resolve().parents[2]


def test_leaf_bench_fits_the_returns_leaf_and_judges_it_on_held_out_games(tmp_path):
    fitted = tmp_path / "leaf_returns.json"
    bench = [sys.executable, str(ROOT / "bench" / "burgundy_leaf.py")]
    done = subprocess.run(
        [*bench, "returns", "--games", "3", "--out", str(fitted)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = " ".join(done.stdout.split())
    assert "hand terms and rounds left: held-out R^2" in out and "all: held-out R^2" in out
    data = json.loads(fitted.read_text())
    assert set(data["weights"]) == set(RETURNS_NAMES) and data["games"] == 3
