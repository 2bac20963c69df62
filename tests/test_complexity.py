"""No function of engine, service or clients is rated E or worse by radon's cyclomatic
complexity (``radon cc -s -n E engine service clients`` lists none): split one that grows
past D (complexity above 30) into named steps."""

from __future__ import annotations

from pathlib import Path

from radon.complexity import cc_rank, cc_visit

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "service", "clients")
WORST_ALLOWED = "D"


def ranked(path: Path) -> list[tuple[str, int, str]]:
    """(name, complexity, rank) of every function, method and class in ``path``."""
    return [
        (block.fullname, block.complexity, cc_rank(block.complexity))
        for block in cc_visit(path.read_text())
    ]


def test_no_function_is_rated_e_or_worse() -> None:
    too_complex = [
        f"{path.relative_to(ROOT)}: {name} {rank} ({complexity})"
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        for name, complexity, rank in ranked(path)
        if rank > WORST_ALLOWED
    ]
    assert too_complex == []


def test_the_rank_sees_a_complex_function(tmp_path: Path) -> None:
    branches = "".join(f"    if x == {n}:\n        return {n}\n" for n in range(40))
    module = tmp_path / "tangled.py"
    module.write_text(f"def tangled(x):\n{branches}    return -1\n")
    assert [(name, rank) for name, _, rank in ranked(module)] == [("tangled", "F")]
