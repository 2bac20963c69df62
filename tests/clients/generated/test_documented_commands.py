"""docs/API.md gives the commands that generate clients; the fixtures run exactly those."""

from __future__ import annotations

from tests.clients.generated.conftest import (
    COMPILE_TYPESCRIPT,
    GENERATE_PYTHON,
    GENERATE_TYPESCRIPT,
    ROOT,
)


def test_docs_give_the_generation_commands_the_tests_run() -> None:
    guide = (ROOT / "docs" / "API.md").read_text()
    for command in (GENERATE_PYTHON, GENERATE_TYPESCRIPT, COMPILE_TYPESCRIPT):
        assert command in guide, command
