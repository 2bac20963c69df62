"""The views a process built last, per game and seat (``service.seatmemo``).

A seat's view is built for the answer of the move that made the state, then again for the
``decision_due`` notice that the seat's event stream sends a moment later, and for ``GET
view``: :class:`Views` keeps the last view per (game, seat) and gives it again only for the
very state it was built from. A held view is a copy in plain JSON types (what every answer
sends), so it shares nothing with the state it came from, which the next move changes in
place (``service.decoded``).
"""

from __future__ import annotations

from typing import Any

import orjson

from engine.contract import Game
from service.seatmemo import SeatMemo

SIZE = 256
"""(game, seat) pairs a process keeps a view for (the ones used last; a view is a few kB)."""


class Views(SeatMemo[dict[str, Any]]):
    """A bounded, per-process store of seats' views (see the module)."""

    def __init__(self, size: int = SIZE) -> None:
        super().__init__(view_copy, size)


def view_copy(game: Game, state: Any, seat: int | None) -> dict[str, Any]:
    """``seat``'s view of ``state`` (None: a spectator's), as its JSON reads back."""
    view: dict[str, Any] = orjson.loads(
        orjson.dumps(game.view(state, seat), option=orjson.OPT_NON_STR_KEYS)
    )
    return view
