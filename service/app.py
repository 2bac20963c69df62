"""The Flask app factory: wires settings, Redis, the API blueprints and the error handler."""

from __future__ import annotations

import http
import logging
from collections.abc import Callable
from types import FunctionType
from typing import Any

from apispec import APISpec
from flask import Flask, current_app
from flask_smorest import Api as SmorestApi
from werkzeug.exceptions import HTTPException

from service import connections, hardening, lean, observe, ratelimit
from service.api import OPTIONAL_BEARER
from service.config import Settings
from service.errors import ServiceError
from service.jsonio import OrjsonProvider
from service.logs import configure_logging
from service.problems import (
    CONTENT_TYPE,
    SERVER_FAILED,
    Problem,
    code_for_status,
    problem_response,
    redis_failed,
)
from service.schemas import ProblemSchema

API_VERSION = "1.0.0"
log = logging.getLogger(__name__)

API_DESCRIPTION = """\
dicehall plays dice games over HTTP, for people through their own front ends and for bots.

Create a game with human and bot seats, join the human seats to get seat tokens, then read
your view and legal actions and post actions. Bots play in background workers. Every error
is `application/problem+json` with a stable `code`. Dice are seeded and verifiable: the
game publishes `sha256(seed)` at creation and the seed at the end; draw *k* with *n*
outcomes is `HMAC-SHA256(seed, str(k)) mod n`.
"""


class App(Flask):
    """Flask, with ``ensure_sync`` remembered per hook function: Flask inspects each
    before/after/teardown function anew on every request (two dozen ``inspect`` calls a
    request, 3% of a move). Only plain functions are remembered (a bound method of a
    per-request view would grow the table)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._synced: dict[Callable[..., Any], Callable[..., Any]] = {}

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        if type(func) is not FunctionType:
            return super().ensure_sync(func)
        synced = self._synced.get(func)
        if synced is None:
            synced = self._synced[func] = super().ensure_sync(func)
        return synced


class Api(SmorestApi):
    """flask-smorest's Api answering every error as RFC 9457 problem+json."""

    ERROR_SCHEMA = ProblemSchema

    def handle_http_exception(self, error: HTTPException) -> Any:
        status = error.code or 500
        data = getattr(error, "data", None) or {}
        errors = data.get("errors") or data.get("messages")
        code = code_for_status(status)
        detail = error.description or http.HTTPStatus(status).phrase
        if status == 422 and errors is not None:
            detail = "the request did not validate: see errors"
        if status == 400 and "json" in str(errors or error.description).lower():
            code, detail, errors = "invalid_json", "the body is not valid JSON", None
        if status >= 500:
            log.exception("internal error", exc_info=error)
            detail = SERVER_FAILED
        if status == 413:
            limit = current_app.config.get("MAX_CONTENT_LENGTH")
            detail = f"the body is larger than {limit} bytes"
        extra = {"errors": _flatten_locations(errors)} if errors else {}
        headers = {
            name: value
            for name, value in error.get_headers()
            if name.lower() not in {"content-type", "content-length"}
        }
        return problem_response(Problem(status, code, detail, headers=headers, **extra))


def document_problem_responses(spec: APISpec) -> None:
    """Document flask-smorest's error responses as problem+json.

    flask-smorest registers a lazy ``response`` component per HTTP status (``DEFAULT_ERROR``,
    ``UNPROCESSABLE_ENTITY`` for ``@blp.arguments``...) typed ``application/json``; a lazy
    registration under the same name, through apispec's public ``components.response``,
    replaces it before any operation refers to it. Call it before registering blueprints."""
    schema: dict[str, Any] = {"content": {CONTENT_TYPE: {"schema": ProblemSchema}}}
    for status in http.HTTPStatus:
        response: dict[str, Any] = {"description": status.phrase}
        if not (100 <= status < 200) and status not in (204, 304):
            response.update(schema)
        spec.components.response(status.name, response, lazy=True)
    default = {"description": "Default error response", **schema}
    spec.components.response(Api.DEFAULT_ERROR_RESPONSE_NAME, default, lazy=True)


def _flatten_locations(errors: Any) -> Any:
    """webargs nests errors by location (json, query, headers); keep one level for clients."""
    if isinstance(errors, dict) and len(errors) == 1:
        (location,) = errors
        if location in {"json", "query", "headers", "path", "form"}:
            return errors[location]
    return errors


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the app. ``config`` overrides Flask config; ``DICEHALL`` may be a Settings."""
    app = App(__name__)
    app.json = OrjsonProvider(app)
    app.config.update(
        API_TITLE="dicehall",
        API_VERSION=API_VERSION,
        OPENAPI_VERSION="3.1.0",
        API_SPEC_OPTIONS={
            "info": {
                "description": API_DESCRIPTION,
                "license": {"name": "MIT"},
            },
            "servers": [{"url": "http://127.0.0.1:8000", "description": "dicehall up"}],
            # A token is optional unless an operation says otherwise (service.api.operation).
            "security": OPTIONAL_BEARER,
        },
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        JSON_SORT_KEYS=False,
        DICEHALL=Settings(),
    )
    if config:
        app.config.update(config)
    if not app.testing:
        configure_logging()
    connections.init_app(app)
    if app.config.get("DICEHALL_LEAN", True):
        lean.install(app)  # before the proxy fix-up (ratelimit), which must wrap it
    ratelimit.init_app(app)
    observe.init_app(app)
    hardening.init_app(app)
    api = Api(app)
    document_problem_responses(api.spec)
    api.spec.components.security_scheme(
        "bearer", {"type": "http", "scheme": "bearer", "description": "a seat or creator token"}
    )
    app.register_error_handler(Problem, problem_response)
    app.register_error_handler(ServiceError, problem_response)
    for failure in connections.REDIS_FAILURES:
        app.register_error_handler(failure, redis_failed)

    from service import components
    from service.api import (
        bots,
        catalogue,
        events,
        games,
        health,
        pictures,
        play,
        tournaments,
        verification,
    )
    from service.web import web

    components.register(api.spec)

    modules = (health, catalogue, games, play, events, pictures, verification, bots, tournaments)
    for module in modules:
        api.register_blueprint(module.blp)
    app.register_blueprint(web)
    app.extensions["dicehall.api"] = api
    return app
