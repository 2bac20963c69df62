"""Decision notices that carry everything needed to answer them.

A ``decision_due`` notice (in an account's feed, a game's feed, or a ``pending`` list) is
stored small: the game, the seat, the decision id. When a client reads it, it is completed here
from the game as it is now: the seat's view, its legal actions (with their texts), the
decision id to send as ``If-Match``, the deadline, and the seat's measured round trip for its
previous decision in that game. A bot answers with one POST.

A notice whose decision has been answered or superseded since it was written says so
(``current: false``) and carries nothing to answer. ``detail`` trims what a notice carries:
``full`` (view and actions with texts), ``compact`` (view and bare actions: Burgundy's longest
lists are about 2,000 actions) or ``none`` (the notice alone).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from engine.contract import Game
from engine.games import get_game
from service.announce import decision_due
from service.decoded import DecodedStates
from service.described import Described, DescribedActions, described_actions
from service.store import GameRecord, GameStatus, GameStore
from service.views import Views

Detail = Literal["full", "compact", "none"]
DETAILS: tuple[Detail, ...] = ("full", "compact", "none")


class Briefing:
    """Completes ``decision_due`` notices from the games' current records (with the states,
    described actions and views this process holds for them: ``service.decoded``,
    ``service.described``, ``service.views``)."""

    def __init__(
        self,
        store: GameStore,
        described: DescribedActions | None = None,
        states: DecodedStates | None = None,
        views: Views | None = None,
    ) -> None:
        self.store = store
        self.described = described if described is not None else DescribedActions()
        self.states = states if states is not None else DecodedStates()
        self.views = views if views is not None else Views()

    def complete(self, notices: Iterable[dict[str, Any]], detail: Detail) -> list[dict[str, Any]]:
        """Every notice, ``decision_due`` ones completed (each game and seat read once, in
        one round trip)."""
        read: dict[tuple[str, int], tuple[GameRecord | None, float | None]] = {}
        completed = []
        for notice in notices:
            if notice.get("type") == "decision_due":
                key = (notice["game_id"], notice["seat"])
                if key not in read:
                    read[key] = self.store.load_seat(*key)
                record, last_time = read[key]
                notice = self.brief(record, notice, detail, last_time)
            completed.append(notice)
        return completed

    def owed(self, record: GameRecord, seat: int, detail: Detail) -> dict[str, Any] | None:
        """The completed notice of the decision ``seat`` owes now, or None."""
        if record.status is not GameStatus.ACTIVE:
            return None
        game = get_game(record.game)
        state = self.states.decoded(game, record)
        try:
            prompts = game.to_act(state)
            if seat not in prompts:
                return None
            notice = decision_due(record, seat, prompts[seat])
            last_time = self.store.last_time(record.id, seat)
            return self._fill(notice, record, state, detail, last_time)
        finally:
            self.states.keep(record, state)

    def brief(
        self,
        record: GameRecord | None,
        notice: dict[str, Any],
        detail: Detail,
        last_time: float | None = None,
    ) -> dict[str, Any]:
        """``notice`` completed from ``record`` and the seat's ``last_time`` (or marked no
        longer current)."""
        seat = notice["seat"]
        stale = {**notice, "current": False}
        if record is None or record.status is not GameStatus.ACTIVE:
            return stale
        if notice.get("decision", notice.get("version")) != record.decision(seat):
            return stale
        game = get_game(record.game)
        state = self.states.decoded(game, record)
        try:
            if seat not in game.to_act(state):
                return stale
            return self._fill({**notice}, record, state, detail, last_time)
        finally:
            self.states.keep(record, state)

    def _fill(
        self,
        notice: dict[str, Any],
        record: GameRecord,
        state: Any,
        detail: Detail,
        last_time: float | None,
    ) -> dict[str, Any]:
        seat = notice["seat"]
        notice.update(
            current=True,
            version=record.version,
            decision=record.decision(seat),
            deadline=record.deadline(seat),
            last_round_trip=last_time,
        )
        game = get_game(record.game)
        actions = self.described.get(game, record, state, seat) if detail == "full" else None
        view = self.views.get(game, record, state, seat) if detail != "none" else None
        notice.update(what_to_answer(game, state, seat, detail, actions, view))
        return notice


def what_to_answer(
    game: Game,
    state: Any,
    seat: int,
    detail: Detail,
    described: Described | None = None,
    view: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """What a notice carries for ``seat`` to answer from: its view (``view`` if given) and its
    legal actions, with their texts (``full``: ``described`` if given, the seat's described
    actions in ``state``), without (``compact``), or nothing (``none``)."""
    if detail == "none":
        return {}
    actions: list[dict[str, Any]]
    if detail == "compact":
        actions = [{"action": action} for action in game.legal_actions(state, seat)]
    else:
        actions = described if described is not None else described_actions(game, state, seat)
    return {"view": view if view is not None else game.view(state, seat), "actions": actions}
