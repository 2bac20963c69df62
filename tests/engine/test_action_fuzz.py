"""Actions drawn from each game's action schema, near misses of them and of legal actions,
against states of seeded games: ``apply`` either plays a listed legal action or refuses with
IllegalAction (MalformedAction for a wrong shape) and changes nothing; ``check`` never raises
anything else and never accepts an action ``legal_actions`` does not list (compared as JSON,
so ``5.0`` is not ``5``); the compiled and the reference validator agree."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.contract import Game, IllegalAction, MalformedAction, _action_validators
from engine.dice import Dice
from engine.games import get_game
from engine.simulate import make_bots, play
from engine.validation import problem
from tests.engine.schema_strategies import from_schema, near_miss, sibling

GAMES: dict[str, list[tuple[list[str], dict[str, Any]]]] = {
    "burgundy": [
        (["heuristic", "random", "heuristic"], {}),
        (["heuristic", "random"], {"variant": "all_different", "duchy": "C"}),
    ],
    "carcassonne": [(["heuristic", "random"], {}), (["heuristic"], {})],
    "diceland": [(["heuristic", "random", "heuristic"], {}), (["random", "heuristic"], {})],
    "kingdice": [(["heuristic", "random"], {}), (["random", "heuristic", "random"], {})],
    "toy": [(["random"] * 3, {})],
}
STATES_PER_GAME = 40
EXAMPLES = 250


@cache
def states(name: str) -> list[dict[str, Any]]:
    """Dumped states spread over the seeded games of ``name``, the set-ups included."""
    game = get_game(name)
    seen: list[dict[str, Any]] = []
    for number, (bots, options) in enumerate(GAMES[name]):
        opts = game.validate_options(len(bots), options)
        seen.append(game.dump_state(game.setup(len(bots), opts, Dice(f"fuzz-{number}"))))

        def keep(g: Game, state: Any, seat: int, action: Any) -> None:
            seen.append(g.dump_state(state))

        play(game, make_bots(game, bots), f"fuzz-{name}-{number}", options, on_step=keep)
    step = max(1, len(seen) // STATES_PER_GAME)
    return seen[::step]


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


@st.composite
def cases(draw: st.DrawFn, name: str) -> tuple[Any, int, Any]:
    """A state, a seat (usually one that owes a decision) and an action to try."""
    game = get_game(name)
    state = game.load_state(draw(st.sampled_from(states(name))))
    deciding = sorted(game.to_act(state))
    seat = draw(st.sampled_from(deciding or [0]) if draw(st.integers(0, 9)) else st.integers(0, 5))
    legal = game.legal_actions(state, seat)
    schemas = list(game.action_schemas.values())
    source = [from_schema(schema) for schema in schemas]
    if legal:
        source.append(st.sampled_from(legal))
    action = draw(st.one_of(source))
    how = draw(st.sampled_from(["as is", "near miss", "sibling"]))
    if how == "near miss":
        action = draw(near_miss(action))
    elif how == "sibling":
        action = draw(sibling(action, game.action_schemas[action["type"]]))
    return state, seat, action


def check_case(game: Game, state: Any, seat: int, action: Any) -> None:
    before = canonical(game.dump_state(state))
    listed = {canonical(a) for a in game.legal_actions(state, seat)}
    dice = Dice("fuzz-dice")
    if seat in game.to_act(state):
        try:
            game.check(state, seat, action)
        except IllegalAction:
            pass
        else:
            assert canonical(action) in listed, f"check accepted an unlisted action {action!r}"
        assert canonical(game.dump_state(state)) == before, "check changed the state"
    try:
        game.apply(state, seat, action, dice)
    except MalformedAction as refused:
        assert refused.code == "malformed_action" and refused.reason
        assert canonical(game.dump_state(state)) == before and dice.counter == 0
        return
    except IllegalAction as refused:
        assert refused.code != "malformed_action", f"malformed but not MalformedAction: {action}"
        assert canonical(game.dump_state(state)) == before and dice.counter == 0
        assert canonical(action) not in listed
        return
    assert canonical(action) in listed, f"apply played an unlisted action {action!r}"


def validators_agree(game: Game, action: Any) -> None:
    kind = action.get("type") if isinstance(action, dict) else None
    if not isinstance(kind, str) or kind not in game.action_schemas:
        return
    checker = _action_validators(type(game))[kind]
    assert (checker.problem(action) is None) == (problem(checker.strict, action) is None)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_schema_actions_and_near_misses_apply_or_are_refused_cleanly(name: str) -> None:
    game = get_game(name)

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(cases(name))
    def run(case: tuple[Any, int, Any]) -> None:
        state, seat, action = case
        validators_agree(game, action)
        check_case(game, state, seat, action)

    run()


ISSUE_CASES = [
    ("kingdice", {"type": "hire", "stack": 5.0}, "stack"),
    ("kingdice", {"type": "place", "space": 4.0}, "space"),
    (
        "burgundy",
        {"type": "mark", "sell": False, "pip": 1.0, "colour": 0, "hex": [3, 1], "bonus": None},
        "pip",
    ),
    ("burgundy", {}, "type"),
    ("diceland", {"type": "stop", "colour": "blue"}, "colour"),
]


@pytest.mark.parametrize(("name", "action", "field"), ISSUE_CASES)
def test_the_issue_cases_are_malformed_in_check_and_apply_in_every_state(name, action, field):
    game = get_game(name)
    for data in states(name):
        state = game.load_state(data)
        for seat in game.to_act(state):
            for refuse in (game.check, lambda s, seat, a: game.apply(s, seat, a, Dice("x"))):
                with pytest.raises(MalformedAction) as refused:
                    refuse(state, seat, action)
                assert refused.value.field == field
        assert game.dump_state(state) == data
