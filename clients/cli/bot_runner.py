"""The loop of ``dicehall bot run``: follow the bot account's feed, answer each decision with
one POST.

The feed is the account's Server-Sent Events stream (``/v1/bots/me/feed/stream``), read on
its own keep-alive connection by a reader thread: the server pushes each ``decision_due``
notice, completed with the seat's view, legal actions and decision id, the moment it is
written, so no request is spent asking. The main thread takes the notices in arrival order
and asks the strategy for each one still unanswered (always from this one thread: strategies
need not be thread-safe); the move is posted (``POST actions`` with ``If-Match`` and an
idempotency key) by one of ``parallel`` sending threads, each on its own keep-alive
connection, so that a decision in one game never waits for the POST of another (with
``parallel`` 1 the main thread posts it).

The runner rides out an outage of the service (an API instance restarting, a Redis
failover), from its first request (reading its account) on: for up to
:attr:`Patience.seconds` it retries with backoff whatever failed in transport or with a 5xx
or 429 (``503 not_replicated``, contention, a primary being promoted) -- a move always with
the same ``Idempotency-Key``, so a move that was committed before the failure is answered
from the stored reply instead of being played twice -- and reopens the feed, which starts
again with what the account owes.
"""

from __future__ import annotations

import json
import queue
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import IO, Any, TypeVar

from clients.cli.console import console, err_console
from clients.cli.render import compact
from clients.sdk import (
    Client,
    IllegalActionError,
    ProblemError,
    RateLimited,
    ServerError,
    StaleVersion,
    TransportError,
)
from clients.sdk.sse import ServerEvent
from clients.strategies import pick

Notice = dict[str, Any]
T = TypeVar("T")

OUTAGE = (TransportError, ServerError, RateLimited)
"""What a service that is down, restarting or failing over answers: no answer, 5xx, 429."""


@dataclass(frozen=True)
class Patience:
    """How long the runner keeps retrying through an outage, and how it spaces its tries
    (``backoff * 2**(n-1)``, at most ``max_backoff``)."""

    seconds: float = 120.0
    backoff: float = 0.2
    max_backoff: float = 5.0

    def pause(self, attempt: int) -> float:
        return min(self.backoff * 2 ** max(0, attempt - 1), self.max_backoff)

    def retrying(self, call: Callable[[], T], what: str) -> T:
        """``call()``, tried again after each :data:`OUTAGE` error until it has failed for
        :attr:`seconds`; then that error."""
        deadline = time.monotonic() + self.seconds
        attempt = 0
        while True:
            try:
                return call()
            except OUTAGE as exc:
                attempt += 1
                if time.monotonic() >= deadline:
                    raise
                if attempt == 1:
                    err_console.print(f"[yellow]{what}: {exc}; retrying[/]")
                time.sleep(self.pause(attempt))


def decision(client: Client, notice: Notice) -> tuple[Any, list[dict[str, Any]], int]:
    """The seat's view, legal actions and decision id for a ``decision_due`` notice: from the
    notice itself (the service completes it), or read from a server that does not."""
    if "actions" in notice and "view" in notice:
        return notice["view"], notice["actions"], int(notice["decision"])
    while True:  # view and legal actions of one and the same version
        view = client.view(notice["game_id"])
        legal = client.legal_actions(notice["game_id"])
        if view["version"] == legal["version"]:
            return view["view"], legal.get("actions") or [], int(legal["version"])


def due_notices(notices: list[Notice], answered: set[tuple[str, int, int]]) -> list[Notice]:
    """The ``decision_due`` notices among ``notices`` that are still current and not yet
    answered, each once (a notice comes again in ``pending`` after a reconnection)."""
    due = []
    for notice in notices:
        if notice.get("type") != "decision_due" or notice.get("current") is False:
            continue
        key = (notice["game_id"], int(notice["seat"]), int(notice.get("decision", -1)))
        if key not in answered:
            answered.add(key)
            due.append(notice)
    return due


class Tracer:
    """``--trace``: one JSON line per answered decision with the runner's own times (epoch s):
    when its feed event arrived, when the strategy started, when the move was sent and when
    its answer came back."""

    def __init__(self, path: str | None) -> None:
        self.file: IO[str] | None = open(path, "a", buffering=1) if path else None  # noqa: SIM115
        self.lock = threading.Lock()

    def write(self, notice: Notice, **times: float) -> None:
        if self.file is None:
            return
        line = {k: notice.get(k) for k in ("game_id", "seat", "decision")} | times
        with self.lock:
            self.file.write(json.dumps(line) + "\n")

    def close(self) -> None:
        if self.file is not None:
            self.file.close()


class FeedReader(threading.Thread):
    """Reads the account's SSE feed and puts ``(arrival time, event)`` on ``inbox``. A feed
    that fails (after the client's own retries) is reopened from the last event seen until
    it has failed for ``patience``; then the error is put on ``inbox``, as is any other
    error. A daemon: it ends with the process, or at the first event after :meth:`stop`."""

    def __init__(
        self,
        client: Client,
        detail: str,
        inbox: queue.Queue[Any],
        patience: Patience | None = None,
    ) -> None:
        super().__init__(name="dicehall-feed", daemon=True)
        self.client = client
        self.detail = detail
        self.inbox = inbox
        self.patience = patience or Patience()
        self.stopping = threading.Event()
        self.last_event_id: str | None = None
        self.events = 0
        self.reconnections = 0

    def run(self) -> None:
        attempt, since = 0, time.monotonic()
        while True:
            seen = self.events
            try:
                self._follow()
                return
            except OUTAGE as exc:
                if self.events != seen:  # it read events since the last failure: a new outage
                    attempt, since = 0, time.monotonic()
                attempt += 1
                if time.monotonic() - since >= self.patience.seconds:
                    self.inbox.put((time.time(), exc))
                    return
                if attempt == 1:
                    err_console.print(f"[yellow]the feed: {exc}; reconnecting[/]")
                time.sleep(self.patience.pause(attempt))
            except Exception as exc:  # handed to the main thread, which raises it
                self.inbox.put((time.time(), exc))
                return

    def _follow(self) -> None:
        """Read the feed (from the last event seen) until stopped or it fails."""
        if self.last_event_id is not None:
            self.reconnections += 1
        stream = self.client.stream_bot_feed(last_event_id=self.last_event_id, detail=self.detail)
        for event in stream:
            if self.stopping.is_set():
                return
            self.events += 1
            if event.id is not None:
                self.last_event_id = event.id
            self.inbox.put((time.time(), event))

    def stop(self) -> None:
        self.stopping.set()


@dataclass(frozen=True)
class Move:
    """A chosen move on its way: the notice it answers, the action, the decision id for
    ``If-Match``, and (for the trace) when the notice arrived and the strategy started."""

    notice: Notice
    action: dict[str, Any]
    decision: int
    received: float
    started: float
    key: str
    """The move's Idempotency-Key, the same on every retry."""


class BotRunner:
    """Answers the decisions of one bot account until ``max_games`` games end (0: never) or
    nothing comes for ``idle`` seconds (0: never)."""

    def __init__(
        self,
        client: Client,
        choose: Callable[..., Any],
        *,
        quiet: bool = False,
        detail: str = "full",
        parallel: int = 4,
        tracer: Tracer | None = None,
        patience: Patience | None = None,
    ) -> None:
        self.client = client
        self.patience = patience or Patience()
        self.choose = choose
        self.quiet = quiet
        self.detail = detail
        self.parallel = parallel
        self.tracer = tracer or Tracer(None)
        self.finished: set[str] = set()
        self.answered: set[tuple[str, int, int]] = set()
        self.local = threading.local()

    def _fresh_client(self) -> Client:
        """A client of the same server and token on a connection of its own."""
        c = self.client
        return Client(c.base_url, c.token, timeout=c.timeout, retry=c.retry)

    def _post_in_pool(self, move: Move) -> None:
        """:meth:`post` in a sending thread, with that thread's own client (connection)."""
        own: Client | None = getattr(self.local, "client", None)
        if own is None:
            own = self.local.client = self._fresh_client()
        try:
            self.post(own, move)
        except Exception as exc:  # a thread's error would vanish unseen
            err_console.print(f"[red]{move.notice['game_id']}: {exc}[/]")

    def run(self, max_games: int = 0, idle: float = 0.0) -> None:
        inbox: queue.Queue[tuple[float, ServerEvent | Exception]] = queue.Queue()
        reader = FeedReader(self._fresh_client(), self.detail, inbox, self.patience)
        pool = ThreadPoolExecutor(self.parallel) if self.parallel > 1 else None
        reader.start()
        try:
            while not (max_games and len(self.finished) >= max_games):
                try:
                    received, event = inbox.get(timeout=idle or None)
                except queue.Empty:
                    console.print(f"idle for {idle:g} s; {len(self.finished)} games finished")
                    return
                if isinstance(event, Exception):
                    raise event
                for notice in self._take(event):
                    move = self.choose_move(notice, received)
                    if move is None:
                        continue
                    if pool is None:
                        self.post(self.client, move)
                    else:
                        pool.submit(self._post_in_pool, move)
        finally:
            reader.stop()
            if pool is not None:
                pool.shutdown(wait=True)
            self.tracer.close()

    def _take(self, event: ServerEvent) -> list[Notice]:
        """The decisions to answer in one feed event; notes games that ended."""
        if event.event == "pending":
            return due_notices(event.data or [], self.answered)
        data = event.data if isinstance(event.data, dict) else {}
        if event.event == "game_over" and data.get("game_id") not in self.finished:
            self.finished.add(data["game_id"])
            self.answered = {key for key in self.answered if key[0] != data["game_id"]}
            scores = (data.get("result") or {}).get("scores")
            console.print(f"game {data['game_id']} over: {compact(scores)}")
        return due_notices([data], self.answered)

    def choose_move(self, notice: Notice, received: float) -> Move | None:
        """The strategy's move for a ``decision_due`` notice (``received``: when its feed
        event arrived, for the trace), or None when the seat has nothing to choose from.
        Always called from the main thread: strategies need not be thread-safe."""
        started = time.time()
        game_id = notice["game_id"]
        view, actions, decision_id = self.patience.retrying(
            lambda: decision(self.client, notice), f"{game_id}: reading the decision"
        )
        if not actions:
            return None
        try:
            action = pick(self.choose(view, actions), actions)
        except ValueError as exc:
            err_console.print(f"[red]strategy error in {game_id}:[/] {exc}")
            action = dict(actions[0]["action"])
        return Move(notice, action, decision_id, received, started, str(uuid.uuid4()))

    def post(self, client: Client, move: Move) -> None:
        """Send ``move`` (one POST with ``If-Match`` and its idempotency key, asking for the
        minimal answer: the strategy reads each decision's view from its notice or the
        service, never from a move's answer), retried through an outage with the same key.
        A move that still failed when patience ran out is forgotten as answered, so the
        feed's next ``pending`` offers it again."""
        game_id, action = move.notice["game_id"], move.action
        posted = time.time()
        try:
            reply = self.patience.retrying(
                lambda: client.act(
                    game_id, action, if_match=move.decision, idempotency_key=move.key, minimal=True
                ),
                f"{game_id}: the move",
            )
        except OUTAGE as exc:
            err_console.print(f"[red]{game_id}: gave up on the move:[/] {exc}")
            seat = int(move.notice["seat"])
            self.answered.discard((game_id, seat, int(move.notice.get("decision", -1))))
            return
        except StaleVersion:
            return
        except IllegalActionError as refused:
            err_console.print(f"[red]{game_id} refused[/] {compact(action)}: {refused.detail}")
            return
        except ProblemError as problem:  # the game ended meanwhile (a deadline), and such
            err_console.print(f"[red]{game_id}:[/] {problem.detail}")
            return
        self.tracer.write(
            move.notice,
            received=move.received,
            started=move.started,
            posted=posted,
            answered=time.time(),
        )
        if not self.quiet:
            console.print(f"[dim]{game_id} v{reply.get('version')}: {compact(action)}[/]")
