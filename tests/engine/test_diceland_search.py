"""The Diceland search's lookahead: throws keyed to the moment of the game (so candidates of
one world meet the same dice), a leaf that sees how near the uncrossed treasures are, and
the fitted leaf: every seat's chance of winning."""

from __future__ import annotations

import copy
import random

from engine.dice import Dice
from engine.diceland.board import COLOURS, bits
from engine.diceland.bots import Scorer
from engine.diceland.leaf import features, win_chances
from engine.diceland.search import (
    DicelandLookahead,
    FittedLookahead,
    FittedSearchBot,
    KeyedLookahead,
    progress,
    treasure_distance,
)
from engine.diceland.state import DicelandState, Phase
from engine.diceland.view import board_of, crossed_mask
from engine.games import get_game
from engine.search import KeyedDice, Lookahead, fast_step
from engine.simulate import play

GAME = get_game("diceland")


def test_keyed_dice_repeat_a_moments_draws_however_many_were_drawn_before():
    moment = ["a"]
    long, short = KeyedDice("w", lambda: moment[0]), KeyedDice("w", lambda: moment[0])
    long_a = [long.randbelow(6) for _ in range(7)]
    short_a = [short.randbelow(6) for _ in range(2)]
    assert short_a == long_a[:2]
    moment[0] = "b"
    assert [long.randbelow(6) for _ in range(9)] == [short.randbelow(6) for _ in range(9)]
    elsewhere, again = KeyedDice("v", lambda: "b"), KeyedDice("w", lambda: "b")
    assert [elsewhere.randbelow(6) for _ in range(9)] != [again.randbelow(6) for _ in range(9)]


def test_keyed_dice_read_a_kept_stream_as_a_fresh_generator_draws_it():
    """Readers of one moment share its kept draws; a reader that asks for another kind of
    draw than the stream holds goes on alone, still as ``random.Random(world:key)`` would."""
    first, second = KeyedDice("kept", lambda: "m"), KeyedDice("kept", lambda: "m")
    fresh = random.Random("kept:m")
    assert [first.randbelow(6) for _ in range(5)] == [fresh.randrange(6) for _ in range(5)]
    assert [second.randbelow(6) for _ in range(3)] == _draws("kept:m", [6, 6, 6])
    alone = KeyedDice("kept", lambda: "m")
    assert [alone.randbelow(6), alone.randbelow(4), alone.randbelow(6)] == _draws(
        "kept:m", [6, 4, 6]
    )
    assert [second.randbelow(6) for _ in range(4)] == _draws("kept:m", [6] * 7)[3:]


def _draws(seed: str, kinds: list[int]) -> list[int]:
    rng = random.Random(seed)
    return [rng.randrange(n) for n in kinds]


def _push_state() -> tuple[DicelandState, int]:
    """A heuristic game's first phase-1 decision to stop or throw on."""
    dice = Dice("keyed-push")
    state = GAME.setup(2, GAME.validate_options(2, {}), dice)
    heuristic, rng = GAME.bots["heuristic"](), random.Random(0)
    while state.phase != Phase.PUSH:
        seat = min(GAME.to_act(state))
        action = heuristic.choose(GAME.view(state, seat), GAME.legal_actions(state, seat), rng)
        GAME.apply(state, seat, action, dice)
    return state, state.active


def _next_turns_throw(state: DicelandState, seat: int, action: dict, world: str) -> list[str]:
    look = KeyedLookahead(GAME)
    state = copy.deepcopy(state)
    dice = KeyedDice(world, lambda: look.chance_key(state))
    turn = state.turn
    fast_step(GAME, state, seat, action, dice)
    rng = random.Random(0)
    while state.turn == turn and not GAME.is_over(state):
        actor = min(GAME.to_act(state))
        legal = GAME.legal_actions(state, actor)
        fast_step(GAME, state, actor, look.policy(state, actor, legal, rng), dice)
    return list(state.last_throw)


def test_diceland_rollouts_meet_the_same_next_throw_whether_they_stop_or_throw_on():
    """Throwing on draws more dice than stopping; keyed by the moment, the next player's
    first throw is still the same in both rollouts of a world (and differs between worlds)."""
    state, seat = _push_state()
    for world in ("w1", "w2", "w3"):
        stopped = _next_turns_throw(state, seat, {"type": "stop"}, world)
        thrown = _next_turns_throw(state, seat, {"type": "throw"}, world)
        assert stopped == thrown and len(stopped) == 6
    assert len({tuple(_next_turns_throw(state, seat, {"type": "stop"}, w)) for w in "abcdef"}) > 1
    assert DicelandLookahead(GAME).chance_key(state) is None  # the former search: one stream


def test_diceland_leaf_counts_the_heuristics_distance_to_uncrossed_treasures():
    """The leaf's treasure distance is the heuristic's approach measure (each uncrossed
    treasure's steps from the crosses, capped), and nearer treasures are worth more."""
    checked = 0

    def same_measure(game, state, seat, action):
        nonlocal checked
        for s in range(state.seats):
            near = Scorer.of_view(game.view(state, s)).near
            assert treasure_distance(board_of(state, s), crossed_mask(state, s)) == sum(
                near.values()
            )
            checked += 1

    play(GAME, [GAME.bots["heuristic"]() for _ in range(3)], "leaf-near", {}, on_step=same_measure)
    assert checked > 100
    dice = Dice("leaf-nearer")
    state = GAME.setup(2, GAME.validate_options(2, {}), dice)
    board = board_of(state, 0)
    before = progress(state, 0, approach=True)
    start = board.start
    step = next(
        i
        for i in range(len(board.coords))
        if (board.neighbour_mask[start] >> i) & 1 and board.is_land(i)
    )
    nearer = copy.deepcopy(state)
    nearer.crosses[0] = sorted({*nearer.crosses[0], step})
    gain = treasure_distance(board, crossed_mask(state, 0)) - treasure_distance(
        board, crossed_mask(nearer, 0)
    )
    assert gain > 0
    assert progress(nearer, 0, approach=True) > before
    assert progress(nearer, 0) == progress(state, 0) + 1  # the progress leaf: one cross


def test_diceland_leaf_features_read_treasures_wanted_colour_left_and_turn_order():
    dice = Dice("leaf-features")
    state = GAME.setup(3, GAME.validate_options(3, {}), dice)
    for seat in range(3):
        board = board_of(state, seat)
        past_five, left, under_six, left_done, crosses, order = features(state, seat)
        smallest = min(board.colour_mask[c].bit_count() for c in COLOURS)
        assert (past_five, left, under_six, left_done) == (0, smallest, max(0, 6 - smallest), 0)
        assert crosses == 1
        assert order == (seat - state.active) % 3 / 3
    done = copy.deepcopy(state)
    board = board_of(done, 0)
    done.crosses[0] = sorted({*done.crosses[0], *bits(board.treasure_mask)})
    past_five, left, _, left_done, crosses, _ = features(done, 0)
    assert past_five == 4 and left_done == left > 0  # nine found: only the colour is wanted
    assert crosses == 1 + 12


def test_diceland_fitted_leaf_shares_the_win_and_favours_the_seat_nearer_it():
    """Every seat's chance sums to one; a treasure more (or a nearer colour) raises a seat's
    chance; the fitted search values a finished game by who won it."""
    dice = Dice("leaf-chances")
    state = GAME.setup(3, GAME.validate_options(3, {}), dice)
    chances = win_chances(state)
    assert abs(sum(chances) - 1) < 1e-9 and all(0 < c < 1 for c in chances)
    richer = copy.deepcopy(state)
    board = board_of(richer, 1)
    treasure = next(iter(bits(board.treasure_mask)))
    richer.crosses[1] = sorted({*richer.crosses[1], treasure})
    assert win_chances(richer)[1] > chances[1]
    assert win_chances(richer)[0] < chances[0]
    look = FittedLookahead(GAME)
    over = copy.deepcopy(state)
    over.phase, over.winners = Phase.OVER, [2]
    assert [look.value(over, s, None) for s in range(3)] == [0.0, 0.0, 1.0]
    assert look.value(state, 1, None) == chances[1]


def test_the_catalogues_search_is_the_fitted_one_and_repeats_a_seeded_3_seat_game():
    """The catalogue's ``search`` is :class:`FittedSearchBot`; ``play`` checks every
    action; with an iteration budget the same seeds give the same moves."""
    assert isinstance(GAME.bots["search"](iterations=12), FittedSearchBot)
    runs = [
        play(
            GAME,
            [GAME.bots["search"](iterations=12), GAME.bots["heuristic"](), GAME.bots["random"]()],
            "fitted-play",
            {},
            bot_seed="fitted",
        )
        for _ in range(2)
    ]
    assert runs[0].result is not None and runs[0].result.detail["ended_by"] == "win"
    assert runs[0].moves == runs[1].moves


def test_diceland_rollout_policy_read_off_the_state_moves_as_the_heuristic_on_the_view():
    """The search's rollouts skip building a view: at every decision of a 3-seat game of
    heuristics, the policy read off the state picks the heuristic's own move (and a scorer
    kept for a position gives the same values as a fresh one)."""
    look, checked = FittedLookahead(GAME), 0

    def same_move(game, state, seat, action):
        nonlocal checked
        if state.phase == Phase.SIDE:
            return  # a board's side is picked without rollouts (test_search_picks_a_side...)
        legal = game.legal_actions(state, seat)
        assert look.policy(state, seat, legal, random.Random(0)) == action
        board, crossed = board_of(state, seat), crossed_mask(state, seat)
        kept, fresh = Scorer.of(board, crossed), Scorer(board, crossed)
        assert kept is Scorer.of(board, crossed)
        assert [kept.push_values(c) for c in COLOURS] == [fresh.push_values(c) for c in COLOURS]
        checked += len(legal) > 1

    play(GAME, [GAME.bots["heuristic"]() for _ in range(3)], "policy-state", {}, on_step=same_move)
    assert checked > 80


class _ListingLookahead(FittedLookahead):
    """The fitted lookahead the generic way: every rollout step lists the legal actions and
    asks the policy, and every candidate samples its world again."""

    def rollout_move(self, state, seat, rng):  # type: ignore[no-untyped-def]
        return Lookahead.rollout_move(self, state, seat, rng)

    def copy(self, state):  # type: ignore[no-untyped-def]
        return None


class _ListingSearchBot(FittedSearchBot):
    lookahead_class = _ListingLookahead


def test_diceland_rollout_moves_without_listing_actions_as_the_policy_does_from_the_list():
    """The rollouts' shortcut (no list of legal actions) gives the seat and move that the
    policy gives from the listed actions, for every searching seat at every step of a 3-seat
    game, including sealed phase-2 steps where another seat acts first."""
    look, checked = FittedLookahead(GAME), 0

    def same_move(game, state, seat, action):
        nonlocal checked
        if state.phase == Phase.SIDE:
            return  # no rollout starts before the first turn
        for searching in range(state.seats):
            rng = random.Random(0)
            assert look.rollout_move(state, searching, rng) == Lookahead.rollout_move(
                look, state, searching, rng
            )
            checked += 1

    play(GAME, [GAME.bots["heuristic"]() for _ in range(3)], "rollout-move", {}, on_step=same_move)
    assert checked > 300


def test_diceland_search_copies_a_worlds_state_and_moves_as_when_sampling_it_again():
    """A copy of a sampled state equals it and shares no list with it; the search that copies
    a world's state and skips listing actions plays the same seeded game as the one that
    samples every rollout and lists the actions."""
    state = GAME.sample(GAME.view(_push_state()[0], 0), 0, Dice("copy"))
    copied = FittedLookahead(GAME).copy(state)
    assert copied == state
    copied.crosses[0].append(-1)
    copied.last_throw.append("red")
    copied.choices.append(None)
    assert copied.crosses[0] != state.crosses[0] and copied.choices != state.choices

    def game_of(bot: type[FittedSearchBot]) -> list:
        bots = [bot(iterations=24), GAME.bots["heuristic"](), bot(iterations=24)]
        return play(GAME, bots, "copy-same", {}, bot_seed="copy").moves

    assert game_of(FittedSearchBot) == game_of(_ListingSearchBot)


def test_a_scorers_best_placement_is_the_first_best_in_the_rules_order():
    dice = Dice("best-placement")
    state = GAME.setup(2, GAME.validate_options(2, {}), dice)
    board, crossed = board_of(state, 0), crossed_mask(state, 0)
    scorer, checked = Scorer(board, crossed), 0
    for colour in COLOURS:
        for n in range(1, 7):
            masks = board.placements(crossed, colour, n)
            value, mask = scorer.best_placement(colour, n)
            if not masks:
                assert (value, mask) == (0.0, 0)
                continue
            scores = [scorer.score(colour, m) for m in masks]
            assert value == max(scores) and mask == masks[scores.index(value)]
            assert scorer.best(colour, n) == value
            checked += 1
    assert checked > 0


def test_search_picks_a_side_of_its_board_as_the_heuristic_does_without_rollouts():
    """Before the first turn the search picks its board's side as the heuristic does (at
    random: RULES.md, *Boards and sides*), without searching, then searches as before."""
    state = GAME.setup(2, GAME.validate_options(2, {}), Dice("search-side"))
    assert state.phase == Phase.SIDE
    bot = FittedSearchBot(iterations=8)
    legal = GAME.legal_actions(state, 0)
    picks = {bot.choose(GAME.view(state, 0), legal, random.Random(n))["map"] for n in range(20)}
    assert picks == set(state.boards[0]) and bot.last is None
