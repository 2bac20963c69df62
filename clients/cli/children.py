"""Child processes that ``dicehall up`` owns: they die with it, and come back when they die.

Every child is started in a session of its own (so Ctrl-C in the terminal reaches only
``up``, which stops the children in order) and, on Linux, with a parent-death signal
(``prctl(PR_SET_PDEATHSIG, SIGTERM)``): if ``up`` itself is killed, even with ``kill -9``,
the kernel sends each child SIGTERM, so nothing is left running. A child that dies while
``up`` runs is started again after a backoff (1 s doubling to 30 s; a child that stayed up
for a minute starts again from 1 s).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO

PR_SET_PDEATHSIG = 1
BACKOFF_FIRST = 1.0
BACKOFF_MAX = 30.0
STEADY = 60.0


def die_with(parent: int) -> Callable[[], None] | None:
    """A ``preexec_fn`` that makes the child get SIGTERM when ``parent`` dies (Linux only)."""
    if not sys.platform.startswith("linux"):
        return None

    def arm() -> None:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != parent:  # the parent died before the signal was armed
            os.kill(os.getpid(), signal.SIGTERM)

    return arm


class Child:
    """One supervised process: its command, where its output goes, and its restarts."""

    def __init__(
        self,
        name: str,
        command: list[str],
        env: dict[str, str],
        output: Path | None,
    ) -> None:
        self.name = name
        self.command = command
        self.env = env
        self.output = output
        self.proc: subprocess.Popen[bytes] | None = None
        self.started = 0.0
        self.backoff = BACKOFF_FIRST
        self.restart_at: float | None = None
        self.restarts = 0

    def start(self) -> None:
        sink: IO[bytes] | None = None
        if self.output is not None:
            self.output.parent.mkdir(parents=True, exist_ok=True)
            sink = self.output.open("ab")
        try:
            self.proc = subprocess.Popen(
                self.command,
                env=self.env,
                stdout=sink,
                stderr=subprocess.STDOUT if sink else None,
                start_new_session=True,
                preexec_fn=die_with(os.getpid()),
            )
        finally:
            if sink is not None:
                sink.close()
        self.started = time.monotonic()
        self.restart_at = None

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    def exited(self) -> int | None:
        """The exit code if the child has exited (and is not yet due to restart), else None."""
        if self.proc is None or self.restart_at is not None:
            return None
        return self.proc.poll()

    def plan_restart(self) -> float:
        """Schedule the restart of an exited child; returns the delay."""
        if time.monotonic() - self.started > STEADY:
            self.backoff = BACKOFF_FIRST
        delay = self.backoff
        self.backoff = min(self.backoff * 2, BACKOFF_MAX)
        self.restart_at = time.monotonic() + delay
        return delay

    def due(self) -> bool:
        return self.restart_at is not None and time.monotonic() >= self.restart_at

    def restart(self) -> None:
        self.restarts += 1
        self.start()

    def signal(self, sig: int) -> None:
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.send_signal(sig)

    def wait(self, timeout: float) -> None:
        """Wait for the child to exit; SIGKILL it (and its process group) after ``timeout``."""
        if self.proc is None:
            return
        try:
            self.proc.wait(max(0.1, timeout))
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


def stop_all(children: list[Child], grace: float) -> None:
    """SIGTERM every child, then wait for each; what has not stopped after ``grace`` seconds
    is killed with its process group."""
    for child in children:
        child.restart_at = None
        child.signal(signal.SIGTERM)
    deadline = time.monotonic() + grace
    for child in children:
        child.wait(deadline - time.monotonic())
