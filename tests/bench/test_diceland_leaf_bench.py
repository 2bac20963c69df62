"""The Diceland leaf's fitting bench still runs: a few games, the weights and the scores."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from engine.diceland.leaf import NAMES

ROOT = Path(__file__).resolve().parents[2]


def test_diceland_leaf_bench_fits_one_weight_per_feature_and_scores_the_held_out_games():
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "diceland_leaf.py"), "fit", "--games", "10"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = " ".join(done.stdout.split())
    weights = re.search(r"WEIGHTS = \(([^)]*)\)", out)
    assert weights is not None and len(weights.group(1).split(",")) == len(NAMES)
    for seats in (2, 3, 4):
        assert f"held-out log-loss ({seats} seats" in out
    assert "former leaf" in out and "no knowledge" in out
