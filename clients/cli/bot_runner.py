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
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import IO, Any

from clients.cli.console import console, err_console
from clients.cli.render import compact
from clients.sdk import Client, IllegalActionError, ProblemError, StaleVersion
from clients.sdk.sse import ServerEvent
from clients.strategies import pick

Notice = dict[str, Any]


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
    """Reads the account's SSE feed and puts ``(arrival time, event)`` on ``inbox``; an error
    that outlasts the client's retries is put there too. A daemon: it ends with the process,
    or at the first event after :meth:`stop`."""

    def __init__(self, client: Client, detail: str, inbox: queue.Queue[Any]) -> None:
        super().__init__(name="dicehall-feed", daemon=True)
        self.client = client
        self.detail = detail
        self.inbox = inbox
        self.stopping = threading.Event()

    def run(self) -> None:
        try:
            for event in self.client.stream_bot_feed(detail=self.detail):
                if self.stopping.is_set():
                    return
                self.inbox.put((time.time(), event))
        except Exception as exc:  # handed to the main thread, which raises it
            self.inbox.put((time.time(), exc))

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
    ) -> None:
        self.client = client
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
        reader = FeedReader(self._fresh_client(), self.detail, inbox)
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
        view, actions, decision_id = decision(self.client, notice)
        if not actions:
            return None
        try:
            action = pick(self.choose(view, actions), actions)
        except ValueError as exc:
            err_console.print(f"[red]strategy error in {game_id}:[/] {exc}")
            action = dict(actions[0]["action"])
        return Move(notice, action, decision_id, received, started)

    def post(self, client: Client, move: Move) -> None:
        """Send ``move`` (one POST with ``If-Match`` and an idempotency key)."""
        game_id, action = move.notice["game_id"], move.action
        posted = time.time()
        try:
            reply = client.act(game_id, action, if_match=move.decision)
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
