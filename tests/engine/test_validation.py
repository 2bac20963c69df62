"""The compiled fast path of ``engine.validation.Checker`` accepts exactly what the strict
validator accepts, a ``oneOf`` it tries as an ``anyOf`` (its branches exclusive) included."""

from __future__ import annotations

from typing import Any

import pytest

from engine.validation import Checker, _exclusive, _tried_in_turn, compile_schema, problem

KIND = {"type": "string"}
MONK = {
    "type": "object",
    "properties": {"kind": {"type": "string", "const": "monk"}, "colour": KIND},
    "required": ["kind", "colour"],
    "additionalProperties": False,
}
WORKER = {
    "type": "object",
    "properties": {"kind": {"type": "string", "const": "worker"}, "value": {"type": "integer"}},
    "required": ["kind", "value"],
    "additionalProperties": False,
}
LOOSE = {"type": "object", "properties": {"kind": KIND}, "required": ["kind"]}
NULL = {"type": "null"}


@pytest.mark.parametrize(
    ("a", "b", "exclusive"),
    [
        (MONK, WORKER, True),  # two string consts of a property both require
        (MONK, NULL, True),  # two types
        ({"type": "integer"}, {"type": "number"}, False),  # 1 is both
        (MONK, LOOSE, False),  # {"kind": "monk", "colour": "x"} is both
        ({"type": "object"}, {"type": "object"}, False),
        ({"const": 1}, {"const": 2}, False),  # no type: unsure, so not exclusive
    ],
)
def test_exclusive_branches_are_proved_or_not_claimed(a, b, exclusive):
    assert _exclusive(a, b) is exclusive
    assert _exclusive(b, a) is exclusive


def test_a_one_of_is_tried_in_turn_only_when_its_branches_are_exclusive():
    exclusive = _tried_in_turn({"oneOf": [MONK, WORKER, NULL]})
    assert exclusive == {"anyOf": [NULL, MONK, WORKER]}
    overlapping = {"oneOf": [MONK, LOOSE]}
    assert _tried_in_turn(overlapping) == overlapping


VALUES: list[Any] = [
    None,
    {"kind": "monk", "colour": "blue"},
    {"kind": "worker", "value": 3},
    {"kind": "worker", "value": 3.0},
    {"kind": "worker", "value": True},
    {"kind": "monk"},
    {"kind": "monk", "colour": "blue", "extra": 1},
    {"kind": "other"},
    {"kind": "monk", "value": 3},
    [],
    5,
]


@pytest.mark.parametrize("branches", [[MONK, WORKER, NULL], [MONK, LOOSE], [NULL, LOOSE]])
@pytest.mark.parametrize("value", VALUES)
def test_the_checker_accepts_what_the_strict_validator_accepts(branches, value):
    schema = {"type": "object", "properties": {"bonus": {"oneOf": branches}}}
    instance = {"bonus": value}
    assert Checker(schema).problem(instance) == problem(compile_schema(schema), instance)
