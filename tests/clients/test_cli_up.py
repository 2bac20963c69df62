"""``dicehall up`` runs Redis, the API and the workers, stops them cleanly, and keeps the data."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import redis
from rq import Worker

from clients.sdk import Client, RetryPolicy, ServerError, TransportError
from tests.conftest import STARTING, wait_until
from tests.players import wait_for


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


UP = [sys.executable, "-c", "from clients.cli.main import cli; cli()", "up"]


def up_env(redis_url: str | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    if redis_url:
        env["REDIS_URL"] = redis_url
    env["COLUMNS"] = "200"
    return env


@contextmanager
def running_up(
    *args: str, redis_url: str | None = None, port: int | None = None
) -> Iterator[tuple[str, list[str]]]:
    """``dicehall up`` in a child process; yields (base URL, lines it printed) once healthy,
    and on exit sends it Ctrl-C (SIGINT) and checks it stopped cleanly."""
    port = port or free_port()
    proc = subprocess.Popen(
        [*UP, "--port", str(port), *args],
        env=up_env(redis_url),
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
        running_up.pid = proc.pid  # type: ignore[attr-defined]
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
    wait_for(url, game_id, lambda summary: summary["status"] == "over", 60)
    return game_id


def test_up_embedded_redis_keeps_games_across_a_restart(tmp_path: Path) -> None:
    data = tmp_path / "hall"
    with running_up("--data-dir", str(data), "--workers", "2") as (url, lines):
        assert f"at {url}" in "".join(lines)
        embedded = re.search(r"redis: embedded at (unix://\S+),", "".join(lines))
        assert embedded, lines
        connection = redis.Redis.from_url(embedded.group(1))
        wait_for_workers(connection, 2)
        assert len(Worker.all(connection=connection)) == 2
        game_id = play_bots_game(url)
        result = Client(url).game(game_id)["result"]
    down = Client(url, timeout=1, retry=RetryPolicy(attempts=1))
    with pytest.raises(TransportError):
        down.health()
    assert (data / "dicehall.aof").exists()  # the append-only file: nothing acknowledged lost
    assert "play_bot" in (data / "logs" / "workers.log").read_text()  # job logs: to the file
    assert not any("play_bot" in line for line in lines)  # ... not to the terminal
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
    assert not list((tmp_path / "unused").glob("dicehall.*"))  # no embedded Redis data


def test_up_reports_a_taken_port_with_the_fix_and_starts_nothing(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = subprocess.run(
            [*UP, "--port", str(port), "--data-dir", str(tmp_path / "hall")],
            env=up_env(),
            capture_output=True,
            text=True,
            timeout=90,
        )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f"port {port} on 127.0.0.1 is taken" in proc.stderr
    assert f"dicehall up --port {port + 1}" in proc.stderr
    assert not (tmp_path / "hall").exists()  # no Redis was started


def test_up_restarts_a_worker_that_dies_and_refuses_a_second_up_on_its_data_dir(
    tmp_path: Path,
) -> None:
    data = tmp_path / "hall"
    with running_up("--data-dir", str(data)) as (url, _):
        connection = redis.Redis(unix_socket_path=str(data / "redis.sock"))
        wait_for_workers(connection, 1)
        (first,) = Worker.all(connection=connection)
        assert first.pid is not None, "a registered worker has a pid"
        os.kill(first.pid, signal.SIGKILL)
        wait_until(
            lambda: {w.pid for w in Worker.all(connection=connection)} - {first.pid},
            30,
            "up to restart the killed worker",
        )
        game_id = play_bots_game(url)

        embedded = next(w for w in children_of(running_up.pid) if "redis-server" in w[1])  # type: ignore[attr-defined]
        os.kill(embedded[0], signal.SIGKILL)  # Redis dies: up restarts it, workers reconnect
        wait_until(
            lambda: Client(url, retry=RetryPolicy(attempts=1)).ready()["status"] == "ok",
            30,
            "up to restart its Redis (ready again)",
            ignore=(ServerError, TransportError),  # 503 until Redis is back
        )
        assert Client(url).game(game_id)["status"] == "over"  # from the append-only file
        play_bots_game(url)

        second = subprocess.run(
            [*UP, "--port", str(free_port()), "--data-dir", str(data)],
            env=up_env(),
            capture_output=True,
            text=True,
            timeout=90,
        )
        assert second.returncode == 1
        assert f"another dicehall up (pid {running_up.pid}) is running on" in second.stderr  # type: ignore[attr-defined]
        assert connection.ping()  # the first one's Redis is untouched
        assert Client(url).health()["status"] == "ok"


def test_up_leaves_a_stranger_redis_on_its_socket_alone(tmp_path: Path) -> None:
    from tests.conftest import redis_server_binary

    data = tmp_path / "hall"
    data.mkdir()
    stranger = subprocess.Popen(
        [
            redis_server_binary(),
            "--port",
            "0",
            "--unixsocket",
            str(data / "redis.sock"),
            "--dir",
            str(tmp_path),
            "--save",
            "",
        ],
        stdout=subprocess.DEVNULL,
    )
    try:
        connection = redis.Redis(unix_socket_path=str(data / "redis.sock"))
        wait_until((data / "redis.sock").exists, 20, "the stranger's Redis to open its socket")
        proc = subprocess.run(
            [*UP, "--port", str(free_port()), "--data-dir", str(data)],
            env=up_env(),
            capture_output=True,
            text=True,
            timeout=90,
        )
        assert proc.returncode == 1
        assert "a Redis that this dicehall up did not start is serving" in proc.stderr
        assert connection.ping() and stranger.poll() is None
    finally:
        stranger.terminate()
        stranger.wait()


def test_up_moves_a_snapshot_only_data_dir_to_the_append_only_file(tmp_path: Path) -> None:
    from tests.conftest import redis_server_binary

    data = tmp_path / "hall"
    data.mkdir()
    old = subprocess.Popen(
        [
            redis_server_binary(),
            "--port",
            "0",
            "--unixsocket",
            str(tmp_path / "old.sock"),
            "--dir",
            str(data),
            "--dbfilename",
            "dicehall.rdb",
            "--appendonly",
            "no",
        ],
        stdout=subprocess.DEVNULL,
    )
    wait_until((tmp_path / "old.sock").exists, 20, "the old Redis to open its socket")
    before = redis.Redis(unix_socket_path=str(tmp_path / "old.sock"))
    before.set("kept", "yes")
    before.shutdown(save=True)
    old.wait()
    with running_up("--data-dir", str(data), "--fsync", "always"):
        after = redis.Redis(unix_socket_path=str(data / "redis.sock"), decode_responses=True)
        assert after.get("kept") == "yes"
        assert after.info("persistence")["aof_enabled"] == 1
        assert after.config_get("appendfsync") == {"appendfsync": "always"}
    assert (data / "dicehall.aof").exists()


def children_of(pid: int) -> list[tuple[int, str]]:
    """(pid, command line) of the processes ``pid`` started (Linux /proc)."""
    found = []
    for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
        cmdline = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        found.append((int(child), cmdline))
    return found


def wait_for_workers(connection: redis.Redis, count: int) -> None:
    wait_until(
        lambda: len(Worker.all(connection=connection)) >= count,
        30,
        f"{count} rq workers to register",
        ignore=STARTING,
    )
