"""The eight Diceland maps A-H (house designs), loaded once at import from the JSON files here.

The maps have **editions**: a game plays the edition it was created with (its option
``edition``, kept in its state), so that a game begun or logged before the maps were tuned
again replays exactly. The current edition's files are here; edition 1 (the maps up to
2026-11-23) is in ``edition1/``, edition 2 (tuned 2026-11-24, current until edition 3 of the
same day) in ``edition2/``, edition 3 (current until edition 4 of the same day) in
``edition3/``, edition 4 (current until edition 5, 2026-11-25) in ``edition4/``. A game
whose options or state name no edition was made before editions existed: edition 1.

Edition 6 (2026-11-25) changed no layout: it played edition 5's maps as the two sides of four
boards (:data:`BOARD_SIDES`), each seat dealt a board and choosing its side as the rulebook's
players do; editions 1-5 deal each seat a map. So editions 5 and 6 share their files, kept in
``edition6/`` (:data:`KEPT_IN`). Edition 7 (2026-11-25) retunes two maps of those boards
(RULES.md, *Edition 7*); its files are here.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from engine.diceland.board import Board

MAP_NAMES: tuple[str, ...] = ("A", "B", "C", "D", "E", "F", "G", "H")

EDITION = 7
"""The maps' current edition: new games play it (RULES.md, The maps)."""

EDITIONS: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7)

CURRENT_LAYOUTS: tuple[int, ...] = (7,)
"""The editions whose layouts are the files here."""

KEPT_IN: dict[int, int] = {5: 6}
"""Past editions whose layouts another's folder keeps (edition 6 changed the boards, not the
maps: editions 5 and 6 read ``edition6/``)."""

BOARD_SIDES: dict[int, tuple[tuple[str, str], ...]] = {
    6: (("A", "C"), ("B", "H"), ("D", "E"), ("F", "G")),
    7: (("A", "C"), ("B", "H"), ("D", "E"), ("F", "G")),
}
"""The four double-sided boards of an edition that has them, each as its (front, back) maps
(RULES.md, *Boards and sides*); an edition without boards deals each seat a map."""

FIRST_EDITION = 1
"""The edition of games made before editions existed (no ``edition`` in options or state)."""

MAP_TEXT: dict[str, str] = {
    name: Path(__file__).with_name(f"{name}.json").read_text() for name in MAP_NAMES
}
"""Each map's JSON file, as stored (current edition)."""

MAP_DATA: dict[str, dict[str, Any]] = {name: json.loads(text) for name, text in MAP_TEXT.items()}
"""Each map's JSON data (current edition), shared read-only by every view (copy before
changing it)."""

BOARDS: dict[str, Board] = {name: Board(data) for name, data in MAP_DATA.items()}
"""Each map's board (current edition)."""


@cache
def _old_data(edition: int) -> dict[str, dict[str, Any]]:
    folder = Path(__file__).with_name(f"edition{edition}")
    return {name: json.loads((folder / f"{name}.json").read_text()) for name in MAP_NAMES}


@cache
def _old_boards(edition: int) -> dict[str, Board]:
    return {name: Board(data) for name, data in _old_data(edition).items()}


def edition_data(edition: int) -> dict[str, dict[str, Any]]:
    """Every map's JSON data in ``edition`` (shared read-only)."""
    return MAP_DATA if edition in CURRENT_LAYOUTS else _old_data(KEPT_IN.get(edition, edition))


def edition_boards(edition: int) -> dict[str, Board]:
    """Every map's board in ``edition``."""
    return BOARDS if edition in CURRENT_LAYOUTS else _old_boards(KEPT_IN.get(edition, edition))


def boards_of(edition: int) -> tuple[tuple[str, str], ...]:
    """The double-sided boards of ``edition`` (none: each seat is dealt a map)."""
    return BOARD_SIDES.get(edition, ())


def board_name(sides: tuple[str, str] | list[str]) -> str:
    """A board's name: its two sides' letters, front first (``"A/C"``)."""
    return "/".join(sides)


def map_data(name: str) -> dict[str, Any]:
    """A fresh copy of a map's data (current edition), safe to hand out in a view."""
    return json.loads(MAP_TEXT[name])
