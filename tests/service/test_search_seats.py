"""Search bots in service seats: per-seat budgets, played by real rq workers, reproducible.

The worker seeds each bot decision from the game's secret seed, version and seat, so a search
bot with an iteration budget makes the same moves when its decisions are recomputed here
from the log alone, once the game's end publishes the seed.
"""

from __future__ import annotations

import random

import pytest
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


ACCOUNT = "a1b2c3d4e5f6"


@pytest.mark.parametrize(
    ("seat", "field"),
    [
        ({"kind": "human", "budget_ms": 200}, "budget_ms"),
        ({"kind": "human", "iterations": 50}, "iterations"),
        ({"kind": "human", "bot": "search"}, "bot"),
        ({"kind": "human", "account": ACCOUNT}, "account"),
        ({"kind": "bot", "bot": "search", "account": ACCOUNT}, "account"),
        ({"kind": "external", "account": ACCOUNT, "budget_ms": 200}, "budget_ms"),
        ({"kind": "external", "account": ACCOUNT, "bot": "search"}, "bot"),
    ],
)
def test_a_seat_refuses_a_field_of_another_kind_of_seat(client, seat, field):
    # it was ignored: a human seat asked to search for 200 ms was created as a plain seat
    reply = client.post("/v1/games", json={"game": "kingdice", "seats": [seat, {"kind": "bot"}]})
    assert reply.status_code == 422, reply.get_json()
    assert reply.get_json()["code"] == "validation_failed"
    assert field in str(reply.get_json()["errors"])


@pytest.mark.parametrize("setting", [{"budget_ms": 200}, {"iterations": 50}])
def test_a_tournament_account_refuses_a_bundled_bots_setting(client, setting):
    account = client.post("/v1/bots", json={"name": "ext", "owner": "o@x"}).get_json()
    entrant = {"name": "e", "account": account["id"], **setting}
    spec = {"game": "toy", "participants": [entrant, {"name": "r", "bot": "random"}], "games": 1}
    reply = client.post("/v1/tournaments", json=spec)
    assert reply.status_code == 422, reply.get_json()
    assert reply.get_json()["code"] == "validation_failed"
    assert next(iter(setting)) in str(reply.get_json()["errors"])


def test_an_iteration_budget_stays_inside_a_bot_jobs_timeout(client, redis_client):
    # the slowest game's simulations (Burgundy, five seats) take up to 12 ms on the shared
    # machine: 10,000 of them were two minutes of a core, more under load, which a job that
    # had played for JOB_SECONDS could take past its timeout, never to move. The job cuts a
    # decision at THINKING_SECONDS
    from engine.search import MAX_ITERATIONS
    from service.jobs import JOB_SECONDS
    from service.moves import THINKING_SECONDS
    from service.runtime import JOB_TIMEOUT

    assert MAX_ITERATIONS * 0.012 > THINKING_SECONDS
    assert JOB_SECONDS + 2 * THINKING_SECONDS < JOB_TIMEOUT, "room for a loaded machine"

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
