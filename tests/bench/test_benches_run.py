"""The benchmarks still run: each with tiny periods, one game, one alternation.

They print their tables and exit 0, and what they count from Redis holds where the answer
is known: the floor does exactly three round trips (WATCH, HMGET, MULTI..EXEC) per request.
No speed is asserted (figures come from running the benches by hand).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.bench.runs import ROOT, run_bench


def figures_of(script: str, tmp_path: Path, *args: str) -> tuple[str, dict[str, Any]]:
    """Run ``bench/<script>`` with ``args`` and ``--json``; its stdout and its figures."""
    out = tmp_path / "figures.json"
    stdout = run_bench(script, *args, "--json", str(out))
    return stdout, json.loads(out.read_text())


def test_http_moves_prints_its_tables_and_counts_the_floors_three_round_trips(tmp_path):
    stdout, figures = figures_of(
        "http_moves.py",
        tmp_path,
        *("--game", "carcassonne", "--seconds", "1", "--alternations", "1"),
        *("--clients", "2", "--warmup", "0.5", "--scripts", "2"),
    )
    assert "moves/s against floor requests/s" in stdout
    assert "moves: full answers" in stdout
    assert "carcassonne: Redis commands per move:" in stdout
    [row] = figures["games"]
    assert row["game"] == "carcassonne"
    assert [p["kind"] for p in row["periods"]] == ["API", "floor"]
    assert row["moves_per_s"]["min"] > 0 and row["floor_per_s"]["min"] > 0
    # Redis counts every reply it writes, also to the other processes on it (worker
    # heartbeats, health checks): over a one-second period on a loaded machine those add a
    # fraction of a round trip per request, never a whole fourth one
    assert 2.9 <= row["floor_round_trips_per_request"] < 4
    # a move is at least its POST, which commits with one script (a round trip), after a
    # read unless its process made the game's previous move (``service.held``)
    assert row["commands_per_move"] >= row["round_trips_per_move"] >= 1
    assert row["commands_per_move_by_name"]["evalsha"] >= 1
    assert row["multi_blocks_per_move"] < 1, "moves commit without MULTI (set-ups still use it)"
    assert 0 < row["engine_share"] < 1
    # every operation costs its client some CPU, and all CPU holds the client's and server's
    assert row["client_cpu_ms_per_move"] > 0 and row["floor_cpu_ms_per_request"] > 0
    assert row["cpu_ms_per_move"] > row["api_cpu_ms_per_move"] > 0
    assert row["cpu_ratio"] > 0


def test_http_moves_with_prefer_minimal_asks_for_minimal_answers_and_says_so(tmp_path):
    # the clients fail the run if a move's answer carries a view (bench/http_load.py)
    stdout, figures = figures_of(
        "http_moves.py",
        tmp_path,
        *("--game", "kingdice", "--seconds", "1", "--alternations", "1"),
        *("--clients", "2", "--warmup", "0.5", "--scripts", "2", "--prefer-minimal"),
    )
    assert "moves: Prefer: return=minimal" in stdout
    assert figures["args"]["prefer_minimal"] is True
    [row] = figures["games"]
    assert row["moves_per_s"]["min"] > 0


def test_bot_turns_prints_its_tables_and_pairs_each_reply_with_its_log_entries(tmp_path):
    stdout, figures = figures_of(
        "bot_turns.py",
        tmp_path,
        *("--game", "carcassonne", "--seconds", "1", "--alternations", "1"),
    )
    assert "bot reply against an empty rq job" in stdout
    row = figures["games"]["carcassonne"]
    assert row["bot_reply_client"]["samples"] == row["bot_reply_server"]["samples"] >= 1
    assert row["empty_job_client"]["samples"] == row["empty_job_server"]["samples"] >= 1
    # the server's window (human commit to bot commit) lies inside the client's (POST sent
    # to the bot's move seen), sample by sample, so its percentiles cannot be larger
    assert 0 < row["bot_reply_server"]["p50_ms"] <= row["bot_reply_client"]["p50_ms"]
    assert 0 < row["empty_job_server"]["p50_ms"] <= row["empty_job_client"]["p50_ms"]
    assert row["ratio_p50_client"] > 0
    # where the time goes, stage by stage (one wall clock for every process)
    stages = row["stages_ms"]
    assert list(stages["bot_reply"]) == [
        "POST to human commit",
        "human commit to job start",
        "job start to bot commit",
        "bot commit to client",
        "POST answered",
    ]
    assert list(stages["empty_job"]) == [
        "enqueue",
        "queued to start",
        "start to end",
        "end to client",
    ]
    assert all(value > 0 for kind in stages.values() for value in kind.values()), stages


def test_worker_profile_sorts_the_workers_samples_by_layer(tmp_path):
    stdout, figures = figures_of(
        "worker_profile.py",
        tmp_path,
        *("--game", "carcassonne", "--seconds", "1", "--clients", "2", "--scripts", "2"),
    )
    assert "the workers' Python samples by layer" in stdout
    for server in ("api", "floor"):
        assert figures[server]["ops"] > 0 and figures[server]["cpu_ms_per_op"] > 0
    # only the API runs the engine; both run gunicorn and the Redis client
    assert figures["api"]["samples"].get("engine", 0) > 0
    assert figures["floor"]["samples"].get("engine", 0) == 0
    assert figures["floor"]["samples"].get("Redis client", 0) > 0


def test_tournament_prints_the_external_round_trip_beside_the_bundled_bot_with_its_steps(
    tmp_path,
):
    stdout, figures = figures_of("tournament.py", tmp_path, "--games", "4", "--parallel", "2")
    assert "external round trip, step by step" in stdout
    external, bundled = figures["external_round_trip"], figures["bundled_decision"]
    assert external["samples"] > 0 and bundled["samples"] > 0
    assert 0 < external["p50_ms"] <= external["p95_ms"] <= external["p99_ms"]
    steps = figures["breakdown"]
    # every answered decision was traced by the runner and found on the account's feed
    assert {step["samples"] for step in steps.values()} == {external["samples"]}
    # the steps follow each other: their means add up to the round trip's (clock rounding
    # of the service's millisecond log times and Redis ids aside)
    total = sum(step["mean_ms"] for step in steps.values())
    assert abs(total - external["mean_ms"]) <= 2.0
    names = {row["name"] for row in figures["standings"]}
    assert {"outsider", "heuristic", "random"} <= names


def test_notice_sizes_measures_both_forms_of_every_decision(tmp_path):
    stdout, figures = figures_of("notice_sizes.py", tmp_path, "--games", "1")
    assert "decision_due notice sizes" in stdout
    assert set(figures["games"]) == {"carcassonne", "burgundy", "diceland", "kingdice"}
    for row in figures["games"].values():
        assert row["decisions"] > 0 and row["most_actions"] > 0
        # the compact form leaves the texts out of the same notice
        assert 0 < row["compact_p50_bytes"] <= row["full_p50_bytes"]
        assert 0 < row["compact_max_bytes"] <= row["full_max_bytes"]


def test_a_profile_sample_belongs_to_its_innermost_known_layer():
    sys.path.insert(0, str(ROOT))
    from bench.worker_profile import OTHER, layer_of

    gunicorn = "handle (/venv/site-packages/gunicorn/workers/base_async.py:10)"
    service = "play (/repo/service/games.py:500)"
    redis_py = "execute (/venv/site-packages/redis/client.py:2000)"
    stdlib = "uuid4 (/usr/lib/python3.11/uuid.py:700)"
    assert layer_of(f"{gunicorn};{service};{redis_py}") == "Redis client"
    assert layer_of(f"{gunicorn};{service};{stdlib}") == "service"
    assert layer_of(f"{gunicorn};{stdlib}") == "HTTP server (gunicorn)"
    assert layer_of(stdlib) == OTHER


def test_the_profile_waits_for_py_spy_with_a_timeout_that_says_what_it_waited_for():
    """A py-spy that neither says it samples nor exits (here a process that prints nothing)
    stops the bench with what it waited for, instead of blocking on its output for good."""
    sys.path.insert(0, str(ROOT))
    from bench.worker_profile import wait_until_sampling

    silent = subprocess.Popen(["sleep", "60"], stdout=subprocess.PIPE, text=True)
    try:
        with pytest.raises(RuntimeError, match=r"did not say it was sampling within 0\.5 s"):
            wait_until_sampling(silent, timeout=0.5)
    finally:
        silent.kill()
        silent.communicate()


MOVE_CPU_ARGS = ("--games", "1", "--game", "kingdice", "--streams")


def test_move_cpu_prints_a_moves_cpu_time_with_streams_open():
    stdout = run_bench("move_cpu.py", *MOVE_CPU_ARGS)
    assert "kingdice" in stdout and "us CPU a move" in stdout


def test_worker_cpu_prints_a_bot_jobs_cost_beside_an_empty_jobs(tmp_path):
    stdout, figures = figures_of("worker_cpu.py", tmp_path, "--game", "burgundy", "--jobs", "6")
    assert "the worker's CPU and round trips a job" in stdout
    row = figures["games"]["burgundy"]
    assert row["bot_job_ms"] > 0 and row["empty_job_ms"] > 0
    assert row["to_commit_ms"] + row["after_commit_ms"] < row["bot_job_ms"]
    # a one-step bot turn: BLMOVE, the job's read, its preparation, the commit, the
    # finishing (service.worker.OneTripFinishMixin); an empty job takes rq's own ten
    assert row["bot_job_round_trips"] < row["empty_job_round_trips"], row
