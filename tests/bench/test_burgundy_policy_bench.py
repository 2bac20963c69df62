"""The Burgundy policy bench still runs: one recorded game, a fit of the solo correction on
it, and a screen of that correction against none."""

from __future__ import annotations

import json

from engine.burgundy.bots import CORRECTION_KINDS
from tests.bench.runs import run_bench


def policy_bench(*args: str) -> str:
    return " ".join(run_bench("burgundy_policy.py", *args).split())


def test_policy_bench_records_a_game_fits_a_correction_by_kind_and_screens_it(tmp_path):
    recorded, fitted = tmp_path / "record.jsonl", tmp_path / "policy.json"
    out = policy_bench(
        "record", "--games", "1", "--first", "7", "--worlds", "2", "--out", str(recorded)
    )
    assert "fit-7:" in out
    rows = [json.loads(line) for line in recorded.read_text().splitlines()]
    assert len(rows) > 15 and all(len(r["q"]) == len(r["candidates"]) > 1 for r in rows)
    out = policy_bench("fit", "--data", str(recorded), "--out", str(fitted))
    assert f"{len(rows)} decisions" in out
    weights = json.loads(fitted.read_text())["weights"]
    assert weights and all(k.partition(":")[2] in CORRECTION_KINDS for k in weights)
    out = policy_bench("screen", "--correction", str(fitted), "--games", "3")
    assert "paired difference" in out and "over 3 seeds" in out
