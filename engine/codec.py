"""JSON round trip for game states: dataclasses in, plain data out, and back exactly.

cattrs does the structuring from type hints (nested dataclasses, lists, tuples, dicts,
Optional, str-Enums), so every game's state class needs no hand-written serialiser. Use
``list`` rather than ``dict[int, ...]`` for per-seat data: JSON object keys are strings.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TypeVar, get_args, get_origin

import cattrs

T = TypeVar("T")

_converter = cattrs.Converter()

_SCALARS = (int, str, bool, float)
_PLAIN = (int, str, bool, float, type(None))


def _list_of_scalars(hint: Any) -> bool:
    return get_origin(hint) is list and get_args(hint)[:1] in ((int,), (str,), (bool,), (float,))


def _list_of_scalar_lists(hint: Any) -> bool:
    return get_origin(hint) is list and _list_of_scalars((get_args(hint) or (None,))[0])


def _list_of_json_dicts(hint: Any) -> bool:
    return hint == list[dict[str, Any]]


def json_copy(value: Any) -> Any:
    """What cattrs makes of a value typed ``Any`` when it is plain JSON data (a copy, walked
    without cattrs's dispatch per item); anything else goes to cattrs as before."""
    kind = type(value)
    if kind is dict:
        return {key: json_copy(item) for key, item in value.items()}
    if kind is list:
        return [json_copy(item) for item in value]
    if kind in _PLAIN:
        return value
    return _converter.unstructure(value)


# The same data as cattrs's own hooks give, made without its dispatch per item: a state's
# lists of numbers, texts and flags copied whole, and King of the Dice's log (plain JSON
# entries) copied by a walk. Half of that game's state encoding went to these.
_converter.register_unstructure_hook_func(_list_of_scalars, list)
_converter.register_unstructure_hook_func(
    _list_of_scalar_lists, lambda value: [list(item) for item in value]
)
_converter.register_unstructure_hook_func(
    _list_of_json_dicts, lambda value: [json_copy(item) for item in value]
)


def dump(state: Any) -> dict[str, Any]:
    """Unstructure a state into JSON-ready data."""
    return _converter.unstructure(state)


def load(cls: type[T], data: Mapping[str, Any]) -> T:
    """Structure JSON data into an instance of ``cls``."""
    return _converter.structure(data, cls)


def canonical_json(data: Any) -> str:
    """Stable JSON text (sorted keys, no spaces): equal data gives equal bytes."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))
