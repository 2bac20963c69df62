"""One way to run a bench script as a user would: ``python bench/<script>`` from the root."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_bench(script: str, *args: str, columns: int | None = None) -> str:
    """Run ``bench/<script>`` with ``args`` from the repository's root; its stdout.

    Fails the test with the end of its stderr when it exits other than 0. ``columns`` sets
    the terminal width that rich tables wrap to.
    """
    env = None if columns is None else {**os.environ, "COLUMNS": str(columns)}
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert done.returncode == 0, f"{script} exited {done.returncode}:\n{done.stderr[-3000:]}"
    return done.stdout
