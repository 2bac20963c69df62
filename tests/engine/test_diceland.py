"""Diceland: the contract checks and one test per rule (maps: test_diceland_maps.py)."""

from __future__ import annotations

import copy
import json
import re

import pytest

from engine.contract import IllegalAction, InvalidOptions
from engine.dice import Dice
from engine.diceland import GAME
from engine.diceland.board import COLOURS, Board
from engine.diceland.bots import all_distances
from engine.diceland.maps import BOARD_SIDES, EDITION, MAP_DATA, edition_data
from engine.diceland.rules import TURN_LIMIT, DicelandOptions
from engine.diceland.state import DicelandState, Phase
from tests.engine.contract_checks import random_sim


def new_game(maps: tuple[str, ...] = ("A", "B"), seed: str = "diceland-test"):
    dice = Dice(seed)
    opts = GAME.validate_options(len(maps), {"maps": list(maps)})
    return GAME.setup(len(maps), opts, dice), dice


def play_out(state, dice, limit: int = 500) -> None:
    """Play the first legal action of the lowest seat that owes one until the game ends."""
    for _ in range(limit):
        if GAME.result(state) is not None:
            return
        seat = min(GAME.to_act(state))
        GAME.apply(state, seat, GAME.legal_actions(state, seat)[0], dice)
    raise AssertionError(f"no result after {limit} moves")


def test_ruling_the_game_ends_after_three_hundred_turns_ranked_by_treasures():
    state, dice = new_game()
    state.turn = TURN_LIMIT
    play_out(state, dice)
    result = GAME.result(state)
    assert state.turn == TURN_LIMIT and state.winners == []
    assert result.detail["ended_by"] == "turn_limit" and result.winners
    keys = [(t, len(state.crosses[s])) for s, t in enumerate(result.detail["treasures"])]
    assert result.ranks == [1 + sum(other > mine for other in keys) for mine in keys]


def test_a_game_before_the_turn_limit_goes_on():
    state, dice = new_game()
    state.turn = TURN_LIMIT - 1
    turn = state.turn
    while state.turn == turn:
        seat = min(GAME.to_act(state))
        GAME.apply(state, seat, GAME.legal_actions(state, seat)[0], dice)
    assert GAME.result(state) is None and state.turn == TURN_LIMIT


def fill(state: DicelandState, seat: int, keep: set[int]) -> Board:
    """Cross every space of ``seat``'s map except ``keep``."""
    board = GAME.board(state, seat)
    state.crosses[seat] = [
        i for i in range(len(board.coords)) if board.territory_of[i] >= 0 or i == board.start
    ]
    state.crosses[seat] = [i for i in state.crosses[seat] if i not in keep]
    return board


def treasure_and_blocker(board: Board, colour: str, which: int = 0) -> tuple[int, int]:
    """A treasure of ``colour`` and another (non-treasure) space of its territory."""
    treasures = [
        i for i in range(len(board.coords)) if (board.treasure_colour_mask[colour] >> i) & 1
    ]
    t = treasures[which]
    terr = board.territories[board.territory_of[t]]
    blocker = next(i for i in terr.hexes if i != t)
    return t, blocker


def low_treasure_keep(board: Board, skip: tuple[str, ...] = ()) -> set[int]:
    """Keep one treasure and one more space of that territory open in every colour (but
    ``skip``): six treasures crossed, no colour complete."""
    keep: set[int] = set()
    for c in COLOURS:
        if c not in skip:
            keep.update(treasure_and_blocker(board, c))
    return keep


def throw(colour: str, n: int, total: int = 6) -> list[str]:
    """A throw with ``n`` dice of ``colour``; the rest show one other colour."""
    other = next(c for c in COLOURS if c != colour)
    return [colour] * n + [other] * (total - n)


def to_phase2(
    state: DicelandState, dice: Dice, active: int, chosen: str, aside: int, last: list[str]
) -> list[dict]:
    """Put the game at the start of phase 2 with this outcome of phase 1."""
    state.active = active
    state.chosen = chosen
    state.aside = aside
    state.last_throw = list(last)
    events: list[dict] = []
    GAME._begin_phase2(state, dice, events)
    return events


def cross(board: Board, colour: str, *indices: int) -> dict:
    return {
        "type": "cross",
        "colour": colour,
        "hexes": board.hexes_of(board.mask_of(list(indices))),
    }


# --- the contract ---------------------------------------------------------------------------


def placements_agree(game, state, seat, action) -> None:
    for s in range(state.seats):
        board, crossed = GAME.board(state, s), GAME.crossed(state, s)
        for colour in COLOURS:
            for n in (1, 2, 3):
                assert board.has_placement(crossed, colour, n) == bool(
                    board.placements(crossed, colour, n)
                )


@pytest.mark.parametrize(("seats", "games"), [(2, 6), (3, 3), (4, 2)])
def test_random_sim_invariants_and_replay(seats, games):
    played = random_sim(GAME, seats, games, on_step=placements_agree)
    assert all(p.result.winners for p in played)


def test_heuristic_bots_pass_the_contract_checks():
    played = random_sim(GAME, 3, 2, bots=["heuristic", "random", "heuristic"])
    assert all(p.result.winners for p in played)


def test_illegal_actions_leave_state_and_dice_unchanged():
    state, dice = new_game()
    board = GAME.board(state, state.active)
    missing = next(c for c in COLOURS if c not in state.last_throw)
    bad = [
        {"type": "fly"},
        {"type": "stop"},
        {"type": "choose", "colour": "purple"},
        {"type": "choose", "colour": missing},
        {"type": "cross", "colour": "red", "hexes": [list(board.coords[board.start])]},
        {"type": "pass"},
        {"colour": "red"},
    ]
    before = GAME.dump_state(state)
    counter = dice.counter
    for action in bad:
        with pytest.raises(IllegalAction):
            GAME.apply(state, state.active, action, dice)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 1 - state.active, {"type": "throw"}, dice)
    assert err.value.code == "not_your_turn"
    assert GAME.dump_state(state) == before
    assert dice.counter == counter


def test_options_maps_must_match_seats_and_letters():
    with pytest.raises(InvalidOptions):
        GAME.validate_options(3, {"maps": ["A", "B"]})
    with pytest.raises(InvalidOptions):
        GAME.validate_options(2, {"maps": ["A", "Z"]})
    assert GAME.validate_options(2, GAME.options_example())["maps"] == ["A", "D"]


# --- set-up ---------------------------------------------------------------------------------


def test_rule_maps_are_dealt_at_random_from_the_dice_unless_chosen():
    """Editions 1-5 deal each seat one of the eight maps (RULES.md ruling 9); the ``maps``
    option assigns them (repeats allowed) in every edition."""
    dealt = set()
    for n in range(12):
        state = GAME.setup(4, GAME.validate_options(4, {"edition": 5}), Dice(f"deal-{n}"))
        assert len(set(state.maps)) == 4, "each player gets a different map"
        assert state.phase == Phase.CHOOSE and not state.boards
        dealt.add(tuple(state.maps))
    assert len(dealt) > 1
    state, _ = new_game(("H", "C", "C"))
    assert state.maps == ["H", "C", "C"] and state.phase == Phase.CHOOSE and not state.boards


def pick_sides(state: DicelandState, dice: Dice, picks: list[str]) -> list[dict]:
    """Every seat picks its side, seat by seat; the events of the last pick."""
    events: list[dict] = []
    for seat, side in enumerate(picks):
        events = GAME.apply(state, seat, {"type": "side", "map": side}, dice)
    return events


def test_rule_each_player_gets_a_random_board_and_picks_its_side():
    """The rulebook: "Each player receives a randomly allocated board ... Each player can
    choose for themselves whether they play using the front or back of their board." From
    edition 6 the eight maps are the sides of four boards (``BOARD_SIDES``); a seat's first
    decision is its side, and the first turn's throw comes once every side is picked."""
    boards = [list(b) for b in BOARD_SIDES[EDITION]]
    dealt = set()
    for n in range(12):
        dice = Dice(f"boards-{n}")
        state = GAME.setup(3, GAME.validate_options(3, {}), dice)
        assert state.edition == EDITION and state.phase == Phase.SIDE and state.last_throw == []
        assert all(b in boards for b in state.boards) and len(set(map(tuple, state.boards))) == 3
        assert set(GAME.to_act(state)) == {0, 1, 2}
        for seat in range(3):
            assert GAME.legal_actions(state, seat) == [
                {"type": "side", "map": m} for m in state.boards[seat]
            ]
        dealt.add(tuple(map(tuple, state.boards)))
        picks = [board[n % 2] for board in state.boards]
        events = pick_sides(state, dice, picks)
        assert state.maps == picks and state.phase == Phase.CHOOSE
        assert state.crosses == [[GAME.board(state, s).start] for s in range(3)]
        assert [e["type"] for e in events][:3] == ["side_decided", "sides_revealed", "turn_started"]
        assert events[1]["maps"] == picks and len(state.last_throw) == 6
    assert len(dealt) > 1


def test_ruling_sides_are_picked_sealed_and_revealed_together():
    """The rulebook does not say whether a player sees the others' sides before picking:
    ruling 9, the sides are sealed choices made at once, as phase 2's are, and revealed
    together. Every board is public: the view names both sides of every board in play."""
    dice = Dice("sealed-sides")
    state = GAME.setup(2, GAME.validate_options(2, {"boards": ["A/C", "F/G"]}), dice)
    assert state.boards == [["A", "C"], ["F", "G"]]
    GAME.apply(state, 0, {"type": "side", "map": "C"}, dice)
    mine, theirs = GAME.view(state, 0), GAME.view(state, 1)
    assert mine["players"][0]["side"] == {"decided": True, "choice": "C"}
    assert theirs["players"][0]["side"] == {"decided": True}
    assert theirs["players"][1]["side"] == {"decided": False} and theirs["pending"] == [1]
    assert [p["board"] for p in theirs["players"]] == [["A", "C"], ["F", "G"]]
    assert theirs["active"] is None
    assert theirs["players"][0]["map"] == "A", "the front lies up until the sides are revealed"
    GAME.apply(state, 1, {"type": "side", "map": "F"}, dice)
    view = GAME.view(state, 1)
    assert [p["map"] for p in view["players"]] == ["C", "F"]
    assert [p["board"] for p in view["players"]] == [["A", "C"], ["F", "G"]]
    assert "side" not in view["players"][0]


def test_rule_the_first_player_is_known_only_once_every_side_is_picked():
    """The rulebook's preparation: boards dealt, each player picks a side, then "lots are
    drawn to decide who will be the first active player". The engine draws the first player
    with the deal, so no view, picture or sample says who it is until the sides are revealed:
    a seat picks its side not knowing whether it throws first."""
    for seed in ("first-0", "first-1", "first-2", "first-3"):
        dice = Dice(seed)
        state = GAME.setup(3, GAME.validate_options(3, {}), dice)
        for picked in range(3):
            for seat in (None, 0, 1, 2):
                view = GAME.view(state, seat)
                assert view["turn_player"] is None and view["active"] is None, (seed, seat)
                assert "turn 1, sides being picked" in str(GAME.picture(view, 0))
                sampled = GAME.sample(view, seat, Dice(f"{seed}-{seat}"))
                assert GAME.view(sampled, seat)["turn_player"] is None
            GAME.apply(state, picked, {"type": "side", "map": state.boards[picked][1]}, dice)
        view = GAME.view(state, None)
        assert view["phase"] == "choose" and view["turn_player"] == view["active"] == state.active
        assert f"turn 1, seat {state.active} active" in str(GAME.picture(view, 0))


def test_ruling_a_side_must_be_of_your_own_board_and_comes_before_the_first_throw():
    dice = Dice("wrong-side")
    state = GAME.setup(2, GAME.validate_options(2, {"boards": ["B/H", "D/E"]}), dice)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, {"type": "side", "map": "D"}, dice)
    assert err.value.code == "not_your_board"
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, {"type": "choose", "colour": "red"}, dice)
    assert err.value.code == "wrong_phase"
    assert GAME.describe(state, 0, {"type": "side", "map": "H"}) == (
        "Play side H (The Rim) of your board"
    )


def test_ruling_boards_can_be_assigned_but_not_with_maps_or_in_an_edition_without_boards():
    """Option ``boards`` (one board per seat, each still picks its side) for matches and
    tests, as ``maps`` assigns the sides themselves."""
    assert GAME.validate_options(2, {"boards": ["F/G", "A/C"]})["boards"] == ["F/G", "A/C"]
    for options, why in (
        ({"boards": ["A/C", "B/H"], "maps": ["A", "B"]}, "not both"),
        ({"boards": ["A/C", "B/H"], "edition": 5}, "no boards"),
        ({"boards": ["A/C"]}, "one board per seat"),
        ({"boards": ["A/B", "C/D"]}, "the boards are A/C, B/H, D/E, F/G"),
        ({"boards": ["A/C", "A/C"]}, "its own board"),
    ):
        with pytest.raises(InvalidOptions, match=why):
            GAME.validate_options(2, options)


def test_the_boards_options_description_names_a_board_of_the_current_edition():
    """The option's description (what a client reads of it) gives a board that can be
    asked for: edition 6's boards are A/C B/H D/E F/G, so "A/B" would be refused."""
    description = DicelandOptions().fields["boards"].metadata["description"]
    [example] = re.findall(r'"([A-H]/[A-H])"', description)
    assert GAME.validate_options(2, {"boards": [example, "D/E"]})["boards"][0] == example


def test_rule_start_hex_is_crossed_and_first_player_throws_six_dice():
    firsts = set()
    for n in range(10):
        state, _ = new_game(seed=f"first-{n}")
        for seat in range(2):
            assert state.crosses[seat] == [GAME.board(state, seat).start]
        assert len(state.last_throw) == 6 and state.phase == Phase.CHOOSE
        assert GAME.to_act(state).keys() == {state.active}
        firsts.add(state.active)
    assert firsts == {0, 1}, "lots decide the first player"


# --- phase 1 --------------------------------------------------------------------------------


def test_rule_phase1_choose_a_colour_shown_and_set_its_dice_aside():
    state, dice = new_game()
    shown = [c for c in COLOURS if c in state.last_throw]
    legal = GAME.legal_actions(state, state.active)
    assert legal == [{"type": "choose", "colour": c} for c in shown]
    colour = shown[0]
    GAME.apply(state, state.active, {"type": "choose", "colour": colour}, dice)
    assert state.aside == state.last_throw.count(colour)
    if state.aside < 6:
        assert GAME.legal_actions(state, state.active) == [{"type": "throw"}, {"type": "stop"}]


def test_rule_phase1_rethrow_only_the_other_dice_and_keep_the_chosen_colour():
    state, dice = new_game()
    state.last_throw = ["red", "red", "blue", "green", "grey", "yellow"]
    GAME.apply(state, state.active, {"type": "choose", "colour": "red"}, dice)
    GAME.apply(state, state.active, {"type": "throw"}, dice)
    assert len(state.last_throw) == 4
    got = state.last_throw.count("red")
    assert state.aside == 2 + got
    assert state.phase == (Phase.PUSH if got else Phase.CROSS)


def test_rule_phase1_ends_when_a_throw_has_no_die_of_the_chosen_colour():
    for n in range(40):
        state, dice = new_game(seed=f"end-{n}")
        state.last_throw = ["red", "blue", "blue", "green", "grey", "yellow"]
        GAME.apply(state, state.active, {"type": "choose", "colour": "red"}, dice)
        GAME.apply(state, state.active, {"type": "throw"}, dice)
        if "red" not in state.last_throw:
            assert state.phase in (Phase.CROSS, Phase.TREASURE, Phase.CHOOSE)
            assert state.phase != Phase.PUSH
            return
    raise AssertionError("no seed threw without red")


def test_rule_phase1_ends_when_all_six_dice_show_the_chosen_colour():
    state, dice = new_game()
    state.last_throw = ["grey"] * 6
    events = GAME.apply(state, state.active, {"type": "choose", "colour": "grey"}, dice)
    assert state.phase != Phase.PUSH
    assert any(e["type"] == "phase2_started" and e["aside"] == 6 for e in events)


def test_rule_phase1_has_no_cap_on_throws():
    state, dice = new_game()
    state.last_throw = ["red", "blue", "blue", "green", "grey", "yellow"]
    GAME.apply(state, state.active, {"type": "choose", "colour": "red"}, dice)
    state.throws = 12
    assert {"type": "throw"} in GAME.legal_actions(state, state.active)


def test_rule_stop_moves_to_phase2_with_the_dice_aside():
    state, dice = new_game()
    state.last_throw = ["red", "blue", "blue", "green", "grey", "yellow"]
    GAME.apply(state, state.active, {"type": "choose", "colour": "red"}, dice)
    events = GAME.apply(state, state.active, {"type": "stop"}, dice)
    started = next(e for e in events if e["type"] == "phase2_started")
    assert started["colour"] == "red" and started["aside"] == 1


def test_view_always_shows_dice_aside_and_last_throw():
    state, dice = new_game()
    state.last_throw = ["red", "red", "blue", "green", "grey", "yellow"]
    GAME.apply(state, state.active, {"type": "choose", "colour": "red"}, dice)
    for viewer in (None, 0, 1):
        view = GAME.view(state, viewer)
        assert view["dice"] == {
            "chosen": "red",
            "aside": 2,
            "last_throw": ["red", "red", "blue", "green", "grey", "yellow"],
            "throws": 1,
        }
        assert view["pending"] == [state.active] and view["active"] == state.active


# --- phase 2 --------------------------------------------------------------------------------


def test_rule_excess_three_red_dice_two_free_spaces_means_no_red():
    """The rulebook's example: Maria's red territory has two free spaces; with one or two red
    dice she can cross, with three red dice she cannot cross off anything in red."""
    state, dice = new_game()
    board = GAME.board(state, 1)
    terr = next(t for t in board.by_colour["red"] if len(t.hexes) >= 3)
    fill(state, 1, set(terr.hexes[-2:]) | low_treasure_keep(board, skip=("red",)))
    assert GAME.board(state, 1).working_on(GAME.crossed(state, 1), "red") == terr
    for reds, allowed in ((1, True), (2, True), (3, False)):
        s = GAME.load_state(GAME.dump_state(state))
        last = ["red"] * reds + ["blue"] * (6 - reds)
        to_phase2(s, dice, 0, "green", 0, last)
        colours = {a["colour"] for a in GAME.legal_actions(s, 1) if a["type"] == "cross"}
        assert ("red" in colours) is allowed, reds
    s = GAME.load_state(GAME.dump_state(state))
    to_phase2(s, dice, 0, "green", 0, ["red", "red", "red", "green", "blue", "blue"])
    with pytest.raises(IllegalAction) as err:
        GAME.check(s, 1, cross(board, "red", *terr.hexes[-2:]))
    assert err.value.code == "excess_dice"
    s = GAME.load_state(GAME.dump_state(state))
    to_phase2(s, dice, 1, "red", 3, ["red", "red", "red", "blue", "blue", "blue"])
    assert 1 not in GAME.to_act(s), "the active player with excess dice owes nothing"


def test_a_choice_that_will_cross_nothing_says_so_in_its_text():
    """The excess rule in the menu: setting aside or stopping with more dice of a colour than
    it has room for says that nothing will be crossed."""
    state, _ = new_game()
    board = GAME.board(state, 0)
    terr = next(t for t in board.by_colour["red"] if len(t.hexes) >= 3)
    fill(state, 0, set(terr.hexes[-2:]) | low_treasure_keep(board, skip=("red",)))
    state.active, state.phase = 0, Phase.CHOOSE
    state.last_throw = ["red", "red", "red", "blue", "blue", "green"]
    texts = {a["colour"]: GAME.describe(state, 0, a) for a in GAME.legal_actions(state, 0)}
    assert "would cross nothing" in texts["red"]
    GAME.check(state, 0, {"type": "choose", "colour": "red"})
    state.phase, state.chosen, state.aside = Phase.PUSH, "red", 3
    stop = GAME.describe(state, 0, {"type": "stop"})
    assert "cross nothing" in stop and "excess rule" in stop
    state.aside = 2
    assert GAME.describe(state, 0, {"type": "stop"}) == "Stop and cross off 2 red"


def open_territory(board, crossed: int, hexes: int = 3):
    """The first (colour, territory) a placement may go into now, with at least ``hexes``."""
    return next(
        (c, t)
        for c in COLOURS
        for t in board.candidate_territories(crossed, c)
        if len(t.hexes) >= hexes
    )


def test_rule_one_territory_per_colour_at_a_time():
    state, dice = new_game()
    board = GAME.board(state, 0)
    crossed = GAME.crossed(state, 0)
    colour, first = open_territory(board, crossed)
    GAME._cross(state, 0, [next(i for i in first.hexes if board.neighbour_mask[i] & crossed)])
    crossed = GAME.crossed(state, 0)
    assert board.candidate_territories(crossed, colour) == [first]
    # make another territory of the colour reachable: it still may not be started
    other = next(t for t in board.by_colour[colour] if t is not first)
    opened = next(i for i in first.hexes if (crossed >> i) & 1)
    keep = set(first.hexes) - {opened}
    fill(state, 0, keep | set(other.hexes) | low_treasure_keep(board, skip=(colour,)))
    crossed = GAME.crossed(state, 0)
    assert other.border & crossed and not other.mask & crossed
    to_phase2(state, dice, 0, colour, 1, throw(colour, 1))
    legal = GAME.legal_actions(state, 0)
    assert legal and all(
        board.territory_of[board.index[tuple(a["hexes"][0])]] == first.id for a in legal
    )
    opener = next(i for i in other.hexes if board.neighbour_mask[i] & crossed)
    with pytest.raises(IllegalAction) as err:
        GAME.check(state, 0, cross(board, colour, opener))
    assert err.value.code == "territory_unfinished"
    # once the territory is complete, a new one of that colour may be started
    GAME._cross(state, 0, [i for i in first.hexes if not (crossed >> i) & 1])
    crossed = GAME.crossed(state, 0)
    assert other in board.candidate_territories(crossed, colour)


def test_rule_every_cross_must_touch_a_cross_and_crosses_of_the_placement_count():
    state, dice = new_game()
    board = GAME.board(state, 0)
    crossed = GAME.crossed(state, 0)
    colour, terr = open_territory(board, crossed)
    touching = [i for i in terr.hexes if board.neighbour_mask[i] & crossed]
    far = [i for i in terr.hexes if not board.neighbour_mask[i] & crossed]
    assert far, "a territory with a space away from the start"
    chain = next(i for i in far if any(board.neighbour_mask[i] >> j & 1 for j in touching))
    link = next(j for j in touching if board.neighbour_mask[chain] >> j & 1)
    to_phase2(state, dice, 0, colour, 1, throw(colour, 1))
    with pytest.raises(IllegalAction) as err:
        GAME.check(state, 0, cross(board, colour, chain))
    assert err.value.code == "not_adjacent"
    state.aside = 2
    GAME.check(state, 0, cross(board, colour, chain, link))
    assert cross(board, colour, chain, link) in GAME.legal_actions(state, 0)


def test_rule_all_dice_of_the_colour_must_be_used_and_the_active_player_cannot_pass():
    state, dice = new_game()
    board = GAME.board(state, 0)
    crossed = GAME.crossed(state, 0)
    colour, _terr = open_territory(board, crossed)
    to_phase2(state, dice, 0, colour, 2, throw(colour, 2))
    legal = GAME.legal_actions(state, 0)
    assert legal and all(len(a["hexes"]) == 2 and a["colour"] == colour for a in legal)
    assert {"type": "pass"} not in legal
    one = legal[0]["hexes"][:1]
    with pytest.raises(IllegalAction) as err:
        GAME.check(state, 0, {"type": "cross", "colour": colour, "hexes": one})
    assert err.value.code == "wrong_number_of_crosses"
    with pytest.raises(IllegalAction) as err:
        GAME.check(state, 0, {"type": "pass"})
    assert err.value.code == "must_cross"


def test_rule_inactive_players_use_one_other_colour_of_the_last_throw_or_pass():
    state, dice = new_game()
    board = GAME.board(state, 1)
    crossed = GAME.crossed(state, 1)
    usable = [c for c in COLOURS if board.placements(crossed, c, 1)]
    chosen = usable[0]
    others = [c for c in COLOURS if c != chosen]
    last = [chosen, chosen, *others[:4]]
    to_phase2(state, dice, 0, chosen, 2, last)
    legal = GAME.legal_actions(state, 1)
    assert legal[-1] == {"type": "pass"}
    colours = {a["colour"] for a in legal if a["type"] == "cross"}
    assert colours == {c for c in others[:4] if c in usable}
    assert all(len(a["hexes"]) == 1 for a in legal[:-1])
    opener = next(
        i
        for i in board.candidate_territories(crossed, chosen)[0].hexes
        if board.neighbour_mask[i] & crossed
    )
    with pytest.raises(IllegalAction) as err:
        GAME.check(state, 1, cross(board, chosen, opener))
    assert err.value.code == "colour_not_available"
    if others[4] in usable:
        missing = board.candidate_territories(crossed, others[4])[0]
        opener = next(i for i in missing.hexes if board.neighbour_mask[i] & crossed)
        with pytest.raises(IllegalAction):
            GAME.check(state, 1, cross(board, others[4], opener))


def test_rule_phase2_choices_are_simultaneous_and_sealed():
    state, dice = new_game(("A", "B", "C"))
    to_phase2(state, dice, 0, "red", 1, ["red", "blue", "grey", "green", "yellow", "orange"])
    pending = GAME.to_act(state)
    assert len(pending) >= 2 and all(p.sealed for p in pending.values())
    seat = max(pending)
    action = next(a for a in GAME.legal_actions(state, seat) if a["type"] == "cross")
    crosses_before = list(state.crosses[seat])
    GAME.apply(state, seat, action, dice)
    assert state.crosses[seat] == crosses_before, "nothing is crossed before everyone decided"
    secret = json.dumps(action["hexes"])
    for viewer in (None, *[s for s in range(3) if s != seat]):
        view = GAME.view(state, viewer)
        assert view["players"][seat]["phase2"] == {"owes": True, "decided": True}
        text = json.dumps(view)
        assert secret not in text
        assert secret not in json.dumps(view["players"])
    assert GAME.view(state, seat)["players"][seat]["phase2"]["choice"]["hexes"] == action["hexes"]
    for s in sorted(GAME.to_act(state)):
        GAME.apply(state, s, GAME.legal_actions(state, s)[0], dice)
    assert all(
        i in state.crosses[seat]
        for i in (GAME.board(state, seat).index[tuple(h)] for h in action["hexes"])
    )
    assert GAME.view(state, 1)["last_phase2"][seat]["hexes"] == action["hexes"]


# --- treasures and winning ------------------------------------------------------------------


def test_rule_crossing_a_treasure_earns_a_treasure_throw_of_five_dice():
    state, dice = new_game()
    board = fill(state, 0, low_treasure_keep(GAME.board(state, 0)))
    t, _ = treasure_and_blocker(board, "blue")
    to_phase2(state, dice, 0, "blue", 1, ["blue", "red", "red", "red", "red", "red"])
    if 1 in GAME.to_act(state):
        GAME.apply(state, 1, {"type": "pass"}, dice)
    events = GAME.apply(state, 0, cross(board, "blue", t), dice)
    throw = next(e for e in events if e["type"] == "treasure_throw")
    assert throw["seat"] == 0 and len(throw["dice"]) == 5
    assert GAME.view(state, 1)["scores"][0] == 7


def test_rule_chained_treasure_throws_come_at_once_before_the_next_player():
    state, dice = new_game(("A", "B", "C"))
    boards = [fill(state, s, low_treasure_keep(GAME.board(state, s))) for s in range(3)]
    t0, _ = treasure_and_blocker(boards[0], "blue")
    t1, _ = treasure_and_blocker(boards[1], "red")
    t2, _ = treasure_and_blocker(boards[2], "red")
    to_phase2(state, dice, 1, "blue", 1, ["blue", "red", "green", "green", "green", "green"])
    GAME.apply(state, 0, {"type": "pass"}, dice)
    GAME.apply(state, 1, cross(boards[1], "blue", treasure_and_blocker(boards[1], "blue")[0]), dice)
    GAME.apply(state, 2, cross(boards[2], "red", t2), dice)
    # clockwise from the active player (seat 1): seat 1, then seat 2; seat 0 found nothing
    assert state.phase == Phase.TREASURE and state.treasure_queue == [1, 2]
    state.treasure_dice = ["red", "grey", "grey", "grey", "grey"]
    events = GAME.apply(state, 1, cross(boards[1], "red", t1), dice)
    again = [e for e in events if e["type"] == "treasure_throw"]
    assert again and again[0]["seat"] == 1, "the chained throw is taken at once"
    assert state.treasure_queue == [1, 2]
    events = GAME.apply(state, 1, {"type": "pass"}, dice)
    assert [e["seat"] for e in events if e["type"] == "treasure_throw"][:1] == [2]
    assert t0 not in state.crosses[0]


def test_rule_simultaneous_winners_in_phase2_all_win():
    state, dice = new_game(("A", "B", "C"))
    actions = {}
    for seat, colour in ((0, "grey"), (2, "blue")):
        board = GAME.board(state, seat)
        t, _ = treasure_and_blocker(board, colour)
        keep = {t}
        others = [c for c in COLOURS if c != colour]
        for c in others[:3]:
            keep.update(treasure_and_blocker(board, c))
        for c in others[3:]:
            keep.add(treasure_and_blocker(board, c)[1])
        fill(state, seat, keep)
        assert board.treasure_count(GAME.crossed(state, seat)) == 8
        assert board.completed_colours(GAME.crossed(state, seat)) == []
        actions[seat] = cross(board, colour, t)
    to_phase2(state, dice, 0, "grey", 1, ["grey", "blue", "red", "red", "red", "red"])
    for seat in sorted(GAME.to_act(state)):
        GAME.apply(state, seat, actions.get(seat, {"type": "pass"}), dice)
    result = GAME.result(state)
    assert result is not None and result.winners == [0, 2]
    assert state.phase == Phase.OVER and GAME.to_act(state) == {}


def test_rule_win_needs_nine_treasures_and_one_whole_colour():
    state, _ = new_game()
    board = GAME.board(state, 0)
    keep = low_treasure_keep(board)
    fill(state, 0, keep)
    crossed = GAME.crossed(state, 0)
    assert board.treasure_count(crossed) == 6 and not board.has_won(crossed)
    only_treasures = crossed | board.treasure_mask
    assert board.treasure_count(only_treasures) == 12
    assert not board.completed_colours(only_treasures) and not board.has_won(only_treasures)
    t, blocker = treasure_and_blocker(board, "red")
    colour_done = crossed | (1 << t) | (1 << blocker)
    assert board.completed_colours(colour_done) == ["red"] and not board.has_won(colour_done)
    for c in ("blue", "green"):
        colour_done |= 1 << treasure_and_blocker(board, c)[0]
    assert board.treasure_count(colour_done) == 9 and board.has_won(colour_done)


def test_rule_game_ends_at_once_when_a_treasure_throw_reaches_the_goal():
    state, dice = new_game(("A", "B", "C"))
    board0 = GAME.board(state, 0)
    keep = low_treasure_keep(board0)
    for c in ("green", "orange"):
        keep.discard(treasure_and_blocker(board0, c)[0])
    fill(state, 0, keep)
    assert board0.treasure_count(GAME.crossed(state, 0)) == 8
    boards = [board0] + [fill(state, s, low_treasure_keep(GAME.board(state, s))) for s in (1, 2)]
    red0, _ = treasure_and_blocker(board0, "red")
    yellow0, blocker = treasure_and_blocker(board0, "yellow")
    to_phase2(state, dice, 0, "red", 1, ["red", "blue", "grey", "grey", "grey", "grey"])
    GAME.apply(state, 0, cross(board0, "red", red0), dice)
    for seat in (1, 2):
        GAME.apply(
            state,
            seat,
            cross(boards[seat], "blue", treasure_and_blocker(boards[seat], "blue")[0]),
            dice,
        )
    assert GAME.result(state) is None, "nine treasures but no whole colour yet"
    assert state.treasure_queue == [0, 1, 2]
    state.treasure_dice = ["yellow", "yellow", "red", "red", "red"]
    events = GAME.apply(state, 0, cross(board0, "yellow", yellow0, blocker), dice)
    assert not [e for e in events if e["type"] == "treasure_throw"], "no later throws"
    result = GAME.result(state)
    assert result is not None and result.winners == [0]
    assert GAME.to_act(state) == {} and state.treasure_queue == []


def test_rule_treasure_throw_may_be_passed():
    state, dice = new_game()
    board = fill(state, 0, low_treasure_keep(GAME.board(state, 0)))
    t, _ = treasure_and_blocker(board, "blue")
    to_phase2(state, dice, 0, "blue", 1, ["blue", "red", "red", "red", "red", "red"])
    if 1 in GAME.to_act(state):
        GAME.apply(state, 1, {"type": "pass"}, dice)
    GAME.apply(state, 0, cross(board, "blue", t), dice)
    if state.phase == Phase.TREASURE:
        assert GAME.legal_actions(state, 0)[-1] == {"type": "pass"}
        GAME.apply(state, 0, {"type": "pass"}, dice)
    assert state.phase == Phase.CHOOSE and state.active == 1 and state.turn == 2


# --- views, sample, bots --------------------------------------------------------------------


def test_view_shows_maps_crosses_status_bar_and_pending():
    state, _dice = new_game(("E", "F"))
    view = GAME.view(state, 0)
    json.dumps(view)
    assert view["players"][1]["map"] == "F"
    assert view["players"][0]["crosses"] == [edition_data(view["edition"])["E"]["start"]]
    assert view["players"][0]["treasures"] == dict.fromkeys(COLOURS, 0)
    assert view["players"][0]["completed"] == [] and view["scores"] == [0, 0]
    assert view["pending"] == [state.active] and view["turn_player"] == state.active


def test_sample_is_consistent_with_the_view():
    state, dice = new_game(("A", "B", "C"))
    to_phase2(state, dice, 0, "red", 1, ["red", "blue", "grey", "green", "yellow", "orange"])
    seat = max(GAME.to_act(state))
    GAME.apply(state, seat, GAME.legal_actions(state, seat)[0], dice)
    viewer = min(GAME.to_act(state))
    view = GAME.view(state, viewer)
    sampled = GAME.sample(view, viewer, Dice("sampler"))
    assert GAME.view(sampled, viewer) == view
    assert sampled.choices[seat] is not None


def test_bots_only_batch_plays_legal_moves_and_heuristic_beats_random():
    from engine.simulate import make_bots, play

    wins = 0
    for n in range(60):
        names = ["heuristic", "random"] if n % 2 == 0 else ["random", "heuristic"]
        played = play(GAME, make_bots(GAME, names), f"batch-{n}")
        assert played.result.winners
        wins += any(names[w] == "heuristic" for w in played.result.winners)
    assert wins >= 45


def test_rule_treasure_throws_go_clockwise_from_the_active_player():
    state, dice = new_game(("A", "B", "C"))
    boards = [fill(state, s, low_treasure_keep(GAME.board(state, s))) for s in range(3)]
    to_phase2(state, dice, 2, "blue", 1, ["blue", "red", "green", "green", "green", "green"])
    GAME.apply(state, 0, cross(boards[0], "red", treasure_and_blocker(boards[0], "red")[0]), dice)
    GAME.apply(state, 1, {"type": "pass"}, dice)
    events = GAME.apply(
        state, 2, cross(boards[2], "blue", treasure_and_blocker(boards[2], "blue")[0]), dice
    )
    assert state.treasure_queue == [2, 0], "the active player (seat 2) first, then seat 0"
    assert [e["seat"] for e in events if e["type"] == "treasure_throw"] == [2]
    assert GAME.view(state, 1)["treasure_throw"]["queue"] == [0]


def test_rule_a_seat_without_any_legal_placement_owes_nothing():
    state, dice = new_game(("A", "B", "C"))
    board = GAME.board(state, 1)
    crossed = GAME.crossed(state, 1)
    useless = [c for c in COLOURS if not board.placements(crossed, c, 1)]
    useful = [c for c in COLOURS if board.placements(crossed, c, 1)]
    assert useless and useful
    first = GAME.board(state, 0)
    active = next(c for c in COLOURS if first.placements(GAME.crossed(state, 0), c, 1))
    others = [c for c in useless if c != active]
    to_phase2(state, dice, 0, active, 1, [active, *others[:1] * 5])
    assert 0 in GAME.to_act(state), "the active player still crosses"
    assert 1 not in GAME.to_act(state)
    view = GAME.view(state, 1)
    assert view["players"][1]["phase2"] == {"owes": False, "decided": False}
    assert GAME.legal_actions(state, 1) == []


def test_sealed_choice_changes_nothing_another_seat_sees_but_the_decided_flag():
    state, dice = new_game(("A", "B", "C"))
    to_phase2(state, dice, 0, "red", 1, ["red", "blue", "grey", "green", "yellow", "orange"])
    seat = max(GAME.to_act(state))
    before = {v: GAME.view(state, v) for v in (None, 0, 1, 2) if v != seat}
    action = next(a for a in GAME.legal_actions(state, seat) if a["type"] == "cross")
    GAME.apply(state, seat, action, dice)
    for viewer, old in before.items():
        new = GAME.view(state, viewer)
        assert new["players"][seat]["phase2"]["decided"] is True
        new["players"][seat]["phase2"]["decided"] = False
        new["pending"] = old["pending"]
        assert new == old, "the sealed choice leaked into another seat's view"


def test_describe_reads_well_for_every_kind_of_action():
    state, dice = new_game()
    state.last_throw = ["red", "red", "blue", "green", "grey", "yellow"]
    assert GAME.describe(state, state.active, {"type": "choose", "colour": "red"}).startswith(
        "Set aside the 2 red dice"
    )
    GAME.apply(state, state.active, {"type": "choose", "colour": "red"}, dice)
    assert GAME.describe(state, state.active, {"type": "throw"}) == "Throw the other 4 dice again"
    stop = GAME.describe(state, state.active, {"type": "stop"})
    assert stop == "Stop and cross off 2 red" or stop.endswith("so you cross nothing")
    to_phase2(state, dice, 0, "red", 1, ["red", "blue", "grey", "green", "yellow", "orange"])
    for seat in GAME.to_act(state):
        for action in GAME.legal_actions(state, seat):
            text = GAME.describe(state, seat, action)
            assert text and "{" not in text
            if action["type"] == "cross":
                assert text.startswith(f"Cross {len(action['hexes'])} {action['colour']}")


@pytest.mark.parametrize(
    "names", [["random"] * 3, ["random"] * 4, ["heuristic", "random", "heuristic"]]
)
def test_bots_only_seeded_batch_finishes_without_illegal_actions(names):
    from engine.simulate import make_bots, play

    turns = []
    for n in range(30 if len(names) < 4 else 12):
        played = play(GAME, make_bots(GAME, names), f"batch-{len(names)}-{n}")
        assert played.result.winners
        turns.append(played.result.detail["turns"])
    assert 5 < sum(turns) / len(turns) < 200


def test_sample_rebuilds_a_state_with_the_same_view_at_every_step():
    def same_view(game, state, seat, action) -> None:
        for viewer in range(state.seats):
            view = GAME.view(state, viewer)
            sampled = GAME.sample(json.loads(json.dumps(view)), viewer, Dice("sample"))
            assert GAME.view(sampled, viewer) == view
            assert GAME.to_act(sampled).keys() == GAME.to_act(state).keys()

    random_sim(GAME, 3, 1, check_every_step=False, on_step=same_view)


def test_sample_draws_the_sealed_sides_of_the_seats_that_picked():
    """A search's sampled state keeps its own side, draws a side of their own board for the
    seats that picked (sealed) and leaves the others to pick."""
    dice = Dice("sample-sides")
    state = GAME.setup(3, GAME.validate_options(3, {"boards": ["A/C", "B/H", "D/E"]}), dice)
    GAME.apply(state, 0, {"type": "side", "map": "C"}, dice)
    GAME.apply(state, 1, {"type": "side", "map": "H"}, dice)
    drawn = set()
    for n in range(20):
        sampled = GAME.sample(GAME.view(state, 0), 0, Dice(f"sample-{n}"))
        assert sampled.sides[0] == "C" and sampled.sides[2] == ""
        assert sampled.boards == state.boards and sampled.phase == Phase.SIDE
        drawn.add(sampled.sides[1])
    assert drawn == {"B", "H"}


def phase2_with_two_dice():
    state, dice = new_game()
    board = GAME.board(state, 0)
    crossed = GAME.crossed(state, 0)
    colour = next(c for c in COLOURS if board.placements(crossed, c, 2))
    to_phase2(state, dice, 0, colour, 2, throw(colour, 2))
    return state, dice, board, colour


def bad_cross(kind: str, state, board, colour) -> dict:
    good = GAME.legal_actions(state, 0)[0]["hexes"]
    obstacle = next(i for i in range(len(board.coords)) if board.obstacle_mask >> i & 1)
    other = next(i for i in range(len(board.coords)) if board.colour_of[i] not in (None, colour))
    grid = [[q, r] for q in range(-6, 12) for r in range(-6, 11)]
    off_map = next(cell for cell in grid if tuple(cell) not in board.index)
    hexes = {
        "malformed_action": [[0, "a"]],
        "no_such_hex": [off_map, good[1]],
        "already_crossed": [list(board.coords[board.start]), good[1]],
        "not_a_territory": [list(board.coords[obstacle]), good[1]],
        "wrong_territory_colour": [list(board.coords[other]), good[1]],
        "duplicate_hex": [good[0], good[0]],
        "not_canonical": [good[1], good[0]],
        "wrong_number_of_crosses": good[:1],
    }[kind]
    return {"type": "cross", "colour": colour, "hexes": hexes}


@pytest.mark.parametrize(
    "code",
    [
        "malformed_action",
        "no_such_hex",
        "already_crossed",
        "not_a_territory",
        "wrong_territory_colour",
        "duplicate_hex",
        "not_canonical",
        "wrong_number_of_crosses",
    ],
)
def test_bad_placements_are_refused_with_their_code_and_change_nothing(code):
    state, dice, board, colour = phase2_with_two_dice()
    action = bad_cross(code, state, board, colour)
    before, counter = GAME.dump_state(state), dice.counter
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, action, dice)
    assert err.value.code == code, err.value.reason
    assert GAME.dump_state(state) == before and dice.counter == counter


def test_distances_are_kept_per_board_not_per_map_name():
    # Two editions of a map, or a bench's candidate, share a name but not their hexes.
    name, data = next((n, d) for n, d in MAP_DATA.items() if d["obstacles"])
    edited = copy.deepcopy(data)
    edited["obstacles"] = edited["obstacles"][1:]  # one obstacle fewer: one hex fewer
    first, second = Board(data), Board(edited)
    assert first.name == second.name == name
    assert len(all_distances(first)) == len(first.coords)
    assert len(all_distances(second)) == len(second.coords) == len(first.coords) - 1
    assert all_distances(Board(data)) == all_distances(first)
