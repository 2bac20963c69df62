"""A real local HTTP server with scripted answers: the peer the SDK tests talk to.

Each test queues the answers the server gives, in order (a status, headers and a body, or
``DROP`` to close the connection without answering), and afterwards reads what the server
received (method, path, query, headers, body). It speaks real HTTP/1.1 over a real socket,
so the SDK's requests, retries and error mapping run exactly as they do against dicehall.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

DROP = "drop"
"""A scripted answer that closes the connection without a response (a network failure)."""


@dataclass
class Answer:
    """One scripted response: ``chunks`` are written one by one (for streams)."""

    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    chunks: list[str] | None = None


@dataclass
class Received:
    """What the server received in one request."""

    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: Any


def problem(status: int, code: str, detail: str, **extra: Any) -> Answer:
    """A problem+json answer as dicehall sends them."""
    body = {
        "type": f"https://dicehall.dev/problems/{code}",
        "title": code,
        "status": status,
        "code": code,
        "detail": detail,
        **extra,
    }
    return Answer(status, body, {"Content-Type": "application/problem+json"})


class Peer:
    """The scripted server; ``url`` is its base URL."""

    def __init__(self) -> None:
        self.script: list[Answer | str] = []
        self.received: list[Received] = []
        self.default: Answer = Answer(404, None)
        self._lock = threading.Lock()
        peer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                parts = urlsplit(self.path)
                with peer._lock:
                    peer.received.append(
                        Received(
                            self.command,
                            parts.path,
                            parse_qs(parts.query),
                            {k.lower(): v for k, v in self.headers.items()},
                            json.loads(raw) if raw else None,
                        )
                    )
                    answer = peer.script.pop(0) if peer.script else peer.default
                if answer == DROP:
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                assert isinstance(answer, Answer)
                time.sleep(answer.delay)
                self.send_response_only(answer.status)
                headers = {
                    "Content-Type": "application/json",
                    "Date": self.date_time_string(),
                    **answer.headers,
                }
                for name, value in headers.items():
                    self.send_header(name, value)
                if answer.chunks is not None:
                    self.send_header("Connection", "close")
                    self.end_headers()
                    for chunk in answer.chunks:
                        self.wfile.write(chunk.encode())
                        self.wfile.flush()
                    self.close_connection = True
                    return
                if isinstance(answer.body, str):
                    data = answer.body.encode()
                else:
                    data = json.dumps(answer.body).encode() if answer.body is not None else b""
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PUT = do_DELETE = _handle

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    def answer(self, *answers: Answer | str) -> None:
        """Queue answers, given in the order requests will get them."""
        self.script.extend(answers)

    def start(self) -> Peer:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
