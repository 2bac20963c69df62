"""A 100-game Carcassonne tournament over real HTTP: bundled heuristic and random bots in the
workers, and one external bot process (``dicehall bot``) playing the heuristic strategy from
its own feed. It finishes, ranks the heuristic above random with non-overlapping intervals,
and every game verifies."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import requests

from engine.dice import commitment, verify_draws
from tests.conftest import ROOT, _child_env, stop, wait_until

GAMES = int(os.environ.get("DICEHALL_TOURNAMENT_GAMES", "100"))


def test_hundred_game_tournament_with_an_external_bot(
    live_server, worker, redis_client, redis_url, tmp_path
):
    account = requests.post(
        f"{live_server}/v1/bots", json={"name": "outsider", "owner": "tests"}, timeout=5
    ).json()
    external = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "clients.cli",
            "bot",
            "--strategy",
            "engine.carcassonne.bots:HeuristicBot",
            "--seed",
            "ext",
            "--server",
            live_server,
            "--token",
            account["token"],
            "--parallel",
            "2",
        ],
        cwd=ROOT,
        env=_child_env(redis_url),
        stdout=(tmp_path / "bot.out").open("w"),
        stderr=(tmp_path / "bot.err").open("w"),
    )
    try:
        reply = requests.post(
            f"{live_server}/v1/tournaments",
            json={
                "game": "carcassonne",
                "participants": [
                    {"name": "heuristic", "bot": "heuristic"},
                    {"name": "random", "bot": "random"},
                    {"name": "outsider", "account": account["id"]},
                ],
                "games": GAMES,
                "format": "mirrored",
                "seats_per_game": 2,
                "concurrency": 6,
                "seed": "hundred",
                "decision_seconds": 30,
            },
            timeout=10,
        )
        assert reply.status_code == 201, reply.text
        tid = reply.json()["id"]

        def finished() -> dict | None:
            t = requests.get(f"{live_server}/v1/tournaments/{tid}", timeout=10).json()
            assert external.poll() is None, (tmp_path / "bot.err").read_text()
            return t if t["status"] == "finished" else None

        t = wait_until(finished, 900, f"tournament {tid} to finish", interval=1)
    finally:
        stop(external)
    assert t["progress"] == {"total": GAMES, "started": GAMES, "finished": GAMES}
    rows = {row["name"]: row for row in t["standings"]}
    assert rows["heuristic"]["rank"] < rows["random"]["rank"]
    assert rows["heuristic"]["interval"][0] > rows["random"]["interval"][1], "intervals overlap"
    assert rows["outsider"]["games"] > 0 and rows["outsider"]["illegal_actions"] == 0
    assert rows["outsider"]["decision_time_p95"] is not None
    assert sum(row["games"] for row in rows.values()) == 2 * GAMES
    games = requests.get(f"{live_server}/v1/tournaments/{tid}/games", timeout=10).json()["games"]
    for game in random.Random(0).sample(games, 5):
        log = requests.get(f"{live_server}/v1/games/{game['game_id']}/log", timeout=10).json()
        assert commitment(log["seed"]) == game["commitment"]
        assert verify_draws(log["seed"], [d for e in log["entries"] for d in e["draws"]]) == []
    chart = requests.get(f"{live_server}/v1/tournaments/{tid}/chart.svg", timeout=10)
    assert chart.ok and "<svg" in chart.text and "outsider" in chart.text
