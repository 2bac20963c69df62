"""The processes a bench runs against, and what it reads from them.

A private ``redis-server`` (no persistence), gunicorns with the API's deploy config
(``deploy/gunicorn.conf.py``: gevent workers, two processes by default), rq workers
(``python -m service.worker``), all children of the bench and stopped when it ends. Plus the
two counters the benches report: Redis's own statistics (``INFO everything``) and the CPU
time of a gunicorn's worker processes (from ``/proc``).
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

import redis

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.conftest import (  # noqa: E402
    WaitTimeout,
    free_port,
    redis_server_binary,
    stop,
    wait_http_ok,
    wait_redis,
)


class Cluster:
    """Starts the bench's children; ``with Cluster() as c:`` stops them all on the way out."""

    def __init__(self) -> None:
        self.procs: list[subprocess.Popen] = []
        self.workdir = tempfile.mkdtemp(prefix="dicehall-bench-")
        self.redis_url = ""
        self.env: dict[str, str] = {}

    def __enter__(self) -> Cluster:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _start(self, args: list[str], env: dict[str, str], log: str) -> subprocess.Popen:
        with open(Path(self.workdir) / log, "wb") as out:
            proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        self.procs.append(proc)
        return proc

    def _log(self, name: str) -> str:
        path = Path(self.workdir) / name
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""

    def redis(self) -> redis.Redis:
        """Start redis-server on a free port; sets ``redis_url`` and the children's env."""
        port = free_port()
        self._start(
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
                self.workdir,
            ],
            dict(os.environ),
            "redis.log",
        )
        self.use(f"redis://127.0.0.1:{port}/0")
        client = redis.Redis.from_url(self.redis_url, decode_responses=True)
        wait_redis(client, 20)
        return client

    def use(self, redis_url: str, **env: str) -> None:
        """Point the children started from now on at ``redis_url`` (a Redis the bench
        started otherwise: a Redis Cluster, a Sentinel's), with ``env`` added."""
        self.redis_url = redis_url
        self.env = {
            **os.environ,
            "REDIS_URL": redis_url,
            "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
            **env,
        }

    def gunicorn(
        self, app: str, ready: str, extra_env: dict[str, str] | None = None
    ) -> tuple[str, subprocess.Popen]:
        """Start ``app`` under the deploy config; waits until GET ``ready`` answers 2xx.
        Returns the base URL and the master process."""
        port = free_port()
        name = f"gunicorn-{port}.log"
        proc = self._start(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "-c",
                str(ROOT / "deploy" / "gunicorn.conf.py"),
                "--bind",
                f"127.0.0.1:{port}",
                "--access-logfile",
                "/dev/null",
                app,
            ],
            {**self.env, **(extra_env or {})},
            name,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            wait_http_ok(f"{base}{ready}", 60, app, proc)
        except WaitTimeout as exc:
            raise RuntimeError(f"{exc}\n{self._log(name)}") from None
        return base, proc

    def process(self, args: list[str], log: str) -> subprocess.Popen:
        """Start any other child (``args``) with the cluster's env, its output in ``log``."""
        return self._start(args, self.env, log)

    def rq_workers(self, count: int) -> list[subprocess.Popen]:
        """Start ``count`` rq workers of the bot queue (as ``dicehall up`` does)."""
        return [
            self._start([sys.executable, "-m", "service.worker"], self.env, f"worker-{n}.log")
            for n in range(count)
        ]

    def close(self) -> None:
        for proc in reversed(self.procs):
            stop(proc)
        self.procs.clear()
        shutil.rmtree(self.workdir, ignore_errors=True)


@dataclass
class RedisCounters:
    """What Redis itself counted so far: calls per command, socket reads and reply writes,
    and its CPU seconds."""

    calls: dict[str, int] = field(default_factory=dict)
    reads: int = 0
    writes: int = 0
    cpu: float = 0.0

    @staticmethod
    def read(client: redis.Redis) -> RedisCounters:
        """One ``INFO everything`` (one round trip of the bench's own)."""
        info = client.info("everything")
        calls = {
            key.removeprefix("cmdstat_"): int(value["calls"])
            for key, value in info.items()
            if key.startswith("cmdstat_")
        }
        return RedisCounters(
            calls,
            int(info["total_reads_processed"]),
            int(info["total_writes_processed"]),
            float(info["used_cpu_user"]) + float(info["used_cpu_sys"]),
        )

    def since(self, before: RedisCounters) -> RedisCounters:
        """The difference, less the bench's own INFO (one call, one read, one write)."""
        calls = {
            name: count - before.calls.get(name, 0)
            for name, count in self.calls.items()
            if count - before.calls.get(name, 0) > 0
        }
        if "info" in calls:
            calls["info"] -= 1
            if not calls["info"]:
                del calls["info"]
        return RedisCounters(
            calls,
            self.reads - before.reads - 1,
            self.writes - before.writes - 1,
            self.cpu - before.cpu,
        )

    @property
    def commands(self) -> int:
        return sum(self.calls.values())

    @property
    def transactions(self) -> int:
        return self.calls.get("exec", 0)

    @property
    def round_trip_bound(self) -> int:
        """Commands less MULTI and EXEC of each block: at least the round trips made."""
        return self.commands - 2 * self.transactions


def children_cpu_seconds(parent: int) -> float:
    """User + system CPU seconds of the live children of ``parent`` (a gunicorn master's
    workers), read from ``/proc``; 0.0 where there is no ``/proc``."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in Path("/proc").iterdir() if Path("/proc/self/stat").exists() else []:
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[1]) == parent:
            total += int(fields[11]) + int(fields[12])
    return total / ticks


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (0-100) of ``values``, nearest rank; 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]


def machine_state() -> dict[str, Any]:
    """When and where a bench ran: UTC time, host, cores, load average at the start."""
    return {
        "utc": datetime.now(UTC).strftime("%Y-%m-%d %H:%M"),
        "host": platform.node(),
        "python": platform.python_version(),
        "cores": os.cpu_count(),
        "load_before": os.getloadavg(),
    }


def machine_line(machine: dict[str, Any]) -> str:
    """One line saying how busy the machine was (the figures depend on it)."""
    before = " ".join(f"{x:.1f}" for x in machine["load_before"])
    after = " ".join(f"{x:.1f}" for x in machine.get("load_after", ()))
    return (
        f"{machine['utc']} UTC on {machine['host']}, {machine['cores']} cores, Python "
        f"{machine['python']}; load average {before} before, {after} after"
    )
