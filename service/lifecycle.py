"""Whether this API process is shutting down (gunicorn got SIGTERM).

``deploy/gunicorn.conf.py`` calls :func:`begin_drain` from each worker's SIGTERM handler.
From then on open long-polls answer at once (no events, with their cursor), SSE streams end
with a ``retry:`` hint so clients reconnect to another process, and readiness answers 503;
requests in flight, moves among them, finish as usual.
"""

from __future__ import annotations

WAIT_SLICE = 1.0
"""Longest single blocking Redis read of a waiting client (s): it notices a shutdown within it."""
DRAIN_HINT = "retry: 1000\n: this server is restarting: reconnect with Last-Event-ID\n\n"
"""The last lines of an SSE stream cut by a shutdown: reconnect in a second, where you were."""

_draining = False


def begin_drain() -> None:
    global _draining
    _draining = True


def draining() -> bool:
    return _draining
