"""Search bots: every game's ``search`` bot plays whole seeded games with legal moves only,
keeps to its budget, is reproducible with an iteration budget, and sees only its view."""

from __future__ import annotations

import itertools
import json
import random
import time
from typing import Any

import pytest

from engine.contract import Bot
from engine.dice import Dice
from engine.games import LISTED, get_game
from engine.search import FastDice, SearchBot, bot_options
from engine.simulate import play

LINEUPS = {
    "burgundy": ({"variant": "solo"}, 1),
    "carcassonne": ({}, 1),
    "diceland": ({}, 2),
    "kingdice": ({}, 2),
}


def lineup(game_name: str, search: Bot) -> list[Bot]:
    game = get_game(game_name)
    _, seats = LINEUPS[game_name]
    return [search] + [game.bots["heuristic"]() for _ in range(seats - 1)]


@pytest.mark.parametrize("game_name", LISTED)
def test_search_bot_is_registered_beside_random_and_heuristic(game_name):
    bots = get_game(game_name).bots
    assert {"random", "heuristic", "search"} <= set(bots)
    bot = bots["search"](iterations=5)
    assert isinstance(bot, SearchBot) and bot.name == "search"


@pytest.mark.parametrize("game_name", LISTED)
def test_search_bot_plays_a_seeded_game_to_the_end_with_legal_actions_only(game_name):
    game = get_game(game_name)
    options, _ = LINEUPS[game_name]
    bot = game.bots["search"](iterations=12)
    searched = []

    def legal_only(g, state, seat, action):
        assert action in g.legal_actions(state, seat)
        if seat == 0 and bot.last is not None:
            searched.append(bot.last)

    played = play(game, lineup(game_name, bot), f"search-{game_name}", options, on_step=legal_only)
    assert played.result is not None and played.illegal == 0
    assert searched, "the search never had a choice to make"
    assert all(d.simulations <= 12 + 10 for d in searched)
    assert all(d.worlds >= 1 for d in searched)


@pytest.mark.parametrize("game_name", LISTED)
def test_search_bot_with_an_iteration_budget_repeats_its_moves_for_a_seed(game_name):
    options, _ = LINEUPS[game_name]
    first, second = _moves(game_name, options), _moves(game_name, options)
    assert first == second
    assert any(seat == 0 for seat, _ in first)


def _moves(game_name: str, options: dict, steps: int = 40, bot_seed: int = 7) -> list:
    """The first ``steps`` moves of a game where seat 0 searches with 6 iterations."""
    game = get_game(game_name)
    bots = lineup(game_name, game.bots["search"](iterations=6))
    dice = Dice(f"search-repeat-{game_name}")
    state = game.setup(len(bots), game.validate_options(len(bots), options), dice)
    rng = random.Random(bot_seed)
    moves: list[tuple[int, Any]] = []
    while len(moves) < steps and game.result(state) is None:
        seat = min(game.to_act(state))
        action = bots[seat].choose(game.view(state, seat), game.legal_actions(state, seat), rng)
        game.apply(state, seat, action, dice)
        moves.append((seat, action))
    return moves


def test_search_bot_keeps_to_its_time_budget():
    game = get_game("kingdice")
    bot = game.bots["search"](budget_ms=40)
    dice = Dice("search-budget")
    state = game.setup(2, game.validate_options(2, {}), dice)
    rng = random.Random(1)
    slowest = 0.0
    decided = 0
    for _ in range(60):
        if game.result(state) is not None:
            break
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        start = time.process_time()
        action = bot.choose(game.view(state, seat), legal, rng)
        slowest = max(slowest, time.process_time() - start)
        decided += bot.last is not None
        game.apply(state, seat, action, dice)
    assert decided > 0
    # one simulation may run past the budget (it is not cut short), never a whole search
    assert slowest < 0.040 + 0.5


def test_search_bot_decides_from_the_json_view_alone():
    game = get_game("carcassonne")
    dice = Dice("search-json")
    state = game.setup(2, game.validate_options(2, {}), dice)
    view = json.loads(json.dumps(game.view(state, 0)))
    legal = json.loads(json.dumps(game.legal_actions(state, 0)))
    before = game.dump_state(state)
    action = game.bots["search"](iterations=20).choose(view, legal, random.Random(3))
    assert action in legal
    assert game.dump_state(state) == before


def test_fast_dice_draw_like_dice_without_records():
    dice = FastDice("fast")
    rolls = [dice.roll() for _ in range(600)]
    assert set(rolls) == {1, 2, 3, 4, 5, 6}
    assert dice.counter == 600 and dice.take_draws() == []
    again = FastDice("fast")
    assert [again.roll() for _ in range(20)] == rolls[:20]


def test_bot_options_bound_the_budget():
    assert bot_options({"budget_ms": 200}) == {"budget_ms": 200}
    assert bot_options({"iterations": 50, "other": 1}) == {"iterations": 50}
    for bad in ({"budget_ms": 0}, {"budget_ms": 10**6}, {"iterations": 2.5}, {"iterations": True}):
        with pytest.raises(ValueError):
            bot_options(bad)


def test_carcassonne_leaf_values_turns_left_to_42():
    """The Carcassonne search's leaf: expected turns still needed, zero from 42 on, fewer
    with more points, fewer with a held knight (a doubled turn) unless any points would do."""
    from engine.carcassonne.search import turns_left

    assert turns_left(42, False) == turns_left(50, True) == 0.0
    left = [turns_left(score, False) for score in range(42)]
    assert all(a >= b for a, b in itertools.pairwise(left)) and left[0] > left[-1] > 1
    assert all(turns_left(s, True) <= turns_left(s, False) for s in range(42))
    assert all(turns_left(s, True) < turns_left(s, False) for s in range(30))


def test_a_lookahead_with_no_chance_left_plays_one_world():
    """After Carcassonne's last roll the rest of the turn is certain: one world decides."""
    game = get_game("carcassonne")
    bot = game.bots["search"](iterations=200)
    dice = Dice("last-roll")
    state = game.setup(1, game.validate_options(1, {}), dice)
    rng = random.Random(0)
    while game.result(state) is None:
        view, legal = game.view(state, 0), game.legal_actions(state, 0)
        action = bot.choose(view, legal, rng)
        if bot.last is not None and view["turn"]["rolls_left"] == 0:
            assert bot.last.worlds == 1
            return
        game.apply(state, 0, action, dice)
    raise AssertionError("no searched decision after a last roll")


@pytest.mark.parametrize("game_name", ["diceland", "kingdice"])
def test_search_short_lists_the_heuristics_best_alternatives_when_there_are_many(game_name):
    """Where a decision has more legal actions than the search has room for, the candidates
    are the heuristic's choice and alternatives ranked by its own values (no random draw):
    the same list whatever the rng, all legal, distinct, at most ``width``."""
    game = get_game(game_name)
    look = game.bots["search"](iterations=1).look
    dice = Dice(f"short-list-{game_name}")
    state = game.setup(3, game.validate_options(3, {}), dice)
    heuristic, rng = game.bots["heuristic"](), random.Random(3)
    wide = 0
    while game.result(state) is None and wide < 12:
        seat = min(game.to_act(state))
        view, legal = game.view(state, seat), game.legal_actions(state, seat)
        if len(legal) > look.width and look.shortlist(view, legal[1:]) is not None:
            wide += 1
            lists = [look.candidates(view, legal, random.Random(n)) for n in (1, 2)]
            assert lists[0] == lists[1]
            assert lists[0][0] == heuristic.choose(view, legal, rng)
            assert 1 < len(lists[0]) <= look.width
            assert all(a in legal for a in lists[0])
            assert len({json.dumps(a, sort_keys=True) for a in lists[0]}) == len(lists[0])
        game.apply(state, seat, heuristic.choose(view, legal, rng), dice)
    assert wide == 12, "no decision with more actions than candidates"
