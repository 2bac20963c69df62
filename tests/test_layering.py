"""The layers of README.md's Layout, checked on every import statement (at module level or
inside a function): the engine is pure rules and imports neither the service nor the
clients; the service imports nothing from the clients; the clients speak HTTP, import
nothing from the service, and only the verifier (behind ``dicehall verify``) and
``dicehall match`` (bundled bots played in-process) import the engine."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "service", "clients")
FORBIDDEN = {
    "engine": {"service", "clients", "tests", "bench"},
    "service": {"clients", "tests", "bench"},
    "clients": {"service", "tests", "bench"},
}
"""Top-level packages each package must never import."""
CLIENTS_IMPORTING_ENGINE = {"verifier.py", "cli/commands/match.py"}


def imported_roots(path: Path) -> set[str]:
    """The top-level packages ``path`` imports (absolute imports; relative ones stay inside
    the module's own package)."""
    roots: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def modules(package: str) -> list[Path]:
    found = sorted((ROOT / package).rglob("*.py"))
    assert found, f"no modules under {package}/"
    return found


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_imports_a_layer_it_must_not(package: str) -> None:
    offenders = {
        path.relative_to(ROOT).as_posix(): sorted(imported_roots(path) & FORBIDDEN[package])
        for path in modules(package)
        if imported_roots(path) & FORBIDDEN[package]
    }
    assert offenders == {}, f"{package}/ must not import {sorted(FORBIDDEN[package])}"


def test_only_the_verifier_and_match_import_the_engine_among_the_clients() -> None:
    importers = {
        path.relative_to(ROOT / "clients").as_posix()
        for path in modules("clients")
        if "engine" in imported_roots(path)
    }
    assert importers <= CLIENTS_IMPORTING_ENGINE
    assert "verifier.py" in importers


def test_the_check_sees_imports_inside_functions(tmp_path: Path) -> None:
    module = tmp_path / "late.py"
    module.write_text("def f():\n    from service.store import GameStore\n    import clients.sdk\n")
    assert imported_roots(module) == {"service", "clients"}
