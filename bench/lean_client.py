"""A lean HTTP client for the benches that time the service from a process on its machine.

The client shares the machine's cores with the service it times, so its own CPU is charged
to what it measures: ``requests`` costs about 640 us of client CPU a request where
``http.client`` on a kept-alive connection costs 160 (GET ``/v1/health`` and its JSON,
2026-11-25). :class:`JsonClient` sends JSON requests on one kept-alive connection and
:class:`Stream` reads an event stream (SSE) as its chunks arrive; JSON with orjson.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import orjson

STALE = (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError)
"""What a request meets on a kept-alive connection the server closed while it was idle
(gunicorn closes one after ``keepalive`` seconds): it was not read, so it is sent again on a
new connection if sending it twice cannot act twice (a ``GET``, or a request with an
``Idempotency-Key``); other requests go on a new connection after ``IDLE`` seconds unused
instead, so that they are never sent twice."""

IDLE = 1.0
"""Seconds unused after which a connection is not trusted with a request that must not be
sent twice (well under gunicorn's ``keepalive``, 5 s in ``deploy/gunicorn.conf.py``)."""


@dataclass(frozen=True)
class Reply:
    """A response: its status and body."""

    status_code: int
    content: bytes

    @property
    def ok(self) -> bool:
        return self.status_code < 400

    @property
    def text(self) -> str:
        return self.content.decode(errors="replace")

    def json(self) -> Any:
        return orjson.loads(self.content)


def _connection(base: str, timeout: float) -> http.client.HTTPConnection:
    parts = urlsplit(base)
    if parts.scheme != "http" or parts.hostname is None:
        raise ValueError(f"an http:// base URL, not {base!r}")
    return http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=timeout)


class JsonClient:
    """JSON requests to ``base`` (``http://host:port``) on one kept-alive connection; not
    for use by two threads at once."""

    def __init__(self, base: str, timeout: float = 60.0) -> None:
        self.base = base
        self.timeout = timeout
        self.conn = _connection(base, timeout)
        self.used = time.monotonic()

    def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> Reply:
        """``method path`` (a path on ``base``, or a URL starting with it) with ``body`` as
        JSON (if not None) and ``headers``."""
        path = path.removeprefix(self.base)
        sent = dict(headers or {})
        data = None
        if body is not None:
            data = orjson.dumps(body)
            sent["Content-Type"] = "application/json"
        repeatable = method == "GET" or "Idempotency-Key" in sent
        if not repeatable and time.monotonic() - self.used > IDLE:
            self.conn.close()
        self.used = time.monotonic()
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body=data, headers=sent)
                response = self.conn.getresponse()
                return Reply(response.status, response.read())
            except STALE:
                self.conn.close()
                # The server may have acted on a request whose answer was lost: sent again
                # only if sending it twice cannot act twice.
                if attempt == 2 or not repeatable:
                    raise
        raise AssertionError("unreachable")

    def get(self, path: str, headers: dict[str, str] | None = None) -> Reply:
        return self.request("GET", path, headers=headers)

    def post(self, path: str, json: Any = None, headers: dict[str, str] | None = None) -> Reply:
        return self.request("POST", path, body=json, headers=headers)

    def close(self) -> None:
        self.conn.close()


class Stream:
    """An open event stream (``GET`` with ``Accept: text/event-stream``) on its own
    connection: :meth:`chunks` yields the bytes as they arrive, until the stream ends or
    :meth:`stop` (from another thread) ends the reading; then :meth:`close`."""

    def __init__(
        self, base: str, path: str, headers: dict[str, str] | None = None, timeout: float = 60.0
    ) -> None:
        self.conn = _connection(base, timeout)
        sent = {"Accept": "text/event-stream", **(headers or {})}
        self.conn.request("GET", path.removeprefix(base), headers=sent)
        self.response = self.conn.getresponse()
        if self.response.status != 200:
            body = self.response.read()[:500]
            self.conn.close()
            raise RuntimeError(f"stream {path}: {self.response.status} {body!r}")

    def chunks(self) -> Iterator[bytes]:
        """The stream's bytes, a read at a time, until it ends (or is closed)."""
        while True:
            chunk = self.response.read1(65536)
            if not chunk:
                return
            yield chunk

    def stop(self) -> None:
        """End the reading: the reader's next read finds the connection shut."""
        sock = self.conn.sock
        if sock is not None:
            with contextlib.suppress(OSError):  # already shut, or closed
                sock.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self.conn.close()
