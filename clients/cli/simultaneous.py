"""Who has decided, while a person chooses in a simultaneous phase.

While ``dicehall play`` waits for the player's choice, the other seats of a sealed round
(Burgundy's rounds and castle picks, Diceland's crossing phase) decide too. A
:class:`DecisionWatcher` follows the game's event feed in a background thread and says each
time another seat has decided, so the player sees the table move without losing the prompt.
Their answer stays valid meanwhile: the server checks ``If-Match`` against the player's own
decision, which other seats' sealed choices never change.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from clients.cli.console import console
from clients.sdk import Client, DicehallError


def deciding_line(to_act: Any, me: int, names: Sequence[str]) -> str:
    """``"also deciding now: 1 bot:heuristic, 2 bob"`` for the other seats that owe a
    decision with ``me`` (empty when ``me`` decides alone)."""
    others = [int(seat) for seat in (to_act or {}) if int(seat) != me]
    if not others:
        return ""
    return "also deciding now: " + ", ".join(_name(names, seat) for seat in sorted(others))


def still_to_decide(
    current: dict[str, Any], earlier: Sequence[dict[str, Any]], me: int
) -> dict[str, Any]:
    """The prompts of ``current`` (a view read) whose seats have not decided since: a sealed
    choice among ``earlier`` (events read after the view) counts only if it is newer than the
    view, since the view's ``to_act`` already leaves out the seats that decided before it (a
    previous round's choices, read in the same batch, must not hide this round's)."""
    seen = current.get("version", 0)
    decided = {
        event.get("seat")
        for event in earlier
        if decided_line(event, me, ()) and event.get("version", 0) > seen
    }
    return {k: v for k, v in (current.get("to_act") or {}).items() if int(k) not in decided}


def _name(names: Sequence[str], seat: Any) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else f"seat {seat}"


def decided_line(event: dict[str, Any], me: int, names: Sequence[str]) -> str | None:
    """The sentence for another seat's sealed choice (None for any other event)."""
    if event.get("type") != "action" or event.get("seat") == me or not event.get("sealed"):
        return None
    return f"{_name(names, event.get('seat'))} has decided"


class DecisionWatcher:
    """Follows a game's events from ``cursor`` in a daemon thread while the player chooses,
    printing who has decided (and the prompt again, so the player knows where they are).

    :meth:`stop` returns the cursor after the last event it printed; events it had not
    printed yet are read again by the caller.
    """

    def __init__(
        self, client: Client, game_id: str, cursor: str | None, me: int, names: Sequence[str]
    ) -> None:
        self.client, self.game_id, self.me, self.names = client, game_id, me, names
        self.cursor = cursor
        self.reprompt = ""
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._follow, daemon=True)

    def start(self, reprompt: str) -> DecisionWatcher:
        self.reprompt = reprompt
        self._thread.start()
        return self

    def stop(self) -> str | None:
        with self._lock:
            self._stopped.set()
            return self.cursor

    def _follow(self) -> None:
        cursor = self.cursor
        while not self._stopped.is_set():
            try:
                page = self.client.events(self.game_id, after=cursor, wait=5)
            except DicehallError:
                return
            lines = [decided_line(event, self.me, self.names) for event in page.get("events", [])]
            with self._lock:
                if self._stopped.is_set():
                    return
                shown = [line for line in lines if line]
                for line in shown:
                    console.print(f"\n[cyan]{line}[/]")
                if shown:
                    console.print(self.reprompt, end="")
                cursor = self.cursor = page.get("cursor", cursor)
                if any(e.get("type") == "game_over" for e in page.get("events", [])):
                    return
