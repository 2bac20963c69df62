"""The eight Diceland maps A-H (house designs), loaded once at import from the JSON files here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.diceland.board import Board

MAP_NAMES: tuple[str, ...] = ("A", "B", "C", "D", "E", "F", "G", "H")

MAP_DATA: dict[str, dict[str, Any]] = {
    name: json.loads((Path(__file__).with_name(f"{name}.json")).read_text()) for name in MAP_NAMES
}
"""Each map's JSON data, exactly as stored (and as shown in views under ``"maps"``)."""

BOARDS: dict[str, Board] = {name: Board(data) for name, data in MAP_DATA.items()}
