"""``/v1/games/{id}/picture.svg``: the board, a sheet or a map as an SVG picture."""

from __future__ import annotations

from typing import Any

from flask import Response
from flask.views import MethodView
from flask_smorest import Blueprint

from engine.games import get_game
from service.api import operation, problems
from service.context import bearer_token, game_service
from service.history import History
from service.problems import Problem
from service.schemas import PictureQuerySchema
from service.store import GameStatus

blp = Blueprint("pictures", __name__, url_prefix="/v1", description="Pictures of games")


def render(game: str, view: dict[str, Any], player: int | None) -> str:
    """The SVG of a view, drawn by the game itself (``Game.picture``)."""
    svg = get_game(game).picture(view, player)
    if svg is None:
        raise Problem(404, "no_picture", f"{game} has no picture yet")
    return svg


@blp.route("/games/<string:game_id>/picture.svg")
class Picture(MethodView):
    """The game drawn as SVG."""

    @blp.arguments(PictureQuerySchema, location="query")
    @blp.response(200, content_type="image/svg+xml", description="an SVG document")
    @problems(
        blp,
        (401, "unauthorized"),
        (404, "game_not_found"),
        (404, "version_not_found"),
        (404, "no_picture"),
        (409, "game_not_over"),
        (422, "validation_failed"),
    )
    @operation(blp, "getPicture")
    def get(self, query: dict[str, Any], game_id: str) -> Response:
        """Draw the caller's view (``player`` picks whose sheet or map; ``version`` an earlier
        step of a finished game)"""
        service = game_service()
        record = service.record(game_id)
        caller = service.identify(record, bearer_token())
        version = query.get("version", record.version)
        if version == record.version:
            view = service.observe(record, caller.seat)["view"]
        elif record.status is not GameStatus.OVER:
            raise Problem(409, "game_not_over", "earlier steps are drawn once the game is over")
        else:
            state = History(service.store).state_at(record, version)
            view = get_game(record.game).view(state, caller.seat)
        player = query.get("player")
        if player is not None and player >= len(record.seats):
            raise Problem(422, "validation_failed", f"player must be below {len(record.seats)}")
        return Response(render(record.game, view, player), mimetype="image/svg+xml")
