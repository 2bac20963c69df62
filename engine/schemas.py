"""JSON Schema (2020-12, plain dicts) for what the engine exchanges: the builders every
game's ``schemas.py`` uses, and the game-independent envelope (prompt, result).

Each game declares its action types, its view, its result ``detail`` and its event payloads
once, in ``engine/<game>/schemas.py``, with these builders; the games expose them as
``Game.action_schemas``, ``view_schema``, ``result_detail_schema`` and ``event_schemas``.
Validation (:mod:`engine.validation`), the OpenAPI components and the documentation all
derive from those dicts. Every schema is also a valid OpenAPI 3.1 schema object: no
``$schema``/``$id`` inside, ``"null"`` as a type, no ``nullable``.

Integers are JSON integers: ``5.0`` and ``true`` are not integers here (the validator
enforces that strictly, although JSON Schema itself would accept ``5.0``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

DIALECT = "https://json-schema.org/draft/2020-12/schema"
"""The JSON Schema dialect of every schema here (OpenAPI 3.1's default dialect)."""

Schema = dict[str, Any]


def integer(description: str, minimum: int | None = None, maximum: int | None = None) -> Schema:
    """A JSON integer (never a float, never a boolean), optionally bounded (inclusive)."""
    out: Schema = {"type": "integer", "description": description}
    if minimum is not None:
        out["minimum"] = minimum
    if maximum is not None:
        out["maximum"] = maximum
    return out


def number(description: str, minimum: float | None = None) -> Schema:
    """A JSON number (integer or float; never a boolean)."""
    out: Schema = {"type": "number", "description": description}
    if minimum is not None:
        out["minimum"] = minimum
    return out


def string(description: str, enum: Iterable[str] | None = None) -> Schema:
    """A string, optionally one of ``enum``."""
    out: Schema = {"type": "string", "description": description}
    if enum is not None:
        out["enum"] = list(enum)
    return out


def const(value: str, description: str) -> Schema:
    """Exactly ``value`` (a discriminator such as an action's or event's ``type``)."""
    return {"type": "string", "const": value, "description": description}


def boolean(description: str) -> Schema:
    return {"type": "boolean", "description": description}


def array(
    items: Schema,
    description: str,
    min_items: int | None = None,
    max_items: int | None = None,
    unique: bool = False,
) -> Schema:
    """A list of ``items``."""
    out: Schema = {"type": "array", "description": description, "items": items}
    if min_items is not None:
        out["minItems"] = min_items
    if max_items is not None:
        out["maxItems"] = max_items
    if unique:
        out["uniqueItems"] = True
    return out


def pair(item: Schema, description: str) -> Schema:
    """A list of exactly two ``item`` (coordinates such as ``[row, col]``)."""
    return array(item, description, min_items=2, max_items=2)


def nullable(schema: Schema, description: str | None = None) -> Schema:
    """``schema`` or ``null``."""
    inner = {k: v for k, v in schema.items() if k != "description"}
    return {
        "description": description or schema.get("description", ""),
        "anyOf": [inner, {"type": "null"}],
    }


def obj(
    description: str,
    properties: Mapping[str, Schema],
    optional: Iterable[str] = (),
) -> Schema:
    """A closed object: every property required unless listed in ``optional``; no others."""
    skip = set(optional)
    out: Schema = {"type": "object", "description": description}
    out["properties"] = dict(properties)
    out["required"] = [name for name in properties if name not in skip]
    out["additionalProperties"] = False
    return out


def mapping(values: Schema, description: str, keys: Schema | None = None) -> Schema:
    """An object used as a dictionary: any keys (matching ``keys``), values ``values``."""
    out: Schema = {"type": "object", "description": description, "additionalProperties": values}
    if keys is not None:
        out["propertyNames"] = keys
    return out


def one_of(description: str, *schemas: Schema) -> Schema:
    return {"description": description, "oneOf": list(schemas)}


def action(kind: str, description: str, /, **fields: Schema) -> Schema:
    """An action type: ``{"type": kind, **fields}``, every field required, nothing else."""
    return obj(
        description,
        {"type": const(kind, "the action type"), **fields},
    )


def event(kind: str, description: str, /, optional: Iterable[str] = (), **fields: Schema) -> Schema:
    """An event payload: ``{"type": kind, **fields}``."""
    return obj(
        description,
        {"type": const(kind, "the event type"), **fields},
        optional=optional,
    )


def seat(description: str = "a seat number (0 is the first seat)", seats: int = 5) -> Schema:
    """A seat index below ``seats`` (the game's maximum)."""
    return integer(description, 0, seats - 1)


def seat_list(description: str, seats: int = 5) -> Schema:
    return array(seat(seats=seats), description, max_items=seats)


def by_type(*schemas: Schema) -> dict[str, Schema]:
    """``{type: schema}`` from schemas built with :func:`action` or :func:`event`."""
    return {s["properties"]["type"]["const"]: s for s in schemas}


# --- the game-independent envelope ------------------------------------------------------------

PROMPT_SCHEMA: Schema = obj(
    "a decision a seat owes now",
    {
        "kind": string("names the decision (game-specific, e.g. 'turn', 'pick_castle')"),
        "sealed": boolean("the choice stays hidden from everybody else until resolved"),
        "text": string("the decision in words"),
        "decision": integer(
            "the game version at which this decision fell due (usable in If-Match)", 0
        ),
    },
    optional=("decision",),
)
"""``Prompt.to_json()``; the service adds ``decision`` (when the seat's decision fell due)."""

SCORE_SCHEMA: Schema = integer("a seat's final score (points, treasures: whole numbers)")
"""Scores are integers in every game (``Result.scores`` holds ints)."""


def result_schema(detail: Schema) -> Schema:
    """``Result.to_json()`` with the game's ``detail``."""
    return obj(
        "the end of a game: scores and ranks per seat, the winners, and game-specific detail",
        {
            "scores": array(SCORE_SCHEMA, "per seat, in seat order", min_items=1),
            "ranks": array(
                integer("1 is best; tied seats share a rank", 1), "per seat", min_items=1
            ),
            "winners": array(seat(), "the seats ranked 1", min_items=1),
            "detail": detail,
        },
    )
