"""The described legal actions a process worked out last, per game and seat.

A seat's next actions, each with its sentence, are wanted several times for one state: by the
answer of the move that made it (the mover's next decision), by the ``decision_due`` notice
its event stream sends at the same moment, by ``GET legal-actions`` and by a feed's
``pending``. In Burgundy a list runs to hundreds of actions, and building and describing it
is most of a move's own work. :class:`DescribedActions` keeps, per (game, seat), the last
list this process built, with the version and the stored bytes of the state it was built
from (``GameRecord.state_json``), and gives it again only for a record of the same version
*and* the same bytes: exactly what building it again would give (see ``service.decoded``,
which keeps decoded states on the same terms). The key holds the seat, so one seat's actions
are never given for another's. A record whose bytes are unknown is never served from here.
The lists are shared: callers only read them. Bounded: the ``size`` (game, seat) used last.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from engine.contract import Game
from service.recent import hold
from service.store import GameRecord

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


class DescribedActions:
    """A bounded, per-process store of described legal actions (see the module)."""

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self._entries: OrderedDict[tuple[str, int], tuple[int, bytes, Described]] = OrderedDict()

    def get(self, game: Game, record: GameRecord, state: Any, seat: int) -> Described:
        """``seat``'s described actions at ``record``'s state (``state``, decoded): the ones
        held for its version and stored bytes, else built now, then held."""
        data = record.state_json
        if data is None:
            return described_actions(game, state, seat)
        key = (record.id, seat)
        entry = self._entries.get(key)
        if entry is not None and entry[0] == record.version and entry[1] == data:
            return entry[2]
        described = described_actions(game, state, seat)
        hold(self._entries, key, (record.version, data, described), self.size)
        return described

    def __len__(self) -> int:
        return len(self._entries)
