"""The Carcassonne search's 2-seat leaf: the chance of reaching 42 before the other seat."""

from __future__ import annotations

import itertools
import random

from engine.carcassonne.rules import TARGET
from engine.carcassonne.search import (
    HELD,
    TURN_OUTCOMES,
    CarcassonneLookahead,
    CarcassonneSearchBot,
    race,
    turns_left,
)
from engine.dice import Dice
from engine.games import get_game
from engine.simulate import play


def test_race_leaf_is_a_chance_that_grows_with_my_score_and_falls_with_theirs():
    assert race(TARGET, False, 41, True) == 1.0
    assert race(41, True, TARGET, False) == 0.0
    for theirs in (0, 20, 41):
        mine = [race(s, False, theirs, False) for s in range(TARGET)]
        assert all(0.0 < v < 1.0 for v in mine)
        assert all(a <= b for a, b in itertools.pairwise(mine))
    for score in (0, 20, 41):
        theirs = [race(score, False, s, False) for s in range(TARGET)]
        assert all(a >= b for a, b in itertools.pairwise(theirs))
    # a held knight doubles my next turn and takes a die from theirs; theirs does the reverse
    assert race(20, True, 20, False) > race(20, False, 20, False) > race(20, False, 20, True)


def test_race_leaf_takes_the_risk_when_behind_and_the_safe_points_when_ahead():
    """A turn that closes 15 points half the time and nothing otherwise, against a sure 6:
    far behind the gamble is worth more (6 points will not catch up), far ahead less."""

    def gamble(mine: int, theirs: int) -> float:
        return 0.5 * race(mine + 15, False, theirs, False) + 0.5 * race(mine, False, theirs, False)

    assert gamble(10, 36) > race(16, False, 36, False)
    assert gamble(30, 10) < race(36, False, 10, False)


def test_race_leaf_agrees_with_playing_the_race_out():
    """The dynamic programme (with its loops through turns that score nothing) against
    20,000 races played from 0 to 42 with the same turn endings, the other seat to move."""
    rng = random.Random(42)

    def turn(who: str, dice: int) -> int:
        outcomes = TURN_OUTCOMES[who][dice]
        return rng.choices(list(outcomes), weights=list(outcomes.values()))[0]

    wins, races = 0, 20_000
    for _ in range(races):
        score, held = [0, 0], [False, False]  # 0: the search, 1: the other seat
        mover = 1
        while max(score) < TARGET:
            got = turn("search" if mover == 0 else "heuristic", 8 if held[1 - mover] else 9)
            doubled, held[mover] = held[mover], got == HELD
            score[mover] += 0 if got == HELD else got * (2 if doubled else 1)
            mover = 1 - mover
        wins += score[0] >= TARGET
    assert abs(wins / races - race(0, False, 0, False)) < 0.015


class RaceLookahead(CarcassonneLookahead):
    race_leaf = True


class RaceSearch(CarcassonneSearchBot):
    lookahead_class = RaceLookahead


def test_the_race_leaf_is_off_so_two_seats_value_the_turns_left():
    game = get_game("carcassonne")
    look = CarcassonneLookahead(game)
    state = game.setup(2, game.validate_options(2, {}), Dice("race-leaf"))
    state.scores, state.held = [30, 12], [True, False]
    assert look.value(state, 0, None) == -turns_left(30, True)


def test_two_seat_race_search_values_a_leaf_by_the_race_and_plays_a_game_out():
    game = get_game("carcassonne")
    look = RaceLookahead(game)
    state = game.setup(2, game.validate_options(2, {}), Dice("race-leaf"))
    state.scores, state.held = [30, 12], [True, False]
    assert look.value(state, 0, None) == race(30, True, 12, False)
    assert look.value(state, 1, None) == race(12, False, 30, True)
    state.winner = 1
    assert (look.value(state, 0, None), look.value(state, 1, None)) == (0.0, 1.0)
    bots = [RaceSearch(iterations=8), game.bots["heuristic"]()]
    played = play(game, bots, "race-leaf-game")
    assert played.result is not None and played.illegal == 0
    assert any(seat == 0 for seat, _ in played.moves)
