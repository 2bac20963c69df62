"""Burgundy dice: one test per rule, the sealed rounds, variants and the contract checks."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.burgundy import GAME
from engine.burgundy.duchy import CELLS, COLOURS, DUCHIES, INDEX
from engine.burgundy.legal import COMMODITY, MONK, SILVER, WORKER
from engine.burgundy.sheet import available
from engine.burgundy.state import COLUMN, HOURGLASS_FACES, BurgundyState, Roll
from engine.contract import IllegalAction, InvalidOptions, MalformedAction
from engine.dice import Dice, derive
from engine.simulate import make_bots, play
from tests.engine.contract_checks import random_sim

CASTLE_B = [2, 1]  # duchy A: castle with the blue (commodity) square
CASTLE_G = [2, 4]  # gray square (silver)
CASTLE_O = [4, 1]  # orange square (worker)
CASTLE_P = [4, 4]  # purple square (monk)
DUCHY_A = DUCHIES["A"]


def new_game(seats: int = 2, seed: str = "burgundy-test", **options: Any):
    """A game of the standard rules unless a variant is given (one seat would default to
    the solo game)."""
    options.setdefault("variant", "standard")
    dice = Dice(seed)
    state = GAME.setup(seats, GAME.validate_options(seats, options), dice)
    return state, dice


def test_ruling_every_game_ends_within_thirty_rounds():
    assert min(HOURGLASS_FACES) >= 1, "every round checks at least one box"
    for seats, seed in ((1, "solo"), (2, "two"), (4, "four")):
        played = play(GAME, make_bots(GAME, ["random"] * seats), f"rounds-{seed}")
        assert played.state.round <= 3 * COLUMN
        decisions = sum(1 for _, action in played.moves if action["type"] != "pick_castle")
        assert decisions <= 3 * COLUMN * seats


def started(seats: int = 2, castles: list[list[int]] | None = None, seed: str = "bt", **options):
    state, dice = new_game(seats, seed, **options)
    for seat, castle in enumerate(castles or [CASTLE_B] * seats):
        GAME.apply(state, seat, {"type": "pick_castle", "hex": castle}, dice)
    assert state.stage == "round"
    return state, dice


def put(state: BurgundyState, seat: int, marks: dict[tuple[int, int], int]) -> None:
    for cell, value in marks.items():
        state.sheets[seat].values[INDEX[cell]] = value


def roll(state: BurgundyState, pips, colours, hourglass: int = 1) -> None:
    state.roll = Roll(pips=list(pips), colours=list(colours), hourglass=hourglass)


def mark(pip: int, colour: int, cell, bonus=None, sell: bool = False) -> dict[str, Any]:
    return {
        "type": "mark",
        "sell": sell,
        "pip": pip,
        "colour": colour,
        "hex": list(cell),
        "bonus": bonus,
    }


def refused(state, seat, action, code: str) -> None:
    before = GAME.dump_state(state)
    with pytest.raises(IllegalAction) as err:
        GAME.check(state, seat, action)
    assert err.value.code == code, err.value.reason
    assert action not in GAME.legal_actions(state, seat)
    assert GAME.dump_state(state) == before


def allowed(state, seat, action) -> None:
    GAME.check(state, seat, action)
    assert action in GAME.legal_actions(state, seat)


def counter_for(seed: str, hourglass: int, start: int = 0) -> int:
    """A dice counter whose next round opening rolls ``hourglass`` (fifth draw of the round)."""
    for k in range(start, start + 500):
        if HOURGLASS_FACES[derive(seed, k + 4, len(HOURGLASS_FACES))] == hourglass:
            return k
    raise AssertionError("no such counter")


def finish_round(state, dice, actions: dict[int, dict[str, Any]] | None = None) -> list[dict]:
    """Every seat that owes a decision decides (given action, else its first legal one)."""
    events = []
    for seat in sorted(GAME.to_act(state)):
        action = (actions or {}).get(seat) or GAME.legal_actions(state, seat)[0]
        events.extend(GAME.apply(state, seat, action, dice))
    return events


# --- set-up and time -------------------------------------------------------------------------


def test_rule_starting_castle_gives_its_square_bonus_and_one_point():
    state, _ = started(4, [CASTLE_B, CASTLE_G, CASTLE_O, CASTLE_P])
    for seat, kind in enumerate((COMMODITY, SILVER, WORKER, MONK)):
        sheet = state.sheets[seat]
        assert sheet.points == [1, 0, 0]
        assert available(DUCHY_A, sheet, kind) == 1
        assert sum(available(DUCHY_A, sheet, k) for k in range(4)) == 1


def test_rule_starting_castles_are_a_sealed_simultaneous_choice_and_may_coincide():
    state, dice = new_game(3)
    prompts = GAME.to_act(state)
    assert sorted(prompts) == [0, 1, 2] and all(p.sealed for p in prompts.values())
    GAME.apply(state, 1, {"type": "pick_castle", "hex": CASTLE_P}, dice)
    for viewer in (0, 2, None):
        view = GAME.view(state, viewer)
        assert view["players"][1]["decided"] is True
        assert view["players"][1]["decision"] is None and view["players"][1]["castle"] is None
        assert "pick_castle" not in json.dumps(view)
    assert GAME.view(state, 1)["players"][1]["decision"]["hex"] == CASTLE_P
    assert state.roll is None, "the dice roll only once every castle is chosen"
    GAME.apply(state, 0, {"type": "pick_castle", "hex": CASTLE_P}, dice)
    events = GAME.apply(state, 2, {"type": "pick_castle", "hex": CASTLE_B}, dice)
    assert {"type": "castles_revealed", "castles": [CASTLE_P, CASTLE_P, CASTLE_B]} in events
    assert state.roll is not None and events[-1]["type"] == "round_opened"


def test_rule_hourglass_die_has_four_single_and_two_double_faces():
    assert sorted(HOURGLASS_FACES) == [1, 1, 1, 1, 2, 2]


def test_rule_hourglasses_fill_the_current_column():
    state, dice = started(1)
    before = state.time[0]
    assert before == state.roll.hourglass
    finish_round(state, dice)
    assert state.time[0] == before + state.roll.hourglass


def test_rule_double_hourglass_on_the_last_box_fills_only_that_box_and_still_opens_a_sale():
    state, _ = started(2)
    state.time = [8, 0, 0]
    k = counter_for("dbl", 2)
    dice = Dice("dbl", k)
    finish_round(state, dice)
    assert state.roll.hourglass == 2
    assert state.time == [10, 0, 0], "only the last box is checked; column II is not started"
    assert state.phase == 0
    # the double still opens the commodity sale (seat 0 holds the castle's commodity)
    assert any(a["sell"] for a in GAME.legal_actions(state, 0))
    sale = next(a for a in GAME.legal_actions(state, 0) if a["sell"])
    pts = state.sheets[0].points[0]
    GAME.apply(state, 0, sale, dice)
    finish_round(state, dice)
    assert state.sheets[0].points[0] >= pts + 2
    assert state.phase == 1, "a full column ends the phase after that round"
    assert state.time[1] == state.roll.hourglass


def test_rule_phase_ends_when_its_column_of_ten_is_full():
    state, dice = started(1)
    state.time = [9, 0, 0]
    k = counter_for("ph", 1)
    dice = Dice("ph", k)
    finish_round(state, dice)
    assert state.time[0] == 10 and state.phase == 0
    finish_round(state, dice)
    assert state.phase == 1 and state.round_in_phase == 1


def test_rule_game_ends_after_the_round_that_fills_column_three():
    state, _ = started(2)
    state.phase, state.time = 2, [10, 10, 8]
    dice = Dice("end", counter_for("end", 2))
    finish_round(state, dice)
    assert state.time[2] == 10 and state.stage == "round", "the filling round is still played"
    events = finish_round(state, dice)
    assert state.stage == "over" and GAME.to_act(state) == {}
    assert events[-1]["type"] == "game_over"
    assert GAME.result(state) is not None


# --- marking ---------------------------------------------------------------------------------


def test_rule_a_mark_must_be_next_to_a_marked_hex():
    state, _ = started(1, [CASTLE_B])
    roll(state, [1, 5], ["purple", "blue"])
    refused(state, 0, mark(0, 0, (1, 2)), "not_adjacent")  # monastery away from the castle
    allowed(state, 0, mark(1, 1, (3, 1)))  # river next to the castle


def test_rule_monastery_takes_purple_with_1_or_2_mine_gray_3_or_4_river_blue_5_or_6():
    state, _ = started(1, [CASTLE_P])  # castle (4,4): monastery (5,3)/(5,4), river (4,3)
    roll(state, [2, 3], ["purple", "blue"])
    allowed(state, 0, mark(0, 0, (5, 3)))
    refused(state, 0, mark(1, 0, (5, 3)), "value_not_allowed")
    refused(state, 0, mark(1, 1, (4, 3)), "value_not_allowed")
    refused(state, 0, mark(0, 1, (5, 3)), "colour_mismatch")
    roll(state, [6, 4], ["blue", "gray"])
    allowed(state, 0, mark(0, 0, (4, 3)))
    put(state, 0, {(5, 2): 6})
    allowed(state, 0, mark(1, 1, (5, 1)))  # mine next to the marked river (5,2)


def test_rule_city_repeating_a_number_is_illegal():
    state, _ = started(1, [CASTLE_B])
    put(state, 0, {(1, 0): 3})
    roll(state, [3, 5], ["orange", "blue"])
    refused(state, 0, mark(0, 0, (1, 1)), "city_repeats_number")
    allowed(state, 0, mark(1, 0, (1, 1)))


def test_rule_pasture_numbers_must_all_be_equal():
    state, _ = started(1, [CASTLE_B])
    put(state, 0, {(2, 2): 4})
    roll(state, [4, 2], ["yellow", "blue"])
    allowed(state, 0, mark(0, 0, (2, 3)))
    refused(state, 0, mark(1, 0, (2, 3)), "pasture_numbers_differ")


def test_rule_castle_with_a_number_not_adjacent_is_illegal():
    state, _ = started(1, [CASTLE_B])
    put(state, 0, {(2, 2): 4, (2, 3): 4})
    roll(state, [5, 4], ["green", "blue"])
    refused(state, 0, mark(0, 0, (2, 4)), "castle_number_not_adjacent")
    allowed(state, 0, mark(1, 0, (2, 4)))


def test_rule_castle_gives_one_point_and_its_square_bonus():
    state, dice = started(1, [CASTLE_B])
    put(state, 0, {(2, 2): 4, (2, 3): 4})
    roll(state, [5, 4], ["green", "blue"])
    silver = available(DUCHY_A, state.sheets[0], SILVER)
    pts = state.sheets[0].points[0]
    GAME.apply(state, 0, mark(1, 0, (2, 4)), dice)
    assert state.sheets[0].points[0] == pts + 1
    assert available(DUCHY_A, state.sheets[0], SILVER) == silver + 1


# --- areas and bonuses ----------------------------------------------------------------------


@pytest.mark.parametrize(("phase", "expected"), [(0, 8), (1, 6), (2, 4)])
def test_rule_area_points_by_size_and_phase(phase, expected):
    state, dice = started(1, [CASTLE_O])  # castle (4,1); city (3,4),(3,5),(3,6) far away
    put(state, 0, {(3, 4): 1, (3, 5): 2, (4, 4): 0})
    state.phase = phase
    roll(state, [3, 3], ["orange", "orange"])
    pts = list(state.sheets[0].points)
    events = finish_round(state, dice, {0: mark(0, 0, (3, 6))})
    done = next(e for e in events if e["type"] == "area_completed")
    assert done["size"] == 3 and done["points"] == expected and done["bonus"] == "worker"
    assert state.sheets[0].points[phase] == pts[phase] + expected


def test_rule_pasture_doubles_the_area_points():
    state, dice = started(1, [CASTLE_B])
    put(state, 0, {(2, 2): 4})
    roll(state, [4, 4], ["yellow", "yellow"])
    events = finish_round(state, dice, {0: mark(0, 0, (2, 3))})
    done = next(e for e in events if e["type"] == "area_completed")
    assert done["points"] == 2 * 4 and done["bonus"] is None


@pytest.mark.parametrize(
    ("cells", "roll_", "target", "kind"),
    [
        ({(1, 2): 1}, ([2, 2], ["purple", "purple"]), (1, 3), MONK),
        ({(0, 2): 3, (1, 2): 1}, ([4, 4], ["gray", "gray"]), (0, 3), SILVER),
        ({(3, 1): 5}, ([6, 6], ["blue", "blue"]), (3, 2), COMMODITY),
    ],
)
def test_rule_completed_area_gives_its_colour_bonus(cells, roll_, target, kind):
    state, dice = started(1, [CASTLE_B])
    put(state, 0, cells)
    roll(state, *roll_)
    before = available(DUCHY_A, state.sheets[0], kind)
    finish_round(state, dice, {0: mark(0, 0, target)})
    assert available(DUCHY_A, state.sheets[0], kind) == before + 1


def test_rule_bonus_circles_are_limited_by_the_duchy():
    state, dice = started(1, [CASTLE_B])
    limit = DUCHY_A.bonus_limits[MONK]
    state.sheets[0].circles[MONK] = limit
    put(state, 0, {(1, 2): 1})
    roll(state, [2, 2], ["purple", "purple"])
    events = finish_round(state, dice, {0: mark(0, 0, (1, 3))})
    assert state.sheets[0].circles[MONK] == limit
    assert any(e.get("bonus_lost") == "monk" for e in events)


def test_rule_commodity_sale_gives_a_silver_and_two_points_each_and_is_not_a_bonus_use():
    state, dice = started(1, [CASTLE_B])
    state.sheets[0].circles[COMMODITY] = 1  # two commodities: castle + one circle
    state.sheets[0].circles[MONK] = 1
    roll(state, [5, 1], ["green", "yellow"], hourglass=2)
    # sell, and still use a monk (a colour change) in the same round
    act = mark(0, 0, (3, 1), {"kind": "monk", "colour": "blue"}, sell=True)
    allowed(state, 0, act)
    pts = state.sheets[0].points[0]
    finish_round(state, dice, {0: act})
    sheet = state.sheets[0]
    assert available(DUCHY_A, sheet, COMMODITY) == 0
    assert available(DUCHY_A, sheet, SILVER) == 2
    assert sheet.points[0] == pts + 4
    assert available(DUCHY_A, sheet, MONK) == 0


def test_rule_commodity_sale_only_with_the_double_hourglass():
    state, _ = started(1, [CASTLE_B])
    roll(state, [5, 1], ["blue", "yellow"], hourglass=1)
    refused(state, 0, mark(0, 0, (3, 1), sell=True), "no_sale")
    assert not any(a["sell"] for a in GAME.legal_actions(state, 0))


def test_rule_monk_changes_the_colour_of_one_die():
    state, _ = started(1, [CASTLE_O])  # castle (4,1): monastery (4,2), pasture (4,0)
    roll(state, [1, 1], ["yellow", "yellow"])
    refused(state, 0, mark(0, 0, (4, 2), {"kind": "monk", "colour": "purple"}), "no_monk")
    state.sheets[0].circles[MONK] = 1
    allowed(state, 0, mark(0, 0, (4, 2), {"kind": "monk", "colour": "purple"}))
    refused(state, 0, mark(0, 0, (4, 2)), "colour_mismatch")
    refused(state, 0, mark(0, 0, (4, 0), {"kind": "monk", "colour": "yellow"}), "monk_same_colour")


def test_rule_worker_changes_one_pip_value():
    state, _ = started(1, [CASTLE_O])  # castle (4,1) has the worker square
    roll(state, [3, 3], ["purple", "purple"])
    allowed(state, 0, mark(0, 0, (4, 2), {"kind": "worker", "value": 2}))
    refused(state, 0, mark(0, 0, (4, 2), {"kind": "worker", "value": 3}), "worker_same_value")
    refused(state, 0, mark(0, 0, (4, 2)), "value_not_allowed")


def test_rule_silver_second_mark_reusing_both_dice_is_illegal():
    state, _ = started(1, [CASTLE_G])  # silver square
    put(state, 0, {(3, 4): 2})
    roll(state, [4, 6], ["orange", "blue"])
    act = mark(0, 0, (3, 5), {"kind": "silver", "pip": 0, "colour": 0, "hex": [2, 3]})
    refused(state, 0, act, "silver_reuses_dice")


def test_rule_silver_second_mark_with_one_other_die_is_legal():
    # rulebook example 2: a pasture with a 1, then the other 1 in the same pasture
    state, dice = started(1, [CASTLE_G])
    roll(state, [1, 1], ["yellow", "blue"])
    act = mark(0, 0, (2, 3), {"kind": "silver", "pip": 1, "colour": 0, "hex": [2, 2]})
    allowed(state, 0, act)
    events = finish_round(state, dice, {0: act})
    assert [e["hex"] for e in events if e["type"] == "marked"] == [[2, 3], [2, 2]]
    assert available(DUCHY_A, state.sheets[0], SILVER) == 0


def test_rule_silver_second_mark_cannot_change_a_die():
    state, _ = started(1, [CASTLE_G])
    roll(state, [1, 3], ["yellow", "blue"])
    act = mark(0, 0, (2, 3), {"kind": "silver", "pip": 1, "colour": 1, "hex": [2, 2]})
    refused(state, 0, act, "silver_needs_change")


def test_rule_monk_and_silver_in_one_round_is_illegal():
    state, _ = started(1, [CASTLE_G])
    state.sheets[0].circles[MONK] = 1
    roll(state, [1, 1], ["yellow", "blue"])
    both = mark(
        0,
        0,
        (2, 3),
        [
            {"kind": "monk", "colour": "yellow"},
            {"kind": "silver", "pip": 1, "colour": 1, "hex": [2, 2]},
        ],
    )
    nested = mark(
        0, 1, (2, 3), {"kind": "silver", "pip": 1, "colour": 1, "hex": [2, 2], "monk": "yellow"}
    )
    for action, field in ((both, "bonus"), (nested, "bonus.monk")):
        # "bonus" is one object or null: two bonuses cannot even be written
        with pytest.raises(MalformedAction) as malformed:
            GAME.check(state, 0, action)
        assert malformed.value.field == field
        assert action not in GAME.legal_actions(state, 0)
    for action in GAME.legal_actions(state, 0):
        assert (
            action["type"] != "mark" or action["bonus"] is None or isinstance(action["bonus"], dict)
        )


def test_ruling_silver_must_be_held_before_the_marks_but_a_sale_counts():
    state, _ = started(1, [CASTLE_B])
    put(state, 0, {(0, 2): 3, (1, 2): 1, (1, 3): 2, (0, 1): 5})
    roll(state, [4, 5], ["gray", "blue"], hourglass=1)
    # completing the mine gives a silver, but too late for this round's second mark
    act = mark(0, 0, (0, 3), {"kind": "silver", "pip": 1, "colour": 1, "hex": [0, 0]})
    refused(state, 0, act, "no_silver")
    roll(state, [4, 5], ["gray", "blue"], hourglass=2)
    allowed(state, 0, {**act, "sell": True})  # the sale's silver is usable at once


def test_ruling_take_worker_only_when_no_mark_is_possible_without_a_bonus():
    state, dice = started(1, [CASTLE_B])
    roll(state, [5, 1], ["blue", "yellow"])
    refused(state, 0, {"type": "take_worker", "sell": False}, "mark_possible")
    roll(state, [1, 1], ["gray", "gray"])
    state.sheets[0].circles[MONK] = 1
    legal = GAME.legal_actions(state, 0)
    assert {"type": "take_worker", "sell": False} in legal
    assert any(a["type"] == "mark" for a in legal), "a monk may still be spent instead"
    finish_round(state, dice, {0: {"type": "take_worker", "sell": False}})
    assert state.sheets[0].circles[WORKER] == 1


# --- colour completion ----------------------------------------------------------------------

GRAY_BUT_ONE = {(0, 2): 3, (5, 1): 4, (6, 0): 3}


def test_rule_simultaneous_colour_completion_gives_both_players_the_full_points():
    state, dice = started(3, [CASTLE_B, CASTLE_B, CASTLE_B])
    first, second = DUCHY_A.colour_bonus["gray"]
    for seat in (0, 1):
        put(state, seat, GRAY_BUT_ONE)
    roll(state, [4, 4], ["gray", "gray"])
    before = [sum(s.points) for s in state.sheets]
    events = finish_round(state, dice, {0: mark(0, 0, (0, 3)), 1: mark(0, 0, (0, 3))})
    done = [e for e in events if e["type"] == "colour_completed"]
    assert done == [
        {
            "type": "colour_completed",
            "colour": "gray",
            "seats": [0, 1],
            "place": "first",
            "points": first,
        }
    ]
    area = 4  # the 2-hex mine in phase I
    for seat in (0, 1):
        assert sum(state.sheets[seat].points) == before[seat] + area + first
    assert GAME.view(state, None)["colour_claims"]["gray"] == {"first": [0, 1], "second": []}
    # second place stays open until claimed
    put(state, 2, GRAY_BUT_ONE)
    roll(state, [4, 4], ["gray", "gray"])
    events = finish_round(state, dice, {2: mark(0, 0, (0, 3))})
    done = [e for e in events if e["type"] == "colour_completed"]
    assert done[0]["place"] == "second" and done[0]["points"] == second


def test_rule_colour_bonus_is_gone_once_both_places_are_claimed():
    state, dice = started(3, [CASTLE_B, CASTLE_B, CASTLE_B])
    state.claims[3].first, state.claims[3].second = [1], [2]  # gray
    put(state, 0, GRAY_BUT_ONE)
    roll(state, [4, 4], ["gray", "gray"])
    events = finish_round(state, dice, {0: mark(0, 0, (0, 3))})
    done = next(e for e in events if e["type"] == "colour_completed")
    assert done["place"] == "none" and done["points"] == 0


# --- sealed rounds ---------------------------------------------------------------------------


def test_sealed_round_choice_is_invisible_to_other_seats_and_spectators_until_resolution():
    state, dice = started(3, [CASTLE_B, CASTLE_G, CASTLE_P])
    before = {viewer: GAME.view(state, viewer) for viewer in (1, 2, None)}
    action = GAME.legal_actions(state, 0)[-1]
    GAME.apply(state, 0, action, dice)
    secret = json.dumps(action, sort_keys=True)
    for viewer in (1, 2, None):
        view = GAME.view(state, viewer)
        text = json.dumps(view, sort_keys=True)
        assert secret not in text
        assert view["players"][0]["decided"] is True and view["players"][0]["decision"] is None
        assert view["players"][0]["marks"] == before[viewer]["players"][0]["marks"]
        expected = json.loads(json.dumps(before[viewer]))
        expected["players"][0]["decided"] = True
        expected["pending"] = [1, 2]
        assert view == expected, "only the fact that seat 0 decided may show"
    assert GAME.view(state, 0)["players"][0]["decision"] == action
    finish_round(state, dice)
    assert GAME.view(state, 1)["last_round"]["decisions"][0] == action


def test_a_seat_that_decided_owes_nothing_more_this_round():
    state, dice = started(2)
    GAME.apply(state, 0, GAME.legal_actions(state, 0)[0], dice)
    assert 0 not in GAME.to_act(state)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, GAME.legal_actions(state, 1)[0], dice)
    assert err.value.code == "not_your_turn"


def test_illegal_action_leaves_state_and_dice_unchanged():
    state, dice = started(2)
    before, counter = GAME.dump_state(state), dice.counter
    bad = [
        {"type": "fly"},
        {"type": "mark"},
        {"type": "take_worker"},
        mark(0, 0, (9, 9)),
        mark(2, 0, (3, 1)),
        {**mark(0, 0, (3, 1)), "bonus": "monk"},
        {"type": "pick_castle", "hex": [2, 1]},
    ]
    for action in bad:
        with pytest.raises(IllegalAction):
            GAME.apply(state, 1, action, dice)
    assert GAME.dump_state(state) == before and dice.counter == counter


# --- variants and end ------------------------------------------------------------------------


def test_variant_all_different_picks_in_seat_order_from_the_creator():
    state, dice = new_game(3, variant="all_different")
    assert list(GAME.to_act(state)) == [0] and not GAME.to_act(state)[0].sealed
    GAME.apply(state, 0, {"type": "pick_castle", "hex": CASTLE_G}, dice)
    assert list(GAME.to_act(state)) == [1]
    assert {"type": "pick_castle", "hex": CASTLE_G} not in GAME.legal_actions(state, 1)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 1, {"type": "pick_castle", "hex": CASTLE_G}, dice)
    assert err.value.code == "castle_taken"
    GAME.apply(state, 1, {"type": "pick_castle", "hex": CASTLE_B}, dice)
    GAME.apply(state, 2, {"type": "pick_castle", "hex": CASTLE_O}, dice)
    assert [s.castle for s in state.sheets] == [INDEX[(2, 4)], INDEX[(2, 1)], INDEX[(4, 1)]]
    with pytest.raises(InvalidOptions):
        GAME.validate_options(5, {"variant": "all_different"})


def test_ruling_all_different_needs_two_to_four_seats():
    with pytest.raises(InvalidOptions) as err:
        GAME.validate_options(1, {"variant": "all_different"})
    assert err.value.errors == {"variant": ["all_different: 2 to 4 seats"]}
    assert GAME.validate_options(2, {"variant": "all_different"})["variant"] == "all_different"


def test_ruling_one_seat_plays_the_rulebooks_solo_game_unless_told_otherwise():
    assert GAME.validate_options(1, {})["variant"] == "solo", "'One and only' is the default"
    assert GAME.validate_options(2, {})["variant"] == "standard"
    practice = GAME.validate_options(1, {"variant": "standard"})
    assert practice["variant"] == "standard", "a one-seat standard game stays possible"
    described = GAME.options_schema().fields["variant"].metadata["description"]
    assert "One and only" in described and "practice game" in described
    state = GAME.setup(1, GAME.validate_options(1, {}), Dice("solo-default"))
    assert state.variant == "solo"


def test_variant_all_same_uses_the_castle_from_the_options():
    state, _ = new_game(3, variant="all_same", castle="monk")
    assert state.stage == "round" and state.roll is not None
    assert all(s.castle == INDEX[(4, 4)] for s in state.sheets)
    with pytest.raises(InvalidOptions):
        GAME.validate_options(2, {"variant": "all_same"})
    with pytest.raises(InvalidOptions):
        GAME.validate_options(2, {"castle": "monk"})


def test_variant_solo_has_eight_rounds_a_phase():
    with pytest.raises(InvalidOptions):
        GAME.validate_options(2, {"variant": "solo"})
    state, dice = new_game(1, variant="solo")
    GAME.apply(state, 0, {"type": "pick_castle", "hex": CASTLE_B}, dice)
    rounds = [0, 0, 0]
    while state.stage != "over":
        rounds[state.phase] += 1
        finish_round(state, dice)
    assert rounds == [8, 8, 8] and state.round == 24


@pytest.mark.parametrize(("phase", "place"), [(0, "first"), (1, "first"), (2, "second")])
def test_variant_solo_colour_bonus_higher_in_phases_one_two_lower_in_three(phase, place):
    state, dice = started(1, [CASTLE_B], variant="solo")
    state.phase = phase
    state.time = [8 if p < phase else 1 for p in range(3)]
    put(state, 0, GRAY_BUT_ONE)
    roll(state, [4, 4], ["gray", "gray"])
    events = finish_round(state, dice, {0: mark(0, 0, (0, 3))})
    done = next(e for e in events if e["type"] == "colour_completed")
    assert done["place"] == place
    assert done["points"] == DUCHY_A.colour_bonus["gray"][0 if place == "first" else 1]


def test_rule_ties_are_broken_by_most_unused_bonuses_else_shared():
    state, _ = started(3, [CASTLE_B, CASTLE_B, CASTLE_B])
    state.stage = "over"
    for sheet in state.sheets:
        sheet.points = [10, 10, 10]
    state.sheets[1].circles[MONK] = 2
    result = GAME.result(state)
    assert result.scores == [30, 30, 30]
    assert result.ranks == [2, 1, 2]
    assert result.detail["by_phase"][0] == [10, 10, 10]


def test_result_is_none_until_the_game_is_over():
    state, _ = started(2)
    assert GAME.result(state) is None


# --- the contract ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seats", "options", "games"),
    [
        (1, {"variant": "solo"}, 3),
        (2, {}, 3),
        (3, {"duchy": "B", "variant": "all_different"}, 2),
        (4, {"duchy": "C", "variant": "all_same", "castle": "silver"}, 2),
        (5, {"duchy": "D"}, 1),
    ],
)
def test_random_sim_invariants_and_replay(seats, options, games):
    played = random_sim(GAME, seats=seats, games=games, options=options)
    for p in played:
        assert p.result is not None and len(p.result.scores) == seats


def _perturb(action: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    out = json.loads(json.dumps(action))
    if out["type"] == "take_worker":
        return mark(rng.randrange(2), rng.randrange(2), CELLS[rng.randrange(37)])
    choice = rng.randrange(6)
    if choice == 0:
        out["hex"] = list(CELLS[rng.randrange(37)])
    elif choice == 1:
        out["pip"], out["colour"] = rng.randrange(2), rng.randrange(2)
    elif choice == 2:
        out["bonus"] = {"kind": "monk", "colour": rng.choice(COLOURS)}
    elif choice == 3:
        out["bonus"] = {"kind": "worker", "value": rng.randint(1, 6)}
    elif choice == 4:
        out["bonus"] = {
            "kind": "silver",
            "pip": rng.randrange(2),
            "colour": rng.randrange(2),
            "hex": list(CELLS[rng.randrange(37)]),
        }
    else:
        out["sell"] = not out["sell"]
    return out


def test_an_action_passes_check_exactly_when_it_is_in_legal_actions():
    rng = random.Random(7)
    seen = 0
    for n in range(6):
        state, dice = started(2, [CASTLE_B, CASTLE_P], seed=f"fuzz-{n}")
        state.sheets[0].circles = [1, 1, 1, 1]
        while state.stage != "over":
            legal = GAME.legal_actions(state, 0)
            canon = {json.dumps(a, sort_keys=True) for a in legal}
            for _ in range(25):
                probe = _perturb(rng.choice(legal), rng)
                try:
                    GAME.check(state, 0, probe)
                    ok = True
                except IllegalAction:
                    ok = False
                assert ok == (json.dumps(probe, sort_keys=True) in canon), probe
                seen += ok
            finish_round(state, dice, {0: rng.choice(legal), 1: None})
    assert seen > 50


def test_describe_reads_as_a_sentence_for_every_legal_action():
    state, _ = started(1, [CASTLE_G])
    state.sheets[0].circles = [1, 1, 1, 1]
    roll(state, [1, 4], ["yellow", "orange"], hourglass=2)
    texts = [GAME.describe(state, 0, a) for a in GAME.legal_actions(state, 0)]
    assert len(set(texts)) == len(texts)
    assert any("silver" in t for t in texts) and any("monk" in t for t in texts)
    assert any(t.startswith("Sell") for t in texts)


def test_sample_rebuilds_a_state_consistent_with_the_view():
    state, dice = started(3, [CASTLE_B, CASTLE_G, CASTLE_P])
    finish_round(state, dice)
    GAME.apply(state, 0, GAME.legal_actions(state, 0)[-1], dice)
    GAME.apply(state, 2, GAME.legal_actions(state, 2)[0], dice)
    view = GAME.view(state, 1)
    sampled = GAME.sample(view, 1, Dice("sampler"))
    assert GAME.view(sampled, 1) == view
    assert sampled.pending[0] and sampled.pending[2] and not sampled.pending[1]
    for s in (0, 2):
        GAME.check(sampled, s, json.loads(sampled.pending[s]))
    # in the castle stage too
    state, dice = new_game(2)
    GAME.apply(state, 1, {"type": "pick_castle", "hex": CASTLE_O}, dice)
    view = GAME.view(state, 0)
    assert GAME.view(GAME.sample(view, 0, Dice("s2")), 0) == view


def test_rule_the_five_dice_roll_when_a_round_opens():
    state, dice = started(2)
    GAME.apply(state, 0, GAME.legal_actions(state, 0)[0], dice)
    counter = dice.counter
    events = GAME.apply(state, 1, GAME.legal_actions(state, 1)[0], dice)
    assert dice.counter == counter + 5, "two pip dice, two colour dice, one hourglass die"
    opened = events[-1]
    assert opened["type"] == "round_opened" and opened["round"] == 2
    assert all(1 <= p <= 6 for p in opened["pips"])
    assert all(c in COLOURS for c in opened["colours"])
    assert opened["sale"] == (opened["hourglass"] == 2)


def test_ruling_equal_dice_are_one_choice_written_with_the_lower_die():
    state, _ = started(1, [CASTLE_B])
    roll(state, [6, 6], ["blue", "blue"])
    marks = [a for a in GAME.legal_actions(state, 0) if a["bonus"] is None]
    pairings = {(a["pip"], a["colour"]) for a in marks if a["hex"] == [3, 1]}
    assert pairings == {(0, 0)}
    refused(state, 0, mark(1, 1, (3, 1)), "same_dice")
    roll(state, [6, 5], ["blue", "blue"])
    marks = [a for a in GAME.legal_actions(state, 0) if a["bonus"] is None]
    assert {(a["pip"], a["colour"]) for a in marks if a["hex"] == [3, 1]} == {(0, 0), (1, 0)}


def test_ruling_the_second_mark_may_go_next_to_the_first():
    state, _ = started(1, [CASTLE_G])  # (2,4); (1,3) monastery touches (1,2) beyond it
    roll(state, [1, 2], ["purple", "purple"])
    allowed(state, 0, mark(0, 0, (1, 3), {"kind": "silver", "pip": 1, "colour": 0, "hex": [1, 2]}))
    refused(state, 0, mark(0, 0, (1, 2)), "not_adjacent")


def test_ruling_a_sale_still_scores_when_the_silver_track_is_full():
    state, dice = started(1, [CASTLE_B])
    state.sheets[0].circles[SILVER] = DUCHY_A.bonus_limits[SILVER]
    roll(state, [5, 1], ["blue", "yellow"], hourglass=2)
    pts = state.sheets[0].points[0]
    events = finish_round(state, dice, {0: mark(0, 0, (3, 1), sell=True)})
    sold = next(e for e in events if e["type"] == "sold")
    assert sold == {"type": "sold", "seat": 0, "commodities": 1, "silver": 0, "points": 2}
    assert state.sheets[0].points[0] == pts + 2


def test_rule_a_full_worker_track_gives_no_worker_for_passing():
    state, dice = started(1, [CASTLE_B])
    state.sheets[0].circles[WORKER] = DUCHY_A.bonus_limits[WORKER]
    roll(state, [1, 1], ["gray", "gray"])
    events = finish_round(state, dice, {0: {"type": "take_worker", "sell": False}})
    assert {"type": "took_worker", "seat": 0, "circled": False} in events
    assert state.sheets[0].circles[WORKER] == DUCHY_A.bonus_limits[WORKER]


def test_every_view_has_the_contract_keys_and_serialises():
    state, _ = started(2)
    for viewer in (0, 1, None):
        view = GAME.view(state, viewer)
        json.dumps(view)
        assert view["seats"] == 2 and view["active"] is None
        assert view["pending"] == [0, 1] and view["scores"] == [1, 1]


def test_ruling_green_completion_counts_the_starting_castle():
    state, dice = started(1, [CASTLE_B])
    put(state, 0, {(2, 4): 4, (4, 1): 6, (4, 3): 5})
    roll(state, [5, 1], ["green", "gray"])
    events = finish_round(state, dice, {0: mark(0, 0, (4, 4))})
    done = next(e for e in events if e["type"] == "colour_completed")
    assert done["colour"] == "green" and done["points"] == DUCHY_A.colour_bonus["green"][0]


def test_ruling_one_seat_standard_game_uses_the_time_track():
    state, dice = new_game(1)
    assert state.variant == "standard"
    GAME.apply(state, 0, {"type": "pick_castle", "hex": CASTLE_B}, dice)
    rounds = 0
    while state.stage != "over":
        rounds += 1
        finish_round(state, dice)
    assert 15 <= rounds <= 30 and state.time == [10, 10, 10]


def test_the_hex_rules_the_view_publishes_are_the_ones_marks_obey():
    from engine.burgundy.duchy import NEIGHBOURS, NUMBERS
    from engine.burgundy.sheet import mark_error
    from engine.burgundy.state import UNMARKED
    from engine.burgundy.view import HEX_RULES

    duchy = DUCHY_A
    assert set(HEX_RULES) == set(COLOURS) == set(NUMBERS)
    assert (
        GAME.view(GAME.setup(1, GAME.validate_options(1, {}), Dice("rules")), None)["duchy"][
            "hex_rules"
        ]
        == HEX_RULES
    )
    for colour, rule in HEX_RULES.items():
        h = max(duchy.hexes_of(colour), key=lambda h: len(duchy.areas[duchy.area_of[h]]))
        area = [o for o in duchy.areas[duchy.area_of[h]] if o != h]
        values = [UNMARKED] * len(duchy.colours)
        values[next(n for n in NEIGHBOURS[h] if duchy.colours[n] != colour)] = 6
        if area:
            values[area[0]] = 3
        allowed = [v for v in range(1, 7) if mark_error(duchy, values, h, colour, v) is None]
        expected = {
            "range": list(range(rule["pips"][0], rule["pips"][1] + 1)) if rule["pips"] else [],
            "neighbour": [6],
            "same": [3],
            "differ": [1, 2, 4, 5, 6],
        }[rule["numbers"]]
        assert area or rule["numbers"] not in ("same", "differ"), colour
        assert allowed == expected, colour
