"""``/v1/tournaments``: seeded tournaments between bundled and external bots, with ratings."""

from __future__ import annotations

from typing import Any

from flask import Response
from flask.views import MethodView
from flask_smorest import Blueprint

from service.api import BODY_PROBLEMS, NO_TOKEN, operation, problems
from service.config import Settings
from service.context import game_service
from service.pictures.tournament import render_chart
from service.schemas import (
    CreateTournamentSchema,
    GameListQuerySchema,
    TournamentGamesSchema,
    TournamentListSchema,
    TournamentSchema,
)
from service.tournaments import TournamentRunner

blp = Blueprint("tournaments", __name__, url_prefix="/v1", description="Bot tournaments")

_STANDING = {
    "rank": 1,
    "name": "heuristic",
    "bot": "heuristic",
    "account": None,
    "mu": 29.1,
    "sigma": 1.2,
    "ordinal": 25.5,
    "interval": [26.7, 31.5],
    "games": 100,
    "wins": 61,
    "average_score": 38.2,
    "illegal_actions": 0,
    "deadlines_missed": 0,
    "decision_time_mean": 0.004,
    "decision_time_p95": 0.011,
}
_TOURNAMENT = {
    "id": "t1a2b3c4d5e6",
    "game": "carcassonne",
    "options": {},
    "participants": [
        {"name": "heuristic", "bot": "heuristic"},
        {"name": "random", "bot": "random"},
    ],
    "games": 100,
    "format": "mirrored",
    "seats_per_game": 2,
    "seed": None,
    "seed_commitment": "9c11...",
    "decision_seconds": 5.0,
    "concurrency": 4,
    "created_at": 1.7e9,
    "finished_at": None,
    "status": "running",
    "created": 8,
    "progress": {"total": 100, "started": 8, "finished": 4},
    "standings": [_STANDING],
}


def runner() -> TournamentRunner:
    from flask import current_app

    settings: Settings = current_app.config["DICEHALL"]
    return TournamentRunner(settings, game_service())


@blp.route("/tournaments")
class Tournaments(MethodView):
    """Listing and starting tournaments."""

    @blp.arguments(GameListQuerySchema, location="query")
    @blp.response(200, TournamentListSchema, example={"tournaments": [_TOURNAMENT]})
    @problems(blp, (422, "validation_failed"))
    @operation(blp, "listTournaments", NO_TOKEN)
    def get(self, query: dict[str, Any]) -> dict[str, Any]:
        """List tournaments, newest first"""
        run = runner()
        return {
            "tournaments": [run.describe(t) for t in run.recent(query["offset"], query["limit"])]
        }

    @blp.arguments(
        CreateTournamentSchema,
        example={
            "game": "carcassonne",
            "participants": [
                {"name": "heuristic", "bot": "heuristic"},
                {"name": "random", "bot": "random"},
                {"name": "random-2", "bot": "random"},
            ],
            "games": 12,
            "format": "mirrored",
            "seats_per_game": 3,
            "decision_seconds": 5,
        },
    )
    @blp.response(201, TournamentSchema, example=_TOURNAMENT)
    @problems(
        blp,
        *BODY_PROBLEMS,
        (404, "unknown_game"),
        (422, "unknown_bot"),
        (422, "invalid_bot_options"),
        (422, "unknown_account"),
        (422, "invalid_participant"),
        (422, "invalid_seats"),
        (422, "invalid_options"),
    )
    @operation(blp, "createTournament", NO_TOKEN)
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Start a tournament; the workers play it"""
        run = runner()
        return run.describe(run.create(body))


@blp.route("/tournaments/<string:tournament_id>")
class TournamentResource(MethodView):
    """One tournament."""

    @blp.response(200, TournamentSchema, example=_TOURNAMENT)
    @problems(blp, (404, "tournament_not_found"))
    @operation(blp, "getTournament", NO_TOKEN)
    def get(self, tournament_id: str) -> dict[str, Any]:
        """Read a tournament's progress and standings (the seed once it is finished)"""
        run = runner()
        return run.describe(run.load(tournament_id))


@blp.route("/tournaments/<string:tournament_id>/games")
class TournamentGames(MethodView):
    """The games of a tournament."""

    @blp.response(
        200,
        TournamentGamesSchema,
        example={
            "games": [
                {
                    "index": 0,
                    "game_id": "t1a2b3c4d5e6-00000",
                    "status": "over",
                    "participants": ["heuristic", "random"],
                    "result": {"scores": [42, 17], "ranks": [1, 2], "winners": [0]},
                    "commitment": "9c11...",
                }
            ]
        },
    )
    @problems(blp, (404, "tournament_not_found"))
    @operation(blp, "listTournamentGames", NO_TOKEN)
    def get(self, tournament_id: str) -> dict[str, Any]:
        """List the games started so far, each replayable and verifiable by its id"""
        run = runner()
        return {"games": run.games(run.load(tournament_id))}


@blp.route("/tournaments/<string:tournament_id>/chart.svg")
class TournamentChart(MethodView):
    """Ratings as a picture."""

    @blp.response(200, content_type="image/svg+xml", description="an SVG chart")
    @problems(blp, (404, "tournament_not_found"))
    @operation(blp, "getTournamentChart", NO_TOKEN)
    def get(self, tournament_id: str) -> Response:
        """Draw the ratings with their intervals"""
        run = runner()
        t = run.load(tournament_id)
        data = run.describe(t)
        return Response(render_chart(data), mimetype="image/svg+xml")
