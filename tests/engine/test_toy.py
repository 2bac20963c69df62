"""The contract on the toy game: sealed simultaneous choices, a hidden stockpile, sample()."""

from __future__ import annotations

import json

import pytest

from engine.contract import IllegalAction
from engine.dice import Dice
from engine.toy import GAME
from tests.engine.contract_checks import random_sim


def new_state(seats: int = 3, seed: str = "toy-seed"):
    dice = Dice(seed)
    return GAME.setup(seats, GAME.validate_options(seats, {}), dice), dice


def test_random_sim_invariants_and_replay():
    played = random_sim(GAME, seats=3, games=30)
    assert all(p.result is not None for p in played)


def test_all_seats_owe_a_sealed_decision_at_once():
    state, _ = new_state()
    prompts = GAME.to_act(state)
    assert sorted(prompts) == [0, 1, 2]
    assert all(p.sealed for p in prompts.values())


def test_sealed_bid_is_hidden_from_other_seats_and_spectators_until_resolution():
    state, dice = new_state()
    GAME.apply(state, 0, {"type": "bid", "card": 4}, dice)
    assert GAME.view(state, 0)["bids"][0] == {"decided": True, "card": 4}
    for viewer in (1, 2, None):
        text = json.dumps(GAME.view(state, viewer))
        assert GAME.view(state, viewer)["bids"][0] == {"decided": True, "card": None}
        assert GAME.view(state, viewer)["hands"][0] == [1, 2, 3, 4], text
    GAME.apply(state, 1, {"type": "bid", "card": 4}, dice)
    events = GAME.apply(state, 2, {"type": "bid", "card": 1}, dice)
    resolved = events[-1]
    assert resolved["type"] == "round_resolved"
    assert resolved["bids"] == [4, 4, 1] and resolved["winner"] == 2


def test_a_seat_that_has_decided_owes_nothing_more_this_round():
    state, dice = new_state()
    GAME.apply(state, 0, {"type": "bid", "card": 2}, dice)
    assert 0 not in GAME.to_act(state)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, {"type": "bid", "card": 3}, dice)
    assert err.value.code == "not_your_turn"


def test_illegal_action_leaves_state_unchanged():
    state, dice = new_state()
    before = GAME.dump_state(state)
    counter = dice.counter
    for action in ({"type": "bid", "card": 9}, {"type": "bid"}, {"type": "fold"}, {"card": 1}):
        with pytest.raises(IllegalAction):
            GAME.apply(state, 1, action, dice)
    assert GAME.dump_state(state) == before
    assert dice.counter == counter, "a refused action consumed dice"


def test_stockpile_order_never_in_any_view():
    state, _ = new_state()
    for viewer in (None, 0, 1, 2):
        view = GAME.view(state, viewer)
        assert "deck" not in view and view["deck_size"] == len(state.deck)


def test_sample_is_consistent_with_the_view():
    state, dice = new_state()
    GAME.apply(state, 0, {"type": "bid", "card": 3}, dice)
    view = GAME.view(state, 1)
    sampled = GAME.sample(view, 1, Dice("sampler"))
    assert GAME.view(sampled, 1) == view
    assert len(sampled.deck) == len(state.deck)
    assert state.prize not in sampled.deck, "a face-up card cannot be in the sampled stockpile"
    assert sampled.bids[0] in (1, 2, 3, 4)


def test_apply_validates_an_action_once_and_check_validates_too():
    from engine.contract import MalformedAction
    from engine.toy.rules import SealedBids

    class Counting(SealedBids):
        validated = 0

        def validate_action(self, action):
            Counting.validated += 1
            super().validate_action(action)

    game = Counting()
    state, dice = new_state()
    action = game.legal_actions(state, 0)[0]
    game.apply(state, 0, action, dice)
    assert Counting.validated == 1
    state, dice = new_state()
    game.check(state, 0, action)  # alone, check validates the shape itself
    assert Counting.validated == 2
    with pytest.raises(MalformedAction):
        game.check(state, 0, {"type": action["type"]})
