"""The eight Diceland maps A-H (house designs), loaded once at import from the JSON files here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.diceland.board import Board

MAP_NAMES: tuple[str, ...] = ("A", "B", "C", "D", "E", "F", "G", "H")

MAP_TEXT: dict[str, str] = {
    name: Path(__file__).with_name(f"{name}.json").read_text() for name in MAP_NAMES
}
"""Each map's JSON file, as stored."""

MAP_DATA: dict[str, dict[str, Any]] = {name: json.loads(text) for name, text in MAP_TEXT.items()}
"""Each map's JSON data, shared read-only by every view (copy before changing it)."""

BOARDS: dict[str, Board] = {name: Board(data) for name, data in MAP_DATA.items()}


def map_data(name: str) -> dict[str, Any]:
    """A fresh copy of a map's data, safe to hand out in a view."""
    return json.loads(MAP_TEXT[name])
