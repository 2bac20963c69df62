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
import orjson

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
    """What cattrs makes of a value typed ``Any`` when it is plain JSON data: a copy, made
    by an orjson round trip (several times faster than a walk in Python: King of the Dice's
    log, copied by its view and its state's encoding at every move), or, where orjson
    refuses the data (an integer beyond 64 bits, a key that is not a string), walked
    without cattrs's dispatch per item; anything else goes to cattrs as before."""
    kind = type(value)
    if kind is dict or kind is list:
        try:
            return orjson.loads(orjson.dumps(value))
        except TypeError:  # orjson.JSONEncodeError
            return _walked_copy(value)
    return _walked_copy(value)


def _walked_copy(value: Any) -> Any:
    kind = type(value)
    if kind is dict:
        return {key: _walked_copy(item) for key, item in value.items()}
    if kind is list:
        return [_walked_copy(item) for item in value]
    if kind in _PLAIN:
        return value
    return _converter.unstructure(value)


# The same data as cattrs's own hooks give, made without its dispatch per item: a state's
# lists of numbers, texts and flags copied whole, and King of the Dice's log (plain JSON
# entries) copied by ``json_copy``. Half of that game's state encoding went to these.
_converter.register_unstructure_hook_func(_list_of_scalars, list)
_converter.register_unstructure_hook_func(
    _list_of_scalar_lists, lambda value: [list(item) for item in value]
)
_converter.register_unstructure_hook_func(_list_of_json_dicts, json_copy)


def dump(state: Any) -> dict[str, Any]:
    """Unstructure a state into JSON-ready data."""
    return _converter.unstructure(state)


def load(cls: type[T], data: Mapping[str, Any]) -> T:
    """Structure JSON data into an instance of ``cls``."""
    return _converter.structure(data, cls)


def canonical_json(data: Any) -> str:
    """Stable JSON text (sorted keys, no spaces): equal data gives equal bytes."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))
