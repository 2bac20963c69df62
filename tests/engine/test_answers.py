"""Every game's answers to a seat (its view, its legal actions and their sentences) are the
ones first written, byte for byte, on every state of seeded games at several seat counts
with random and heuristic players: ``tests/engine/answers_reference.py`` keeps the code they
came from before they were made cheaper."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import orjson
import pytest

from engine.burgundy.duchy import COLOURS, DUCHIES
from engine.burgundy.legal import describe_round, describe_rounds, round_actions
from engine.burgundy.sheet import is_colour_complete
from engine.burgundy.state import Stage
from engine.carcassonne.faces import BASE_MASK, edge_list, face_mask
from engine.contract import Game
from engine.dice import Dice
from engine.diceland.board import COLOURS as DICELAND_COLOURS
from engine.games import get_game
from engine.kingdice.legal import distinct_keeps
from engine.simulate import make_bots, play
from tests.engine import answers_reference as reference


def states(
    game: Game, bots: list[str], games: int, options: dict[str, Any] | None = None
) -> Iterator[Any]:
    """Every state of ``games`` seeded games of ``bots`` (one per seat), the last included."""
    for n in range(games):
        seen: list[Any] = []

        def keep(g: Game, state: Any, seat: int, action: Any, seen: list[Any] = seen) -> None:
            seen.append(g.load_state(g.dump_state(state)))

        played = play(
            game,
            make_bots(game, bots),
            f"answers-{game.name}-{'-'.join(bots)}-{n}",
            options,
            on_step=keep,
        )
        yield from seen
        yield played.state


def same(new: Any, old: Any) -> None:
    """The same JSON, byte for byte, and the same Python values (a list is not a tuple)."""
    assert orjson.dumps(new) == orjson.dumps(old)
    assert new == old


PLAYERS = [["random", "heuristic"], ["heuristic"], ["heuristic", "random", "heuristic"]]


def test_carcassonne_masks_and_edge_names_are_the_ones_turned():
    for face in BASE_MASK:
        for rotation in range(-9, 10):
            assert face_mask(face, rotation) == reference.carcassonne_face_mask(face, rotation)
    for mask in range(-40, 40):
        same(edge_list(mask), reference.carcassonne_edge_list(mask))


@pytest.mark.parametrize("bots", PLAYERS)
def test_carcassonne_legal_actions_and_sentences_are_the_reference(bots):
    game = get_game("carcassonne")
    for state in states(game, bots, 3):
        turn = state.turn
        for seat in range(state.seats):
            legal = game.legal_actions(state, seat)
            same(legal, reference.carcassonne_legal_actions(game, state, seat))
            texts = game.describe_all(state, seat, legal)
            same(texts, reference.carcassonne_describe_all(game, state, seat, legal))
            same([game.describe(state, seat, a) for a in legal], texts)
        # any placement of a die on the table, legal or not: on a die, next to one, apart
        taken = {(p.x, p.y) for p in turn.placed}
        cells = sorted(
            taken
            | {
                (x + dx, y + dy)
                for x, y in taken or {(0, 0)}
                for dx in (-1, 0, 1)
                for dy in (-2, 0, 1)
            }
        )
        placements = [
            {"type": "place", "die": die, "x": x, "y": y, "rotation": rotation}
            for die, rolled in enumerate(turn.roll)
            for x, y in cells
            for rotation in range(4)
        ]
        same(
            game.describe_all(state, turn.seat, placements),
            reference.carcassonne_describe_all(game, state, turn.seat, placements),
        )


@pytest.mark.parametrize(
    "bots",
    [
        ["random", "heuristic"],
        ["heuristic"] * 2,
        ["heuristic", "random", "heuristic"],
        ["random"] * 4,
    ],
)
def test_diceland_views_and_sentences_are_the_reference(bots):
    """On edition 5, whose games deal each seat a map as the reference's did (edition 6's
    boards and their side phase came after it: tests/engine/test_diceland.py)."""
    game = get_game("diceland")
    for state in states(game, bots, 2, {"edition": 5}):
        for seat in [None, *range(state.seats)]:
            same(game.view(state, seat), reference.diceland_view(game, state, seat))
        for seat in range(state.seats):
            legal = game.legal_actions(state, seat)
            texts = [reference.diceland_describe(game, state, seat, a) for a in legal]
            same(game.describe_all(state, seat, legal), texts)
            # any colour set aside, any number of dice: the sentences of choose and stop
            board, crossed = game.board(state, seat), game.crossed(state, seat)
            for colour in DICELAND_COLOURS:
                for n in range(1, 7):
                    assert game.usable(state, seat, colour, n) == bool(
                        board.placements(crossed, colour, n)
                    )


@pytest.mark.parametrize(
    ("bots", "options"),
    [
        (["random", "heuristic"], {}),
        (["heuristic"], {}),
        (["random"] * 3, {"variant": "all_different"}),
        (["heuristic", "random", "random", "heuristic"], {}),
    ],
)
def test_burgundy_views_legal_actions_and_sentences_are_the_reference(bots, options):
    game = get_game("burgundy")
    for state in states(game, bots, 2, options):
        for seat in [None, *range(state.seats)]:
            same(game.view(state, seat), reference.burgundy_view(game, state, seat))
        if state.roll is not None and state.stage == Stage.ROUND:
            duchy = DUCHIES[state.duchy]
            for sheet in state.sheets:  # the list of every sheet, decided or not
                legal = round_actions(duchy, sheet, state.roll)
                same(legal, reference.burgundy_round_actions(duchy, sheet, state.roll))
                same(
                    describe_rounds(duchy, state.roll, legal),
                    [describe_round(duchy, state.roll, a) for a in legal],
                )
        for sheet in state.sheets:
            duchy = DUCHIES[state.duchy]
            for colour in COLOURS:
                assert is_colour_complete(duchy, sheet.values, colour) == (
                    reference.burgundy_is_colour_complete(duchy, sheet.values, colour)
                )


@pytest.mark.parametrize(
    "bots",
    [
        ["random", "heuristic"],
        ["heuristic"] * 3,
        ["random"] * 4,
        ["heuristic", "random"] * 2,
    ],
)
def test_kingdice_views_and_sentences_are_the_reference(bots):
    game = get_game("kingdice")
    for state in states(game, bots, 2):
        for seat in [None, *range(state.seats)]:
            same(game.view(state, seat), reference.kingdice_view(state, seat))
        for seat in range(state.seats):
            legal = game.legal_actions(state, seat)
            texts = [reference.kingdice_describe_action(state, a) for a in legal]
            same(game.describe_all(state, seat, legal), texts)
            same([game.describe(state, seat, a) for a in legal], texts)
        if len(state.dice) == 6:
            same(distinct_keeps(state), reference.kingdice_distinct_keeps(state))
        # a reroll keeping any dice, in any order
        for keep in ([], [0], [5, 1], [2, 2, 0], list(range(len(state.dice)))):
            action = {"type": "reroll", "keep": keep}
            same(
                game.describe_all(state, 0, [action]),
                [reference.kingdice_describe_action(state, action)],
            )


def test_kingdice_rerolls_of_every_throw_are_the_reference():
    game = get_game("kingdice")
    state = game.setup(2, game.validate_options(2, {}), Dice("answers-kingdice-throws"))
    for throw in itertools.product(range(1, 7), repeat=6):
        state.dice = list(throw)
        same(distinct_keeps(state), reference.kingdice_distinct_keeps(state))
