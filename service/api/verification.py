"""``/v1/games/{id}/verification``: the service's audit of a finished game."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint

from service.api import NO_TOKEN, operation, problems
from service.context import game_service
from service.schemas import VerificationSchema
from service.verification import verification

blp = Blueprint("verification", __name__, url_prefix="/v1", description="Verifying games")


@blp.route("/games/<string:game_id>/verification")
class Verification(MethodView):
    """The audit of a finished game."""

    @blp.response(
        200,
        VerificationSchema,
        example={
            "game_id": "3f2a9c0d1b7e4a55",
            "ok": True,
            "commitment": "9c1185a5c5e9fc54612808977ee8f548b2258d31b8c1b7a2f9d0e51f9f0d3c4a",
            "seed": "b1f0c2...",
            "checks": [
                {
                    "name": "sha256(seed) equals the commitment published at creation",
                    "ok": True,
                    "detail": "sha256 9c1185a5c5e9fc54..., commitment 9c1185a5c5e9fc54...",
                }
            ],
        },
    )
    @problems(blp, (404, "game_not_found"), (409, "game_not_over"))
    @operation(blp, "getVerification", NO_TOKEN)
    def get(self, game_id: str) -> dict[str, Any]:
        """Check a finished game: the seed against its commitment, every draw, a re-play of
        the log against the stored result and final views (what `dicehall verify` checks)"""
        service = game_service()
        return verification(service, service.record(game_id))
