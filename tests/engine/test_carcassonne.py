"""Carcassonne: one test per rule and per ruling (see engine/carcassonne/RULES.md)."""

from __future__ import annotations

import copy
import itertools
import random
import re
from pathlib import Path

import pytest

from engine.carcassonne import GAME, rules
from engine.carcassonne import city as geometry
from engine.carcassonne.faces import (
    BASE_MASK,
    CITY_FACES,
    DATA,
    FACES,
    HOUSE_DESIGN,
    ROTATIONS,
    edge_list,
    face_mask,
    rotate,
    validate_faces,
)
from engine.carcassonne.state import ASIDE, FREE, GONE, PLACED
from engine.contract import IllegalAction, InvalidOptions
from engine.dice import derive
from tests.engine.test_carcassonne_support import (
    CITY_OF_FOUR_BESIDE,
    CITY_OF_THREE,
    act,
    build,
    dice_rolling,
    new_game,
    set_roll,
)


def refused(state, dice, action) -> str:
    """The code of the IllegalAction ``action`` raises (state and dice must not change)."""
    before, counter = GAME.dump_state(state), dice.counter
    with pytest.raises(IllegalAction) as err:
        act(state, dice, action)
    assert GAME.dump_state(state) == before and dice.counter == counter
    assert err.value.reason
    return err.value.code


def place(die: int, x: int, y: int, rotation: int) -> dict:
    return {"type": "place", "die": die, "x": x, "y": y, "rotation": rotation}


# --- the dice -----------------------------------------------------------------------------


def test_rule_nine_dice_with_four_city_faces_one_knight_one_catapult():
    assert DATA["dice"] == 9
    assert sorted(FACES) == sorted(["cap", "corner", "band", "three", "knight", "catapult"])
    assert len(CITY_FACES) == 4
    assert edge_list(BASE_MASK["cap"]) == ["N"]
    assert edge_list(BASE_MASK["corner"]) == ["N", "E"]
    assert edge_list(BASE_MASK["band"]) == ["N", "S"]
    assert len(edge_list(BASE_MASK["three"])) == 3
    assert BASE_MASK["knight"] == BASE_MASK["catapult"] == 0


def test_rule_unpublished_faces_are_marked_house_design():
    assert sorted(HOUSE_DESIGN) == ["corner", "three"]
    assert "HOUSE DESIGN" in DATA["about"]


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d["faces"].pop(),
        lambda d: d.update(dice=8),
        lambda d: d["faces"][1].update(city_edges=["N"]),
        lambda d: d["faces"][2].update(city_edges=["N", "E"]),
        lambda d: d["faces"][0].update(city_edges=[]),
    ],
)
def test_rule_die_data_is_validated(mutate):
    data = copy.deepcopy(DATA)
    mutate(data)
    with pytest.raises(ValueError):
        validate_faces(data)


def test_rule_free_rotation_turns_edges_clockwise():
    assert edge_list(face_mask("cap", 1)) == ["E"]
    assert edge_list(face_mask("corner", 1)) == ["E", "S"]
    assert edge_list(face_mask("corner", 3)) == ["N", "W"]
    assert edge_list(face_mask("band", 1)) == ["E", "W"]
    assert all(rotate(m, 4) == m for m in range(16))
    assert ROTATIONS == {
        "cap": (0, 1, 2, 3),
        "corner": (0, 1, 2, 3),
        "band": (0, 1),
        "three": (0, 1, 2, 3),
    }


# --- players and turns --------------------------------------------------------------------


@pytest.mark.parametrize("seats", [1, 2, 3, 4, 5])
def test_rule_two_to_five_players_or_one_solo(seats):
    state, _ = new_game(seats)
    assert state.seats == seats and state.scores == [0] * seats


@pytest.mark.parametrize("seats", [0, 6])
def test_rule_no_more_than_five_players(seats):
    with pytest.raises(InvalidOptions):
        GAME.validate_options(seats, {})


def test_rule_no_options_are_accepted():
    with pytest.raises(InvalidOptions):
        GAME.validate_options(2, {"target": 10})


def test_rule_start_player_rolls_all_nine_dice():
    state, _ = new_game(3)
    turn = state.turn
    assert turn.seat == 0 and turn.dice == 9 and turn.rolls == 1
    assert len(turn.roll) == 9
    assert GAME.to_act(state).keys() == {0}


def test_rule_turn_passes_to_the_left_neighbour():
    state, dice = new_game(3)
    order = []
    for _ in range(4):
        order.append(state.turn.seat)
        act(state, dice, {"type": "score"})
    assert order == [0, 1, 2, 0]
    assert state.turns == [2, 1, 1]


def test_rule_only_the_active_player_acts():
    state, dice = new_game(2)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 1, {"type": "score"}, dice)
    assert err.value.code == "not_your_turn"
    assert GAME.legal_actions(state, 1) == []


# --- rolling --------------------------------------------------------------------------------


def test_rule_at_most_three_rolls():
    state, _ = new_game()
    set_roll(state, ["knight", "knight"])
    dice = dice_rolling(["cap", "band", "cap", "band"])
    act(state, dice, {"type": "reroll"})
    act(state, dice, {"type": "reroll"})
    assert state.turn.rolls == 3
    assert [d.status for d in state.turn.roll] == [FREE, FREE]
    assert {"type": "reroll"} not in GAME.legal_actions(state, 0)
    assert refused(state, dice, {"type": "reroll"}) == "no_rolls_left"


def test_rule_reroll_rolls_only_the_dice_left_on_the_table():
    state, dice = new_game()
    set_roll(state, ["cap", "knight", "catapult", "band", "three"])
    act(state, dice, place(0, 0, 0, 1))
    act(state, dice, {"type": "keep_knight", "die": 1})
    act(state, dice, {"type": "reroll"})
    assert state.turn.rolls == 2
    assert len(state.turn.roll) == 2, "only the band and the three were on the table"


def test_rule_nothing_to_reroll_when_every_die_is_used():
    state, dice = new_game()
    set_roll(state, ["cap", "catapult"])
    act(state, dice, place(0, 0, 0, 0))
    assert {"type": "reroll"} not in GAME.legal_actions(state, 0)
    assert refused(state, dice, {"type": "reroll"}) == "nothing_to_reroll"


def test_rule_catapults_leave_the_turn_at_once():
    state, _ = new_game()
    set_roll(state, ["cap", "cap", "band"])
    dice = dice_rolling(["catapult", "knight", "catapult"])
    events = act(state, dice, {"type": "reroll"})
    assert [d.status for d in state.turn.roll] == [GONE, FREE, GONE]
    assert state.turn.catapults == 2
    passed = [e for e in events if e["type"] == "catapults_passed"]
    assert passed == [{"type": "catapults_passed", "seat": 0, "dice": [0, 2], "this_turn": 2}]
    legal = GAME.legal_actions(state, 0)
    assert all(a.get("die") != 0 and a.get("die") != 2 for a in legal)


def test_rule_rest_of_a_roll_with_catapults_is_still_usable():
    state, _ = new_game()
    set_roll(state, ["cap", "cap", "cap"])
    dice = dice_rolling(["catapult", "three", "knight"])
    act(state, dice, {"type": "reroll"})
    legal = GAME.legal_actions(state, 0)
    assert place(1, 0, 0, 0) in legal
    assert {"type": "keep_knight", "die": 2} in legal
    act(state, dice, place(1, 0, 0, 0))
    assert state.turn.roll[1].status == PLACED


def test_rule_catapults_are_never_rerolled():
    state, _ = new_game()
    set_roll(state, ["catapult", "catapult", "knight"])
    dice = dice_rolling(["cap"])
    act(state, dice, {"type": "reroll"})
    assert len(state.turn.roll) == 1, "only the knight went back into the cup"


def test_rule_nine_catapults_in_one_turn_win_at_once():
    state, _ = new_game(3)
    state.scores = [0, 30, 41]
    set_roll(state, ["cap", "knight"])
    state.turn.catapults = 7
    state.turn.rolls = 2
    dice = dice_rolling(["catapult", "catapult"])
    events = act(state, dice, {"type": "reroll"})
    assert state.turn.catapults == 9
    assert events[-1] == {"type": "game_won", "seat": 0, "by": "catapults", "score": 0}
    result = GAME.result(state)
    assert result is not None and result.winners == [0]
    assert result.ranks == [1, 3, 2] and result.detail["won_by"] == "catapults"
    assert GAME.to_act(state) == {}


def test_rule_catapults_count_over_the_whole_turn_not_one_roll():
    state, _ = new_game()
    set_roll(state, ["catapult"] * 6 + ["cap"] * 3)
    state.turn.catapults = 6
    dice = dice_rolling(["catapult", "catapult", "cap"])
    act(state, dice, {"type": "reroll"})
    assert state.turn.catapults == 8 and state.winner is None


# --- building -------------------------------------------------------------------------------


def test_rule_first_die_of_a_turn_goes_at_the_origin():
    state, dice = new_game()
    set_roll(state, ["cap"])
    legal = [a for a in GAME.legal_actions(state, 0) if a["type"] == "place"]
    assert {(a["x"], a["y"]) for a in legal} == {(0, 0)}
    assert refused(state, dice, place(0, 1, 0, 0)) == "first_die_at_origin"


def test_rule_dice_are_built_edge_to_edge():
    state, dice = new_game()
    build(state, dice, ("band", 0, 0, 0))
    set_roll(state, ["cap"])
    assert refused(state, dice, place(0, 1, 1, 0)) == "not_adjacent"
    assert refused(state, dice, place(0, 5, 0, 0)) == "not_adjacent"
    cells = {(a["x"], a["y"]) for a in GAME.legal_actions(state, 0) if a["type"] == "place"}
    assert cells == {(0, -1), (1, 0), (0, 1), (-1, 0)}


def test_rule_city_edges_meet_city_edges_and_fields_meet_fields():
    state, dice = new_game()
    build(state, dice, ("cap", 0, 0, 1))  # city on the east edge
    set_roll(state, ["cap"])
    assert refused(state, dice, place(0, 1, 0, 0)) == "edges_do_not_match"  # field faces city
    assert refused(state, dice, place(0, 0, 1, 0)) == "edges_do_not_match"  # city faces field
    act(state, dice, place(0, 1, 0, 3))  # city on the west edge meets the city
    assert state.turn.placed[-1].x == 1


def test_rule_every_shared_edge_must_match():
    state, dice = new_game()
    build(state, dice, ("cap", 0, 0, 1), ("cap", 1, 0, 3), ("band", 0, 1, 1))
    # (1, 1) touches (1, 0) (field on its south) and (0, 1) (city on its east).
    set_roll(state, ["cap"])
    assert refused(state, dice, place(0, 1, 1, 0)) == "edges_do_not_match"
    act(state, dice, place(0, 1, 1, 3))


def test_rule_fields_may_touch_so_one_grid_can_hold_separate_cities():
    state, dice = new_game()
    build(state, dice, ("cap", 0, 0, 1), ("cap", 1, 0, 3), ("cap", 0, 1, 1))
    view = GAME.view(state, 0)
    assert len(view["turn"]["cities"]) == 2


def test_rule_any_rotation_may_be_chosen():
    state, _ = new_game()
    set_roll(state, ["corner", "band"])
    legal = GAME.legal_actions(state, 0)
    corner = sorted(a["rotation"] for a in legal if a.get("die") == 0)
    band = sorted(a["rotation"] for a in legal if a.get("die") == 1)
    assert corner == [0, 1, 2, 3] and band == [0, 1]


def test_rule_built_dice_never_move_nor_reroll():
    state, dice = new_game()
    set_roll(state, ["band", "cap"])
    act(state, dice, place(0, 0, 0, 0))
    assert refused(state, dice, place(0, 0, -1, 0)) == "die_not_free"
    assert refused(state, dice, place(1, 0, 0, 0)) == "cell_taken"
    act(state, dice, {"type": "reroll"})
    assert len(state.turn.roll) == 1
    assert [(p.x, p.y, p.face) for p in state.turn.placed] == [(0, 0, "band")]


def test_rule_city_dice_can_only_be_built_not_set_aside():
    state, dice = new_game()
    set_roll(state, ["cap", "knight"])
    assert refused(state, dice, {"type": "keep_knight", "die": 0}) == "not_a_knight"
    assert refused(state, dice, place(1, 0, 0, 0)) == "not_a_city_die"


def test_rule_every_city_die_can_always_be_built():
    # The cell above the leftmost die of the top row touches only that die, and every
    # city face fits a cell with one neighbour; so the ruling "a city die that cannot be
    # built can only be re-rolled" never has to be applied. Checked over seeded grids.
    rng = random.Random(7)
    for _ in range(300):
        grid: geometry.Grid = {}
        for _ in range(rng.randint(1, 8)):
            options = [
                (cell, face_mask(face, r))
                for face in CITY_FACES
                for cell in geometry.frontier(grid)
                for r in ROTATIONS[face]
                if geometry.fits(grid, cell, face_mask(face, r))
            ]
            cell, mask = rng.choice(options)
            grid[cell] = mask
        for face in CITY_FACES:
            assert any(
                geometry.fits(grid, cell, face_mask(face, r))
                for cell in geometry.frontier(grid)
                for r in ROTATIONS[face]
            )


# --- knights --------------------------------------------------------------------------------


def test_rule_knights_set_aside_are_never_rerolled():
    state, dice = new_game()
    set_roll(state, ["knight", "knight", "cap"])
    events = act(state, dice, {"type": "keep_knight", "die": 0})
    assert events == [{"type": "knight_aside", "seat": 0, "die": 0, "knights": 1}]
    assert state.turn.roll[0].status == ASIDE
    assert refused(state, dice, {"type": "keep_knight", "die": 0}) == "die_not_free"
    act(state, dice, {"type": "reroll"})
    assert len(state.turn.roll) == 2 and state.turn.knights == 1


def test_rule_holding_a_knight_needs_three_knights():
    state, dice = new_game()
    set_roll(state, ["knight", "knight", "knight"])
    act(state, dice, {"type": "keep_knight", "die": 0})
    act(state, dice, {"type": "keep_knight", "die": 1})
    assert {"type": "hold_knight"} not in GAME.legal_actions(state, 0)
    assert refused(state, dice, {"type": "hold_knight"}) == "too_few_knights"
    act(state, dice, {"type": "keep_knight", "die": 2})
    assert {"type": "hold_knight"} in GAME.legal_actions(state, 0)


def hold(state, dice) -> list[dict]:
    set_roll(state, ["knight", "knight", "knight"])
    for die in range(3):
        act(state, dice, {"type": "keep_knight", "die": die})
    return act(state, dice, {"type": "hold_knight"})


def test_rule_holding_a_knight_skips_scoring_and_keeps_one_die():
    state, dice = new_game(3)
    build(state, dice, *CITY_OF_THREE)
    events = hold(state, dice)
    assert {"type": "knight_held", "seat": 0} in events
    assert state.scores == [0, 0, 0], "a player who holds a knight does not score"
    assert state.held == [True, False, False]
    assert state.turn.seat == 1 and state.turn.dice == 8 and len(state.turn.roll) == 8


def test_rule_held_knights_reduce_the_other_players_dice():
    state, dice = new_game(5)
    hold(state, dice)
    hold(state, dice)
    assert state.turn.seat == 2 and state.turn.dice == 7
    act(state, dice, {"type": "score"})
    assert state.turn.seat == 3 and state.turn.dice == 7


def test_rule_own_held_knight_returns_to_the_roll_and_doubles_the_score():
    state, dice = new_game(2)
    hold(state, dice)
    act(state, dice, {"type": "score"})
    turn = state.turn
    assert turn.seat == 0 and turn.dice == 9 and turn.doubled
    assert state.held == [False, False]
    build(state, dice, *CITY_OF_THREE)
    view = GAME.view(state, 0)
    assert view["turn"]["scoring"] == {"city": 0, "size": 3, "points": 2, "doubled": True}
    events = act(state, dice, {"type": "score"})
    assert state.scores[0] == 2
    assert {
        "type": "scored",
        "seat": 0,
        "city": 3,
        "points": 2,
        "doubled": True,
        "score": 2,
    } in events
    assert state.turn.dice == 9 and not state.turn.doubled


def test_rule_at_most_one_knight_held_and_doubling_never_compounds():
    state, dice = new_game(2)
    hold(state, dice)
    act(state, dice, {"type": "score"})
    assert state.turn.doubled
    hold(state, dice)  # holding again during a doubled turn
    assert state.held == [True, False] and state.turn.dice == 8
    act(state, dice, {"type": "score"})
    assert state.turn.doubled and state.turn.dice == 9
    build(state, dice, *CITY_OF_THREE)
    act(state, dice, {"type": "score"})
    assert state.scores[0] == 2, "x2, never x4"


# --- scoring --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "points"), [(1, 0), (2, 0), (3, 1), (4, 3), (5, 6), (6, 10), (7, 15), (8, 21), (9, 28)]
)
def test_rule_points_by_city_size(size, points):
    assert geometry.points(size) == points


def test_rule_only_the_largest_closed_city_scores():
    state, dice = new_game()
    build(state, dice, *CITY_OF_THREE, *CITY_OF_FOUR_BESIDE)
    cities = GAME.view(state, 0)["turn"]["cities"]
    assert sorted((c["size"], c["closed"]) for c in cities) == [(3, True), (4, True)]
    act(state, dice, {"type": "score"})
    assert state.scores[0] == 3, "the city of four scores 3; the city of three adds nothing"


def test_ruling_of_equal_closed_cities_the_first_built_is_named_scoring():
    state, dice = new_game()
    build(state, dice, *CITY_OF_THREE, ("cap", 1, 0, 2), ("band", 1, 1, 0), ("cap", 1, 2, 0))
    turn = GAME.view(state, 0)["turn"]
    assert [c["size"] for c in turn["cities"]] == [3, 3]
    assert turn["scoring"]["city"] == 0 and turn["cities"][0]["dice"] == [0, 1, 2]
    act(state, dice, {"type": "score"})
    assert state.scores[0] == 1, "one city scores, never both"


def test_rule_an_open_city_scores_nothing():
    # Rulebook example 2c: a closed city of two dice and an open city of six score nothing.
    state, dice = new_game()
    build(
        state,
        dice,
        ("cap", 0, 0, 1),
        ("cap", 1, 0, 3),  # closed city of two
        ("band", 0, 1, 1),
        ("band", 1, 1, 1),
        ("band", 2, 1, 1),
        ("band", 3, 1, 1),
        ("band", 4, 1, 1),
        ("corner", 5, 1, 2),  # open city of six: its west end and the corner's south are open
    )
    cities = GAME.view(state, 0)["turn"]["cities"]
    assert sorted((c["size"], c["closed"]) for c in cities) == [(2, True), (6, False)]
    events = act(state, dice, {"type": "score"})
    assert state.scores[0] == 0
    assert events[0] == {
        "type": "scored",
        "seat": 0,
        "city": 2,
        "points": 0,
        "doubled": False,
        "score": 0,
    }


def test_rule_a_city_closes_when_no_city_edge_is_left_open():
    state, dice = new_game()
    set_roll(state, ["cap", "band", "cap"])
    act(state, dice, place(0, 0, 0, 2))
    events = act(state, dice, place(1, 0, 1, 0))
    assert not any(e["type"] == "city_closed" for e in events)
    events = act(state, dice, place(2, 0, 2, 0))
    assert {"type": "city_closed", "seat": 0, "size": 3, "points": 1} in events


def test_rule_the_player_may_score_after_any_roll():
    state, dice = new_game()
    assert {"type": "score"} in GAME.legal_actions(state, 0)
    build(state, dice, *CITY_OF_THREE)
    act(state, dice, {"type": "score"})
    assert state.scores[0] == 1 and state.turn.seat == 1


# --- the end --------------------------------------------------------------------------------


def test_rule_game_ends_as_soon_as_a_player_reaches_42():
    state, dice = new_game(3)
    state.scores = [41, 40, 10]
    build(state, dice, *CITY_OF_THREE)
    events = act(state, dice, {"type": "score"})
    assert events[-1] == {"type": "game_won", "seat": 0, "by": "points", "score": 42}
    assert GAME.to_act(state) == {} and GAME.legal_actions(state, 1) == []
    result = GAME.result(state)
    assert result is not None
    assert result.scores == [42, 40, 10] and result.ranks == [1, 2, 3]
    assert refused(state, dice, {"type": "score"}) == "game_over"


def test_ruling_the_others_rank_by_score_and_equal_scores_share_a_rank():
    state, dice = new_game(4)
    state.scores = [41, 10, 10, 3]
    build(state, dice, *CITY_OF_THREE)
    act(state, dice, {"type": "score"})
    result = GAME.result(state)
    assert result is not None and result.ranks == [1, 2, 2, 4]


def test_rule_no_result_before_someone_reaches_42():
    state, dice = new_game(2)
    state.scores = [40, 0]
    build(state, dice, *CITY_OF_THREE)
    act(state, dice, {"type": "score"})
    assert state.scores[0] == 41 and GAME.result(state) is None


def test_rule_solo_plays_to_42_and_counts_turns():
    state, dice = new_game(1)
    act(state, dice, {"type": "score"})
    assert state.turn.seat == 0 and state.turns == [1]
    state.scores = [41]
    build(state, dice, *CITY_OF_THREE)
    act(state, dice, {"type": "score"})
    result = GAME.result(state)
    assert result is not None and result.ranks == [1]
    assert result.detail["solo_turns"] == 2 and result.detail["turns"] == [2]


# --- rulings of the protocol ----------------------------------------------------------------


def test_ruling_dice_showing_the_same_face_are_used_lowest_number_first():
    state, dice = new_game()
    set_roll(state, ["cap", "knight", "cap", "knight"])
    legal = GAME.legal_actions(state, 0)
    assert {a["die"] for a in legal if "die" in a} == {0, 1}
    assert refused(state, dice, place(2, 0, 0, 0)) == "use_lowest_die"
    assert refused(state, dice, {"type": "keep_knight", "die": 3}) == "use_lowest_die"
    act(state, dice, place(0, 0, 0, 0))
    assert place(2, 0, -1, 2) in GAME.legal_actions(state, 0)


def test_ruling_band_rotations_beyond_a_half_turn_are_refused_as_duplicates():
    state, dice = new_game()
    set_roll(state, ["band"])
    assert refused(state, dice, place(0, 0, 0, 2)) == "bad_rotation"
    assert refused(state, dice, place(0, 0, 0, 3)) == "bad_rotation"
    assert refused(state, dice, place(0, 0, 0, 4)) == "malformed_action"  # only 0-3 exist


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"type": "fly"}, "malformed_action"),
        ({"type": "place", "die": "0", "x": 0, "y": 0, "rotation": 0}, "malformed_action"),
        ({"type": "place", "die": 0, "x": 0, "y": 0}, "malformed_action"),
        ({"type": "place", "die": True, "x": 0, "y": 0, "rotation": 0}, "malformed_action"),
        ({"type": "place", "die": 2, "x": 0, "y": 0, "rotation": 0}, "no_such_die"),
        ({"type": "place", "die": 8, "x": 0, "y": 0, "rotation": 0}, "no_such_die"),
        ({"type": "place", "die": 9, "x": 0, "y": 0, "rotation": 0}, "malformed_action"),
        ({"type": "place", "die": -1, "x": 0, "y": 0, "rotation": 0}, "malformed_action"),
        ({"type": "keep_knight"}, "malformed_action"),
        ({"type": "keep_knight", "die": 1, "why": "x"}, "malformed_action"),
        ({"type": "score", "points": 28}, "malformed_action"),
        ({"type": "place", "die": 0, "x": 0.0, "y": 0, "rotation": 0}, "malformed_action"),
        ({"type": "place", "die": 0, "x": 0, "y": None, "rotation": 0}, "malformed_action"),
        ({"type": "hold_knight"}, "too_few_knights"),
        ({"die": 0}, "malformed_action"),
    ],
)
def test_illegal_actions_are_refused_with_a_code_and_change_nothing(action, code):
    state, dice = new_game()
    set_roll(state, ["cap", "knight"])
    assert refused(state, dice, action) == code


def test_an_action_is_legal_if_and_only_if_it_is_listed():
    state, dice = new_game()
    build(state, dice, ("corner", 0, 0, 1), ("band", 1, 0, 1))
    set_roll(state, ["cap", "three", "cap", "knight", "band", "corner", "catapult"])
    legal = GAME.legal_actions(state, 0)
    candidates = [
        place(die, x, y, r)
        for die, x, y, r in itertools.product(range(7), range(-2, 4), range(-2, 3), range(5))
    ]
    candidates += [{"type": "keep_knight", "die": d} for d in range(7)]
    candidates += [{"type": t} for t in ("reroll", "score", "hold_knight")]
    for action in candidates:
        try:
            GAME.check(state, 0, action)
            accepted = True
        except IllegalAction:
            accepted = False
        assert accepted == (action in legal), action
    assert len(legal) == len({tuple(sorted(a.items())) for a in legal}), "no duplicates"


def test_legal_actions_are_in_a_stable_order():
    state, _ = new_game()
    set_roll(state, ["three", "cap"])
    legal = GAME.legal_actions(state, 0)
    assert legal == GAME.legal_actions(state, 0)
    assert [a["type"] for a in legal][-2:] == ["reroll", "score"]
    assert legal[0]["die"] == 0


def test_describe_reads_like_a_sentence():
    state, dice = new_game()
    set_roll(state, ["corner", "knight"])
    texts = [GAME.describe(state, 0, a) for a in GAME.legal_actions(state, 0)]
    assert "Place die 0 (corner, city on N+E) at (0, 0)" in texts
    assert "Set the knight on die 1 aside" in texts
    assert "Re-roll the 2 dice on the table (roll 2 of 3)" in texts
    assert "End the turn and score nothing (no closed city)" in texts
    build(state, dice, ("cap", 0, 0, 2), ("band", 0, 1, 0))
    set_roll(state, ["cap"])
    closing = GAME.describe(state, 0, place(0, 0, 2, 0))
    assert closing == "Place die 0 (cap, city on N) at (0, 2), closing a city of 3"
    act(state, dice, place(0, 0, 2, 0))
    assert (
        GAME.describe(state, 0, {"type": "score"})
        == "End the turn and score 1 point (a closed city of 3)"
    )


def test_dice_are_drawn_only_when_rolling():
    state, dice = new_game()
    counter = dice.counter
    set_roll(state, ["cap", "cap", "knight"])
    act(state, dice, place(0, 0, 0, 0))
    act(state, dice, {"type": "keep_knight", "die": 2})
    assert dice.counter == counter
    act(state, dice, {"type": "reroll"})
    assert dice.counter == counter + 1
    act(state, dice, {"type": "score"})
    assert dice.counter == counter + 1 + 9


def test_first_roll_comes_from_the_seeded_dice_in_die_order():
    state, _ = new_game(seed="same")
    assert [d.face for d in state.turn.roll] == [FACES[derive("same", k, 6)] for k in range(9)]
    again, _ = new_game(seed="same")
    assert GAME.dump_state(again) == GAME.dump_state(state)


def test_junk_actions_raise_only_illegal_action_and_change_nothing():
    state, dice = new_game()
    build(state, dice, ("band", 0, 0, 0))
    set_roll(state, ["cap", "knight", "catapult", "three"])
    legal = GAME.legal_actions(state, 0)
    rng = random.Random(11)
    junk = [None, "0", 0, 1, -1, 3, 2.5, True, [], {}, 99]
    before, counter = GAME.dump_state(state), dice.counter
    for _ in range(2000):
        action = {"type": rng.choice(["place", "keep_knight", "reroll", "score", "x", 7])}
        for key in rng.sample(["die", "x", "y", "rotation", "other"], rng.randint(0, 5)):
            action[key] = rng.choice(junk)
        if action in legal:
            continue
        with pytest.raises(IllegalAction):
            GAME.apply(state, 0, action, dice)
    assert GAME.dump_state(state) == before and dice.counter == counter


def test_rules_page_names_only_tests_that_exist():
    page = (Path(rules.__file__).with_name("RULES.md")).read_text(encoding="utf-8")
    named = set(re.findall(r"`(test_\w+)`", page))
    assert named, "the rulings name their tests"
    assert named <= {name for name in globals() if name.startswith("test_")}
