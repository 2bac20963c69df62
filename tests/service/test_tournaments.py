"""Tournaments on real workers: schedules, ratings, seeds, deadlines and worker restarts."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest
import requests

from service.rating import Ratings
from service.tournaments import Participant, Tournament, schedule
from tests.conftest import ROOT, _child_env, wait_until


def tournament(fmt: str, games: int, participants: int = 3, seats: int = 2) -> Tournament:
    return Tournament(
        id="t1",
        game="carcassonne",
        options={},
        games=games,
        format=fmt,
        participants=[Participant(f"p{n}", bot="random") for n in range(participants)],
        seats_per_game=seats,
        seed="s",
        decision_seconds=None,
        concurrency=2,
        created_at=0.0,
    )


def test_round_robin_meets_every_pairing_from_both_seats():
    plan = schedule(tournament("round_robin", 6))
    seatings = [tuple(s) for s, _ in plan]
    assert sorted(seatings) == sorted([(0, 1), (0, 2), (1, 2), (1, 0), (2, 0), (2, 1)])
    assert len({seed for _, seed in plan}) == 6


def test_mirrored_tables_of_a_round_share_the_seed_with_seats_rotated():
    plan = schedule(tournament("mirrored", 6, participants=3, seats=3))
    assert [s for s, _ in plan[:3]] == [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    assert len({seed for _, seed in plan[:3]}) == 1
    assert plan[0][1] != plan[3][1]


def test_schedule_depends_only_on_the_tournament_seed():
    assert schedule(tournament("mirrored", 8)) == schedule(tournament("mirrored", 8))


def start(base: str, **spec) -> dict:
    reply = requests.post(f"{base}/v1/tournaments", json=spec, timeout=10)
    assert reply.status_code == 201, reply.text
    return reply.json()


def fetch(base: str, tid: str) -> dict:
    return requests.get(f"{base}/v1/tournaments/{tid}", timeout=10).json()


def wait_finished(base: str, tid: str, timeout: float) -> dict:
    def finished() -> dict | None:
        t = fetch(base, tid)
        return t if t["status"] == "finished" else None

    return wait_until(finished, timeout, f"tournament {tid} to finish", interval=0.2)


HEURISTIC_VS_RANDOM = {
    "game": "carcassonne",
    "participants": [
        {"name": "heuristic", "bot": "heuristic"},
        {"name": "random", "bot": "random"},
    ],
    "format": "mirrored",
    "seats_per_game": 2,
    "concurrency": 4,
}


def test_same_tournament_seed_gives_the_same_games(live_server, worker, redis_client):
    first = start(live_server, **HEURISTIC_VS_RANDOM, games=4, seed="same")
    second = start(live_server, **HEURISTIC_VS_RANDOM, games=4, seed="same")
    a = wait_finished(live_server, first["id"], 120)
    b = wait_finished(live_server, second["id"], 120)
    games_a = requests.get(f"{live_server}/v1/tournaments/{a['id']}/games", timeout=10).json()[
        "games"
    ]
    games_b = requests.get(f"{live_server}/v1/tournaments/{b['id']}/games", timeout=10).json()[
        "games"
    ]
    assert [g["commitment"] for g in games_a] == [g["commitment"] for g in games_b]
    assert [g["result"] for g in games_a] == [g["result"] for g in games_b]
    assert games_a[0]["commitment"] == games_a[1]["commitment"], "mirrored tables share dice"


def rerated(base: str, t: dict, fixed_programs: bool) -> dict[str, tuple[float, float]]:
    """Every entrant's (mu, sigma) recomputed from the tournament's games in order."""
    names = [p["name"] for p in t["participants"]]
    ratings = Ratings(names, fixed_programs)
    games = requests.get(f"{base}/v1/tournaments/{t['id']}/games", timeout=10).json()["games"]
    for g in sorted(games, key=lambda g: g["index"]):
        ratings.rate([names.index(name) for name in g["participants"]], g["result"]["ranks"])
    return {name: (ratings[n].mu, ratings[n].sigma) for n, name in enumerate(names)}


def assert_rated(base: str, t: dict, fixed_programs: bool) -> None:
    expected = rerated(base, t, fixed_programs)
    for row in t["standings"]:
        assert abs(row["mu"] - expected[row["name"]][0]) < 1e-9
        assert abs(row["sigma"] - expected[row["name"]][1]) < 1e-9


def test_standings_rank_by_ordinal_and_report_decision_latency(live_server, worker, redis_client):
    spec = {
        "game": "carcassonne",
        "participants": [
            {"name": "search", "bot": "search", "iterations": 3},
            {"name": "random", "bot": "random"},
        ],
        "format": "mirrored",
        "seats_per_game": 2,
        "games": 2,
        "seed": "latency",
    }
    t = wait_finished(live_server, start(live_server, **spec)["id"], 300)
    rows = t["standings"]
    assert [row["rank"] for row in rows] == [1, 2]
    assert rows[0]["ordinal"] >= rows[1]["ordinal"]
    for row in rows:
        assert abs(row["ordinal"] - (row["mu"] - 3 * row["sigma"])) < 1e-9
        assert 0 <= row["decision_time_p50"] <= row["decision_time_p95"]
    assert_rated(live_server, t, fixed_programs=True)  # bundled bots only: no drift


def test_a_tournament_refuses_a_budget_for_a_bot_without_one(live_server):
    spec = {
        "game": "carcassonne",
        "participants": [
            {"name": "h", "bot": "heuristic", "budget_ms": 100},
            {"name": "r", "bot": "random"},
        ],
        "games": 2,
    }
    reply = requests.post(f"{live_server}/v1/tournaments", json=spec, timeout=10)
    assert reply.status_code == 422 and reply.json()["code"] == "invalid_bot_options"


@pytest.mark.parametrize("field", ["bot", "account"])
def test_a_participant_names_its_bot_or_account_with_some_text(client, field):
    # an empty account beside a bot passed for no account, and then rated the bundled bot
    # as an external program (with drift) and listed it with the account ""
    entrant = {"name": "a", "bot": "random", "account": None, field: ""}
    spec = {"game": "toy", "participants": [entrant, {"name": "b", "bot": "random"}], "games": 1}
    reply = client.post("/v1/tournaments", json=spec)
    assert reply.status_code == 422, reply.get_json()
    assert reply.get_json()["code"] == "validation_failed"
    assert field in json.dumps(reply.get_json()["errors"])


def test_two_entrants_may_not_share_a_name(client):
    # on main both were entered: the standings had two rows "a" and every game listed its
    # participants as ["a", "a"], so nobody could tell which entrant a row or a seat was
    twins = [{"name": "a", "bot": "random"}, {"name": "a", "bot": "heuristic"}]
    spec = {"game": "kingdice", "participants": twins, "games": 1}
    reply = client.post("/v1/tournaments", json=spec)
    assert reply.status_code == 422, reply.get_json()
    assert reply.get_json()["code"] == "invalid_participant"
    assert "'a'" in reply.get_json()["detail"]


def test_an_external_bot_that_never_answers_loses_only_its_decisions_to_fallbacks(
    live_server, worker, redis_client
):
    account = requests.post(
        f"{live_server}/v1/bots", json={"name": "sleepy", "owner": "t@x"}, timeout=5
    ).json()
    spec = {
        "game": "toy",
        "participants": [
            {"name": "bundled", "bot": "random"},
            {"name": "sleepy", "account": account["id"]},
        ],
        "format": "round_robin",
        "seats_per_game": 2,
    }
    t = start(live_server, **spec, games=2, decision_seconds=0.2)
    done = wait_finished(live_server, t["id"], 120)
    rows = {row["name"]: row for row in done["standings"]}
    assert rows["sleepy"]["deadlines_missed"] == 8, "four rounds of two games, all missed"
    assert rows["bundled"]["deadlines_missed"] == 0
    assert rows["sleepy"]["games"] == rows["bundled"]["games"] == 2
    assert_rated(live_server, done, fixed_programs=False)  # an external account may change
    log = requests.get(f"{live_server}/v1/games/{t['id']}-00000/log", timeout=10).json()
    assert all(e["fallback"] == (e["seat"] == 1) for e in log["entries"][1:])
    feed = requests.get(
        f"{live_server}/v1/bots/me/feed",
        headers={"Authorization": f"Bearer {account['token']}"},
        timeout=10,
    ).json()
    kinds = {e["type"] for e in feed["events"]}
    assert {"game_started", "decision_due", "game_over"} <= kinds and feed["pending"] == []


def test_killing_a_worker_mid_tournament_does_not_stop_it(live_server, redis_client, redis_url):
    def spawn() -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "-m", "service.worker"],
            cwd=ROOT,
            env=_child_env(redis_url),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    first = spawn()
    t = start(live_server, **HEURISTIC_VS_RANDOM, games=8)
    wait_until(
        lambda: fetch(live_server, t["id"])["progress"]["finished"] >= 2,
        60,
        "two games of the tournament to finish",
    )
    first.kill()
    first.wait()
    second = spawn()
    try:
        done = wait_finished(live_server, t["id"], 240)
    finally:
        second.terminate()
        second.wait()
    assert done["progress"]["finished"] == 8


def test_restarting_the_api_mid_tournament_does_not_stop_it(worker, redis_client, redis_url):
    from tests.conftest import free_port, stop, wait_http_ok

    port = free_port()
    base = f"http://127.0.0.1:{port}"

    def api() -> subprocess.Popen:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "--config",
                str(ROOT / "deploy" / "gunicorn.conf.py"),
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                "1",
                "service.app:create_app()",
            ],
            cwd=ROOT,
            env=_child_env(redis_url),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        wait_http_ok(f"{base}/v1/health", 60, "gunicorn", proc)
        return proc

    first = api()
    # The session's rq workers (SimpleWorkers: jobs run in their own process) are held still
    # while the tournament starts and the API dies, so the crash always comes before any game
    # finishes, however fast the games or slow the machine.
    for proc in worker:
        os.kill(proc.pid, signal.SIGSTOP)
    try:
        t = start(base, **HEURISTIC_VS_RANDOM, games=8)
        assert t["status"] == "running" and t["progress"]["finished"] == 0
        os.killpg(first.pid, signal.SIGKILL)  # the API crashes: master and workers at once
        first.wait()
    finally:
        for proc in worker:
            os.kill(proc.pid, signal.SIGCONT)
    second = api()
    try:
        done = wait_finished(base, t["id"], 240)
    finally:
        stop(second)
    assert done["progress"]["finished"] == 8


def test_a_time_bank_spent_by_an_external_bot_gives_fallbacks_counted_as_missed(
    live_server, worker, redis_client
):
    account = requests.post(
        f"{live_server}/v1/bots", json={"name": "slowclock", "owner": "t@x"}, timeout=5
    ).json()
    spec = {
        "game": "toy",
        "participants": [
            {"name": "bundled", "bot": "random"},
            {"name": "slowclock", "account": account["id"]},
        ],
        "format": "round_robin",
        "seats_per_game": 2,
        "time_bank": {"start": 0.3, "increment": 0.05},
    }
    t = start(live_server, **spec, games=2)
    assert t["time_bank"] == {"start": 0.3, "increment": 0.05}
    done = wait_finished(live_server, t["id"], 120)
    rows = {row["name"]: row for row in done["standings"]}
    assert rows["slowclock"]["deadlines_missed"] == 8, "its clock ran out at every decision"
    assert rows["bundled"]["deadlines_missed"] == 0
    game = requests.get(f"{live_server}/v1/games/{t['id']}-00000", timeout=10).json()
    assert game["time_bank"] == {"start": 0.3, "increment": 0.05}
    assert game["decision_seconds"] is None
