"""The described legal actions a process worked out last, per game and seat.

A seat's next actions, each with its sentence, are wanted several times for one state (see
``service.seatmemo``). In Burgundy a list runs to hundreds of actions, and building and
describing it is most of a move's own work: :class:`DescribedActions` keeps the last list per
(game, seat) and gives it again only for the very state it was built from.
"""

from __future__ import annotations

from typing import Any

from engine.contract import Game
from service.seatmemo import SeatMemo

SIZE = 128
"""(game, seat) pairs a process keeps described actions for (the ones used last): the reuse
it is for comes within one move's requests, and a Burgundy list can weigh ~120 KB, so 128
bound it to ~15 MB a process."""

Described = list[dict[str, Any]]


def described_actions(game: Game, state: Any, seat: int) -> Described:
    """Every legal action of ``seat`` in ``state``, each with the game's sentence for it (the
    ``actions`` of the legal actions, of a move's answer and of a full notice)."""
    actions = game.legal_actions(state, seat)
    texts = game.describe_all(state, seat, actions)
    return [{"action": a, "text": t} for a, t in zip(actions, texts, strict=True)]


class DescribedActions(SeatMemo[Described]):
    """A bounded, per-process store of described legal actions (see the module)."""

    def __init__(self, size: int = SIZE) -> None:
        super().__init__(_described, size)


def _described(game: Game, state: Any, seat: int | None) -> Described:
    return [] if seat is None else described_actions(game, state, seat)
