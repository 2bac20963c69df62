"""``/v1/catalogue``: the games on offer, each with the JSON Schema of its options, each
game's rules page (its ``RULES.md``: rulings and designed data) as markdown, and the designed
data of each edition of a game that has editions (Diceland's maps), cacheable for ever."""

from __future__ import annotations

from importlib import resources
from typing import Any

from flask import Response, current_app, jsonify, request, url_for
from flask.views import MethodView
from flask_smorest import Blueprint

from engine.contract import Game
from engine.games import catalogue
from service.api import NO_TOKEN, component, operation, problems
from service.games import lookup_game
from service.problems import Problem
from service.schemas import GameInfoSchema

blp = Blueprint("catalogue", __name__, url_prefix="/v1", description="The games on offer")

FOR_EVER = "public, max-age=31536000, immutable"
"""The Cache-Control of an answer that never changes (a published edition's data)."""

EDITION_HEADERS = {
    "Cache-Control": {
        "description": "cacheable by anyone for ever: a published edition never changes",
        "schema": {"type": "string", "enum": [FOR_EVER]},
    },
    "ETag": {
        "description": "a strong ETag of the answer: send it as `If-None-Match` for a 304",
        "schema": {"type": "string"},
    },
}
"""The response headers ``getEdition`` documents (see :func:`immutable`)."""

_EDITION_EXAMPLE = {
    "game": "diceland",
    "edition": 7,
    "maps": {
        "A": {
            "name": "A",
            "title": "Open Plains",
            "start": [3, 5],
            "obstacles": [[2, -1]],
            "territories": [
                {"colour": "red", "hexes": [[1, 0], [1, -1]], "treasures": [[1, -1]]},
            ],
        }
    },
    "boards": [["A", "C"], ["B", "H"], ["D", "E"], ["F", "G"]],
}

_EXAMPLE = {
    "name": "carcassonne",
    "title": "Carcassonne: The Dice Game",
    "min_seats": 1,
    "max_seats": 5,
    "bots": ["heuristic", "random"],
    "options_schema": {"type": "object", "properties": {}},
    "options_example": {},
    "rules": "http://127.0.0.1:8000/v1/catalogue/carcassonne/rules",
}


def rules_text(game: Game) -> str | None:
    """The game's rules page (``RULES.md`` beside its rules), or None if it has none."""
    package = type(game).__module__.rpartition(".")[0]
    page = resources.files(package) / "RULES.md"
    return page.read_text(encoding="utf-8") if page.is_file() else None


def describe(game: Game) -> dict[str, Any]:
    """A game as the catalogue shows it."""
    converter = current_app.extensions["dicehall.api"].ma_plugin.converter
    return {
        "name": game.name,
        "title": game.title,
        "min_seats": game.min_seats,
        "max_seats": game.max_seats,
        "bots": sorted(game.bots),
        "options_schema": converter.schema2jsonschema(game.options_schema),
        "options_example": game.options_example(),
        "rules": url_for("catalogue.Rules", name=game.name, _external=True),
    }


@blp.route("/catalogue")
class Catalogue(MethodView):
    """Every game."""

    @blp.response(200, GameInfoSchema(many=True), example=[_EXAMPLE])
    @problems(blp)
    @operation(blp, "listCatalogue", NO_TOKEN)
    def get(self) -> list[dict[str, Any]]:
        """List the games, with their seat range, bots and options schema"""
        return [describe(game) for game in catalogue()]


@blp.route("/catalogue/<string:name>")
class CatalogueEntry(MethodView):
    """One game."""

    @blp.response(200, GameInfoSchema, example=_EXAMPLE)
    @problems(blp, (404, "unknown_game"))
    @operation(blp, "getCatalogueEntry", NO_TOKEN)
    def get(self, name: str) -> dict[str, Any]:
        """Describe one game"""
        return describe(lookup_game(name))


@blp.route("/catalogue/<string:name>/rules")
class Rules(MethodView):
    """One game's rules page."""

    @blp.response(
        200,
        content_type="text/markdown",
        description="the game's RULES.md: rulings where the rulebook is silent, designed data",
    )
    @problems(blp, (404, "unknown_game"), (404, "rules_not_found"))
    @operation(blp, "getRules", NO_TOKEN)
    def get(self, name: str) -> Response:
        """Read a game's rules page (markdown)"""
        text = rules_text(lookup_game(name))
        if text is None:
            raise Problem(404, "rules_not_found", f"{name} has no rules page")
        return Response(text, mimetype="text/markdown")


def immutable(body: dict[str, Any]) -> Response:
    """``body`` as an answer that never changes: cacheable for ever, with a strong ETag (a
    hash of its bytes), and 304 Not Modified to an ``If-None-Match`` that names it."""
    response = jsonify(body)
    response.headers["Cache-Control"] = FOR_EVER
    response.add_etag()
    response.make_conditional(request)
    return response


@blp.route("/catalogue/<string:name>/editions/<int:edition>")
class Edition(MethodView):
    """One edition of a game's designed data."""

    @blp.response(
        200,
        component("Edition"),
        example=_EDITION_EXAMPLE,
        description="the edition's designed data (Diceland: every map's layout and the "
        "double-sided boards); it never changes",
        headers=EDITION_HEADERS,
    )
    @blp.alt_response(
        304,
        description="not modified: the request's `If-None-Match` names the current ETag",
        headers=EDITION_HEADERS,
    )
    @problems(blp, (404, "unknown_game"), (404, "edition_not_found"))
    @operation(blp, "getEdition", NO_TOKEN)
    def get(self, name: str, edition: int) -> Response:
        """Read a game's designed data in one edition (it never changes: cache it for good)"""
        data = lookup_game(name).edition_data(edition)
        if data is None:
            raise Problem(404, "edition_not_found", f"{name} has no edition {edition}")
        return immutable({"game": name, "edition": edition, **data})
