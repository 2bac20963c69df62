"""Clients speak HTTP only: no module under clients/ imports service, and only the verifier
(behind ``dicehall verify``) and ``dicehall match`` (bundled bots played in-process) import
the engine (DESIGN.md, Layers)."""

from __future__ import annotations

import ast
from pathlib import Path

CLIENTS = Path(__file__).resolve().parents[2] / "clients"
MAY_IMPORT_ENGINE = {"verifier.py", "cli/commands/match.py"}


def imported_roots(path: Path) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_no_client_module_imports_the_service() -> None:
    offenders = [p for p in CLIENTS.rglob("*.py") if "service" in imported_roots(p)]
    assert offenders == []


def test_only_the_verifier_imports_the_engine() -> None:
    importers = {
        p.relative_to(CLIENTS).as_posix()
        for p in CLIENTS.rglob("*.py")
        if "engine" in imported_roots(p)
    }
    assert importers <= MAY_IMPORT_ENGINE
    assert "verifier.py" in importers
