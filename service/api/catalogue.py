"""``/v1/catalogue``: the games on offer, each with the JSON Schema of its options."""

from __future__ import annotations

from typing import Any

from flask import current_app
from flask.views import MethodView
from flask_smorest import Blueprint

from engine.contract import Game
from engine.games import catalogue
from service.api import problems
from service.games import lookup_game
from service.schemas import GameInfoSchema

blp = Blueprint("catalogue", __name__, url_prefix="/v1", description="The games on offer")

_EXAMPLE = {
    "name": "carcassonne",
    "title": "Carcassonne: The Dice Game",
    "min_seats": 1,
    "max_seats": 5,
    "bots": ["heuristic", "random"],
    "options_schema": {"type": "object", "properties": {}},
    "options_example": {},
    "rules": "engine/carcassonne/RULES.md",
}


def describe(game: Game) -> dict[str, Any]:
    """A game as the catalogue shows it."""
    converter = current_app.extensions["dicehall.api"].spec.plugins[1].converter
    return {
        "name": game.name,
        "title": game.title,
        "min_seats": game.min_seats,
        "max_seats": game.max_seats,
        "bots": sorted(game.bots),
        "options_schema": converter.schema2jsonschema(game.options_schema),
        "options_example": game.options_example(),
        "rules": game.rules_page or f"engine/{game.name}/RULES.md",
    }


@blp.route("/catalogue")
class Catalogue(MethodView):
    """Every game."""

    @blp.response(200, GameInfoSchema(many=True), example=[_EXAMPLE])
    @problems(blp)
    def get(self) -> list[dict[str, Any]]:
        """List the games, with their seat range, bots and options schema"""
        return [describe(game) for game in catalogue()]


@blp.route("/catalogue/<string:name>")
class CatalogueEntry(MethodView):
    """One game."""

    @blp.response(200, GameInfoSchema, example=_EXAMPLE)
    @problems(blp, (404, "unknown_game"))
    def get(self, name: str) -> dict[str, Any]:
        """Describe one game"""
        return describe(lookup_game(name))
