"""The Diceland leaf's fitting bench still runs: a few games, the weights and the scores."""

from __future__ import annotations

import re

from engine.diceland.leaf import NAMES
from tests.bench.runs import run_bench


def test_diceland_leaf_bench_fits_one_weight_per_feature_and_scores_the_held_out_games():
    out = " ".join(run_bench("diceland_leaf.py", "fit", "--games", "10").split())
    weights = re.search(r"WEIGHTS = \(([^)]*)\)", out)
    assert weights is not None and len(weights.group(1).split(",")) == len(NAMES)
    for seats in (2, 3, 4):
        assert f"held-out log-loss ({seats} seats" in out
    assert "former leaf" in out and "no knowledge" in out
