"""Clients generated from the committed ``openapi.yaml`` at test time, into temporary
directories (generated code is never committed): a Python package by openapi-python-client,
and TypeScript types by openapi-typescript compiled with ``play.ts`` (openapi-fetch) by tsc
in strict mode. The commands are the ones docs/API.md gives.
"""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]
OPENAPI = ROOT / "openapi.yaml"
TYPESCRIPT = Path(__file__).resolve().parent / "typescript"
PACKAGE = "dicehall_client"

PLANS: list[dict[str, Any]] = [
    {"game": "carcassonne", "seats": 2, "bot": "heuristic", "options": {}},
    {"game": "burgundy", "seats": 2, "bot": "heuristic", "options": {"duchy": "A"}},
    {"game": "diceland", "seats": 2, "bot": "heuristic", "options": {"maps": ["A", "D"]}},
    {"game": "kingdice", "seats": 2, "bot": "heuristic", "options": {}},
]
"""The games each generated client plays: short ones (two seats, the heuristic bot)."""

GENERATE_PYTHON = (
    "openapi-python-client generate --path openapi.yaml --meta none --output-path dicehall_client"
)
GENERATE_TYPESCRIPT = "npx openapi-typescript openapi.yaml -o api.d.ts"
COMPILE_TYPESCRIPT = "npx tsc --strict --noEmitOnError -p tsconfig.json"
"""The commands docs/API.md gives, run as they are in a folder holding openapi.yaml."""


def run(command: list[str], cwd: Path, timeout: float = 300) -> str:
    """Run a tool; its output is the error message if it fails."""
    done = subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="session")
def python_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """The Python client generated from openapi.yaml, imported as ``dicehall_client``."""
    where = tmp_path_factory.mktemp("python-client")
    shutil.copy(OPENAPI, where / "openapi.yaml")
    tool = Path(sys.executable).parent / "openapi-python-client"
    run([str(tool), *GENERATE_PYTHON.split()[1:]], cwd=where)
    sys.path.insert(0, str(where))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(where))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def npm_ready() -> Path:
    """``npm ci`` in the TypeScript folder unless its node_modules matches the lock file."""
    npm = shutil.which("npm")
    assert npm is not None, "npm (node 20) is needed for the TypeScript client test"
    marker = TYPESCRIPT / "node_modules" / ".package-lock.json"
    lock = TYPESCRIPT / "package-lock.json"
    if not marker.exists() or marker.stat().st_mtime < lock.stat().st_mtime:
        run([npm, "ci", "--no-audit", "--no-fund"], cwd=TYPESCRIPT)
    return TYPESCRIPT / "node_modules"


@pytest.fixture(scope="session")
def typescript_player(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``play.ts`` compiled by ``tsc --strict`` against types that openapi-typescript
    generated from openapi.yaml; returns the JavaScript file to run with node."""
    modules = npm_ready()
    where = tmp_path_factory.mktemp("typescript-client")
    for name in ("play.ts", "tsconfig.json", "package.json"):
        shutil.copy(TYPESCRIPT / name, where / name)
    shutil.copy(OPENAPI, where / "openapi.yaml")
    os.symlink(modules, where / "node_modules")
    npx = shutil.which("npx")
    assert npx is not None, "npx (node 20) is needed for the TypeScript client test"
    run([npx, *GENERATE_TYPESCRIPT.split()[1:]], cwd=where)
    run([npx, *COMPILE_TYPESCRIPT.split()[1:]], cwd=where)
    return where / "out" / "play.js"
