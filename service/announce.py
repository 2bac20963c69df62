"""What follows a committed change to a game: who is told, and what work is scheduled.

After every commit the game service hands the new record here: the bot seats that owe a
decision get a job, the seats that newly owe one get their deadline armed, external bots
hear it on their account feeds, a finished tournament game wakes its tournament. The game's
own event stream entries are shaped here too, so what clients hear is decided in one place.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from engine.contract import Prompt
from service.accounts import AccountStore
from service.connections import REDIS_FAILURES
from service.store import GameRecord, GameStatus

log = logging.getLogger(__name__)

FOLLOW_UP_PAUSES = (0.1, 0.2, 0.4, 0.8, 1.6, 2.0, 2.0, 2.0, 2.0)
"""Pauses between attempts at a follow-up while Redis fails: about 11 s, longer than a
failover takes (a cluster's node timeout or Sentinel's down-after, plus the election)."""


class Jobs(Protocol):
    """Background work the game service asks for (rq in the app and workers).

    ``rides_commits``: the queue lives on the game's Redis, so a move's bot jobs ride the
    move's own commit: ``bots_in_commit`` queues them among its writes (``pipe``, which
    :meth:`service.store.GameStore.commit_if` runs atomically) and the follow-up enqueues
    none. Otherwise (the queue on another Redis) the follow-up enqueues them with ``bots``.
    """

    rides_commits: bool

    def bots(self, game_id: str, version: int, seats: list[int]) -> None: ...

    def bots_in_commit(self, pipe: Any, game_id: str, version: int, seats: list[int]) -> None: ...

    def deadline(self, game_id: str, seat: int, due: float, at: float) -> None: ...

    def tournament(self, tournament_id: str) -> None: ...


def prompts_json(record: GameRecord, prompts: Mapping[int, Prompt]) -> dict[str, Any]:
    """``to_act`` as the API shows it: each prompt with its deadline, if the game has a clock."""
    shown = {}
    for seat, prompt in sorted(prompts.items()):
        item = prompt.to_json()
        item["deadline"] = record.deadline(seat)
        item["decision"] = record.decision(seat)
        shown[str(seat)] = item
    return shown


def visible(event: Mapping[str, Any], seat: int | None) -> bool:
    """Whether an event may be shown to ``seat`` (None: a spectator)."""
    to = event.get("to")
    return to is None or (seat is not None and seat in to)


def stream_entries(
    record: GameRecord,
    seat: int,
    action: Any,
    sealed: bool,
    events: list[dict[str, Any]],
    after: Mapping[int, Prompt],
    text: str | None = None,
) -> list[dict[str, Any]]:
    """What a move publishes on the game's stream: the action (with the game's sentence for
    it, both hidden when sealed), the game's events, then who acts next or the result."""
    entries: list[dict[str, Any]] = [
        {
            "type": "action",
            "version": record.version,
            "seat": seat,
            "action": None if sealed else action,
            "text": None if sealed else text,
            "sealed": sealed,
        }
    ]
    for event in events:
        item = {"type": "game_event", "version": record.version, "event": event}
        if "to" in event:
            item["to"] = event["to"]
        entries.append(item)
    if record.status is GameStatus.OVER:
        entries.append(
            {
                "type": "game_over",
                "version": record.version,
                "result": record.result,
                "seed": record.seed if record.seed_public else None,
            }
        )
    else:
        entries.append(
            {"type": "to_act", "version": record.version, "to_act": prompts_json(record, after)}
        )
    return entries


def decision_due(record: GameRecord, seat: int, prompt: Prompt) -> dict[str, Any]:
    """The notice that ``seat`` owes a decision now: what feeds send and ``pending`` lists."""
    return {
        "type": "decision_due",
        "game_id": record.id,
        "seat": seat,
        "version": record.version,
        "decision": record.decision(seat),
        "prompt": {
            **prompt.to_json(),
            "deadline": record.deadline(seat),
            "decision": record.decision(seat),
        },
        "deadline": record.deadline(seat),
    }


class FollowUp:
    """The work and the notices that follow a commit."""

    def __init__(self, accounts: AccountStore, jobs: Jobs) -> None:
        self.accounts = accounts
        self.jobs = jobs

    @staticmethod
    def bot_seats(record: GameRecord, after: Mapping[int, Prompt]) -> list[int]:
        """The bot seats whose decision falls due with ``record``'s version (each gets a job)."""
        if record.status is not GameStatus.ACTIVE:
            return []
        return [
            s
            for s in sorted(after)
            if record.decision(s) == record.version and record.seats[s].kind == "bot"
        ]

    def after_commit(
        self,
        record: GameRecord,
        after: Mapping[int, Prompt],
        actor: int | None,
        bots_queued: bool = False,
    ) -> None:
        """Work that follows a commit: bots, deadlines, external bots' feeds, tournaments.

        ``after`` is who owes a decision now; a seat whose decision fell due with this commit
        (its decision id is the new version) gets its bot job, deadline and notice. A seat
        whose decision stands from before already has them. ``bots_queued``: the commit
        itself queued the bot jobs (they ride commits: ``Jobs.rides_commits``).

        The commit stands whatever happens here, and a client that retries the move is
        answered from its stored answer without coming here again; so a Redis that fails
        meanwhile (a failover: seconds) is waited out, the whole follow-up done again
        (a notice or job twice is harmless: bots answer a decision once, jobs check their
        version). What a crash still loses, the sweep re-enqueues (bot jobs, deadlines,
        tournament ticks) and the bot feed's repeated ``pending`` offers again.
        """
        for pause in FOLLOW_UP_PAUSES:
            try:
                self._after_commit(record, after, actor, bots_queued)
                return
            except REDIS_FAILURES as exc:
                log.warning(
                    "follow-up of %s v%s: Redis failed (%s); again in %.1f s",
                    record.id,
                    record.version,
                    exc,
                    pause,
                )
                time.sleep(pause)
        self._after_commit(record, after, actor, bots_queued)

    def _after_commit(
        self,
        record: GameRecord,
        after: Mapping[int, Prompt],
        actor: int | None,
        bots_queued: bool,
    ) -> None:
        if actor is None and record.status is GameStatus.ACTIVE:
            self._tell_accounts(record, lambda seat: {"type": "game_started", "game": record.game})
        newly_due = [s for s in sorted(after) if record.decision(s) == record.version]
        bot_seats = self.bot_seats(record, after)
        if bot_seats and not bots_queued:
            self.jobs.bots(record.id, record.version, bot_seats)
        for seat in newly_due:
            info = record.seats[seat]
            deadline = record.deadline(seat)
            if info.kind != "bot" and deadline is not None:
                self.jobs.deadline(record.id, seat, record.due[str(seat)], deadline)
            if info.account:
                self.accounts.notify(info.account, decision_due(record, seat, after[seat]))
        if record.status is GameStatus.OVER:
            self._tell_accounts(record, lambda seat: {"type": "game_over", "result": record.result})
            for info in record.seats:
                if info.account:
                    self.accounts.drop_game(info.account, record.id)
            if record.tournament:
                self.jobs.tournament(record.tournament)

    def _tell_accounts(self, record: GameRecord, notice: Callable[[int], dict[str, Any]]) -> None:
        """Send every external seat's account ``notice(seat)`` with the game and seat."""
        for seat, info in enumerate(record.seats):
            if info.account:
                self.accounts.notify(
                    info.account, {**notice(seat), "game_id": record.id, "seat": seat}
                )
