"""The package template of ``engine/CONTRACT.md``: every game folder holds the same modules
for the same jobs, states store their phases as plain strings, ``check`` repeats none of the
guards ``Game.apply`` applies, and no module of ``engine/``, ``service/`` or ``clients/``
imports itself back through others (an import circle)."""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import textwrap
from enum import StrEnum
from pathlib import Path

import pytest

import engine
from engine.dice import Dice
from engine.games import REGISTERED, get_game

ENGINE = Path(engine.__file__).parent
EVERY_GAME = ("__init__.py", "state.py", "rules.py", "schemas.py", "view.py", "bots.py", "RULES.md")
"""The modules of every game folder, the toy's too."""
LISTED_GAME = (*EVERY_GAME, "picture.py", "search.py")
"""What a game offered to players has besides: its SVG picture and its search bot."""


def module_name(path: Path) -> str:
    parts = path.relative_to(ENGINE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def top_level_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Imports run when the module loads, ``if TYPE_CHECKING:`` blocks included (a circle
    for the type checker is a circle in the design); imports inside functions are deferred
    on purpose (plug-in lookups) and are left out."""
    found: list[ast.Import | ast.ImportFrom] = []
    pending: list[ast.stmt] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif isinstance(node, ast.If | ast.Try):
            pending.extend(node.body + node.orelse)
            if isinstance(node, ast.Try):
                pending.extend(node.finalbody)
                for handler in node.handlers:
                    pending.extend(handler.body)
    return found


def import_graph(package: str = "engine") -> dict[str, set[str]]:
    """Module -> the modules of ``package`` (a top-level folder) it imports when it loads."""
    modules = {module_name(p): p for p in (ENGINE.parent / package).rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets: set[str] = set()
        for node in top_level_imports(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
                continue
            base = node.module or ""
            if node.level:
                package = name if path.name == "__init__.py" else name.rpartition(".")[0]
                for _ in range(node.level - 1):
                    package = package.rpartition(".")[0]
                base = f"{package}.{base}".strip(".")
            for alias in node.names:
                child = f"{base}.{alias.name}"
                targets.add(child if child in modules else base)
        graph[name] = {t for t in targets if t in modules and t != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def test_no_module_of_the_engine_imports_itself_back():
    graph = import_graph()
    assert "engine.burgundy.view" in graph and "engine.contract" in graph["engine.burgundy.rules"]
    assert cycles(graph) == []


@pytest.mark.parametrize("package", ["service", "clients"])
def test_no_module_of_the_service_or_the_clients_imports_itself_back(package):
    graph = import_graph(package)
    assert len(graph) > 10
    assert cycles(graph) == []


def test_the_circle_finder_finds_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_type_checking_imports_count_and_function_imports_do_not():
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from engine.games import get_game\n"
        "def later():\n    from engine.search import lazy_bot\n"
    )
    modules = {n.module for n in top_level_imports(tree) if isinstance(n, ast.ImportFrom)}
    assert modules == {"typing", "engine.games"}


@pytest.mark.parametrize("name", REGISTERED)
def test_every_game_folder_has_the_template_modules(name):
    game = get_game(name)
    folder = ENGINE / name
    wanted = EVERY_GAME if name == "toy" else LISTED_GAME
    missing = [module for module in wanted if not (folder / module).is_file()]
    assert missing == [], f"{name} lacks {missing}"
    assert type(game).__module__ == f"engine.{name}.rules"
    assert game.bots is importlib.import_module(f"engine.{name}.bots").BOTS
    assert "random" in game.bots


@pytest.mark.parametrize("name", REGISTERED)
def test_a_game_says_it_is_over_only_through_is_over_and_stores_phases_as_strings(name):
    game = get_game(name)
    seats = game.min_seats if game.min_seats > 1 else 2
    state = game.setup(seats, game.validate_options(seats, game.options_example()), Dice(name))
    assert game.is_over(state) is False and game.result(state) is None
    stored = json.loads(json.dumps(game.dump_state(state)))
    for field in ("phase", "stage"):
        value = getattr(state, field, None)
        if isinstance(value, str):
            assert isinstance(value, StrEnum), f"{name}'s {field} is a StrEnum"
            assert type(stored[field]) is str and stored[field] == value
            assert type(game.load_state(stored)) is type(state)
            assert getattr(game.load_state(stored), field) is value


def test_the_service_and_the_clients_reach_a_game_only_through_the_registry():
    root = ENGINE.parent
    folders = {f"engine.{name}" for name in REGISTERED}
    offenders = []
    for path in [*(root / "service").rglob("*.py"), *(root / "clients").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            if any(n == f or n.startswith(f + ".") for n in names for f in folders):
                offenders.append(str(path.relative_to(root)))
    assert offenders == []


APPLY_GUARDS = {"game_over", "not_your_turn"}
"""The refusals ``Game.apply`` makes before it calls ``check``."""


@pytest.mark.parametrize("name", REGISTERED)
def test_check_repeats_none_of_the_guards_apply_applies(name):
    source = textwrap.dedent(inspect.getsource(type(get_game(name)).check))
    tree = ast.parse(source)
    codes = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)}
    asked = {
        n.func.attr
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
    }
    assert "validate_action" in asked, f"{name}.check validates the action first"
    assert not codes & APPLY_GUARDS, f"{name}.check raises what apply already refuses"
    assert not asked & {"is_over", "to_act"}, f"{name}.check asks again what apply asked"
