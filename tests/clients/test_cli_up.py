"""``dicehall up`` runs Redis, the API and the workers, stops them cleanly, and keeps the data."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import redis
from rq import Worker

from clients.sdk import Client, RetryPolicy, TransportError


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def running_up(*args: str, redis_url: str | None = None) -> Iterator[tuple[str, list[str]]]:
    """``dicehall up`` in a child process; yields (base URL, lines it printed) once healthy,
    and on exit sends it Ctrl-C (SIGINT) and checks it stopped cleanly."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    if redis_url:
        env["REDIS_URL"] = redis_url
    env["COLUMNS"] = "200"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from clients.cli.main import cli; cli()",
            "up",
            "--port",
            str(port),
            *args,
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    lines: list[str] = []
    assert proc.stdout is not None
    try:
        for line in proc.stdout:
            lines.append(line)
            if "dicehall is up" in line:
                break
        else:
            pytest.fail(f"dicehall up exited early: {''.join(lines)}")
        yield f"http://127.0.0.1:{port}", lines
    finally:
        proc.send_signal(signal.SIGINT)
        rest, _ = proc.communicate(timeout=60)
        lines.append(rest)
    assert proc.returncode == 0, "".join(lines)
    assert "dicehall stopped" in lines[-1]


def play_bots_game(url: str) -> str:
    hall = Client(url)
    game_id = hall.create_game("toy", [{"kind": "bot", "bot": "random"}] * 2)["id"]
    deadline = time.monotonic() + 60
    while hall.game(game_id)["status"] != "over":
        assert time.monotonic() < deadline, "the workers under dicehall up did not play"
        hall.events(game_id, wait=2)
    return game_id


def test_up_embedded_redis_keeps_games_across_a_restart(tmp_path: Path) -> None:
    data = tmp_path / "hall"
    with running_up("--data-dir", str(data), "--workers", "2") as (url, lines):
        assert f"at {url}" in "".join(lines)
        embedded = re.search(r"redis: embedded at (unix://\S+),", "".join(lines))
        assert embedded, lines
        connection = redis.Redis.from_url(embedded.group(1))
        deadline = time.monotonic() + 20
        while len(Worker.all(connection=connection)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)  # the workers register as they start
        assert len(Worker.all(connection=connection)) == 2
        game_id = play_bots_game(url)
        result = Client(url).game(game_id)["result"]
    down = Client(url, timeout=1, retry=RetryPolicy(attempts=1))
    with pytest.raises(TransportError):
        down.health()
    assert (data / "dicehall.rdb").exists()
    with running_up("--data-dir", str(data)) as (url_again, _):
        summary = Client(url_again).game(game_id)
        assert summary["status"] == "over"
        assert summary["result"] == result


def test_up_uses_the_redis_named_by_redis_url(redis_url: str, tmp_path: Path) -> None:
    with running_up("--data-dir", str(tmp_path / "unused"), redis_url=redis_url) as (url, lines):
        assert f"redis: {redis_url}" in "".join(lines)
        game_id = play_bots_game(url)
    keys = redis.Redis.from_url(redis_url).keys(f"*{game_id}*")
    assert keys
    assert not (tmp_path / "unused").exists()


def test_up_exits_nonzero_and_cleans_up_when_the_port_is_taken(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
        proc = subprocess.run(
            [
                sys.executable,
                "-c",
                "from clients.cli.main import cli; cli()",
                "up",
                "--port",
                str(port),
                "--data-dir",
                str(tmp_path / "hall"),
                "--startup-timeout",
                "20",
            ],
            env={**env, "COLUMNS": "200"},
            capture_output=True,
            text=True,
            timeout=90,
        )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "did not become healthy" in proc.stderr or "child exited" in proc.stderr
    assert "dicehall stopped" in proc.stdout
    embedded = re.search(r"redis: embedded at unix://(\S+),", proc.stdout)
    assert embedded
    assert not Path(embedded.group(1)).exists()  # the embedded Redis is gone with its socket
