"""The API's blueprints, one module per resource, and the shared documentation helpers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flask
import marshmallow as ma
from flask_smorest import Blueprint
from marshmallow import fields
from webargs.flaskparser import FlaskParser

from service.problems import CONTENT_TYPE, TITLES
from service.schemas import ProblemSchema


class OneValueEach(FlaskParser):
    """webargs' parser, refusing a query parameter given more than once where the operation
    takes one value (422 validation_failed, naming it): webargs took the first and dropped the
    rest, so ``?limit=1&limit=3`` listed one game and ``?limit=3&limit=1`` three. A parameter
    the operation does not take is refused too (webargs dropped it: ``?limt=5`` listed 20
    games, ``view?seats=1`` the caller's own view, without a word)."""

    DEFAULT_UNKNOWN_BY_LOCATION = {
        **FlaskParser.DEFAULT_UNKNOWN_BY_LOCATION,
        "query": ma.RAISE,
        "querystring": ma.RAISE,
    }

    def load_querystring(self, req: flask.Request, schema: ma.Schema) -> Any:
        repeated = {
            name: ["given more than once: send it once"]
            for name in req.args
            if len(req.args.getlist(name)) > 1
            and not isinstance(schema.fields.get(name), fields.List)
        }
        if repeated:
            raise ma.ValidationError(repeated)
        return super().load_querystring(req, schema)


Blueprint.ARGUMENTS_PARSER = OneValueEach()
"""Every blueprint's argument parser (set before the resources' modules declare their
arguments)."""

BEARER: list[dict[str, list[str]]] = [{"bearer": []}]
"""A seat, creator or bot token is required."""
OPTIONAL_BEARER: list[dict[str, list[str]]] = [{}, {"bearer": []}]
"""No token (a spectator) or a token: the document's default (see ``service.app``)."""
NO_TOKEN: list[dict[str, list[str]]] = []
"""The operation reads no token."""

_EXAMPLE_DETAILS = {
    "invalid_json": "the body is not valid JSON",
    "validation_failed": "the request did not validate: see errors",
    "invalid_options": "Carcassonne: The Dice Game takes 1 to 5 seats, not 7",
    "unauthorized": "this token opens no seat of this game",
    "unknown_game": "there is no game called 'chess'",
    "game_not_found": "there is no game '0000000000000000'",
    "edition_not_found": "diceland has no edition 9",
    "seat_not_found": "game 3f2a9c0d1b7e4a55 has seats 0 to 2",
    "seat_taken": "seat 0 is already taken",
    "game_not_started": "the game starts when every human seat has joined",
    "illegal_action": "die 4 shows a knight; only city dice are placed",
    "malformed_action": "stack: 5.0 is not of type 'integer'",
    "version_mismatch": "seat 0's decision changed at version 12 (after the version 11 you "
    "sent): read the current view and choose again",
    "idempotency_key_reused": "this Idempotency-Key was used for a different action; use a new "
    "key per move",
    "contention": "too many simultaneous writes to game 3f2a9c0d1b7e4a55 (24 attempts); nothing "
    "was changed, retry shortly",
    "not_replicated": "the write was made but reached 0 of 1 replicas in time; retry with the "
    "same Idempotency-Key to get its answer once it is replicated",
    "invalid_if_match": 'If-Match takes a version such as "7"',
    "body_too_large": "the body is larger than 65536 bytes",
    "body_timeout": "the body did not arrive whole within 5 s",
    "malformed_body": "the body could not be read: Invalid chunk size",
    "unsupported_media_type": "send the body as application/json, not text/plain",
    "json_too_deep": "the JSON body nests deeper than 32 levels",
    "json_number_too_long": "a number in the JSON body has more than 40 characters",
    "rate_limited": "at most 12000 requests per 60 s for this token; retry in 12 s",
}


def component(name: str) -> dict[str, str]:
    """A reference to a schema of the document's components (``service.components``): for
    responses typed per game, which the view function dumps itself."""
    return {"$ref": f"#/components/schemas/{name}"}


def operation(blp: Blueprint, operation_id: str, security: list | None = None) -> Any:
    """Name an operation (its ``operationId``: short, stable, what generated clients call
    their functions) and say who may call it: ``BEARER``, ``NO_TOKEN``, or by default
    (None) the document's ``OPTIONAL_BEARER``. An operation-level ``[{}, {bearer}]`` would
    make openapi-python-client demand an authenticated client, so optional auth is the
    document's top-level default and operations only override it."""
    doc: dict[str, Any] = {"operationId": operation_id}
    if security is not None:
        doc["security"] = security
    return blp.doc(**doc)


def links(blp: Blueprint, status: int, **targets: dict[str, Any]) -> Any:
    """OpenAPI links of a success response: ``name={"operationId": ..., "parameters": ...}``.
    They say how a client (and schemathesis' stateful run) goes on from an answer."""
    return blp.doc(responses={status: {"links": targets}})


def game_link(operation_id: str, pointer: str = "/game_id", **extra: Any) -> dict[str, Any]:
    """A link to an operation on the game whose id is at ``pointer`` in the response body."""
    return {
        "operationId": operation_id,
        "parameters": {"game_id": f"$response.body#{pointer}"},
        **extra,
    }


BODY_PROBLEMS: tuple[tuple[int, str], ...] = (
    (400, "invalid_json"),
    (400, "malformed_body"),
    (408, "body_timeout"),
    (413, "body_too_large"),
    (415, "unsupported_media_type"),
    (422, "json_too_deep"),
    (422, "json_number_too_long"),
    (422, "validation_failed"),
)
"""What any operation with a JSON body may answer before it reads the body's fields (see
``service.hardening``): give them to :func:`problems` with the operation's own."""


RETRY_AFTER = {
    "Retry-After": {
        "description": "seconds to wait before retrying (429: until the window ends; 503: "
        "1, except `shutting_down`, which has none: use another server)",
        "schema": {"type": "integer", "minimum": 1},
    }
}
"""The header of the 429 and 503 answers (``service.ratelimit``, ``service.problems``)."""

ETAG = {
    "ETag": {
        "description": 'the game\'s version the answer shows, e.g. `"8"` (what `If-Match` takes)',
        "schema": {"type": "string"},
    }
}
"""The header of the answers that show a game at a version (its view, a move)."""


def problems(blp: Blueprint, *cases: tuple[int, str]) -> Callable[[Any], Any]:
    """Document the problem responses ``(status, code)`` an endpoint may give."""
    by_status: dict[int, list[str]] = {}
    for status, code in dict.fromkeys((*cases, (429, "rate_limited"))):
        by_status.setdefault(status, []).append(code)

    def decorate(func: Any) -> Any:
        for status, codes in by_status.items():
            examples = {
                code: {
                    "value": {
                        "type": f"https://dicehall.dev/problems/{code}",
                        "title": TITLES.get(code, code),
                        "status": status,
                        "code": code,
                        "detail": _EXAMPLE_DETAILS.get(code, TITLES.get(code, code)),
                    }
                }
                for code in codes
            }
            func = blp.alt_response(
                status,
                schema=ProblemSchema,
                content_type=CONTENT_TYPE,
                description=" / ".join(codes),
                examples=examples,
                headers=RETRY_AFTER if status in (429, 503) else None,
            )(func)
        return func

    return decorate
