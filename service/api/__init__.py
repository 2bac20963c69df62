"""The API's blueprints, one module per resource, and the shared documentation helpers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask_smorest import Blueprint

from service.problems import CONTENT_TYPE, TITLES
from service.schemas import ProblemSchema

BEARER = [{"bearer": []}]
OPTIONAL_BEARER = [{}, {"bearer": []}]

_EXAMPLE_DETAILS = {
    "invalid_json": "the body is not valid JSON",
    "validation_failed": "the request did not validate: see errors",
    "invalid_options": "Carcassonne: The Dice Game takes 1 to 5 seats, not 7",
    "unauthorized": "this token opens no seat of this game",
    "unknown_game": "there is no game called 'chess'",
    "game_not_found": "there is no game '0000000000000000'",
    "seat_not_found": "game 3f2a9c0d1b7e4a55 has seats 0 to 2",
    "seat_taken": "seat 0 is already taken",
    "game_not_started": "the game starts when every human seat has joined",
    "illegal_action": "die 4 shows a knight; only city dice are placed",
    "malformed_action": "stack: 5.0 is not of type 'integer'",
    "version_mismatch": "the game is at version 12, not 11",
    "invalid_if_match": 'If-Match takes a version such as "7"',
    "rate_limited": "at most 12000 requests per 60 s for this token; retry in 12 s",
}


def problems(blp: Blueprint, *cases: tuple[int, str]) -> Callable[[Any], Any]:
    """Document the problem responses ``(status, code)`` an endpoint may give."""
    by_status: dict[int, list[str]] = {}
    for status, code in (*cases, (429, "rate_limited")):
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
            )(func)
        return func

    return decorate
