"""Liveness never touches Redis; readiness needs Redis reachable and writable; /v1/health
stays as it was (Redis reachable)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from werkzeug.test import TestResponse

from service.app import create_app
from service.config import Settings
from tests.faults.conftest import Stack


def body_of(reply: TestResponse) -> dict[str, Any]:
    body = reply.get_json()
    assert isinstance(body, dict), reply.data
    return body


def test_live_and_ready_split_on_a_read_only_and_on_a_dead_redis(tmp_path: Path) -> None:
    stack = Stack(tmp_path)
    stack.start_redis()
    try:
        app = create_app({"TESTING": True, "DICEHALL": Settings(redis_url=stack.url)})
        http = app.test_client()
        assert http.get("/v1/health/ready").json == {"status": "ok", "redis": "ok"}

        stack.client().replicaof("127.0.0.1", "1")  # a replica: reads work, writes fail
        ready = http.get("/v1/health/ready")
        assert ready.status_code == 503 and body_of(ready)["code"] == "redis_not_writable"
        assert "READONLY" in body_of(ready)["detail"] or "read only" in body_of(ready)["detail"]
        assert http.get("/v1/health/live").status_code == 200
        assert http.get("/v1/health").status_code == 200  # the old check only pings

        stack.kill_redis()
        ready = http.get("/v1/health/ready")
        assert ready.status_code == 503 and body_of(ready)["code"] == "redis_unavailable"
        assert ready.headers["Retry-After"] == "1"
        live = http.get("/v1/health/live")
        assert live.status_code == 200 and body_of(live)["status"] == "ok"
    finally:
        stack.close()
