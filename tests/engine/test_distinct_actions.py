"""Each distinct action once: no game offers the same choice twice in a legal-action list.

A menu that lists "Keep 1 red, 4 red" four times asks a person to choose between things that
are one choice. For every game, seeded random games check at every decision that no two
legal actions have equal JSON or equal menu text; beside them, the cases that used to repeat
(identical dice in King of the Dice, equal pip or colour dice in Burgundy).
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from typing import Any

import pytest

from engine.burgundy.duchy import COLOURS
from engine.contract import Game, IllegalAction
from engine.dice import Dice
from engine.games import get_game
from engine.simulate import make_bots, play

GAMES: dict[str, tuple[int, dict[str, Any]]] = {
    "carcassonne": (2, {}),
    "burgundy": (2, {}),
    "diceland": (3, {}),
    "kingdice": (3, {}),
}


def repeated(game: Game, state: Any, seat: int) -> tuple[list[str], list[str]]:
    """The JSON and the texts that occur more than once among ``seat``'s legal actions."""
    legal = game.legal_actions(state, seat)
    as_json = Counter(json.dumps(a, sort_keys=True) for a in legal)
    texts = Counter(game.describe(state, seat, a) for a in legal)
    return [j for j, n in as_json.items() if n > 1], [t for t, n in texts.items() if n > 1]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_distinct_action_is_offered_once(name):
    game = get_game(name)
    seats, options = GAMES[name]
    decisions = 0

    def step(g: Game, state: Any, seat: int, action: dict[str, Any]) -> None:
        nonlocal decisions
        if decisions >= 150:  # enough to meet every kind of decision; keeps the test short
            return
        for s in g.to_act(state):
            same_json, same_text = repeated(g, state, s)
            assert not same_json, f"{name}: the same action twice: {same_json[:3]}"
            assert not same_text, f"{name}: two actions with one text: {same_text[:3]}"
            decisions += 1

    play(game, make_bots(game, ["random"] * seats), f"distinct-{name}", options, on_step=step)
    assert decisions > 10


def test_kingdice_identical_dice_are_one_keep_choice():
    game = get_game("kingdice")
    dice = Dice("kd-identical")
    state = game.setup(3, game.validate_options(3, {}), dice)
    game.apply(state, state.active, {"type": "roll"}, dice)
    state.dice = [1, 1, 3, 3, 5, 5]  # dice 0 and 1 both show a red 1 (dice.json)
    legal = game.legal_actions(state, state.active)
    keeps = [a["keep"] for a in legal if a["type"] == "reroll"]
    assert [0] in keeps and [1] not in keeps, "keeping either red 1 is one choice"
    texts = [game.describe(state, state.active, a) for a in legal]
    assert len(texts) == len(set(texts))
    assert len(legal) < 64
    with pytest.raises(IllegalAction) as err:
        game.check(state, state.active, {"type": "reroll", "keep": [1]})
    assert err.value.code == "same_dice" and "keep [0]" in err.value.reason


def test_burgundy_equal_pip_dice_are_one_choice():
    game = get_game("burgundy")
    dice = Dice("bg-equal")
    state = game.setup(1, game.validate_options(1, {}), dice)
    game.apply(state, 0, {"type": "pick_castle", "hex": [2, 1]}, dice)
    for value, colour in itertools.product(range(1, 7), COLOURS):
        state.roll.pips, state.roll.colours = [value, value], [colour, colour]
        legal = game.legal_actions(state, 0)
        marks = [a for a in legal if a["type"] == "mark" and a["bonus"] is None]
        if marks:
            break
    assert marks and all(a["pip"] == 0 and a["colour"] == 0 for a in marks)
    texts = [game.describe(state, 0, a) for a in legal]
    assert len(texts) == len(set(texts))
    with pytest.raises(IllegalAction) as err:
        game.check(state, 0, {**marks[0], "pip": 1})
    assert err.value.code == "same_dice"


def test_burgundy_each_listed_decision_names_the_lowest_dice():
    """The list keeps the first decision of each effect; that must be the one
    ``canonical_dice`` writes (the lowest dice), with equal dice, bonuses and sales."""
    from engine.burgundy.legal import canonical_dice, effect

    game = get_game("burgundy")
    checked = 0

    def step(g: Game, state: Any, seat: int, action: dict[str, Any]) -> None:
        nonlocal checked
        if checked >= 120 or state.stage != "round":
            return
        for s in g.to_act(state):
            legal = g.legal_actions(state, s)
            assert all(canonical_dice(a, state.roll) == a for a in legal)
            assert len({effect(a, state.roll) for a in legal}) == len(legal)
            checked += 1

    for n in range(3):
        play(game, make_bots(game, ["heuristic"] * 3), f"lowest-dice-{n}", {}, on_step=step)
    assert checked >= 120
