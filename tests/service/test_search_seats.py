"""Search bots in service seats: per-seat budgets, played by real rq workers, reproducible.

The worker seeds each bot decision from the game's secret seed, version and seat, so a search
bot with an iteration budget makes the same moves when its decisions are recomputed here
from the log alone, once the game's end publishes the seed.
"""

from __future__ import annotations

import random

import requests

from engine.dice import Dice
from engine.games import get_game
from tests.players import create, wait_for


def test_search_seat_with_an_iteration_budget_plays_to_the_end_in_the_workers(
    live_server, worker, redis_client
):
    seats = [
        {"kind": "bot", "bot": "search", "iterations": 4},
        {"kind": "bot", "bot": "heuristic"},
    ]
    game = create(live_server, "kingdice", seats)
    summary = wait_for(live_server, game["id"], lambda s: s["status"] == "over", timeout=300)
    assert len(summary["result"]["scores"]) == 2
    log = requests.get(f"{live_server}/v1/games/{game['id']}/log", timeout=10).json()
    engine_game = get_game("kingdice")
    dice = Dice(log["seed"])
    state = engine_game.setup(2, engine_game.validate_options(2, log["options"]), dice)
    searched = 0
    for entry in log["entries"][1:]:
        seat, action = entry["seat"], entry["action"]
        if seat == 0:
            bot = engine_game.bots["search"](iterations=4)
            rng = random.Random(f"{log['seed']}:{entry['version'] - 1}:{seat}")
            legal = engine_game.legal_actions(state, seat)
            assert bot.choose(engine_game.view(state, seat), legal, rng) == action
            searched += 1
        engine_game.apply(state, seat, action, dice)
    assert searched > 0
    assert engine_game.result(state).to_json() == summary["result"]


def test_seat_budget_is_checked_against_the_bot(client):
    def create_with(seat):
        return client.post("/v1/games", json={"game": "carcassonne", "seats": [seat]})

    ok = create_with({"kind": "bot", "bot": "search", "budget_ms": 5})
    assert ok.status_code == 201
    refused = create_with({"kind": "bot", "bot": "heuristic", "budget_ms": 200})
    assert refused.status_code == 422
    assert refused.get_json()["code"] == "invalid_bot_options"
    assert "heuristic" in refused.get_json()["detail"]
    too_big = create_with({"kind": "bot", "bot": "search", "budget_ms": 10**7})
    assert too_big.status_code == 422


def test_an_iteration_budget_stays_inside_a_bot_jobs_timeout(client, redis_client):
    # the slowest game's simulations take 2-4 ms on the shared machine: 10,000 of them keep a
    # decision under a minute, 100,000 could outlast the job's timeout and never move
    from engine.search import MAX_ITERATIONS
    from service.runtime import JOB_TIMEOUT

    assert MAX_ITERATIONS * 0.004 < JOB_TIMEOUT / 5

    def create_with(iterations):
        seat = {"kind": "bot", "bot": "search", "iterations": iterations}
        return client.post("/v1/games", json={"game": "diceland", "seats": [seat, seat]})

    accepted = create_with(MAX_ITERATIONS)
    redis_client.flushdb()  # its bot jobs are minutes of work that no later test should find
    assert accepted.status_code == 201, accepted.get_json()
    refused = create_with(MAX_ITERATIONS + 1)
    assert refused.status_code == 422, refused.get_json()
    assert "iterations" in str(refused.get_json())


def test_catalogue_offers_the_search_bot_in_every_game(client):
    for game in client.get("/v1/catalogue").get_json():
        assert {"random", "heuristic", "search"} <= set(game["bots"]), game["name"]
