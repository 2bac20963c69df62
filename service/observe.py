"""What every request leaves behind: its id, its metrics, and the ``/metrics`` endpoint.

The request id is the client's ``X-Request-Id`` when it sends a usable one (1-128 letters,
digits, ``.``, ``_``, ``-``), else a new one; it is answered in ``X-Request-Id`` on every
response (errors too) and appears in every log line written while the request is served
(``service.logs``).
"""

from __future__ import annotations

import re
import time
import uuid

from flask import Flask, Response, current_app, g, request

from service import metrics
from service.connections import get_redis

REQUEST_ID = "X-Request-Id"
_USABLE_ID = re.compile(r"[A-Za-z0-9._-]{1,128}")


def _route() -> str:
    rule = request.url_rule
    return rule.rule if rule is not None else "unmatched"


def begin(given_id: str, route: str) -> tuple[str, float]:
    """A request starts (in the app context's ``g``): its id (``given_id`` if usable), its
    start time, its route in flight. Returns the id and the start time."""
    request_id = g.request_id = given_id if _USABLE_ID.fullmatch(given_id) else uuid.uuid4().hex
    started = g.started = time.perf_counter()
    g.route = route
    metrics.labelled(metrics.IN_FLIGHT, route).inc()
    return request_id, started


def count(method: str, route: str, status: int, started: float | None) -> None:
    """Count an answered request (its status; a move's time since ``started`` too)."""
    code = str(status)
    metrics.labelled(metrics.REQUESTS, method, route, code).inc()
    if route == metrics.MOVE_ROUTE and method == "POST" and started is not None:
        metrics.labelled(metrics.MOVE_SECONDS, code).observe(time.perf_counter() - started)


def answer(response: Response, method: str) -> Response:
    """A request is answered: its id on the response, its metrics counted."""
    response.headers[REQUEST_ID] = g.get("request_id") or uuid.uuid4().hex
    route = g.get("route") or _route()
    count(method, route, response.status_code, g.get("started"))
    if response.is_streamed and "route" in g:  # in flight until the stream closes
        gauge = metrics.labelled(metrics.IN_FLIGHT, g.pop("route"))
        response.call_on_close(gauge.dec)
    return response


def end() -> None:
    """A request is done: no longer in flight (unless its stream still is)."""
    if "route" in g:
        metrics.labelled(metrics.IN_FLIGHT, g.pop("route")).dec()


def _begin() -> None:
    begin(request.headers.get(REQUEST_ID, ""), _route())


def _answer(response: Response) -> Response:
    return answer(response, request.method)


def _end(error: BaseException | None) -> None:
    end()


def scrape() -> Response:
    """``GET /metrics``: Prometheus text format."""
    body, content_type = metrics.exposition(get_redis(), current_app.config["DICEHALL"])
    return Response(body, content_type=content_type)


def init_app(app: Flask) -> None:
    """Register the hooks first, so the request id is known to every later hook and log."""
    app.before_request_funcs.setdefault(None, []).insert(0, _begin)
    app.after_request(_answer)
    app.teardown_request(_end)
    app.add_url_rule("/metrics", "metrics", scrape, methods=["GET"])
