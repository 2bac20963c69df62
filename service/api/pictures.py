"""``/v1/games/{id}/picture.svg``: the board, a sheet or a map as an SVG picture."""

from __future__ import annotations

import importlib
from typing import Any

from flask import Response
from flask.views import MethodView
from flask_smorest import Blueprint

from service.api import operation, problems
from service.context import bearer_token, game_service
from service.problems import Problem
from service.schemas import PictureQuerySchema

blp = Blueprint("pictures", __name__, url_prefix="/v1", description="Pictures of games")


def render(game: str, view: dict[str, Any], player: int | None) -> str:
    """The SVG of a view, by the game's renderer in ``service.pictures``."""
    try:
        module = importlib.import_module(f"service.pictures.{game}")
    except ModuleNotFoundError:
        raise Problem(404, "no_picture", f"{game} has no picture yet") from None
    return module.render_svg(view, player)


@blp.route("/games/<string:game_id>/picture.svg")
class Picture(MethodView):
    """The game drawn as SVG."""

    @blp.arguments(PictureQuerySchema, location="query")
    @blp.response(200, content_type="image/svg+xml", description="an SVG document")
    @problems(blp, (401, "unauthorized"), (404, "game_not_found"), (422, "validation_failed"))
    @operation(blp, "getPicture")
    def get(self, query: dict[str, Any], game_id: str) -> Response:
        """Draw the caller's view (``player`` picks whose sheet or map)"""
        service = game_service()
        record = service.record(game_id)
        caller = service.identify(record, bearer_token())
        view = service.observe(record, caller.seat)["view"]
        player = query.get("player")
        if player is not None and player >= len(record.seats):
            raise Problem(422, "validation_failed", f"player must be below {len(record.seats)}")
        return Response(render(record.game, view, player), mimetype="image/svg+xml")
