"""The per-game components of the OpenAPI document.

Each game declares its actions, view, result detail and event payloads as JSON Schema beside
its rules (``engine/<game>/schemas.py``, the ``Game`` class attributes ``action_schemas``,
``view_schema``, ``result_detail_schema`` and ``event_schemas``). This module puts them in
``components.schemas`` under the game's prefix (``CarcassonnePlaceAction``,
``BurgundyGameView``, ...) and builds, for every envelope that carries game data (the view,
legal actions, move result, log, events), one component per game (``CarcassonneView``) from
the envelope's marshmallow schema in :mod:`service.schemas`, where ``Typed`` fields mark what
differs per game. A game whose designed data has editions (``edition_schema``) gets
``{Game}Edition``, a variant of ``Edition`` (``getEdition``'s answer).

Shape, chosen by generating clients with openapi-python-client and openapi-typescript +
openapi-fetch (``tests/clients/generated/``):

- Every envelope is a ``oneOf`` of its per-game variants with a ``discriminator`` on the
  ``game`` property (each variant has ``game: {const: <name>}``). openapi-python-client
  parses the right class by that property; TypeScript narrows on ``data.game ===
  "carcassonne"``. A union of bare views (no discriminator) would leave generators guessing
  between look-alike objects.
- Each game's action is a ``oneOf`` of its action types with a ``discriminator`` on
  ``type``. The same per-game action components are the legal action's ``action`` and the
  action request's ``action`` (``Action``: an ``anyOf`` of the per-game unions, ``anyOf``
  because two games may both have a ``stop``), so what a client reads from
  ``listLegalActions`` is exactly the class it posts.
- Common envelope fields come from one marshmallow schema; only the ``Typed`` fields are
  replaced per game, so there is no second hand-written description.

The ``toy`` game (the engine contract's test game) is served but is not part of the
contract.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from apispec import APISpec
from marshmallow import Schema, fields

from engine.contract import Game
from engine.games import LISTED, get_game
from engine.schemas import result_schema
from service import schemas

ENVELOPES: dict[str, type[Schema]] = {
    "View": schemas.ViewSchema,
    "LegalActions": schemas.LegalActionsSchema,
    "MoveResult": schemas.MoveResultSchema,
    "Log": schemas.LogSchema,
    "Events": schemas.EventsSchema,
}
"""Envelopes typed per game: component name -> marshmallow schema with ``Typed`` fields."""

COMMON_ENTRIES: dict[str, type[Schema]] = {
    "game_created": schemas.GameCreatedEntrySchema,
    "seat_joined": schemas.SeatJoinedEntrySchema,
    "seat_removed": schemas.SeatRemovedEntrySchema,
    "game_started": schemas.GameStartedEntrySchema,
    "to_act": schemas.ToActEntrySchema,
}
GAME_ENTRIES: dict[str, type[Schema]] = {
    "action": schemas.ActionEntrySchema,
    "game_event": schemas.GameEventEntrySchema,
    "game_over": schemas.GameOverEntrySchema,
    "decision_due": schemas.DecisionDueEntrySchema,
}
"""The entries of a game's event stream by ``type``; the last three carry game data."""

ANY_OBJECT_WITH_TYPE = {
    "type": "object",
    "properties": {"type": {"type": "string"}},
    "required": ["type"],
}


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def camel(name: str) -> str:
    """``pick_castle`` -> ``PickCastle``: a component name part."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^0-9A-Za-z]+", name))


def typed_games() -> list[Game]:
    """The games the contract types: the catalogue's."""
    return [get_game(name) for name in LISTED]


def _union(
    variants: Mapping[str, str], prop: str, description: str, keyword: str = "oneOf"
) -> dict[str, Any]:
    return {
        "description": description,
        keyword: [ref(name) for name in variants.values()],
        "discriminator": {
            "propertyName": prop,
            "mapping": {value: ref(name)["$ref"] for value, name in variants.items()},
        },
    }


class Components:
    """Registers the per-game components of ``games`` in ``spec``."""

    def __init__(self, spec: APISpec, games: Iterable[Game]) -> None:
        self.spec = spec
        self.games = list(games)
        self.converter = next(
            plugin.converter for plugin in spec.plugins if hasattr(plugin, "converter")
        )
        self.done: set[str] = set()

    def register(self) -> None:
        self.converter.add_attribute_function(_generic_typed)
        for game in self.games:
            self.game_parts(game)
        for name in COMMON_ENTRIES.values():
            self.envelope(name, None)
        for game in self.games:
            self.stream_entry(game)
            self.log_action(game)
        for envelope, schema in ENVELOPES.items():
            variants = {game.name: self.envelope(schema, game) for game in self.games}
            self.add(
                envelope,
                _union(variants, "game", f"{schema.__doc__} One shape per game, by `game`."),
            )
        self.add(
            "Action",
            {
                "description": "An action of any game: one of the actions `listLegalActions` "
                "lists (the same components).",
                "anyOf": [ref(f"{camel(game.name)}Action") for game in self.games],
            },
        )
        self.editions()

    def add(self, name: str, schema: dict[str, Any]) -> None:
        if name not in self.done:
            self.done.add(name)
            self.spec.components.schema(name, component=schema)

    # --- what each game declares -------------------------------------------------------
    def game_parts(self, game: Game) -> None:
        """``{Game}Action`` (with one component per action type), ``{Game}GameView``,
        ``{Game}ResultDetail``, ``{Game}Event`` (one per event type)."""
        prefix = camel(game.name)
        actions: Mapping[str, dict[str, Any]] = getattr(game, "action_schemas", {}) or {}
        if actions:
            variants = {kind: f"{prefix}{camel(kind)}Action" for kind in actions}
            for kind, schema in actions.items():
                self.add(variants[kind], dict(schema))
            self.add(
                f"{prefix}Action",
                _union(variants, "type", f"An action of {game.title}, by `type`."),
            )
        else:
            self.add(f"{prefix}Action", {**ANY_OBJECT_WITH_TYPE, "description": game.title})
        events: Mapping[str, dict[str, Any]] = getattr(game, "event_schemas", {}) or {}
        if events:
            variants = {kind: f"{prefix}{camel(kind)}Event" for kind in events}
            for kind, schema in events.items():
                self.add(variants[kind], dict(schema))
            self.add(
                f"{prefix}Event", _union(variants, "type", f"An event of {game.title}, by `type`.")
            )
        else:
            self.add(f"{prefix}Event", {**ANY_OBJECT_WITH_TYPE, "description": game.title})
        view = getattr(game, "view_schema", None) or {"type": "object"}
        self.add(
            f"{prefix}GameView",
            {
                "description": f"What a seat of {game.title} sees "
                "(spectators: the same without private parts).",
                **view,
            },
        )
        detail = getattr(game, "result_detail_schema", None) or {"type": "object"}
        self.add(f"{prefix}ResultDetail", dict(detail))
        self.add(f"{prefix}Result", result_schema(ref(f"{prefix}ResultDetail")))

    def editions(self) -> None:
        """``{Game}Edition`` for each game whose designed data has editions (the members of
        its ``edition_schema``, each its own component ``{Game}Edition{Member}``, with
        ``game`` and ``edition``), and ``Edition``, their union. A variant of a union keeps no
        nested object inline: openapi-python-client would make its models twice and drop
        both."""
        variants: dict[str, str] = {}
        for game in self.games:
            data = getattr(game, "edition_schema", None)
            if not data:
                continue
            variants[game.name] = name = f"{camel(game.name)}Edition"
            for member, schema in data["properties"].items():
                self.add(f"{name}{camel(member)}", dict(schema))
            self.add(
                name,
                {
                    "type": "object",
                    "description": f"{game.title}: {data.get('description', 'an edition')}",
                    "properties": {
                        "game": {"type": "string", "const": game.name},
                        "edition": {"type": "integer", "minimum": 1},
                        **{member: ref(f"{name}{camel(member)}") for member in data["properties"]},
                    },
                    "required": ["game", "edition", *data.get("required", ())],
                    "additionalProperties": False,
                },
            )
        description = "A game's designed data in one edition. One shape per game, by `game`."
        if variants:
            self.add("Edition", _union(variants, "game", description))
        else:
            self.add("Edition", {"type": "object", "description": description})

    def log_action(self, game: Game) -> None:
        prefix = camel(game.name)
        self.add(
            f"{prefix}LogAction",
            {
                "description": "a move of the game, or entry 0's set-up",
                "anyOf": [ref(f"{prefix}Action"), ref("SetupAction"), ref("ForkSetupAction")],
            },
        )
        self.add(
            "ForkSetupAction",
            {
                "type": "object",
                "description": "entry 0 of a forked game: where it was forked from",
                "properties": {
                    "type": {"type": "string", "const": "fork"},
                    "game": {"type": "string"},
                    "version": {"type": "integer", "minimum": 0},
                    "dice": {"type": "string", "enum": ["fresh", "original"]},
                },
                "required": ["type", "game", "version", "dice"],
                "additionalProperties": False,
            },
        )
        self.add(
            "SetupAction",
            {
                "type": "object",
                "properties": {"type": {"type": "string", "const": "setup"}},
                "required": ["type"],
                "additionalProperties": False,
            },
        )

    def stream_entry(self, game: Game) -> None:
        prefix = camel(game.name)
        variants = {kind: self.envelope(s, None) for kind, s in COMMON_ENTRIES.items()}
        variants |= {kind: self.envelope(s, game) for kind, s in GAME_ENTRIES.items()}
        self.add(
            f"{prefix}StreamEntry",
            _union(variants, "type", f"An entry of a {game.title} game's event feed."),
        )

    # --- envelopes ---------------------------------------------------------------------
    def envelope(self, schema: type[Schema], game: Game | None) -> str:
        """The component of ``schema`` for ``game`` (None: no game data): its name."""
        base = schema.__name__.removesuffix("Schema")
        name = f"{camel(game.name)}{base}" if game is not None else base
        if name in self.done:
            return name
        self.done.add(name)
        properties: dict[str, Any] = {}
        required: list[str] = []
        for field_name, field in schema._declared_fields.items():
            key = field.data_key or field_name
            properties[key] = self.property(field, game)
            if field.required:
                required.append(key)
        if game is not None and "game" in properties:
            properties["game"] = {"type": "string", "const": game.name}
        component: dict[str, Any] = {"type": "object", "properties": properties}
        if required:
            component["required"] = required
        if schema.__doc__:
            component["description"] = schema.__doc__.strip().splitlines()[0]
        self.spec.components.schema(name, component=component)
        return name

    def property(self, field: fields.Field, game: Game | None) -> dict[str, Any]:
        if isinstance(field, schemas.Typed):
            if game is None:
                return self.converter.field2property(field)
            prop: dict[str, Any] = ref(f"{camel(game.name)}{field.part}")
            if field.allow_none:
                prop = {"anyOf": [prop, {"type": "null"}]}
            description = field.metadata.get("description")
            return {**prop, "description": description} if description else prop
        if isinstance(field, fields.List) and schemas.carries_game_data(field.inner):
            return {"type": "array", "items": self.property(field.inner, game)}
        if isinstance(field, fields.Nested) and schemas.carries_game_data(field):
            return ref(self.envelope(type(field.schema), game))
        return self.converter.field2property(field)


def _generic_typed(converter: Any, field: fields.Field, **kwargs: Any) -> dict[str, Any]:
    """An apispec attribute function: a ``Typed`` field where no game is known."""
    return dict(field.generic) if isinstance(field, schemas.Typed) else {}


def register(spec: APISpec) -> None:
    """Put every listed game's components and the typed envelopes in ``spec``."""
    Components(spec, typed_games()).register()
