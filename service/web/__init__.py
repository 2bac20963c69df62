"""The spectator pages: recent games, a live game, a finished game move by move, a
tournament. Each page is a small HTML shell; its script (TypeScript compiled into
``static/js``, typed by ``openapi.yaml``) reads everything through the public API."""

from __future__ import annotations

from flask import Blueprint, Response, render_template

web = Blueprint(
    "web",
    __name__,
    template_folder="templates",
    static_folder="static",
    static_url_path="/assets",
)

CSP = (
    "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)


def _page(template: str, **context: str) -> Response:
    response = Response(render_template(template, **context), mimetype="text/html")
    response.headers["Content-Security-Policy"] = CSP
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@web.get("/")
def index() -> Response:
    return _page("index.html")


@web.get("/watch/<string:game_id>")
def watch(game_id: str) -> Response:
    return _page("watch.html", game_id=game_id)


@web.get("/replay/<string:game_id>")
def replay(game_id: str) -> Response:
    return _page("replay.html", game_id=game_id)


@web.get("/tournaments/<string:tournament_id>")
def tournament(tournament_id: str) -> Response:
    return _page("tournament.html", tournament_id=tournament_id)
