"""A process gives a seat's view again only for the very state it was built from
(``service.views``): same game, same seat, same version, same stored data; and what it holds
shares nothing with the state, which the next move changes in place."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from engine.codec import canonical_json
from engine.dice import Dice
from engine.games import get_game
from service.store import GameRecord, StoredRecord
from service.views import Views
from tests.service.test_api_basics import auth
from tests.service.test_decoded import record_fields
from tests.service.test_described import notice, played, stored

GAME = get_game("burgundy")
FIELDS = record_fields("burgundy")


def a_state(seed: str = "views") -> Any:
    return GAME.setup(2, GAME.validate_options(2, {}), Dice(seed))


def as_json(value: Any) -> Any:
    return orjson.loads(orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS))


def test_the_held_view_is_given_again_for_the_same_seat_version_and_data():
    held, state = Views(), a_state()
    first = held.get(GAME, stored("g", 3, state), state, 0)
    assert first == GAME.view(state, 0)
    assert held.get(GAME, stored("g", 3, state), state, 0) is first


def test_a_new_version_or_other_data_builds_it_again():
    held, state, other = Views(), a_state(), a_state("other")
    first = held.get(GAME, stored("g", 3, state), state, 0)
    assert held.get(GAME, stored("g", 4, state), state, 0) is not first
    again = held.get(GAME, stored("g", 4, other), other, 0)
    assert again == GAME.view(other, 0), "the same version, other data"


def test_one_seats_view_is_never_given_for_another_seat_a_spectator_or_game():
    held, state = Views(), a_state()
    mine = held.get(GAME, stored("g", 3, state), state, 0)
    theirs = held.get(GAME, stored("g", 3, state), state, 1)
    assert theirs is not mine and theirs == GAME.view(state, 1)
    spectator = held.get(GAME, stored("g", 3, state), state, None)
    assert spectator is not mine and spectator == GAME.view(state, None)
    assert held.get(GAME, stored("h", 3, state), state, 0) is not mine, "another game"


def test_a_record_whose_bytes_are_unknown_is_never_held():
    held, state = Views(), a_state()
    made = GameRecord(id="g", version=3, state=GAME.dump_state(state), **FIELDS)
    assert made.state_json is None
    assert held.get(GAME, made, state, 0) == GAME.view(state, 0)
    assert len(held) == 0


def test_the_views_held_are_bounded():
    held, state = Views(size=3), a_state()
    for n in range(10):
        held.get(GAME, stored(f"g{n}", 1, state), state, 0)
    assert len(held) == 3


@pytest.mark.parametrize("name", ["burgundy", "carcassonne", "diceland", "kingdice"])
def test_a_held_view_does_not_change_with_the_state_it_came_from(name):
    game, held = get_game(name), Views()
    dice = Dice("views-move")
    state = game.setup(2, game.validate_options(2, {}), dice)
    record = StoredRecord(
        state_json=canonical_json(game.dump_state(state)).encode(),
        id="g",
        version=3,
        **record_fields(name),
    )
    first = held.get(game, record, state, 0)
    before = orjson.dumps(first)
    for _ in range(6):
        if game.is_over(state):
            break
        seat = min(game.to_act(state))
        game.apply(state, seat, game.legal_actions(state, seat)[-1], dice)
    assert held.get(game, record, state, 0) is first
    assert orjson.dumps(first) == before


def test_answers_views_and_notices_give_each_seat_its_own_current_view(client):
    # Burgundy, two humans: the move's answer, GET view and each seat's stream notice give
    # that seat's view of the state as decoding gives it, version after version.
    for move in played(client, "views", 0):
        state, game_id = move.state, move.game_id
        assert move.moved["view"] == as_json(GAME.view(state, move.seat))
        for each in (0, 1):
            fresh = as_json(GAME.view(state, each))
            read = client.get(f"/v1/games/{game_id}/view", headers=auth(move.tokens[each]))
            assert read.get_json()["view"] == fresh
            due = notice(move.service, game_id, each)
            if each in GAME.to_act(state):
                assert due is not None and due["current"] and due["view"] == fresh
        spectator = client.get(f"/v1/games/{game_id}/view").get_json()["view"]
        assert spectator == as_json(GAME.view(state, None))
