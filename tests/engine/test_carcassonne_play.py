"""Carcassonne through the contract: seeded simulations, views, sample, and the bots."""

from __future__ import annotations

import json
import random

import pytest

from engine.carcassonne import GAME
from engine.carcassonne.bots import HeuristicBot, best_finish, grid_from_view, outlook
from engine.carcassonne.faces import CITY_FACES, face_mask
from engine.carcassonne.rulebook import TURN_LIMIT
from engine.contract import RandomBot
from engine.dice import Dice
from engine.simulate import make_bots, play
from tests.engine.contract_checks import random_sim
from tests.engine.test_carcassonne_support import (
    CITY_OF_THREE,
    act,
    build,
    new_game,
    set_roll,
)

VIEW_KEYS = {"seats", "scores", "active", "pending", "players", "turn", "last_turn", "winner"}


def every_city_die_can_be_built(game, state, seat, action) -> None:
    """Ruling 5 holds in play, and every legal action has its own readable sentence."""
    legal = game.legal_actions(state, seat)
    texts = [game.describe(state, seat, a) for a in legal]
    assert all(texts) and len(set(texts)) == len(texts)
    faces = {d.face for d in state.turn.roll if d.status == "free" and d.face in CITY_FACES}
    placeable = {state.turn.roll[a["die"]].face for a in legal if a["type"] == "place"}
    assert faces == placeable


@pytest.mark.parametrize(
    ("bots", "games"),
    [
        (["random", "heuristic"], 6),
        (["heuristic", "random", "heuristic"], 4),
        (["heuristic"], 6),
        (["heuristic", "random", "heuristic", "random", "heuristic"], 2),
    ],
)
def test_random_sim_invariants_and_replay(bots, games):
    played = random_sim(
        GAME, seats=len(bots), games=games, bots=bots, on_step=every_city_die_can_be_built
    )
    for game in played:
        assert game.result.winners == [game.result.detail["winner"]]
        assert game.state.scores[game.state.winner] >= 42 or game.state.won_by == "catapults"


def test_uniformly_random_players_keep_to_the_rules_over_many_turns():
    # Two uniformly random players rarely close a city, so their game runs to the turn
    # limit (RULES.md ruling 11): every one of its steps is checked.
    from tests.engine.contract_checks import check_step

    state, dice = new_game(2, seed="random-vs-random")
    rng = random.Random(3)
    bot = RandomBot()
    steps = 0
    while GAME.result(state) is None:
        seat = state.turn.seat
        legal = GAME.legal_actions(state, seat)
        action = bot.choose(GAME.view(state, seat), legal, rng)
        check_step(GAME, state, 2, seat, action)
        GAME.apply(state, seat, action, dice)
        steps += 1
        assert steps < 10_000
    assert state.turns == [TURN_LIMIT, TURN_LIMIT] and state.won_by == "turn_limit"


def test_views_have_the_common_keys_and_are_json():
    state, dice = new_game(3)
    build(state, dice, *CITY_OF_THREE)
    for seat in (None, 0, 1, 2):
        view = GAME.view(state, seat)
        assert set(view) >= VIEW_KEYS
        assert view["seats"] == 3 and view["active"] == 0 and view["pending"] == [0]
        json.dumps(view)
    turn = GAME.view(state, 0)["turn"]
    assert turn["grid"][0] == {
        "x": 0,
        "y": 0,
        "face": "cap",
        "rotation": 2,
        "edges": ["S"],
        "city": 0,
    }
    assert turn["cities"] == [
        {"dice": [0, 1, 2], "size": 3, "open_edges": 0, "closed": True, "points": 1}
    ]
    assert turn["rolls_left"] == 2


def test_nothing_is_hidden_every_seat_sees_the_same_view_and_never_the_seed():
    seed = "a-secret-seed-4711"
    state, dice = new_game(3, seed=seed)
    set_roll(state, ["knight", "cap"])
    act(state, dice, {"type": "keep_knight", "die": 0})
    views = [GAME.view(state, seat) for seat in (None, 0, 1, 2)]
    assert all(view == views[0] for view in views)
    for view in views:
        text = json.dumps(view)
        assert seed not in text and "counter" not in text


def test_view_shows_the_end():
    state, dice = new_game(2)
    state.scores = [41, 3]
    build(state, dice, *CITY_OF_THREE)
    act(state, dice, {"type": "score"})
    view = GAME.view(state, 1)
    assert view["over"] and view["winner"] == 0 and view["won_by"] == "points"
    assert view["active"] is None and view["pending"] == []
    assert view["last_turn"] == {
        "seat": 0,
        "ending": "scored",
        "city": 3,
        "points": 1,
        "doubled": False,
    }


def test_sample_rebuilds_the_exact_state_from_a_view():
    played = play(GAME, make_bots(GAME, ["heuristic", "random"]), "sample-seed")
    state, dice = new_game(2, seed="sample-seed")
    for seat, action in played.moves[:60]:
        view = GAME.view(state, seat)
        assert GAME.dump_state(GAME.sample(view, seat, Dice("x"))) == GAME.dump_state(state)
        GAME.apply(state, seat, action, dice)


def test_heuristic_bot_beats_the_random_bot():
    wins = 0
    games = 100
    for n in range(games):
        names = ["heuristic", "random"] if n % 2 == 0 else ["random", "heuristic"]
        played = play(GAME, make_bots(GAME, names), f"heuristic-vs-random-{n}")
        wins += names[played.result.winners[0]] == "heuristic"
    assert wins >= 90, f"heuristic won only {wins} of {games}"


def test_heuristic_bot_closes_the_largest_city_it_can_with_its_last_roll():
    state, dice = new_game(2)
    build(state, dice, ("cap", 0, 0, 2), ("band", 0, 1, 0))
    set_roll(state, ["corner", "cap"])
    state.turn.rolls = 3
    bot, rng = HeuristicBot(), random.Random(1)
    while True:
        action = bot.choose(GAME.view(state, 0), GAME.legal_actions(state, 0), rng)
        if action["type"] == "score":
            break
        act(state, dice, action)
    # The cap alone would close a city of three (1 point); corner then cap close four (3).
    assert GAME.view(state, 0)["turn"]["scoring"]["size"] == 4
    act(state, dice, action)
    assert state.scores[0] == 3


def test_heuristic_helpers_see_only_the_view():
    state, dice = new_game(2)
    build(state, dice, *CITY_OF_THREE)
    grid = grid_from_view(GAME.view(state, 0))
    assert grid == {(0, 0): face_mask("cap", 2), (0, 1): face_mask("band", 0), (0, 2): 1}
    assert outlook(grid, 0, 0) == 1.0
    points, move = best_finish({(0, 0): face_mask("cap", 2)}, ["band", "cap"])
    assert points == 1 and move is not None


def test_heuristic_holds_a_knight_when_the_points_on_offer_are_small():
    state, dice = new_game(2)
    set_roll(state, ["knight", "knight", "knight"])
    for die in range(3):
        act(state, dice, {"type": "keep_knight", "die": die})
    state.turn.rolls = 3
    view = GAME.view(state, 0)
    legal = GAME.legal_actions(state, 0)
    assert HeuristicBot().choose(view, legal, random.Random(1)) == {"type": "hold_knight"}
