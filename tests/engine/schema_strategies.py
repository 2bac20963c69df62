"""Hypothesis strategies from the engine's JSON Schemas: values a schema accepts, and near
misses (one field wrong: a float or a boolean for an integer, a string for a number, an extra
key, a missing field, an unknown type, a number out of range).

Written for the subset of JSON Schema the engine's builders emit (``engine/schemas.py``).
hypothesis-jsonschema (0.23.1, the latest) fails on every object schema with the hypothesis
this project uses (6.170: ``AttributeError: 'many' object has no attribute 'more'``, an
internal it relied on), so this stays small and local.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

Schema = dict[str, Any]


def from_schema(schema: Schema) -> st.SearchStrategy[Any]:
    """Values ``schema`` accepts."""
    for key in ("oneOf", "anyOf"):
        if key in schema:
            return st.one_of([from_schema(sub) for sub in schema[key]])
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type")
    if kind == "integer":
        return st.integers(schema.get("minimum", -(2**31)), schema.get("maximum", 2**31))
    if kind == "number":
        return st.floats(schema.get("minimum", -1e9), 1e9)
    if kind == "string":
        return st.text(max_size=8)
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    if kind == "array":
        if "prefixItems" in schema:
            return st.tuples(*map(from_schema, schema["prefixItems"])).map(list)
        return st.lists(
            from_schema(schema["items"]),
            min_size=schema.get("minItems", 0),
            max_size=schema.get("maxItems", 6),
            unique_by=(lambda v: repr(v)) if schema.get("uniqueItems") else None,
        )
    if kind == "object":
        properties = schema.get("properties", {})
        required = {name: from_schema(properties[name]) for name in schema.get("required", [])}
        optional = {
            name: from_schema(sub) for name, sub in properties.items() if name not in required
        }
        return st.fixed_dictionaries(required, optional=optional)
    raise ValueError(f"no strategy for {schema!r}")


@st.composite
def sibling(draw: st.DrawFn, action: dict[str, Any], schema: Schema) -> dict[str, Any]:
    """``action`` (well formed) with one field drawn afresh from its schema: still well
    formed, often one the rules forbid; the check must agree with the legal actions."""
    fields = sorted(k for k in schema.get("properties", {}) if k != "type")
    if not fields:
        return action
    key = draw(st.sampled_from(fields))
    return {**action, key: draw(from_schema(schema["properties"][key]))}


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    """Every path to a value inside ``value`` (not the root), depth first."""
    out: list[tuple] = []
    items = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if isinstance(value, list)
        else []
    )
    for key, sub in items:
        out.append((*path, key))
        out.extend(_paths(sub, (*path, key)))
    return out


def _replace(value: Any, path: tuple, new: Any, delete: bool = False) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        copy = dict(value)
        if delete and not rest:
            del copy[head]
        else:
            copy[head] = _replace(value[head], rest, new, delete)
        return copy
    items = list(value)
    items[head] = _replace(value[head], rest, new, delete)
    return items


def _get(value: Any, path: tuple) -> Any:
    for key in path:
        value = value[key]
    return value


def _wrong(old: Any) -> list[Any]:
    """Values of a wrong type (or out of any range) for ``old``."""
    if isinstance(old, bool):
        return [int(old), "true", None]
    if isinstance(old, int):
        return [float(old), True, str(old), old + 1000, old - 1000, None]
    if isinstance(old, str):
        return [0, None, old + "?", ""]
    if old is None:
        return [0, "null", [], {}]
    if isinstance(old, list):
        return [None, {}, [*old, *old, 0], "[]"]
    return [None, [], "x"]


@st.composite
def near_miss(draw: st.DrawFn, action: dict[str, Any]) -> dict[str, Any]:
    """``action`` with one thing wrong."""
    how = draw(st.sampled_from(["field", "extra", "missing", "type", "type_value"]))
    paths = _paths(action)
    fields = [p for p in paths if p != ("type",)]
    if how == "field" and fields:
        path = draw(st.sampled_from(fields))
        return _replace(action, path, draw(st.sampled_from(_wrong(_get(action, path)))))
    if how == "missing" and len(action) > 1:
        key = draw(st.sampled_from(sorted(k for k in action if k != "type")))
        return _replace(action, (key,), None, delete=True)
    if how == "type":
        return {**action, "type": draw(st.sampled_from(["", "fly", "Pass", "score "]))}
    if how == "type_value":
        return {**action, "type": draw(st.sampled_from([None, 1, True, ["pass"]]))}
    extra = draw(st.sampled_from(["extra", "colour", "seat", "x", "kind"]))
    nested = [p for p in paths if isinstance(_get(action, p), dict)]
    where = draw(st.sampled_from([(), *nested]))
    target = _get(action, where)
    if extra in target:
        extra = "extra"
    return _replace(action, where, {**target, extra: draw(st.sampled_from([0, "blue", None]))})
