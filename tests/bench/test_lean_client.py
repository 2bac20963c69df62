"""The benches' lean HTTP client never sends a request twice when doing so could act twice."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from bench import lean_client
from bench.lean_client import JsonClient


class ClosingHandler(BaseHTTPRequestHandler):
    """Answers every request, then closes the connection without saying so, as a server does
    to a kept-alive connection it times out; counts the requests by method."""

    protocol_version = "HTTP/1.1"
    counts: dict[str, int] = {}

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        self.counts[self.command] = self.counts.get(self.command, 0) + 1
        body = b"{}"
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        self.close_connection = True

    do_GET = do_POST = _answer

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def closing_server() -> Iterator[tuple[str, dict[str, int]]]:
    ClosingHandler.counts = {}
    server = ThreadingHTTPServer(("127.0.0.1", 0), ClosingHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", ClosingHandler.counts
    finally:
        server.shutdown()
        server.server_close()


def test_a_get_on_a_connection_the_server_closed_is_sent_again(closing_server):
    base, counts = closing_server
    client = JsonClient(base, timeout=10)
    assert client.get("/a").status_code == 200
    assert client.get("/b").status_code == 200, "the second GET met the closed connection"
    assert counts == {"GET": 2}


def test_a_post_on_a_connection_the_server_closed_is_not_sent_again(closing_server, monkeypatch):
    base, counts = closing_server
    monkeypatch.setattr(lean_client, "IDLE", 3600.0)  # the connection counts as fresh
    client = JsonClient(base, timeout=10)
    assert client.post("/a", json={"n": 1}).status_code == 200
    with pytest.raises(lean_client.STALE):
        client.post("/b", json={"n": 2})
    assert counts == {"POST": 1}, "a POST whose connection was closed must not be resent"


def test_a_post_with_an_idempotency_key_is_sent_again(closing_server, monkeypatch):
    base, counts = closing_server
    monkeypatch.setattr(lean_client, "IDLE", 3600.0)
    client = JsonClient(base, timeout=10)
    key = {"Idempotency-Key": "k"}
    assert client.post("/a", json={}, headers=key).status_code == 200
    assert client.post("/b", json={}, headers=key).status_code == 200
    assert counts == {"POST": 2}


def test_a_post_after_the_connection_sat_idle_goes_on_a_new_one(closing_server, monkeypatch):
    base, counts = closing_server
    monkeypatch.setattr(lean_client, "IDLE", -1.0)  # every connection counts as idle
    client = JsonClient(base, timeout=10)
    assert client.post("/a", json={}).status_code == 200
    assert client.post("/b", json={}).status_code == 200
    assert counts == {"POST": 2}
