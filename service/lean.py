"""The lean path: the requests every move makes, served without Flask's request machinery.

A client's move is ``POST /v1/games/{id}/actions``, preceded now and then by ``GET
/v1/games/{id}/legal-actions``. Flask's request context, URL matching, before/after hooks and
flask-smorest's argument parsing cost about as much as the move's own work, so
:class:`LeanPath`, a WSGI layer in front of the Flask app, serves these two requests itself
when they are *plain*, and hands everything else to Flask unchanged.

A request is plain when nothing about it needs an error answer before its game is read: the
exact path and method, a game id of letters, digits, ``-`` and ``_``, no query string, and
for a move a JSON body (``application/json``, a ``Content-Length`` within the body limit, no
chunking) that passes :func:`service.hardening.check_json_text` and the operation's own
schemas (``ActionRequestSchema``, ``MoveHeadersSchema``, loaded as flask-smorest loads them),
with a well-formed ``If-Match`` and ``Authorization``. Any other request, its body put back
as it was read (or the error reading it raised, raised again), goes to Flask, which answers
it as it always did: so every malformed or hostile request keeps its answer, and the lean
path decides nothing of its own.

A plain request is then served by the same functions as Flask's view, in the same order as
Flask's hooks, inside the app's context (``g``, ``current_app``): its id and metrics
(:mod:`service.observe`), its rate-limit count riding with the game's read
(:mod:`service.ratelimit`), the operation (:func:`service.api.play.move_result`,
:func:`~service.api.play.legal_actions_result`; a 200 answer is written as ``jsonify`` and
the hooks write it, without building a ``Response``), the errors as the app's handlers
answer them (:mod:`service.problems`). ``tests/service/test_lean_path.py`` checks that both
paths answer the same, byte for byte, for valid and invalid requests.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable
from typing import Any, cast

import orjson
from flask import Flask, Response
from marshmallow import ValidationError
from werkzeug.wsgi import get_input_stream

from service import hardening, observe
from service.api.play import Answer, legal_actions_result, move_request, move_result
from service.connections import REDIS_FAILURES, get_redis
from service.context import parse_bearer, service_of
from service.errors import ServiceError
from service.jsonio import OrjsonProvider
from service.metrics import MOVE_ROUTE
from service.problems import Problem, problem_response, redis_failed, server_failed
from service.ratelimit import LIMITS, Limits, refused_late
from service.schemas import ActionRequestSchema, MoveHeadersSchema
from service.store import ride_along, take_riders

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

LEGAL_ROUTE = "/v1/games/<string:game_id>/legal-actions"
ROUTES: dict[tuple[str, str], str] = {
    ("POST", "actions"): MOVE_ROUTE,
    ("GET", "legal-actions"): LEGAL_ROUTE,
}
"""The requests the lean path serves: (method, last path segment) -> Flask's rule (the
metrics' route label)."""
_PATH = re.compile(r"/v1/games/([A-Za-z0-9_-]{1,64})/(actions|legal-actions)")
_HEADERS = MoveHeadersSchema()
_BODY = ActionRequestSchema()
_HEADER_KEYS = {
    "If-Match": "HTTP_IF_MATCH",
    "Idempotency-Key": "HTTP_IDEMPOTENCY_KEY",
    "Prefer": "HTTP_PREFER",
}
"""The headers ``MoveHeadersSchema`` reads, by their WSGI names."""


def _action(body: Any) -> Any:
    """The action of a move's parsed body, as ``ActionRequestSchema`` loads it: a body that is
    an object of one object ``action`` needs no schema (the common case); any other is loaded
    by it. Raises ValidationError."""
    if type(body) is dict and len(body) == 1 and type(body.get("action")) is dict:
        return body["action"]
    return _BODY.load(body)["action"]


class _Replay(io.RawIOBase):
    """A request body whose reading failed: reading it again raises the same error, so
    Flask answers it as if it had read it first."""

    def __init__(self, error: Exception) -> None:
        super().__init__()
        self.error = error

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        raise self.error


class LeanPath:
    """The WSGI layer serving plain moves and legal-action reads; ``fallback`` (the Flask
    app's own WSGI callable) serves the rest."""

    def __init__(self, app: Flask, fallback: WSGIApp) -> None:
        self.app = app
        self.fallback = fallback

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        method = environ.get("REQUEST_METHOD", "")
        match = _PATH.fullmatch(environ.get("PATH_INFO", ""))
        route = ROUTES.get((method, match.group(2))) if match else None
        if route is None or match is None or environ.get("QUERY_STRING"):
            return self.fallback(environ, start_response)
        game_id = match.group(1)
        try:
            token = parse_bearer(environ.get("HTTP_AUTHORIZATION"))
        except Problem:
            return self.fallback(environ, start_response)
        serve: Callable[[], Answer]
        if method == "GET":
            service = service_of(self.app)

            def serve() -> Answer:
                return legal_actions_result(service, game_id, token)

        else:
            move = self._move(environ, game_id)
            if move is None:
                return self.fallback(environ, start_response)
            serve = move
        return self._serve(environ, start_response, route, serve)

    def _move(self, environ: dict[str, Any], game_id: str) -> Callable[[], Answer] | None:
        """How to serve a plain move; None when the request is not plain (its body is then
        back in ``environ`` for Flask)."""
        data = self._body(environ)
        if data is None:
            return None
        environ["wsgi.input"] = io.BytesIO(data)
        try:
            hardening.check_json_text(data.decode("utf-8", errors="replace"))
            action = _action(orjson.loads(data))
            key = None
            if "HTTP_IDEMPOTENCY_KEY" in environ:  # else If-Match alone: any text loads
                headers = _HEADERS.load(
                    {name: environ[key] for name, key in _HEADER_KEYS.items() if key in environ}
                )
                key = headers.get("idempotency_key")
            move = move_request(
                action,
                environ.get("HTTP_IF_MATCH"),
                environ.get("HTTP_AUTHORIZATION"),
                key,
                environ.get("HTTP_PREFER"),
            )
        except (Problem, ValidationError, orjson.JSONDecodeError):
            return None
        service = service_of(self.app)
        return lambda: move_result(service, game_id, move)

    def _body(self, environ: dict[str, Any]) -> bytes | None:
        """The body of a plain JSON request, read; None (and nothing read) for any other."""
        kind = environ.get("CONTENT_TYPE", "")
        length = environ.get("CONTENT_LENGTH", "")
        limit = self.app.config.get("MAX_CONTENT_LENGTH")
        if (
            not (kind == "application/json" or kind.startswith("application/json;"))
            or not length.isdigit()
            or (limit is not None and int(length) > limit)
            or "HTTP_TRANSFER_ENCODING" in environ
        ):
            return None
        try:
            with hardening.socket_timeout(environ, self.app.extensions[hardening.BODY_SECONDS]):
                return get_input_stream(environ, max_content_length=limit).read()
        except Exception as error:  # Flask reads it again, and answers it
            environ["wsgi.input"] = _Replay(error)
            return None

    def _serve(
        self,
        environ: dict[str, Any],
        start_response: Callable[..., Any],
        route: str,
        serve: Callable[[], Answer],
    ) -> Any:
        """Serve a plain request as Flask's hooks and handlers would (see the module)."""
        app = self.app
        method = environ["REQUEST_METHOD"]
        with app.app_context():
            request_id, started = observe.begin(environ.get("HTTP_X_REQUEST_ID", ""), route)
            try:
                limits: Limits | None = app.extensions.get(LIMITS)
                counting = (
                    limits.counting(
                        method,
                        environ["PATH_INFO"],
                        environ.get("HTTP_AUTHORIZATION", ""),
                        environ.get("REMOTE_ADDR"),
                    )
                    if limits is not None
                    else None
                )
                if counting is not None:
                    ride_along(counting)
                answer = self._answer(serve)
                if isinstance(answer, Response):
                    answer = observe.answer(answer, method)
                else:
                    observe.count(method, route, 200, started)
                refused = refused_late(get_redis()) if limits is not None else None
                if refused is not None:
                    answer = problem_response(refused)
                if isinstance(answer, Response):
                    return answer(environ, start_response)
                return self._plain(answer, request_id, start_response)
            finally:
                take_riders()
                observe.end()

    def _plain(
        self, answer: Answer, request_id: str, start_response: Callable[..., Any]
    ) -> list[bytes]:
        """A 200 answer sent as Flask's ``jsonify`` and the request's hooks make it, byte for
        byte (its headers in the same order), without building a ``Response``."""
        body, headers = answer
        data = cast(OrjsonProvider, self.app.json).dump_bytes(body) + b"\n"
        start_response(
            "200 OK",
            [
                ("Content-Type", "application/json"),
                ("Content-Length", str(len(data))),
                *headers,
                (observe.REQUEST_ID, request_id),
            ],
        )
        return [data]

    def _answer(self, serve: Callable[[], Answer]) -> Answer | Response:
        """The operation's answer, or its error's response as the app's error handlers give
        it."""
        try:
            return serve()
        except (Problem, ServiceError) as error:
            return problem_response(error)
        except REDIS_FAILURES as error:
            return redis_failed(error)
        except Exception as error:
            propagate = self.app.config.get("PROPAGATE_EXCEPTIONS")
            if propagate or (propagate is None and (self.app.testing or self.app.debug)):
                raise  # as Flask does (tests see the error itself)
            return server_failed(error)


def install(app: Flask) -> None:
    """Put the lean path in front of the app's WSGI callable (inside any proxy fix-up that
    wraps it later)."""
    lean = LeanPath(app, app.wsgi_app)
    app.wsgi_app = lean  # type: ignore[method-assign]
    app.extensions["dicehall.lean"] = lean
