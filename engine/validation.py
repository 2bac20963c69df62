"""Strict validation against the engine's JSON Schemas (draft 2020-12).

JSON Schema calls ``5.0`` an integer; the engine does not: a whole-number float or a boolean
where an integer belongs is refused (games index lists with these numbers). Everything else
is standard 2020-12. :func:`problem` names the first offending field as a dotted path
(``"bonus.hex.1"``), the field a client must fix.

Two libraries, one schema: :class:`Checker` accepts through code ``fastjsonschema``
compiled from the schema (a few microseconds: every move passes here) when the schema uses
only keywords it implements alike; anything it refuses, and any value holding a float, goes
to ``jsonschema`` (the reference implementation, with the strict integer type) for the
verdict and the field to name. ``bench/validation.py`` measures both paths. ``jsonschema``
is imported on first use (it takes a tenth of a second; the CLI imports the engine).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

import fastjsonschema

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError
    from jsonschema.protocols import Validator


def _is_integer(checker: Any, value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@cache
def strict_validator_class() -> type[Validator]:
    """Draft 2020-12 where ``integer`` means a JSON integer only (not 5.0, not true)."""
    from jsonschema import Draft202012Validator, validators

    return validators.extend(
        Draft202012Validator,
        type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer),
    )


def compile_schema(schema: Mapping[str, Any]) -> Validator:
    """A strict validator for ``schema`` (checked against the 2020-12 meta-schema first)."""
    strict = strict_validator_class()
    strict.check_schema(dict(schema))
    return strict(schema)


def field_of(error: ValidationError) -> str:
    """The dotted path of the field ``error`` is about (the missing or unknown key included)."""
    path = [str(p) for p in error.absolute_path]
    instance = error.instance
    required = error.validator_value
    if error.validator == "required" and isinstance(instance, dict) and isinstance(required, list):
        missing = [k for k in required if k not in instance]
        path.extend(missing[:1])
    elif error.validator == "additionalProperties" and isinstance(instance, dict):
        known = error.schema.get("properties", {}) if isinstance(error.schema, Mapping) else {}
        path.extend(sorted(k for k in instance if k not in known)[:1])
    return ".".join(path)


def _relevance(error: ValidationError) -> Any:
    from jsonschema.exceptions import relevance

    return relevance(error)


def _misfit(error: ValidationError) -> bool:
    """Whether a oneOf/anyOf branch's ``error`` says the branch is not the one meant: the
    value is not even of the branch's type, or a discriminator (a ``const``) differs."""
    return error.validator == "const" or (error.validator == "type" and not error.relative_path)


def _narrow(error: ValidationError) -> ValidationError:
    """Descend into a oneOf/anyOf error through the one branch the value was meant for."""
    while error.validator in ("oneOf", "anyOf") and error.context:
        branches: dict[Any, list[ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        meant = [errs for errs in branches.values() if not any(map(_misfit, errs))]
        if len(meant) != 1:
            break
        error = max(meant[0], key=_relevance)
    return error


def problem(validator: Validator, instance: Any) -> tuple[str, str] | None:
    """``None`` if ``instance`` is valid, else ``(field, message)`` of the most relevant error."""
    errors = validator.iter_errors(instance)
    first = next(errors, None)
    if first is None:
        return None
    error = _narrow(max([first, *errors], key=_relevance))
    field = field_of(error)
    return field, f"{field or 'the value'}: {error.message}"


FAST_KEYWORDS = frozenset(
    {
        "type", "const", "enum", "minimum", "maximum", "items", "minItems", "maxItems",
        "uniqueItems", "properties", "required", "additionalProperties", "oneOf", "anyOf",
        "description",
    }
)  # fmt: skip
"""Keywords ``fastjsonschema`` implements as 2020-12 does (``items`` as one schema)."""


def _fast_safe(schema: Any) -> bool:
    if not isinstance(schema, dict):
        return True
    if not FAST_KEYWORDS.issuperset(schema) or isinstance(schema.get("items"), list):
        return False
    subs = [
        *schema.get("properties", {}).values(),
        *schema.get("oneOf", []),
        *schema.get("anyOf", []),
        schema.get("items"),
        schema.get("additionalProperties"),
    ]
    return all(_fast_safe(sub) for sub in subs)


def _holds_float(value: Any) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, dict):
        return any(_holds_float(v) for v in value.values())
    if isinstance(value, list):
        return any(_holds_float(v) for v in value)
    return False


def _exclusive(a: Any, b: Any) -> bool:
    """Whether no value can match both schemas: proved from their two types, or from two
    different string ``const``s of a property both objects require; False when unsure."""
    if not isinstance(a, dict) or not isinstance(b, dict):
        return False
    ta, tb = a.get("type"), b.get("type")
    if not isinstance(ta, str) or not isinstance(tb, str):
        return False
    if ta != tb:
        return {ta, tb} != {"integer", "number"}
    if ta != "object":
        return False
    pa, pb = a.get("properties", {}), b.get("properties", {})
    for key in set(a.get("required", ())) & set(b.get("required", ())):
        ca, cb = pa.get(key, {}).get("const"), pb.get(key, {}).get("const")
        if isinstance(ca, str) and isinstance(cb, str) and ca != cb:
            return True
    return False


def _tried_in_turn(schema: Any) -> Any:
    """``schema`` for the compiled validator: each ``oneOf`` whose branches no value can match
    two of (:func:`_exclusive`) is an ``anyOf`` of the same branches, null ones first: it
    holds for the same values, and ``fastjsonschema`` stops at the first branch that holds
    instead of raising for every other one (half of a Burgundy action's check)."""
    if isinstance(schema, list):
        return [_tried_in_turn(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {key: _tried_in_turn(value) for key, value in schema.items()}
    branches = out.get("oneOf")
    if (
        "anyOf" not in out
        and isinstance(branches, list)
        and all(_exclusive(a, b) for n, a in enumerate(branches) for b in branches[n + 1 :])
    ):
        del out["oneOf"]
        out["anyOf"] = sorted(branches, key=lambda branch: branch.get("type") != "null")
    return out


class Checker:
    """A strict validator of one schema with a compiled fast path for valid values."""

    def __init__(self, schema: Mapping[str, Any]) -> None:
        self.schema = dict(schema)
        self.fast = (
            fastjsonschema.compile(_tried_in_turn(self.schema)) if _fast_safe(schema) else None
        )

    @property
    def strict(self) -> Validator:
        """The reference validator, compiled on first need."""
        if not hasattr(self, "_strict"):
            self._strict = compile_schema(self.schema)
        return self._strict

    def problem(self, instance: Any) -> tuple[str, str] | None:
        """``None`` if valid, else ``(field, message)`` (see :func:`problem`)."""
        if self.fast is not None and not _holds_float(instance):
            try:
                self.fast(instance)
            except fastjsonschema.JsonSchemaException:
                pass
            else:
                return None
        return problem(self.strict, instance)
