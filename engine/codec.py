"""JSON round trip for game states: dataclasses in, plain data out, and back exactly.

cattrs does the structuring from type hints (nested dataclasses, lists, tuples, dicts,
Optional, str-Enums), so every game's state class needs no hand-written serialiser. Use
``list`` rather than ``dict[int, ...]`` for per-seat data: JSON object keys are strings.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TypeVar

import cattrs

T = TypeVar("T")

_converter = cattrs.Converter()


def dump(state: Any) -> dict[str, Any]:
    """Unstructure a state into JSON-ready data."""
    return _converter.unstructure(state)


def load(cls: type[T], data: Mapping[str, Any]) -> T:
    """Structure JSON data into an instance of ``cls``."""
    return _converter.structure(data, cls)


def canonical_json(data: Any) -> str:
    """Stable JSON text (sorted keys, no spaces): equal data gives equal bytes."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))
