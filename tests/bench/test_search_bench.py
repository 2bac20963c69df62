"""bench/search.py's tournaments: parallel games and the games log give the one-process figures.

A tiny King of the Dice tournament (2 seats, 2 deals, 4 simulations a decision) played in one
process, then by two worker processes writing a games log, then read back from that log
alone: the three reports must agree game for game (ratings, wins, the head-to-head share and
the decision times), since the games are seeded and the search runs on an iteration budget.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.bench.runs import run_bench

TINY = ("tournaments", "--only", "kingdice", "--seat-counts", "2", "--rounds", "2")
TINY_TOO = ("--max-rounds", "2", "--iterations", "4")


def tournament(tmp_path: Path, name: str, *args: str) -> dict[str, Any]:
    """Run the tiny tournament with ``args``; its one figures line."""
    out = tmp_path / f"{name}.json"
    run_bench("search.py", *TINY, *TINY_TOO, *args, "--json", str(out))
    [figures] = [json.loads(line) for line in out.read_text().splitlines()]
    return figures


def outcome(figures: dict[str, Any]) -> list[Any]:
    rows = [
        [row["bot"], row["mu"], row["sigma"], row["games"], row["wins"], row["decision_ms_p95"]]
        for row in figures["rows"]
    ]
    return [figures["games"], figures["head_to_head"], rows]


def test_parallel_games_and_the_games_log_give_the_one_process_figures(tmp_path):
    log = tmp_path / "games.jsonl"
    alone = tournament(tmp_path, "alone")
    parallel = tournament(tmp_path, "parallel", "--jobs", "2", "--games-log", str(log))
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert [line["index"] for line in lines] == [0, 1, 2, 3]
    assert {line["tournament"] for line in lines} == {"kingdice/2/4"}
    replayed = tournament(tmp_path, "replayed", "--games-log", str(log))
    assert len(log.read_text().splitlines()) == 4, "a logged game is read back, not replayed"
    # the decision times are CPU times: the same only where they were read back
    assert outcome(parallel) == outcome(replayed)
    assert outcome(alone)[:2] == outcome(parallel)[:2]
    assert [row[:5] for row in outcome(alone)[2]] == [row[:5] for row in outcome(parallel)[2]]
    assert replayed["cpu_seconds"] == 0 < parallel["cpu_seconds"]


def test_play_on_plays_to_max_rounds_and_extends_a_logged_schedule(tmp_path):
    """--play-on: the tournament's length is --max-rounds (or a budget), not its result; a
    longer run on the same log reads the first deals back and plays only the new ones."""
    log = tmp_path / "games.jsonl"
    short = tournament(tmp_path, "short", "--play-on", "--games-log", str(log))
    assert short["deals"] == 2 and len(log.read_text().splitlines()) == 4
    longer = tournament(
        tmp_path, "longer", "--play-on", "--games-log", str(log), "--max-rounds", "3"
    )
    assert longer["deals"] == 3 and len(log.read_text().splitlines()) == 6
    assert [line["index"] for line in map(json.loads, log.read_text().splitlines())] == [
        0,
        1,
        2,
        3,
        4,
        5,
    ]


def test_rescreen_replays_the_logged_search_exactly_and_pairs_a_changed_one(tmp_path):
    """bench/rescreen.py: the logged search in its own seat gives every logged placement
    again (a paired difference of exactly 0); another bot there is compared game for game."""
    log = tmp_path / "games.jsonl"
    tournament(tmp_path, "logged", "--games-log", str(log))
    common = ["--log", str(log), "--game", "kingdice", "--seats", "2", "--iterations", "4"]

    def rescreen(bot: str, out: Path) -> str:
        return run_bench("rescreen.py", *common, "--bot", bot, "--out", str(out))

    same = tmp_path / "same.jsonl"
    report = rescreen("search,iterations=4", same)
    meetings = [
        json.loads(line)
        for line in log.read_text().splitlines()
        if set(json.loads(line)["seating"]) == {0, 1}
    ]
    replayed = [json.loads(line) for line in same.read_text().splitlines()]
    assert [row["index"] for row in replayed] == [row["index"] for row in meetings]
    assert "paired difference: search above the heuristic 0.000" in report
    rescreen("random", tmp_path / "random.jsonl")
    assert len(same.read_text().splitlines()) == len(meetings)
    assert rescreen("search,iterations=4", same) == report, "a kept game is read back"


def test_carcassonne_turns_counts_how_each_turn_ends():
    """bench/carcassonne_turns.py: every turn ends in points or a held knight; the shares
    of each dice count add up to 1."""
    text = " ".join(run_bench("carcassonne_turns.py", "--turns", "5").split())
    for dice in (9, 8):
        head = f"heuristic, {dice} dice, doubled False, 5 turns: "
        assert head in text
        shares = text.split(head)[1].split("}")[0] + "}"
        assert abs(sum(json.loads(shares.replace("'", '"')).values()) - 1) < 0.01
