"""The games' JSON Schemas stay true: seeded games played through the contract produce only
legal actions, views (every seat and a spectator), prompts, events and results that validate
against them, and every schema is valid 2020-12 JSON Schema."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from openapi_spec_validator import validate

from engine.contract import Game
from engine.games import get_game
from engine.schemas import PROMPT_SCHEMA, result_schema
from engine.simulate import make_bots, play
from engine.validation import compile_schema, problem

GAMES = ("toy", "carcassonne", "kingdice", "diceland", "burgundy")

PLAYS: dict[str, list[tuple[list[str], dict[str, Any]]]] = {
    "toy": [(["random"] * 2, {}), (["random"] * 4, {"rounds": 3})],
    "kingdice": [
        (["random", "heuristic"], {}),
        (["heuristic", "random", "heuristic"], {}),
        (["heuristic", "heuristic", "random", "random"], {}),
    ],
    "diceland": [
        (["random", "heuristic"], {}),
        (["heuristic", "random", "heuristic"], {}),
        (["random", "heuristic", "random", "heuristic"], {"maps": ["A", "C", "G", "H"]}),
    ],
    "burgundy": [
        (["heuristic"], {"variant": "solo", "duchy": "B"}),
        (["random", "heuristic"], {"variant": "all_different"}),
        (["heuristic", "random", "heuristic"], {"variant": "all_same", "castle": "monk"}),
        (["random", "heuristic", "random", "heuristic", "random"], {"duchy": "D"}),
    ],
    "carcassonne": [
        (["heuristic"], {}),
        (["heuristic", "random"], {}),
        (["heuristic", "random", "heuristic", "random", "heuristic"], {}),
    ],
}
"""Per game: the bots (one per seat) and options of the seeded games checked."""


_compiled: dict[int, Any] = {}


def assert_valid(schema: dict[str, Any], instance: Any, what: str) -> None:
    if id(schema) not in _compiled:
        _compiled[id(schema)] = (schema, compile_schema(schema))
    found = problem(_compiled[id(schema)][1], instance)
    assert found is None, f"{what} does not match its schema: {found[1]}\n{instance!r}"


RESULTS = {name: result_schema(get_game(name).result_detail_schema) for name in GAMES}


@pytest.mark.parametrize("name", GAMES)
def test_every_schema_is_valid_json_schema_and_complete(name: str) -> None:
    game = get_game(name)
    assert game.action_schemas and game.view_schema and game.event_schemas
    for schema in [
        *game.action_schemas.values(),
        game.view_schema,
        result_schema(game.result_detail_schema),
        *game.event_schemas.values(),
    ]:
        compile_schema(schema)
    for kind, schema in [*game.action_schemas.items(), *game.event_schemas.items()]:
        assert schema["properties"]["type"]["const"] == kind
        assert schema["additionalProperties"] is False


VIEW_EVERY = 5
"""Views are checked every few steps (and at the end): they are large, the budget small."""


def test_every_schema_is_a_valid_openapi_3_1_component() -> None:
    schemas: dict[str, Any] = {"Prompt": PROMPT_SCHEMA}
    for name in GAMES:
        game = get_game(name)
        schemas[f"{name}_view"] = game.view_schema
        schemas[f"{name}_result"] = RESULTS[name]
        for kind, schema in game.action_schemas.items():
            schemas[f"{name}_{kind}_action"] = schema
        for kind, schema in game.event_schemas.items():
            schemas[f"{name}_{kind}_event"] = schema
    info = {"title": "engine schemas", "version": "1"}
    document = {"openapi": "3.1.0", "info": info, "paths": {}, "components": {"schemas": schemas}}
    validate(document)


def check_observations(game: Game, state: Any, seats: int, step: int = 0) -> None:
    """Every prompt and legal action of ``state`` matches the game's schemas, and (every
    ``VIEW_EVERY`` steps) every seat's and a spectator's view."""
    for seat, prompt in game.to_act(state).items():
        assert_valid(PROMPT_SCHEMA, prompt.to_json(), "a prompt")
        for act in game.legal_actions(state, seat):
            game.validate_action(act)
    if step % VIEW_EVERY:
        return
    for viewer in [None, *range(seats)]:
        assert_valid(game.view_schema, game.view(state, viewer), f"the view of {viewer}")


@pytest.mark.parametrize(
    ("name", "number"), [(name, n) for name in GAMES for n in range(len(PLAYS[name]))]
)
def test_seeded_games_produce_only_what_the_schemas_describe(name: str, number: int) -> None:
    game = get_game(name)
    names, options = PLAYS[name][number]
    seats = len(names)
    steps = itertools.count()
    played = play(
        game,
        make_bots(game, names),
        f"schemas-{name}-{number}",
        options,
        on_step=lambda g, state, seat, action: check_observations(g, state, seats, next(steps)),
    )
    check_observations(game, played.state, seats)
    kinds = {event["type"] for event in played.events}
    missing = kinds - set(game.event_schemas)
    assert not missing, f"events without a schema: {missing}"
    for event in played.events:
        assert_valid(game.event_schemas[event["type"]], event, f"a {event['type']} event")
    assert_valid(RESULTS[name], played.result.to_json(), "the result")


def test_a_carcassonne_game_ended_by_the_turn_limit_matches_the_schemas() -> None:
    """Two random bots seldom reach 42 points: their game ends by the house safeguard (50
    turns each), ``won_by: turn_limit`` in the view, the result and the ``game_won`` event,
    which the schemas (and so openapi.yaml's CarcassonneView and result) must allow; they
    allowed only ``points`` and ``catapults``, so a served game's view broke the contract."""
    game = get_game("carcassonne")
    steps = itertools.count()
    played = play(
        game,
        make_bots(game, ["random", "random"]),
        "schemas-carcassonne-turn-limit",
        {},
        on_step=lambda g, state, seat, action: check_observations(g, state, 2, next(steps)),
    )
    assert played.result.to_json()["detail"]["won_by"] == "turn_limit"
    check_observations(game, played.state, 2)
    for event in played.events:
        assert_valid(game.event_schemas[event["type"]], event, f"a {event['type']} event")
    assert_valid(RESULTS["carcassonne"], played.result.to_json(), "the result")
