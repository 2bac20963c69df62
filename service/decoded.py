"""The decoded game states a process holds, so the requests of one move decode it once.

A move is a ``GET legal-actions`` and a ``POST actions`` on the same state, and the ``POST``
leaves the next one behind; each request reads the game's record (the version check of the
commit needs that read anyway), and used to turn its state into the engine's objects again
(``Game.load_state``). :class:`DecodedStates` keeps, per game, the last state object this
process decoded or committed, with the version and the stored bytes of the state it stands
for (``GameRecord.state_json``). A request reuses it only when the record it has just read has
the same version *and* the same bytes, so what it reuses is exactly what decoding would give,
even if the store lost a write and another state took the same version; the record read stays
the authority and the commit's version check stays the guard. Comparing bytes costs next to
nothing, and a record read from the store parses its state only when something reads it
(``StoredRecord``), so a request that reuses a state parses none.

An entry is taken out while a request uses it (the move path changes its state in place),
and put back after, so no two requests ever share one object, under gevent or threads.
Bounded: the ``size`` games used last.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from engine.contract import Game
from service.recent import hold
from service.store import GameRecord

SIZE = 256
"""Games a process keeps a decoded state for (the ones used last)."""


class DecodedStates:
    """A bounded, per-process store of decoded states by game (see the module)."""

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self._entries: OrderedDict[str, tuple[int, bytes, Any]] = OrderedDict()

    def take(self, record: GameRecord) -> Any | None:
        """The decoded state of ``record`` (now the caller's own, to change at will), or None
        when this process holds none that matches its version and stored bytes."""
        entry = self._entries.pop(record.id, None)
        if entry is None:
            return None
        version, data, state = entry
        if version != record.version or data != record.state_json:
            return None
        return state

    def decoded(self, game: Game, record: GameRecord) -> Any:
        """``record``'s state decoded: the one held for it (:meth:`take`), else decoded now;
        the caller's own until it keeps it again."""
        state = self.take(record)
        return state if state is not None else game.load_state(record.state)

    def keep(self, record: GameRecord, state: Any) -> None:
        """Hold ``state``, the decoded ``record.state``, for the next request on the game.
        The caller hands it over: it must not change it afterwards. A record whose stored
        bytes are unknown (``state_json`` None: its state set since it was read or written)
        leaves nothing to compare, so nothing is kept."""
        if record.state_json is None:
            self._entries.pop(record.id, None)
            return
        hold(self._entries, record.id, (record.version, record.state_json, state), self.size)

    def __len__(self) -> int:
        return len(self._entries)
