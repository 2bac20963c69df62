"""What a process built last from a game's state for one seat, given again for that state.

Some things a seat is told are wanted several times for one state: its described legal actions
(``service.described``) and its view (``service.views``) by the answer of the move that made
the state, by the ``decision_due`` notice its event stream sends a moment later, by ``GET
legal-actions`` or ``GET view`` and by a feed's ``pending``. A :class:`SeatMemo` keeps, per
(game, seat), the last value it built, with the version and the stored bytes of the state it
was built from (``GameRecord.state_json``), and gives it again only for a record of the same
version *and* the same bytes: exactly what building it again would give (``service.decoded``
keeps decoded states on the same terms). The key holds the seat, so one seat's value is never
given for another's; a record whose bytes are unknown (its state set since it was read or
written) is never served from here nor held. The values are shared: callers only read them.
Bounded: the ``size`` (game, seat) pairs used last.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from engine.contract import Game
from service.recent import hold
from service.store import GameRecord

V = TypeVar("V")


class SeatMemo(Generic[V]):
    """A bounded, per-process store of values built by ``build(game, state, seat)`` (see the
    module)."""

    def __init__(self, build: Callable[[Game, Any, int | None], V], size: int) -> None:
        self.build = build
        self.size = size
        self._entries: OrderedDict[tuple[str, int | None], tuple[int, bytes, V]] = OrderedDict()

    def get(self, game: Game, record: GameRecord, state: Any, seat: int | None) -> V:
        """``seat``'s value at ``record``'s state (``state``, decoded): the one held for its
        version and stored bytes, else built now, then held."""
        entry = self._entry(record, seat)
        if entry is not None:
            return entry[2]
        value = self.build(game, state, seat)
        data = record.state_json
        if data is not None:
            hold(self._entries, (record.id, seat), (record.version, data, value), self.size)
        return value

    def held(self, record: GameRecord, seat: int | None) -> V | None:
        """``seat``'s value at ``record``'s state if this process holds it, else None (nothing
        is built)."""
        entry = self._entry(record, seat)
        return None if entry is None else entry[2]

    def _entry(self, record: GameRecord, seat: int | None) -> tuple[int, bytes, V] | None:
        """The entry held for ``seat`` at ``record``'s version and stored bytes, if any."""
        data = record.state_json
        if data is None:
            return None
        entry = self._entries.get((record.id, seat))
        if entry is not None and entry[0] == record.version and entry[1] == data:
            return entry
        return None

    def __len__(self) -> int:
        return len(self._entries)
