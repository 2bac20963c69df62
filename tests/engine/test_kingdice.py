"""King of the Dice: one test per rule, the contract's generic checks, hidden information."""

from __future__ import annotations

import copy
import json
import random

import pytest

from engine.contract import IllegalAction, MalformedAction
from engine.dice import Dice
from engine.kingdice import GAME
from engine.kingdice.board import DRAGON, NOBODY, closest_targets, distances_from
from engine.kingdice.data import CARDS, DICE, LAYOUTS
from engine.kingdice.effects import TURN_LIMIT
from engine.kingdice.state import KingState, Phase
from engine.simulate import make_bots, play
from tests.engine.contract_checks import random_sim

NONE_MET_TOPS = (0, 12, 26, 37, 51)
"""Market tops (red x4, 3 red + 2 blue, three 6s, four 6s, five alike) ..."""
NONE_MET_DICE = [1, 2, 3, 4, 5, 6]
"""... that this roll (red 1, blue 2, green 3, red 4, blue 5, green 6) meets none of."""


def new_state(seats: int = 3, seed: str = "kd-test") -> tuple[KingState, Dice]:
    dice = Dice(seed)
    return GAME.setup(seats, GAME.validate_options(seats, {}), dice), dice


def test_ruling_the_game_ends_after_two_hundred_turns_scored_as_usual():
    state, dice = new_state(2)
    state.turn = TURN_LIMIT
    events = []
    for _ in range(300):
        if GAME.result(state) is not None:
            break
        seat = min(GAME.to_act(state))
        events += GAME.apply(state, seat, GAME.legal_actions(state, seat)[0], dice)
    result = GAME.result(state)
    assert result is not None and state.turn == TURN_LIMIT
    assert result.detail["ended_by"] == "turn_limit"
    assert {"type": "game_over", "reason": f"the turn limit ({TURN_LIMIT} turns)"} in events
    assert result.scores == [float(part["total"]) for part in result.detail["breakdown"]]


def test_a_turn_before_the_limit_hands_the_dice_on():
    state, dice = new_state(2)
    state.turn = TURN_LIMIT - 1
    while state.turn == TURN_LIMIT - 1:
        seat = min(GAME.to_act(state))
        GAME.apply(state, seat, GAME.legal_actions(state, seat)[0], dice)
    assert GAME.result(state) is None and state.turn == TURN_LIMIT


def put_on_top(state: KingState, *cards: int) -> None:
    for card in cards:
        for stack in state.stacks:
            if card in stack:
                stack.remove(card)
        state.stacks[CARDS[card]["stack"] - 1].insert(0, card)


def give(state: KingState, seat: int, *cards: int, face_down: bool = False) -> None:
    for card in cards:
        for stack in state.stacks:
            if card in stack:
                stack.remove(card)
        area = state.players[seat]
        (area.face_down if face_down else area.face_up).append(card)


def at_result(state: KingState, numbers: list[int]) -> None:
    """Put the active player at phase 2 with ``numbers`` on dice 0..5."""
    state.dice = list(numbers)
    state.rolls = 3
    state.phase = Phase.HIRE


def stock_top(state: KingState, *terrains: str) -> None:
    """Make ``terrains`` the next tiles drawn (the last one first), swapping from the box."""
    for terrain in terrains:
        if terrain in state.stock:
            state.stock.remove(terrain)
        else:
            state.removed.remove(terrain)
            state.removed.append(state.stock.pop(0))
        state.stock.append(terrain)


def act(state: KingState, action: dict, dice: Dice, seat: int | None = None) -> list[dict]:
    return GAME.apply(state, state.active if seat is None else seat, action, dice)


def colours(numbers: list[int]) -> list[str]:
    return [DICE[i][n - 1] for i, n in enumerate(numbers)]


# --- the contract -----------------------------------------------------------------------
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_sim_invariants_and_replay(seats):
    played = random_sim(GAME, seats=seats, games=2)
    assert all(p.result is not None for p in played)


def test_heuristic_and_random_bots_finish_a_seeded_batch_with_no_illegal_action():
    """100 seeded bots-only games (the 1,000-game run is bench/kingdice_report.py); play()
    raises IllegalAction on any refused move."""
    for n in range(100):
        seats = 2 + n % 3
        names = ["heuristic" if (n + s) % 2 or n % 5 == 4 else "random" for s in range(seats)]
        played = play(GAME, make_bots(GAME, names), f"kd-batch-{n}")
        assert played.result is not None
        assert GAME.to_act(played.state) == {}


def test_heuristic_bot_beats_random_bots():
    wins = 0
    for n in range(30):
        played = play(GAME, make_bots(GAME, ["heuristic", "random", "random"]), f"kd-duel-{n}")
        wins += played.result.ranks[0] == 1
    assert wins >= 20


def test_describe_reads_every_legal_action():
    state, dice = new_state()
    rng = random.Random(3)
    for _ in range(300):
        if GAME.result(state) is not None:
            break
        legal = GAME.legal_actions(state, state.active)
        for action in legal:
            text = GAME.describe(state, state.active, action)
            assert text and "=" not in text, text
        act(state, rng.choice(legal), dice)


def test_describe_survives_malformed_actions():
    state, _ = new_state()
    for action in (
        {"type": "hire", "stack": "x"},
        {"type": "raid", "space": 99},
        {"type": "place"},
        {"type": "steal_card", "card": -3},
        {"type": "fly", "to": 1},
    ):
        assert GAME.describe(state, state.active, action)


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"type": "fly"}, "malformed_action"),
        ({"type": "stop"}, "wrong_phase"),
        ({"type": "hire", "stack": 3}, "wrong_phase"),
        ({"type": "place", "space": 0}, "wrong_phase"),
    ],
)
def test_illegal_action_leaves_state_and_dice_unchanged(action, code):
    state, dice = new_state()
    before, counter = GAME.dump_state(state), dice.counter
    with pytest.raises(IllegalAction) as err:
        act(state, action, dice)
    assert err.value.code == code
    assert GAME.dump_state(state) == before and dice.counter == counter


BOGUS = [
    {"type": "roll", "extra": 1},
    {"type": "reroll", "keep": [5, 0]},
    {"type": "reroll", "keep": "all"},
    {"type": "hire", "stack": 9},
    {"type": "hire"},
    {"type": "take", "stack": 0},
    {"type": "joker", "pair": "twin", "colour": "pink", "number": 9},
    {"type": "place", "space": -1},
    {"type": "place", "space": "7"},
    {"type": "place_dragon", "space": 0, "source": 7},
    {"type": "free_dragon", "space": 100},
    {"type": "raid", "space": None},
    {"type": "steal_card", "card": 999},
    {"type": "steal_gem", "victim": 0, "gem": "ruby"},
]


def test_refused_actions_at_every_step_change_neither_state_nor_dice():
    state, dice = new_state(4, seed="kd-fuzz")
    rng = random.Random(9)
    for _ in range(400):
        if GAME.result(state) is not None:
            break
        before, counter = GAME.dump_state(state), dice.counter
        legal = GAME.legal_actions(state, state.active)
        for action in BOGUS:
            if action in legal:
                continue
            with pytest.raises(IllegalAction) as err:
                act(state, action, dice)
            assert err.value.code and err.value.reason
        assert GAME.dump_state(state) == before and dice.counter == counter
        act(state, rng.choice(legal), dice)


def test_only_the_active_player_may_act():
    state, dice = new_state()
    other = (state.active + 1) % 3
    assert GAME.legal_actions(state, other) == []
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, other, {"type": "roll"}, dice)
    assert err.value.code == "not_your_turn"


# --- set-up -----------------------------------------------------------------------------
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_setup_two_castle_tiles_removed_unseen_the_rest_in_the_stockpile(seats):
    state, _ = new_state(seats)
    layout = LAYOUTS[seats]
    assert len(state.removed) == 2
    assert len(state.stock) == 30 - len(layout.dragon_fires) - 2
    on_map = [layout.terrain[s] for s in range(30) if state.tiled[s]]
    assert sorted(state.stock + state.removed + on_map) == sorted(layout.terrain)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_setup_dragon_fires_on_face_down_matching_tiles_and_gemstones_placed(seats):
    state, _ = new_state(seats)
    layout = LAYOUTS[seats]
    fires = [s for s, o in enumerate(state.occupant) if o == DRAGON]
    assert fires == sorted(layout.dragon_fires)
    assert all(state.tiled[s] and state.face_down[s] for s in fires)
    assert sum(state.tiled) == len(fires)
    assert state.fire_stock == 15 - len(fires)
    assert sorted(s for s, g in enumerate(state.gem) if g == "gold") == sorted(layout.gold)
    assert sorted(s for s, g in enumerate(state.gem) if g == "white") == sorted(layout.white)
    assert state.gold_stock == 2


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_setup_each_player_has_one_white_gemstone_and_16_markers(seats):
    state, _ = new_state(seats)
    for p in state.players:
        assert (p.white, p.gold, p.markers, p.fires) == (1, 0, 16, 0)
        assert p.face_up == [] and p.face_down == []


def test_setup_job_market_shows_the_top_card_of_each_stack():
    state, _ = new_state()
    view = GAME.view(state, None)
    for m, stack in zip(view["market"], state.stacks, strict=True):
        assert m["card"]["id"] == stack[0] and m["left"] == 12
        assert CARDS[stack[0]]["stack"] == m["stack"]
    text = json.dumps(view)
    for stack in state.stacks:
        assert json.dumps(stack) not in text


def test_setup_the_player_who_rolls_most_sixes_starts():
    for n in range(20):
        state, _ = new_state(4, seed=f"start-{n}")
        last = state.start_rolls[-1]
        assert last[state.active] == max(last)
        assert sum(1 for x in last if x == max(last)) == 1
        for earlier in state.start_rolls[:-1]:
            tied = [s for s, x in enumerate(earlier) if x == max(earlier)]
            assert len(tied) > 1


# --- phase 1 ----------------------------------------------------------------------------
def test_rule_at_most_three_rolls_keeping_any_dice():
    state, dice = new_state()
    act(state, {"type": "roll"}, dice)
    assert state.rolls == 1 and len(state.dice) == 6
    legal = GAME.legal_actions(state, state.active)
    assert {"type": "stop"} in legal and len(legal) == 64
    kept = list(state.dice)
    act(state, {"type": "reroll", "keep": [0, 2, 5]}, dice)
    assert [state.dice[i] for i in (0, 2, 5)] == [kept[i] for i in (0, 2, 5)]
    act(state, {"type": "reroll", "keep": []}, dice)
    assert state.rolls == 3 and state.phase is Phase.HIRE, "the third roll must be kept"


def test_rule_may_stop_before_the_third_roll():
    state, dice = new_state()
    act(state, {"type": "roll"}, dice)
    act(state, {"type": "stop"}, dice)
    assert state.phase is Phase.HIRE and state.rolls == 1


def test_rule_a_reroll_keep_must_be_a_sorted_set_of_dice():
    state, dice = new_state()
    act(state, {"type": "roll"}, dice)
    for keep in ([2, 1], [3, 0, 4]):
        with pytest.raises(IllegalAction) as err:
            act(state, {"type": "reroll", "keep": keep}, dice)
        assert err.value.code == "bad_keep"
    for keep in ([0, 0], [0, 1, 2, 3, 4, 5], [7], [1.0]):  # not a set of 0-5 dice of 0..5
        with pytest.raises(MalformedAction) as malformed:
            act(state, {"type": "reroll", "keep": keep}, dice)
        assert malformed.value.field.startswith("keep")


# --- phase 2 ----------------------------------------------------------------------------
def test_rule_must_hire_a_card_the_roll_meets():
    state, dice = new_state()
    put_on_top(state, 26)  # three 6s
    at_result(state, [6, 6, 6, 1, 2, 3])
    legal = GAME.legal_actions(state, state.active)
    assert {"type": "hire", "stack": 3} in legal
    assert not [a for a in legal if a["type"] == "take"]
    with pytest.raises(IllegalAction) as err:
        act(state, {"type": "take", "stack": 5}, dice)
    assert err.value.code == "must_hire"
    assert GAME.view(state, None)["roll"]["must_hire"] is True


def test_rule_must_hire_does_not_apply_to_results_made_with_jokers():
    state, dice = new_state()
    put_on_top(state, *NONE_MET_TOPS)
    at_result(state, NONE_MET_DICE)
    assert colours(NONE_MET_DICE) == ["red", "blue", "green", "red", "blue", "green"]
    give(state, state.active, 18, 54)  # two red-1 jokers
    legal = GAME.legal_actions(state, state.active)
    assert not [a for a in legal if a["type"] == "hire"]
    act(state, {"type": "joker", "pair": "twin", "colour": "red", "number": 1}, dice)
    legal = GAME.legal_actions(state, state.active)
    assert {"type": "hire", "stack": 2} in legal, "3 red + 2 blue with the joker die"
    assert {"type": "take", "stack": 2} in legal, "not forced: the roll itself met nothing"


def test_rule_cannot_hire_a_card_the_dice_do_not_meet():
    state, dice = new_state()
    put_on_top(state, *NONE_MET_TOPS)
    at_result(state, NONE_MET_DICE)
    with pytest.raises(IllegalAction) as err:
        act(state, {"type": "hire", "stack": 4}, dice)
    assert err.value.code == "condition_not_met"


def test_rule_joker_two_equal_symbols_make_that_die():
    state, dice = new_state()
    at_result(state, NONE_MET_DICE)
    seat = state.active
    give(state, seat, 18, 54)  # red 1, red 1
    give(state, seat, 12)  # red 5: no pair
    legal = GAME.legal_actions(state, seat)
    twins = [a for a in legal if a["type"] == "joker"]
    assert twins == [{"type": "joker", "pair": "twin", "colour": "red", "number": 1}]
    act(state, twins[0], dice)
    assert [(e.number, e.colour) for e in state.extra] == [(1, "red")]
    assert state.players[seat].face_up == [12]
    assert sorted(state.box) == [18, 54], "discarded jokers go back to the box"


def test_rule_joker_symbol_and_super_joker_make_that_symbols_die():
    state, dice = new_state()
    at_result(state, NONE_MET_DICE)
    seat = state.active
    give(state, seat, 12)  # red 5
    give(state, seat, 30, face_down=True)
    legal = [a for a in GAME.legal_actions(state, seat) if a["type"] == "joker"]
    assert legal == [{"type": "joker", "pair": "super", "colour": "red", "number": 5}]
    with pytest.raises(IllegalAction) as err:
        act(state, {"type": "joker", "pair": "super", "colour": "red", "number": 6}, dice)
    assert err.value.code == "no_joker_pair"
    act(state, legal[0], dice)
    assert [(e.number, e.colour) for e in state.extra] == [(5, "red")]
    assert state.players[seat].face_up == [] and state.players[seat].face_down == []


def test_rule_joker_two_super_jokers_make_any_die():
    state, dice = new_state()
    at_result(state, NONE_MET_DICE)
    seat = state.active
    give(state, seat, 30, 40, face_down=True)
    legal = [a for a in GAME.legal_actions(state, seat) if a["type"] == "joker"]
    assert len(legal) == 18
    assert {(a["colour"], a["number"]) for a in legal} == {
        (c, n) for c in ("red", "blue", "green") for n in range(1, 7)
    }
    act(state, {"type": "joker", "pair": "supers", "colour": "green", "number": 6}, dice)
    assert [(e.number, e.colour) for e in state.extra] == [(6, "green")]


def test_rule_several_joker_pairs_may_be_discarded():
    state, dice = new_state()
    put_on_top(state, 26)  # three 6s
    at_result(state, [1, 2, 3, 4, 5, 6])
    seat = state.active
    give(state, seat, 30, 40, 35, 47, face_down=True)
    act(state, {"type": "joker", "pair": "supers", "colour": "blue", "number": 6}, dice)
    assert {"type": "hire", "stack": 3} not in GAME.legal_actions(state, seat)
    act(state, {"type": "joker", "pair": "supers", "colour": "red", "number": 6}, dice)
    assert len(state.extra) == 2
    assert {"type": "hire", "stack": 3} in GAME.legal_actions(state, seat)


def test_ruling_a_pretend_die_never_makes_a_card_harder_to_hire():
    state, dice = new_state()
    put_on_top(state, 34)  # red total > blue total > green total
    numbers = [3, 6, 6, 2, 1, 4]
    assert colours(numbers) == ["blue", "red", "red", "green", "green", "blue"]
    at_result(state, numbers)  # red 12 > blue 7 > green 3
    seat = state.active
    give(state, seat, 30, 40, face_down=True)
    act(state, {"type": "joker", "pair": "supers", "colour": "blue", "number": 6}, dice)
    assert {"type": "hire", "stack": 3} in GAME.legal_actions(state, seat)


def test_rule_no_fulfilled_card_take_any_card_face_down_and_raise_dragon_alarm():
    state, dice = new_state()
    put_on_top(state, *NONE_MET_TOPS)
    at_result(state, NONE_MET_DICE)
    seat = state.active
    stock_top(state, "glacier")  # space 0 (white gem) or 29
    takes = [a for a in GAME.legal_actions(state, seat) if a["type"] == "take"]
    assert [a["stack"] for a in takes] == [1, 2, 3, 4, 5]
    act(state, {"type": "take", "stack": 4}, dice)
    assert state.players[seat].face_down == [37]
    assert state.phase is Phase.PLACE_DRAGON and state.drawn == ["glacier"]
    view = GAME.view(state, None)
    assert view["players"][seat]["super_jokers"] == 1
    assert all(c["id"] != 37 for p in view["players"] for c in p["cards"])
    assert 37 not in [m["card"]["id"] for m in view["market"]]
    legal = GAME.legal_actions(state, seat)
    assert [a["space"] for a in legal] == [0, 29]
    fires = state.fire_stock
    act(state, {"type": "place_dragon", "space": 0}, dice)
    assert state.occupant[0] == DRAGON and state.tiled[0]
    assert state.gem[0] == "white", "the gemstone stays under the dragon fire"
    assert state.players[seat].white == 1
    assert state.fire_stock == fires - 1
    assert state.active == (seat + 1) % 3 and state.phase is Phase.ROLL


def test_rule_dragon_alarm_fire_from_own_area_then_from_another_player():
    state, dice = new_state()
    seat = state.active
    other = (seat + 1) % 3
    state.fire_stock = 0
    state.players[seat].fires = 1
    state.players[other].fires = 2
    put_on_top(state, *NONE_MET_TOPS)
    at_result(state, NONE_MET_DICE)
    stock_top(state, "lava")
    act(state, {"type": "take", "stack": 1}, dice)
    assert all("source" not in a for a in GAME.legal_actions(state, seat))
    act(state, GAME.legal_actions(state, seat)[0], dice)
    assert state.players[seat].fires == 0 and state.players[other].fires == 2
    # next player: the stock and their own area are empty, so another player's fire is used
    nxt = state.active
    state.players[nxt].fires = 0
    state.players[seat].fires = 3
    at_result(state, NONE_MET_DICE)
    stock_top(state, "desert")
    act(state, {"type": "take", "stack": 1}, dice)
    sources = {a.get("source") for a in GAME.legal_actions(state, nxt)}
    assert sources == {s for s in range(3) if s != nxt and state.players[s].fires}
    act(state, {"type": "place_dragon", "space": 9, "source": seat}, dice)
    assert state.players[seat].fires == 2 and state.occupant[9] == DRAGON


# --- phase 3 ----------------------------------------------------------------------------
def red_result(reds: int) -> list[int]:
    """Dice with exactly ``reds`` red dice (4, 5 or 6)."""
    numbers = {4: [1, 1, 5, 4, 1, 1], 5: [1, 1, 5, 4, 3, 1], 6: [1, 1, 5, 4, 3, 2]}[reds]
    assert colours(numbers).count("red") == reds
    return numbers


@pytest.mark.parametrize(("reds", "drawn"), [(4, 1), (5, 2), (6, 3)])
def test_rule_stack1_grade_draws_1_2_or_3_tiles_places_one_returns_the_rest(reds, drawn):
    state, dice = new_state()
    put_on_top(state, 0)  # red 4 / 5 / 6
    at_result(state, red_result(reds))
    seat = state.active
    stock = len(state.stock)
    act(state, {"type": "hire", "stack": 1}, dice)
    assert state.grade == reds - 3
    assert len(state.drawn) == drawn and state.phase is Phase.PLACE
    tiles = list(state.drawn)
    space = GAME.legal_actions(state, seat)[0]["space"]
    act(state, {"type": "place", "space": space}, dice)
    layout = LAYOUTS[3]
    tiles.remove(layout.terrain[space])
    assert state.occupant[space] == seat and state.players[seat].markers == 15
    assert len(state.stock) == stock - 1
    assert state.known_in_stock == sorted(tiles), "the returned tiles are public"


def test_rule_stack1_all_conditions_met_gives_a_gemstone_gold_first():
    state, dice = new_state()
    seat = state.active
    bonus = []
    for _ in range(3):
        state.active = seat
        put_on_top(state, 0)
        at_result(state, red_result(6))
        act(state, {"type": "hire", "stack": 1}, dice)
        assert len(state.drawn) == 3
        spaces = [a["space"] for a in GAME.legal_actions(state, seat) if not state.gem[a["space"]]]
        before = (state.players[seat].gold, state.players[seat].white)
        act(state, {"type": "place", "space": spaces[0]}, dice)
        after = (state.players[seat].gold, state.players[seat].white)
        bonus.append((after[0] - before[0], after[1] - before[1]))
    assert bonus == [(1, 0), (1, 0), (0, 1)], "two gold in the stockpile, then white"
    assert state.gold_stock == 0


def test_rule_stack1_partial_grade_gives_no_gemstone():
    state, dice = new_state()
    put_on_top(state, 0)
    at_result(state, red_result(5))
    seat = state.active
    act(state, {"type": "hire", "stack": 1}, dice)
    space = next(a["space"] for a in GAME.legal_actions(state, seat) if not state.gem[a["space"]])
    act(state, {"type": "place", "space": space}, dice)
    assert state.gold_stock == 2 and state.players[seat].gold == 0


def test_rule_placing_needs_an_empty_space_of_the_tiles_terrain_and_takes_its_gemstone():
    state, dice = new_state()
    put_on_top(state, 13)  # stack 2b: 3 blue + 2 green
    numbers = [3, 2, 1, 2, 1, 1]
    assert colours(numbers) == ["blue", "blue", "blue", "green", "green", "green"]
    at_result(state, numbers)
    seat = state.active
    stock_top(state, "hills")  # spaces 7 (white gem in the 3-player set-up) and 17
    act(state, {"type": "hire", "stack": 2}, dice)
    assert state.drawn == ["hills"]
    assert [a["space"] for a in GAME.legal_actions(state, seat)] == [7, 17]
    for bad in (0, 3, 29):
        with pytest.raises(IllegalAction) as err:
            act(state, {"type": "place", "space": bad}, dice)
        assert err.value.code == "space_not_available"
    with pytest.raises(MalformedAction) as malformed:
        act(state, {"type": "place", "space": 30}, dice)  # the map has spaces 0-29
    assert malformed.value.field == "space"
    act(state, {"type": "place", "space": 7}, dice)
    assert state.players[seat].white == 2 and state.gem[7] == ""


def test_rule_stack2b_draw_one_place_it_then_steal_any_gemstone():
    state, dice = new_state()
    put_on_top(state, 13)
    at_result(state, [3, 2, 1, 2, 1, 1])
    seat = state.active
    victim = (seat + 1) % 3
    state.players[victim].gold = 1
    act(state, {"type": "hire", "stack": 2}, dice)
    act(state, GAME.legal_actions(state, seat)[0], dice)
    assert state.phase is Phase.STEAL_GEM
    legal = GAME.legal_actions(state, seat)
    assert {"type": "no_steal"} in legal
    assert {"type": "steal_gem", "victim": victim, "gem": "gold"} in legal
    assert not [a for a in legal if a.get("victim") == seat]
    act(state, {"type": "steal_gem", "victim": victim, "gem": "gold"}, dice)
    assert state.players[victim].gold == 0 and state.players[seat].gold >= 1


def test_rule_stack2a_draw_two_place_one_steal_a_face_up_card_never_a_super_joker():
    state, dice = new_state()
    put_on_top(state, 12)  # stack 2a: 3 red + 2 blue
    numbers = [1, 1, 1, 4, 5, 1]
    assert colours(numbers) == ["red", "red", "blue", "red", "blue", "green"]
    at_result(state, numbers)
    seat = state.active
    victim = (seat + 1) % 3
    give(state, victim, 40)
    give(state, victim, 41, face_down=True)
    stock = len(state.stock)
    act(state, {"type": "hire", "stack": 2}, dice)
    assert len(state.drawn) == 2
    act(state, GAME.legal_actions(state, seat)[0], dice)
    assert len(state.stock) == stock - 1
    legal = GAME.legal_actions(state, seat)
    assert legal == [{"type": "no_steal"}, {"type": "steal_card", "card": 40}]
    with pytest.raises(IllegalAction) as err:
        act(state, {"type": "steal_card", "card": 41}, dice)
    assert err.value.code == "cannot_steal_card"
    act(state, {"type": "steal_card", "card": 40}, dice)
    assert 40 in state.players[seat].face_up and state.players[victim].face_up == []


def test_rule_stack3_replace_a_dragon_fire_keep_it_and_take_the_gemstone_under_it():
    state, dice = new_state()
    put_on_top(state, 26)
    at_result(state, [6, 6, 6, 1, 2, 3])
    seat = state.active
    act(state, {"type": "hire", "stack": 3}, dice)
    legal = GAME.legal_actions(state, seat)
    assert [a["space"] for a in legal] == sorted(LAYOUTS[3].dragon_fires)
    assert state.gem[3] == "gold"
    act(state, {"type": "free_dragon", "space": 3}, dice)
    p = state.players[seat]
    assert state.occupant[3] == seat and p.fires == 1 and p.gold == 1 and p.markers == 15
    assert state.gem[3] == ""


def test_ruling_stack3_without_dragon_fires_on_the_map_has_no_effect():
    state, dice = new_state()
    state.occupant = [NOBODY if o == DRAGON else o for o in state.occupant]
    put_on_top(state, 26)
    at_result(state, [6, 6, 6, 1, 2, 3])
    seat = state.active
    events = act(state, {"type": "hire", "stack": 3}, dice)
    assert any(e["type"] == "no_effect" for e in events)
    assert 26 in state.players[seat].face_up and state.players[seat].markers == 16
    assert state.active != seat


def test_ruling_stack4_without_other_markers_has_no_effect():
    state, dice = new_state()
    put_on_top(state, 37)
    at_result(state, [6, 6, 6, 6, 1, 2])
    seat = state.active
    events = act(state, {"type": "hire", "stack": 4}, dice)
    assert any(e["type"] == "no_effect" for e in events)
    assert state.players[seat].markers == 16 and state.active != seat


def test_ruling_stealing_is_optional():
    state, dice = new_state()
    put_on_top(state, 13)
    at_result(state, [3, 2, 1, 2, 1, 1])
    seat = state.active
    act(state, {"type": "hire", "stack": 2}, dice)
    act(state, GAME.legal_actions(state, seat)[0], dice)
    gems = [(p.gold, p.white) for p in state.players]
    act(state, {"type": "no_steal"}, dice)
    assert [(p.gold, p.white) for p in state.players] == gems
    assert state.active != seat


def test_ruling_without_any_dragon_fire_the_alarm_tile_is_placed_bare():
    state, dice = new_state()
    seat = state.active
    state.fire_stock = 0
    put_on_top(state, *NONE_MET_TOPS)
    at_result(state, NONE_MET_DICE)
    stock_top(state, "lava")
    act(state, {"type": "take", "stack": 1}, dice)
    legal = GAME.legal_actions(state, seat)
    assert legal == [{"type": "place_dragon", "space": 4}], "space 19 (lava) has a dragon"
    act(state, legal[0], dice)
    assert state.tiled[4] and state.occupant[4] == NOBODY


def rulebook_stack4_situation() -> tuple[KingState, Dice, dict[str, list[int]]]:
    """Chrissy (0) next to two of Nadine's (3) markers, Nico (2) two spaces away, Michi (1)
    three spaces away (the rulebook's example for stack 4), on the 4-player map."""
    state, dice = new_state(4)
    layout = LAYOUTS[4]
    chrissy = [0]
    dist = distances_from(layout, chrissy)
    ring = {d: [s for s in range(30) if dist[s] == d] for d in (1, 2, 3)}
    spots = {"chrissy": chrissy, "nadine": ring[1][:2], "nico": ring[2][:2], "michi": ring[3][:2]}
    for seat, name in enumerate(["chrissy", "michi", "nico", "nadine"]):
        for space in spots[name]:
            state.occupant[space] = seat
            state.tiled[space] = True
            state.players[seat].markers -= 1
    state.active = 0
    return state, dice, spots


def test_rule_stack4_replace_the_closest_marker_rulebook_example():
    state, dice, spots = rulebook_stack4_situation()
    put_on_top(state, 37)  # four 6s
    at_result(state, [6, 6, 6, 6, 1, 2])
    act(state, {"type": "hire", "stack": 4}, dice)
    legal = GAME.legal_actions(state, 0)
    assert sorted(a["space"] for a in legal) == sorted(spots["nadine"])
    with pytest.raises(IllegalAction) as err:
        act(state, {"type": "raid", "space": spots["nico"][0]}, dice)
    assert err.value.code == "not_closest"
    target = spots["nadine"][0]
    act(state, {"type": "raid", "space": target}, dice)
    assert state.occupant[target] == 0
    assert state.players[3].markers == 16 - len(spots["nadine"]) + 1, "returned to Nadine"
    assert state.players[0].markers == 14


def test_rule_stack4_closeness_widens_step_by_step():
    state, _, spots = rulebook_stack4_situation()
    for space in spots["nadine"]:
        state.occupant[space] = NOBODY
    assert sorted(closest_targets(LAYOUTS[4], state.occupant, 0)) == sorted(spots["nico"])
    for space in spots["nico"]:
        state.occupant[space] = NOBODY
    assert sorted(closest_targets(LAYOUTS[4], state.occupant, 0)) == sorted(spots["michi"])


def test_rule_stack4_anyones_marker_when_you_have_none_on_the_map():
    state, _, spots = rulebook_stack4_situation()
    others = sorted(spots["nadine"] + spots["nico"] + spots["michi"])
    state.occupant[0] = NOBODY
    assert sorted(closest_targets(LAYOUTS[4], state.occupant, 0)) == others


def test_rule_stack5_draw_two_tiles_and_place_both():
    state, dice = new_state()
    put_on_top(state, 51)  # five alike
    at_result(state, [6, 6, 6, 6, 6, 1])
    seat = state.active
    stock = len(state.stock)
    act(state, {"type": "hire", "stack": 5}, dice)
    assert len(state.drawn) == 2 and state.to_place == 2
    act(state, GAME.legal_actions(state, seat)[0], dice)
    assert state.phase is Phase.PLACE and len(state.drawn) == 1
    act(state, GAME.legal_actions(state, seat)[0], dice)
    assert state.players[seat].markers == 14 and len(state.stock) == stock - 2
    assert state.active != seat


def test_rule_a_player_who_must_place_a_17th_marker_wins_at_once():
    state, dice = new_state()
    put_on_top(state, 51)
    at_result(state, [6, 6, 6, 6, 6, 1])
    seat = state.active
    state.players[seat].markers = 1
    act(state, {"type": "hire", "stack": 5}, dice)
    act(state, GAME.legal_actions(state, seat)[0], dice)
    assert state.players[seat].markers == 0
    assert state.over and state.winner == seat
    result = GAME.result(state)
    assert result is not None and result.winners == [seat]
    assert GAME.to_act(state) == {}


def test_rule_the_17th_marker_win_also_applies_to_freeing_a_dragon():
    state, dice = new_state()
    put_on_top(state, 26)
    at_result(state, [6, 6, 6, 1, 2, 3])
    seat = state.active
    state.players[seat].markers = 0
    act(state, {"type": "hire", "stack": 3}, dice)
    assert state.over and GAME.result(state).winners == [seat]


def fill_map_but(state: KingState, empty: list[int]) -> None:
    """Tile every space except ``empty`` (markers of seat 0), the stock holding their tiles."""
    layout = LAYOUTS[state.seats]
    for s in range(30):
        if s not in empty and not state.tiled[s]:
            state.tiled[s] = True
            state.occupant[s] = 0
    state.stock = [layout.terrain[empty[0]]]
    state.removed = [layout.terrain[s] for s in empty[1:]]
    state.known_in_stock = []


def test_rule_game_ends_when_the_stockpile_is_empty_and_all_but_two_spaces_occupied():
    state, dice = new_state()
    fill_map_but(state, [9, 14, 26])
    state.players[0].markers = 16
    put_on_top(state, 51)
    at_result(state, [6, 6, 6, 6, 6, 1])
    act(state, {"type": "hire", "stack": 5}, dice)
    assert state.drawn == ["desert"] and state.to_place == 1, "draw as many as there are"
    act(state, GAME.legal_actions(state, state.active)[0], dice)
    assert state.over and state.winner == -1
    assert sum(state.tiled) == 28 and not state.stock
    result = GAME.result(state)
    assert result is not None and result.detail["removed_tiles"] == ["flower meadow", "lake"]


def test_rule_game_goes_on_while_the_stockpile_has_tiles():
    state, dice = new_state()
    fill_map_but(state, [9, 14, 26])
    state.stock.append("flower meadow")
    state.removed = ["lake"]
    put_on_top(state, 26)
    at_result(state, [6, 6, 6, 1, 2, 3])
    seat = state.active
    act(state, {"type": "hire", "stack": 3}, dice)
    act(state, GAME.legal_actions(state, seat)[0], dice)
    assert not state.over and state.active == (seat + 1) % 3


# --- scoring ----------------------------------------------------------------------------
def test_scoring_rulebook_example_areas_dragon_fires_and_gemstones():
    state, _ = new_state(4)
    spots = {
        0: [10, 11, 12, 8, 14, 20, 22, 24],  # Chrissy: area of 3, five others
        1: [25, 26, 27, 5, 7, 19],  # Michi: area of 3, three others
        2: [0, 1, 2, 3, 4, 29],  # Nico: area of 5, one other
        3: [15, 16, 6, 9, 13, 23],  # Nadine: area of 2, four others
    }
    state.occupant = [NOBODY] * 30
    for seat, spaces in spots.items():
        for s in spaces:
            state.occupant[s] = seat
    for seat, (fires, gold, white) in enumerate([(0, 1, 0), (1, 0, 4), (2, 0, 0), (1, 3, 2)]):
        p = state.players[seat]
        p.fires, p.gold, p.white = fires, gold, white
    parts = GAME.scores(state)
    assert [p["largest_area"] for p in parts] == [3, 3, 5, 2]
    assert [p["other_points"] for p in parts] == [5, 3, 1, 4]
    assert [p["dragon_points"] for p in parts] == [0, 0, 4, 0]
    assert [p["total"] for p in parts] == [17, 20, 20, 23]
    state.over, state.phase = True, Phase.OVER
    result = GAME.result(state)
    assert result.ranks == [4, 3, 2, 1]
    assert result.ranks[2] < result.ranks[1], "Nico beats Michi on dragon fires"


def test_rule_dragon_fire_ties_all_score_4():
    state, _ = new_state(3)
    state.occupant = [NOBODY] * 30
    for seat, fires in enumerate([2, 2, 1]):
        state.players[seat].fires = fires
        state.players[seat].white = 0
    assert [p["dragon_points"] for p in GAME.scores(state)] == [4, 4, 0]


def test_ruling_nobody_scores_the_dragon_bonus_without_dragon_fires():
    state, _ = new_state(3)
    assert [p["dragon_points"] for p in GAME.scores(state)] == [0, 0, 0]


def test_rule_equal_points_most_dragon_fires_wins_else_the_win_is_shared():
    state, _ = new_state(2)
    state.occupant = [NOBODY] * 30
    state.over, state.phase = True, Phase.OVER
    state.players[0].white, state.players[0].fires = 2, 0  # 4 points
    state.players[1].white, state.players[1].fires = 0, 1  # 4 points (most dragon fires)
    result = GAME.result(state)
    assert result.scores == [4, 4] and result.ranks == [2, 1]
    state.players[1].white, state.players[1].fires = 2, 0
    assert GAME.result(state).ranks == [1, 1]


def test_rule_largest_area_counts_once_when_two_areas_are_equal():
    state, _ = new_state(4)
    state.occupant = [NOBODY] * 30
    for s in (0, 1, 28, 29):
        state.occupant[s] = 0
    state.players[0].white = 0
    assert GAME.scores(state)[0]["total"] == 3 * 2 + 2


# --- hidden information -----------------------------------------------------------------
def redeal(state: KingState, rng: random.Random) -> KingState:
    """The same public state with the hidden parts dealt differently."""
    other = copy.deepcopy(state)
    hidden = list(other.stock) + list(other.removed)
    for tile in other.known_in_stock:
        hidden.remove(tile)
    rng.shuffle(hidden)
    other.removed = hidden[: len(state.removed)]
    other.stock = hidden[len(state.removed) :] + list(other.known_in_stock)
    rng.shuffle(other.stock)
    for stack in other.stacks:
        below = stack[1:]
        rng.shuffle(below)
        stack[1:] = below
    pool = [c for p in other.players for c in p.face_down]
    rng.shuffle(pool)
    for p in other.players:
        p.face_down, pool = pool[: len(p.face_down)], pool[len(p.face_down) :]
    return other


def keys_of(data: object) -> set[str]:
    if isinstance(data, dict):
        return set(data).union(*(keys_of(v) for v in data.values()))
    if isinstance(data, list):
        return set().union(*(keys_of(v) for v in data))
    return set()


def test_no_view_for_any_seat_or_spectator_contains_the_stockpile_or_removed_tiles():
    rng = random.Random(11)
    checked = 0

    def hook(game, state, seat, action):
        nonlocal checked
        changed = redeal(state, rng)
        for viewer in [None, *range(state.seats)]:
            view = game.view(state, viewer)
            text = json.dumps(view)
            assert not keys_of(view) & {"stock", "removed", "stacks"}
            if len(state.stock) >= 3:
                assert json.dumps(state.stock) not in text
                assert json.dumps(list(reversed(state.stock))) not in text
            for stack in state.stacks:
                if len(stack) >= 3:
                    assert json.dumps(stack[1:]) not in text
            assert game.view(changed, viewer) == view, "a view depends on hidden parts"
            checked += 1

    for n in range(4):
        play(GAME, make_bots(GAME, ["random"] * (2 + n % 3)), f"kd-hidden-{n}", on_step=hook)
    assert checked > 1000


def test_sample_redeals_unseen_tiles_consistent_with_the_view():
    state, dice = new_state(3)
    rng = random.Random(5)
    for _ in range(120):
        act(state, rng.choice(GAME.legal_actions(state, state.active)), dice)
        if state.over:
            break
    for viewer in (None, 0, 1):
        view = GAME.view(state, viewer)
        sampled = GAME.sample(view, viewer, Dice("sampler"))
        assert GAME.view(sampled, viewer) == view
        assert len(sampled.stock) == len(state.stock)
        assert len(sampled.removed) == 2
        assert sorted(sampled.stock + sampled.removed) == sorted(state.stock + state.removed)
        for tile in state.known_in_stock:
            assert tile in sampled.stock
        json.dumps(GAME.dump_state(sampled))
        if not sampled.over:
            for action in GAME.legal_actions(sampled, sampled.active):
                GAME.check(sampled, sampled.active, action)
