"""The views a process built last, per game and seat (``service.seatmemo``).

A seat's view is built for the answer of the move that made the state, then again for the
``decision_due`` notice that the seat's event stream sends a moment later, and for ``GET
view``: :class:`Views` keeps the last view per (game, seat) and gives it again only for the
very state it was built from. A view shares nothing with its state (``Game.view``), which the
next move changes in place (``service.decoded``), so a held view stays the one of its version.
"""

from __future__ import annotations

from typing import Any

from engine.contract import Game
from service.seatmemo import SeatMemo

SIZE = 256
"""(game, seat) pairs a process keeps a view for (the ones used last; a view is a few kB)."""


class Views(SeatMemo[dict[str, Any]]):
    """A bounded, per-process store of seats' views (see the module)."""

    def __init__(self, size: int = SIZE) -> None:
        super().__init__(_view, size)


def _view(game: Game, state: Any, seat: int | None) -> dict[str, Any]:
    view: dict[str, Any] = game.view(state, seat)
    return view
