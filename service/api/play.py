"""Playing a game: the caller's view, legal actions, posting actions, and the log."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify, request
from flask.views import MethodView
from flask_smorest import Blueprint

from service.api import (
    BEARER,
    BODY_PROBLEMS,
    ETAG,
    component,
    game_link,
    links,
    operation,
    problems,
)
from service.context import bearer_token, game_service, parse_bearer
from service.games import GameService
from service.moves import MoveRequest
from service.prefer import MINIMAL, wants_minimal
from service.problems import Problem
from service.schemas import (
    ActionRequestSchema,
    LegalActionsSchema,
    LogQuerySchema,
    LogSchema,
    MoveHeadersSchema,
    MoveResultSchema,
    ViewQuerySchema,
    ViewSchema,
)
from service.store import GameStatus

_LOG = LogSchema()
"""One instance (a schema's construction copies its fields: a tenth of a move's cost)."""
ANSWERS = {
    "View": ViewSchema(),
    "LegalActions": LegalActionsSchema(),
    "MoveResult": MoveResultSchema(),
}
"""The schemas of the hot answers (view, legal actions, a move). The service builds them as
plain JSON already in the schemas' shape, so they are sent as they are, without a marshmallow
dump (a tenth of a move's cost); tests/service/test_answers.py checks that each answer is
its schema's dump."""

MOVE_HEADERS = {
    **ETAG,
    "Preference-Applied": {
        "description": "`return=minimal` when the answer leaves the view out (`view: null`), "
        "absent otherwise. A retry under an `Idempotency-Key` returns the first answer as it "
        "was given, full or minimal, whatever the retry prefers; this header says which",
        "schema": {"type": "string", "enum": [MINIMAL]},
    },
    "Vary": {
        "description": "`Prefer`: the answer's form depends on the request's Prefer header",
        "schema": {"type": "string", "enum": ["Prefer"]},
    },
}
"""The response headers ``POST actions`` documents (see :func:`move_result`)."""

blp = Blueprint("play", __name__, url_prefix="/v1", description="Views, legal actions and moves")

_VIEW_EXAMPLE = {
    "game_id": "3f2a9c0d1b7e4a55",
    "game": "carcassonne",
    "version": 7,
    "seat": 0,
    "status": "active",
    "view": {"seats": 3, "active": 0, "pending": [0], "scores": [3, 0, 1]},
    "to_act": {
        "0": {
            "kind": "build",
            "sealed": False,
            "text": "place dice, re-roll or score",
            "deadline": None,
            "decision": 6,
        }
    },
    "result": None,
}


def parse_if_match(value: str | None) -> int | None:
    """The version in an If-Match header (``"7"``, ``7`` or ``W/"7"``; at most 18 digits).
    Raises Problem 400."""
    if value is None:
        return None
    text = value.strip().removeprefix("W/").strip('"')
    if not text.isdigit() or len(text) > 18:
        raise Problem(400, "invalid_if_match", 'If-Match takes a version such as "7"')
    return int(text)


def move_request(
    action: Any,
    if_match: str | None,
    authorization: str | None,
    idempotency_key: str | None,
    prefer: str | None,
) -> MoveRequest:
    """The move a request asks for (its validated action, its If-Match, Authorization,
    Idempotency-Key and Prefer headers: ``return=minimal`` leaves the view out, see
    :mod:`service.prefer`). Raises Problem 400 (If-Match) or 401 (Authorization)."""
    version = parse_if_match(if_match)
    return MoveRequest(
        action,
        token=parse_bearer(authorization),
        if_match=version,
        idempotency_key=idempotency_key,
        answer_view=not wants_minimal(prefer),
    )


Answer = tuple[dict[str, Any], list[tuple[str, str]]]
"""An operation's 200 answer: its JSON body and its headers beyond Content-Type and
Content-Length, in order."""


def move_result(service: GameService, game_id: str, move: MoveRequest) -> Answer:
    """``POST actions``: make the move; its answer, with the new version as ETag,
    ``Preference-Applied: return=minimal`` when it has no view, and ``Vary: Prefer``. The
    form is the answer's own: a retry under an ``Idempotency-Key`` gets the stored first
    answer as it was given, full or minimal, whatever the retry prefers."""
    answer = service.act(game_id, move)
    headers = [("ETag", f'"{answer["version"]}"')]
    if answer["view"] is None:
        headers.append(("Preference-Applied", MINIMAL))
    headers.append(("Vary", "Prefer"))
    return answer, headers


def legal_actions_result(service: GameService, game_id: str, token: str | None) -> Answer:
    """``GET legal-actions``: the legal actions of the seat ``token`` opens."""
    record = service.record(game_id)
    seat = service.require_seat(service.identify(record, token))
    return service.legal_actions(record, seat), []


def response_of(answer: Answer) -> Response:
    """The Flask response of an operation's answer."""
    body, headers = answer
    response = jsonify(body)
    for name, value in headers:
        response.headers[name] = value
    return response


@blp.route("/games/<string:game_id>/view")
class ViewResource(MethodView):
    """The caller's view."""

    @blp.arguments(ViewQuerySchema(), location="query")
    @blp.response(200, component("View"), example=_VIEW_EXAMPLE, headers=ETAG)
    @problems(
        blp,
        (401, "unauthorized"),
        (403, "game_not_over"),
        (404, "game_not_found"),
        (404, "seat_not_found"),
        (422, "validation_failed"),
    )
    @operation(blp, "getView")
    def get(self, query: dict[str, Any], game_id: str) -> Response:
        """Read what the caller may see (a seat token: that seat; none: a spectator; `seat`:
        any seat's view once the game is over)"""
        service = game_service()
        record = service.record(game_id)
        seat = service.identify(record, bearer_token()).seat
        if "seat" in query:
            if record.status is not GameStatus.OVER:
                raise Problem(403, "game_not_over", "other seats' views open when the game is over")
            if query["seat"] >= len(record.seats):
                raise Problem(
                    404, "seat_not_found", f"the game has seats 0 to {len(record.seats) - 1}"
                )
            seat = query["seat"]
        response = jsonify(service.observe(record, seat))
        response.headers["ETag"] = f'"{record.version}"'
        return response


@blp.route("/games/<string:game_id>/legal-actions")
class LegalActions(MethodView):
    """The caller's legal actions."""

    @blp.response(
        200,
        component("LegalActions"),
        example={
            "game_id": "3f2a9c0d1b7e4a55",
            "game": "carcassonne",
            "version": 7,
            "seat": 0,
            "deadline": None,
            "decision": 6,
            "actions": [{"action": {"type": "reroll"}, "text": "re-roll 4 dice"}],
        },
    )
    @problems(blp, (401, "unauthorized"), (404, "game_not_found"))
    @links(
        blp,
        200,
        PostFirstLegalAction=game_link(
            "postAction",
            parameters={
                "game_id": "$response.body#/game_id",
                "header.If-Match": '"{$response.body#/version}"',
            },
            requestBody={"action": "$response.body#/actions/0/action"},
            description="post the first legal action, for this version",
        ),
    )
    @operation(blp, "listLegalActions", BEARER)
    def get(self, game_id: str) -> Response:
        """List every legal action of the caller's seat now (empty when it owes nothing)"""
        return response_of(legal_actions_result(game_service(), game_id, bearer_token()))


@blp.route("/games/<string:game_id>/actions")
class Actions(MethodView):
    """Moves."""

    @blp.arguments(MoveHeadersSchema(), location="headers")
    @blp.arguments(ActionRequestSchema(), example={"action": {"type": "reroll"}})
    @blp.response(
        200,
        component("MoveResult"),
        example={**_VIEW_EXAMPLE, "version": 8, "events": []},
        headers=MOVE_HEADERS,
    )
    @problems(
        blp,
        *BODY_PROBLEMS,
        (400, "invalid_if_match"),
        (401, "unauthorized"),
        (404, "game_not_found"),
        (409, "game_not_started"),
        (409, "game_over"),
        (412, "version_mismatch"),
        (422, "illegal_action"),
        (422, "idempotency_key_reused"),
        (422, "malformed_action"),
        (503, "contention"),
        (503, "not_replicated"),
    )
    @links(
        blp,
        200,
        ListLegalActions=game_link("listLegalActions"),
        GetLog=game_link("getLog"),
    )
    @operation(blp, "postAction", BEARER)
    def post(self, headers: dict[str, Any], body: dict[str, Any], game_id: str) -> Response:
        """Make a move for the caller's seat (If-Match and Idempotency-Key make it safe)

        `If-Match` names the seat's own decision: send the `decision` id of its prompt (in
        `to_act`, the legal actions or a `decision_due` event) or any later version you read.
        It fails with 412 only when that seat's own decision changed (it was answered, or
        what it may do changed); other seats deciding at the same time never make it stale.
        A retry with the same `Idempotency-Key` and action returns the first answer."""
        move = move_request(
            body["action"],
            request.headers.get("If-Match"),
            request.headers.get("Authorization"),
            headers.get("idempotency_key"),
            request.headers.get("Prefer"),
        )
        return response_of(move_result(game_service(), game_id, move))


@blp.route("/games/<string:game_id>/log")
class Log(MethodView):
    """The action log."""

    @blp.arguments(LogQuerySchema(), location="query")
    @blp.response(
        200,
        component("Log"),
        example={
            "game_id": "3f2a9c0d1b7e4a55",
            "game": "carcassonne",
            "seats": 2,
            "options": {},
            "status": "active",
            "version": 1,
            "commitment": "9c11...",
            "seed": None,
            "entries": [
                {"n": 0, "version": 0, "seat": None, "action": {"type": "setup"}, "sealed": False}
            ],
            "next": None,
        },
    )
    @problems(blp, (401, "unauthorized"), (404, "game_not_found"), (422, "validation_failed"))
    @operation(blp, "getLog")
    def get(self, query: dict[str, Any], game_id: str) -> Response:
        """Read the action log, a page at a time (with draws and the seed once the game is
        over)"""
        service = game_service()
        record = service.record(game_id)
        caller = service.identify(record, bearer_token())
        page = service.log(record, caller, query["after"], query["limit"])
        return jsonify(_LOG.dump(page))
