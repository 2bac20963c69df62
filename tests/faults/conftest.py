"""A whole service of real processes that the fault tests may kill: its own redis-server (with
an append-only file when asked), gunicorn, and rq workers, each restartable."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from service.config import Settings
from service.games import GameService
from service.runtime import game_service
from service.store import GameRecord, GameStatus
from tests.conftest import (
    ROOT,
    WaitTimeout,
    _child_env,
    free_port,
    redis_server_binary,
    stop,
    wait_http_ok,
    wait_redis,
    wait_until,
)


class Stack:
    """Redis, the API and workers for one test, each started, killed and restarted at will."""

    def __init__(self, workdir: Path, aof: bool = False) -> None:
        self.workdir = workdir
        self.aof = aof
        self.redis_port = free_port()
        self.url = f"redis://127.0.0.1:{self.redis_port}/0"
        self.redis_proc: subprocess.Popen[bytes] | None = None
        self.api_proc: subprocess.Popen[bytes] | None = None
        self.api_port = free_port()
        self.workers: list[subprocess.Popen[bytes]] = []
        self.logs: list[Path] = []

    # --- Redis ----------------------------------------------------------------------------
    def start_redis(self) -> None:
        persistence = (
            ["--appendonly", "yes", "--appendfsync", "everysec", "--save", ""]
            if self.aof
            else ["--appendonly", "no", "--save", ""]
        )
        self.redis_proc = subprocess.Popen(
            [
                redis_server_binary(),
                "--port",
                str(self.redis_port),
                "--bind",
                "127.0.0.1",
                "--dir",
                str(self.workdir),
                *persistence,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )
        wait_redis(redis.Redis.from_url(self.url), 20)

    def kill_redis(self) -> None:
        assert self.redis_proc is not None
        self.redis_proc.kill()
        self.redis_proc.wait()

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url, decode_responses=True)

    def service(self) -> GameService:
        return game_service(Settings(redis_url=self.url))

    # --- processes ------------------------------------------------------------------------
    def _env(self, **extra: str) -> dict[str, str]:
        return {**_child_env(self.url), **extra}

    def _log(self, name: str) -> Any:
        path = self.workdir / f"{name}-{len(self.logs)}.log"
        self.logs.append(path)
        return path.open("wb")

    def start_worker(self) -> subprocess.Popen[bytes]:
        with self._log("worker") as log:
            proc = subprocess.Popen(
                [sys.executable, "-m", "service.worker"],
                cwd=ROOT,
                env=self._env(),
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        self.workers.append(proc)
        return proc

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.api_port}"

    def start_api(self, **env: str) -> subprocess.Popen[bytes]:
        with self._log("api") as log:
            self.api_proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "gunicorn",
                    "--config",
                    str(ROOT / "deploy" / "gunicorn.conf.py"),
                    "--bind",
                    f"127.0.0.1:{self.api_port}",
                    "--workers",
                    "2",
                    "service.app:create_app()",
                ],
                cwd=ROOT,
                env=self._env(**env),
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        wait_http_ok(f"{self.base}/v1/health/live", 60, "gunicorn", self.api_proc)
        return self.api_proc

    def kill_api(self) -> None:
        """kill -9 of gunicorn's master and every one of its workers at once."""
        assert self.api_proc is not None
        os.killpg(self.api_proc.pid, signal.SIGKILL)
        self.api_proc.wait()

    def worker_doing_a_job(self, timeout: float = 30) -> tuple[subprocess.Popen[bytes], str]:
        """A worker of ours in the middle of a bot job, and that job's game."""
        return self._busy_worker(timeout, freeze=False)

    def frozen_worker_in_a_job(
        self, timeout: float = 30, wanted: Callable[[str], bool] | None = None
    ) -> tuple[subprocess.Popen[bytes], str]:
        """A worker of ours stopped (SIGSTOP) in the middle of a bot job, and that job's game:
        killing it now surely loses the job. ``wanted`` (a game id -> bool) is asked while the
        worker is stopped; a job whose game it refuses (say, one the job's own commit has
        already ended) is let go and another looked for."""
        return self._busy_worker(timeout, freeze=True, wanted=wanted)

    def _busy_worker(
        self, timeout: float, freeze: bool, wanted: Callable[[str], bool] | None = None
    ) -> tuple[subprocess.Popen[bytes], str]:
        from rq import Worker
        from rq.exceptions import NoSuchJobError
        from rq.job import Job, JobStatus

        connection = redis.Redis.from_url(self.url)
        pids = {proc.pid: proc for proc in self.workers if proc.poll() is None}

        def busy() -> tuple[subprocess.Popen[bytes], str] | None:
            for worker in Worker.all(connection=connection):
                job_id = worker.get_current_job_id()
                if worker.pid not in pids or not job_id:
                    continue
                job = Job.fetch(job_id, connection=connection)
                if job.func_name != "service.jobs.play_bot":
                    continue
                if not freeze:
                    return pids[worker.pid], job.args[0]
                os.kill(worker.pid, signal.SIGSTOP)
                still = Worker.find_by_key(worker.key, connection=connection)
                in_flight = job.get_status(refresh=True) == JobStatus.STARTED
                ours = still is not None and still.get_current_job_id() == job_id and in_flight
                if ours and (wanted is None or wanted(job.args[0])):
                    return pids[worker.pid], job.args[0]
                os.kill(worker.pid, signal.SIGCONT)
            return None

        # a job vanishes between listing and fetching when it ends: look again
        return wait_until(busy, timeout, "a worker of ours in a bot job", (NoSuchJobError,), 0.01)

    def close(self) -> None:
        for proc in self.workers:
            if proc.poll() is None:
                stop(proc)
        if self.api_proc is not None and self.api_proc.poll() is None:
            with_group = self.api_proc.pid
            stop(self.api_proc)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(with_group, signal.SIGKILL)
        if self.redis_proc is not None and self.redis_proc.poll() is None:
            stop(self.redis_proc)

    def tail(self) -> str:
        """The last lines of every process's log, for a failing test's message."""
        return "\n".join(
            f"--- {path.name}\n" + "\n".join(path.read_text(errors="replace").splitlines()[-30:])
            for path in self.logs
            if path.exists()
        )


@pytest.fixture()
def stack(tmp_path: Path) -> Iterator[Stack]:
    """A Redis without persistence, started; the test starts workers and the API it needs."""
    built = Stack(tmp_path)
    built.start_redis()
    yield built
    built.close()


@pytest.fixture()
def aof_stack(tmp_path: Path) -> Iterator[Stack]:
    """A Redis with an append-only file (fsync every second), started."""
    built = Stack(tmp_path, aof=True)
    built.start_redis()
    yield built
    built.close()


def kill9(proc: subprocess.Popen[bytes]) -> None:
    proc.kill()
    proc.wait()


def bot_games(service: GameService, per_game: int) -> list[str]:
    """``per_game`` two-seat heuristic-bot games of each of the four games; their ids."""
    ids = []
    for name in ("carcassonne", "burgundy", "diceland", "kingdice"):
        for n in range(per_game):
            record, _, _ = service.create(
                name, [{"kind": "bot", "bot": "heuristic"}] * 2, {}, seed=f"fault-{name}-{n}"
            )
            ids.append(record.id)
    return ids


class Progress:
    """Watches the versions of games (straight from Redis) to measure how long each waited."""

    def __init__(self, service: GameService, game_ids: list[str]) -> None:
        self.service = service
        self.game_ids = game_ids

    def snapshot(self) -> dict[str, GameRecord | None]:
        return dict(zip(self.game_ids, self.service.store.glance(self.game_ids), strict=True))

    def is_active(self, game_id: str) -> bool:
        """Whether the game is still being played (read straight from Redis)."""
        (record,) = self.service.store.glance([game_id])
        return record is not None and record.status is GameStatus.ACTIVE

    def waits_after(self, moment: Callable[[], None], timeout: float) -> dict[str, float]:
        """Do ``moment`` (a kill), then for every game active just before it, the seconds until
        its version next changes (or it is over). Fails if one has not moved after
        ``timeout`` s."""
        before = {
            gid: record.version
            for gid, record in self.snapshot().items()
            if record is not None and record.status is GameStatus.ACTIVE
        }
        moment()
        start = time.monotonic()
        waits: dict[str, float] = {}

        def all_moved() -> bool:
            elapsed = time.monotonic() - start
            for gid, record in self.snapshot().items():
                moved = record is not None and (
                    record.version != before.get(gid) or record.status is GameStatus.OVER
                )
                if gid in before and gid not in waits and moved:
                    waits[gid] = elapsed
            return len(waits) == len(before)

        try:
            wait_until(all_moved, timeout, "every active game to move after the kill")
        except WaitTimeout:
            stuck = sorted(set(before) - set(waits))
            message = f"games {stuck} did not move within {timeout} s of the kill"
            raise WaitTimeout(message) from None
        return waits

    def wait_all_over(self, timeout: float) -> None:
        left: list[str] = []

        def all_over() -> bool:
            left[:] = [
                gid
                for gid, record in self.snapshot().items()
                if record is None or record.status is not GameStatus.OVER
            ]
            return not left

        try:
            wait_until(all_over, timeout, "every game to finish", interval=0.1)
        except WaitTimeout:
            raise WaitTimeout(f"games {left} did not finish within {timeout} s") from None
