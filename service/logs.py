"""Log lines of the API and the workers: text by default, one JSON object a line as an option
(``DICEHALL_LOG_FORMAT=json``), and the request id in every line written while a request is
served (``-`` elsewhere)."""

from __future__ import annotations

import json
import logging
import os
import sys
from datetime import UTC, datetime

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"


def current_request_id() -> str:
    """The id of the request being served, or ``-``: kept in the app context's ``g``, which
    Flask's requests and the lean path's (``service.lean``) alike push."""
    try:
        from flask import g, has_app_context
    except ImportError:  # pragma: no cover - flask ships with the service
        return "-"
    if has_app_context():
        return str(g.get("request_id", "-"))
    return "-"


class RequestIdFilter(logging.Filter):
    """Adds ``request_id`` to every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = current_request_id()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, request id (and the error)."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", "-"),
            "pid": record.process,
        }
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line)


def json_logs() -> bool:
    return os.environ.get("DICEHALL_LOG_FORMAT", "text").lower() == "json"


def configure_logging(level: str | None = None) -> None:
    """Send the root logger's lines to stderr in the chosen format (idempotent)."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        if getattr(handler, "dicehall", False):
            root.removeHandler(handler)
    handler = logging.StreamHandler(sys.stderr)
    handler.dicehall = True  # type: ignore[attr-defined]
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(JsonFormatter() if json_logs() else logging.Formatter(TEXT_FORMAT))
    root.addHandler(handler)
    root.setLevel(level or os.environ.get("DICEHALL_LOG_LEVEL", "info").upper())
