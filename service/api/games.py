"""``/v1/games``: create games, read their summary, join seats."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint

from service import seating
from service.api import BEARER, BODY_PROBLEMS, NO_TOKEN, game_link, links, operation, problems
from service.context import bearer_token, game_service
from service.schemas import (
    CreatedGameSchema,
    CreateGameSchema,
    GameListQuerySchema,
    GameListSchema,
    GameSchema,
    JoinedSchema,
    JoinSchema,
)

blp = Blueprint("games", __name__, url_prefix="/v1", description="Games and seats")

_GAME_EXAMPLE = {
    "id": "3f2a9c0d1b7e4a55",
    "game": "carcassonne",
    "status": "waiting",
    "version": 0,
    "seats": [
        {"seat": 0, "kind": "human", "name": "ann", "bot": None, "joined": False},
        {"seat": 1, "kind": "bot", "name": "heuristic-1", "bot": "heuristic", "joined": True},
    ],
    "options": {},
    "to_act": {},
    "result": None,
    "commitment": "9c1185a5c5e9fc54612808977ee8f548b2258d31b8c1b7a2f9d0e51f9f0d3c4a",
    "seed": None,
    "created_at": 1795000000.0,
    "visibility": "private",
    "forked_from": None,
}


@blp.route("/games")
class Games(MethodView):
    """Create and list games."""

    @blp.arguments(GameListQuerySchema, location="query")
    @blp.response(200, GameListSchema, example={"games": [_GAME_EXAMPLE]})
    @operation(blp, "listGames", NO_TOKEN)
    def get(self, query: dict[str, Any]) -> dict[str, Any]:
        """List public games, newest first"""
        service = game_service()
        records = [
            service.store.load(gid)
            for gid in service.store.game_ids(query["offset"], query["limit"])
        ]
        return {"games": [service.summary(r) for r in records if r is not None]}

    @blp.arguments(
        CreateGameSchema,
        example={
            "game": "carcassonne",
            "seats": [{"kind": "human", "name": "ann"}, {"kind": "bot", "bot": "heuristic"}],
            "options": {},
        },
    )
    @blp.response(
        201,
        CreatedGameSchema,
        example={**_GAME_EXAMPLE, "creator_token": "creator_abc", "invites": {"0": "invite_x"}},
    )
    @problems(
        blp,
        *BODY_PROBLEMS,
        (404, "unknown_game"),
        (404, "game_not_found"),
        (409, "game_not_over"),
        (422, "invalid_fork"),
        (422, "invalid_options"),
        (422, "invalid_seats"),
        (422, "unknown_bot"),
        (422, "invalid_bot_options"),
        (422, "unknown_account"),
    )
    @links(
        blp,
        201,
        JoinFirstSeat={
            "operationId": "joinSeat",
            "parameters": {"game_id": "$response.body#/id", "seat": "0"},
            "description": "take seat 0 (a human seat)",
        },
        GetGame=game_link("getGame", "/id"),
    )
    @operation(blp, "createGame", NO_TOKEN)
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Create a game with human and bot seats, or fork a finished game at a move"""
        service = game_service()
        if "fork" in body:
            fork = body["fork"]
            record, creator_token, invites = service.fork(
                fork["game"],
                fork["version"],
                body["seats"],
                dice=fork["dice"],
                seed=body.get("seed"),
                decision_seconds=body.get("decision_seconds"),
                game_name=body.get("game"),
                visibility=body["visibility"],
            )
        else:
            record, creator_token, invites = service.create(
                body["game"],
                body["seats"],
                body["options"],
                body.get("seed"),
                decision_seconds=body.get("decision_seconds"),
                visibility=body["visibility"],
            )
        return {**service.summary(record), "creator_token": creator_token, "invites": invites}


@blp.route("/games/<string:game_id>")
class GameResource(MethodView):
    """One game's summary."""

    @blp.response(200, GameSchema, example=_GAME_EXAMPLE)
    @problems(blp, (404, "game_not_found"))
    @links(blp, 200, ListEvents=game_link("listEvents", "/id"))
    @operation(blp, "getGame")
    def get(self, game_id: str) -> dict[str, Any]:
        """Read a game's public summary (the seed only once it is over)"""
        service = game_service()
        return service.summary(service.record(game_id))

    @blp.response(204)
    @problems(
        blp,
        (401, "unauthorized"),
        (403, "not_creator"),
        (404, "game_not_found"),
        (409, "game_started"),
    )
    @operation(blp, "cancelGame", BEARER)
    def delete(self, game_id: str) -> None:
        """Cancel a game that has not started (the creator's token)"""
        seating.cancel(game_service(), game_id, bearer_token())


@blp.route("/games/<string:game_id>/seats/<int:seat>")
class SeatResource(MethodView):
    """One seat of a waiting game."""

    @blp.response(200, GameSchema, example=_GAME_EXAMPLE)
    @problems(
        blp,
        (401, "unauthorized"),
        (403, "not_creator"),
        (404, "game_not_found"),
        (404, "seat_not_found"),
        (404, "not_found"),
        (409, "game_started"),
        (409, "seat_taken"),
        (409, "seat_not_human"),
        (422, "invalid_options"),
        (422, "invalid_fork"),
    )
    @operation(blp, "removeSeat", BEARER)
    def delete(self, game_id: str, seat: int) -> dict[str, Any]:
        """Remove a human seat nobody has taken (the creator's token); the game is dealt
        again for the seats left"""
        service = game_service()
        return service.summary(seating.remove_seat(service, game_id, seat, bearer_token()))


@blp.route("/games/<string:game_id>/seats/<int:seat>/join")
class Join(MethodView):
    """Taking a human seat."""

    @blp.arguments(JoinSchema, example={"name": "ann"})
    @blp.response(
        201,
        JoinedSchema,
        example={
            "game_id": "3f2a9c0d1b7e4a55",
            "seat": 0,
            "seat_token": "seat_xyz",
            "status": "active",
        },
    )
    @problems(
        blp,
        *BODY_PROBLEMS,
        (401, "unauthorized"),
        (403, "private_game"),
        (404, "game_not_found"),
        (404, "seat_not_found"),
        (404, "not_found"),
        (409, "seat_taken"),
        (409, "seat_not_human"),
    )
    @links(
        blp,
        201,
        ListLegalActions=game_link(
            "listLegalActions", description="with the seat token: `Authorization: Bearer`"
        ),
        GetView=game_link("getView"),
    )
    @operation(blp, "joinSeat")
    def post(self, body: dict[str, Any], game_id: str, seat: int) -> dict[str, Any]:
        """Join a human seat (of a private game: with the seat's invite token or the
        creator's token); the answer holds the seat's token (shown once)"""
        record, token = game_service().join(game_id, seat, body.get("name"), bearer_token())
        return {
            "game_id": game_id,
            "seat": seat,
            "seat_token": token,
            "status": record.status.value,
        }
