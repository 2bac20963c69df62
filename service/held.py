"""The record of each game as this process's last move left it, for the game's next move.

A client playing a game sends its moves one after another, most often on one connection and
so to one process, which wrote the game's record itself a moment before. :class:`HeldRecords`
keeps, per game, the record a move committed by this process left (its version and its
``stamp``, the mark the store writes anew with every write: ``GameRecord.stamp``), and the
next move of that game here decides on it without reading the game again: its guarded
commit writes only if the game still holds that version *and* that stamp, so it writes
exactly what it would have written after a read (a stamp is never written twice, so even a
lost write that another record replaced at the same version is told apart). Anything else
(another process moved meanwhile, a refusal decided on the held record) reads the game and
decides again, as a move always did (``service.games.GameService.play``).

An entry is taken out by the move that uses it, so no two requests share a record, under
gevent or threads; the state decoded with it is ``service.decoded``'s, on the same terms.
Bounded: the ``size`` games used last.
"""

from __future__ import annotations

from collections import OrderedDict

from service.recent import hold
from service.store import GameRecord

SIZE = 256
"""Games a process holds a record for (the ones moved last)."""


class HeldRecords:
    """A bounded, per-process store of the records this process's moves left (see the
    module)."""

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self._entries: OrderedDict[str, GameRecord] = OrderedDict()

    def keep(self, record: GameRecord) -> None:
        """Hold ``record``, as the commit of a move of this process wrote it (its stamp
        set), for the game's next move; the caller hands it over and never changes it
        again."""
        if record.stamp is None or record.state_json is None:
            self._entries.pop(record.id, None)
            return
        hold(self._entries, record.id, record, self.size)

    def take(self, game_id: str) -> GameRecord | None:
        """The record held for the game (now the caller's own), or None."""
        return self._entries.pop(game_id, None)

    def __len__(self) -> int:
        return len(self._entries)
