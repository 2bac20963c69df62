"""How long a bot seat takes to answer a move, against the round trip of an empty rq job.

    python bench/bot_turns.py [--game all] [--seconds 10] [--alternations 3] [--bot random]

Starts a private redis-server, the API under gunicorn (deploy config) and ``--workers`` rq
workers (``python -m service.worker``, as ``dicehall up`` runs them). For each game
(``--game all``: carcassonne, burgundy, diceland, kingdice in turn) it alternates two kinds of
period, ``--alternations`` of each:

* **bot replies**: this process plays seat 0 of a two-seat game against a ``--bot`` seat
  (default ``random``, the service's default bot), choosing its own moves with the game's
  heuristic bot from the API's view and legal actions. A sample is a human move after which
  the bot seat newly owes a decision: from sending ``POST actions`` to the bot's first move
  arriving on the game's event stream (SSE), as the player sees it (*client*); and from
  the human move's commit to the bot move's commit, by the times the service recorded in the
  game's log (*server*; the log keeps its times to the millisecond, so a game's server
  p50 moves in steps of 1 ms). A bot turn of several steps counts its first step. The
  player's requests and stream go through ``bench/lean_client.py`` (``http.client``): the
  client shares the machine's cores with the service, and ``requests`` cost it four times
  the CPU.
* **empty jobs**: enqueue a job that does nothing (``bench.empty_job.empty_job``) on the bot
  queue and block until its result is stored (rq's ``latest_result``, an XREAD on the result
  stream): *client*; rq's own ``enqueued_at`` to ``ended_at``: *server*.

Prints p50 and p95 of each period and of all periods together, and the ratio bot reply p50 :
empty job p50 (target <= 2). The machine running the client, the API, the workers and Redis
together bounds these; compare ratios measured in the same run.

Then where each kind's time goes, stage by stage (medians over every sample of a game, one
wall clock for all the processes): for a bot reply, the POST sent to the human move's commit
(the log's time), that commit to the bot job's start (rq's ``started_at``: the worker's wake,
dequeue and bookkeeping), the job's start to the bot move's commit (its read, decision and
commit), and that commit to the move seen on the stream; beside them, when the POST's own
answer arrived. For an empty job: the client's enqueue (to rq's ``enqueued_at``), queued to
started, started to ended (the job and rq's finishing), ended to the result seen.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.client import HTTPException
from pathlib import Path
from typing import Any

import orjson
import redis
from rich.console import Console
from rich.progress import Progress
from rich.table import Table
from rq import Queue
from rq.job import Job
from rq.results import Result

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.cluster import Cluster, machine_line, machine_state, percentile
from bench.empty_job import empty_job
from bench.lean_client import JsonClient, Reply, Stream
from engine.games import get_game
from service.config import Settings
from service.keys import Keys

GAMES = ("carcassonne", "burgundy", "diceland", "kingdice")
KEYS = Keys(Settings().key_prefix)
HUMAN, BOT = 0, 1
REPLY_TIMEOUT = 60.0


@dataclass
class Period:
    """One period's samples, client-side and server-side, in seconds."""

    kind: str
    client: list[float] = field(default_factory=list)
    server: list[float] = field(default_factory=list)
    stages: list[dict[str, float]] = field(default_factory=list)


BOT_STAGES = (
    "POST to human commit",
    "human commit to job start",
    "job start to bot commit",
    "bot commit to client",
)
"""A bot reply's stages, in order (they add up to the client's time); see the module's docs."""
BOT_ASIDE = "POST answered"
"""When the POST's own answer arrived (from the POST sent; it overlaps the stages)."""
EMPTY_STAGES = ("enqueue", "queued to start", "start to end", "end to client")
"""An empty job's stages, in order (they add up to the client's time)."""


@dataclass
class Sample:
    """One bot reply's wall-clock times (``time.time()``), the job that played it and the
    two log versions, until the log and the job are read at the table's end."""

    sent: float
    answered: float
    seen: float
    human: int
    bot: int
    job_id: str | None


def job_times(connection: redis.Redis, job_id: str | None) -> tuple[float, float] | None:
    """rq's ``started_at`` and ``ended_at`` of a job (epoch seconds), None when gone."""
    if job_id is None:
        return None
    try:
        job = Job.fetch(job_id, connection=connection)
    except Exception:  # expired or unreadable: the sample keeps its other stages
        return None
    if job.started_at is None or job.ended_at is None:
        return None
    return job.started_at.timestamp(), job.ended_at.timestamp()


def _json(reply: Reply, what: str) -> dict[str, Any]:
    if not reply.ok:
        raise RuntimeError(f"{what}: {reply.status_code} {reply.text[:500]}")
    return reply.json()


class Table1v1:
    """One game of the human (this process) against a bot seat. A reader thread follows the
    game's SSE stream and stamps each event with the moment it arrived."""

    def __init__(self, http: JsonClient, base: str, game: str, bot: str, jobs: redis.Redis) -> None:
        self.http, self.base, self.jobs = http, base, jobs
        created = _json(
            http.post(
                f"{base}/v1/games",
                json={
                    "game": game,
                    "seats": [{"kind": "human"}, {"kind": "bot", "bot": bot}],
                    "visibility": "public",
                },
            ),
            "create",
        )
        self.id = created["id"]
        joined = _json(http.post(f"{base}/v1/games/{self.id}/seats/{HUMAN}/join", json={}), "join")
        self.auth = {"Authorization": f"Bearer {joined['seat_token']}"}
        summary = _json(http.get(f"{base}/v1/games/{self.id}"), "summary")
        self.version, self.to_act = summary["version"], summary["to_act"]
        self.over = summary["status"] == "over"
        self.inbox: queue.Queue[tuple[float, dict[str, Any] | None]] = queue.Queue()
        self.closed = threading.Event()
        self.stream = Stream(base, self.url("events/stream"), self.auth, timeout=REPLY_TIMEOUT)
        threading.Thread(target=self._read, daemon=True).start()
        self.chooser = get_game(game).bots["heuristic"]()
        self.rng = random.Random(self.id)
        self.samples: list[Sample] = []

    def url(self, part: str) -> str:
        return f"{self.base}/v1/games/{self.id}/{part}"

    def owes(self, seat: int) -> bool:
        return not self.over and str(seat) in self.to_act

    def _read(self) -> None:
        """Put every event of the stream in the inbox with its arrival time; None at its end
        (the game is over, or the table closed)."""
        buffer = b""
        try:
            for chunk in self.stream.chunks():
                buffer += chunk
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    fields = dict(
                        line.split(": ", 1)
                        for line in block.decode().splitlines()
                        if ": " in line and not line.startswith(":")
                    )
                    if "data" in fields and fields.get("event") != "pending":
                        self.inbox.put((time.perf_counter(), orjson.loads(fields["data"])))
                if self.closed.is_set():
                    break
        except (OSError, HTTPException):  # the table closed the stream
            pass
        finally:
            self.stream.close()
            self.inbox.put((time.perf_counter(), None))

    def _see(self, event: dict[str, Any] | None) -> None:
        if event is None or event["type"] == "game_over":
            self.over = True
        elif event["type"] == "to_act" and event["version"] >= self.version:
            self.version, self.to_act = event["version"], event["to_act"]

    def drain(self) -> None:
        """Take in the events that have arrived, without waiting."""
        while True:
            try:
                _, event = self.inbox.get_nowait()
            except queue.Empty:
                return
            self._see(event)

    def wait_for(
        self, found: Callable[[dict[str, Any] | None], bool], what: str
    ) -> tuple[float, dict[str, Any] | None]:
        """Take in events until one satisfies ``found`` (None: the stream ended); that event
        and when it arrived."""
        while True:
            try:
                at, event = self.inbox.get(timeout=REPLY_TIMEOUT)
            except queue.Empty:
                raise RuntimeError(f"game {self.id}: no {what} in {REPLY_TIMEOUT:.0f} s") from None
            self._see(event)
            if found(event):
                return at, event
            if event is None:
                raise RuntimeError(f"game {self.id}: the stream ended before the {what}")

    def close(self) -> None:
        self.closed.set()
        self.stream.stop()

    def human_move(self) -> float | None:
        """Play one move of the human seat; the bot's reply time when the move handed the bot
        a new decision (it owed none before), else None."""
        view = _json(self.http.get(self.url("view"), headers=self.auth), "view")["view"]
        legal = _json(self.http.get(self.url("legal-actions"), headers=self.auth), "legal")
        action = self.chooser.choose(view, [item["action"] for item in legal["actions"]], self.rng)
        self.drain()
        bot_owed = self.owes(BOT)
        wall, t0 = time.time(), time.perf_counter()
        reply = self.http.post(self.url("actions"), json={"action": action}, headers=self.auth)
        answered = time.perf_counter()
        if reply.status_code in (409, 412, 422):
            self.refresh()
            return None
        answer = _json(reply, "act")
        if answer["version"] >= self.version:
            self.version, self.to_act = answer["version"], answer["to_act"]
            self.over = answer["status"] == "over"
        if bot_owed or not self.owes(BOT):
            return None
        moved = answer["version"]
        at, event = self.wait_for(
            lambda e: (
                e is not None
                and e["type"] == "action"
                and e["seat"] == BOT
                and e["version"] > moved
            ),
            "bot move",
        )
        assert event is not None
        job_id = self.jobs.get(KEYS.bot_job(self.id, BOT))
        self.samples.append(
            Sample(
                wall,
                wall + answered - t0,
                wall + at - t0,
                moved,
                event["version"],
                job_id.decode() if isinstance(job_id, bytes) else job_id,
            )
        )
        return at - t0

    def refresh(self) -> None:
        summary = _json(self.http.get(f"{self.base}/v1/games/{self.id}"), "summary")
        self.version, self.to_act = summary["version"], summary["to_act"]
        self.over = summary["status"] == "over"

    def server_times(self) -> tuple[list[float], list[dict[str, float]]]:
        """Human commit to bot commit, from the log's recorded times, for every sample; and
        every sample's stages (a stage of a job rq no longer holds is left out)."""
        if not self.samples:
            return [], []
        log = _json(self.http.get(self.url("log"), headers=self.auth), "log")["entries"]
        at = {entry["version"]: entry["at"] for entry in log}
        server, stages = [], []
        for sample in self.samples:
            human, bot = at[sample.human], at[sample.bot]
            server.append(bot - human)
            times = job_times(self.jobs, sample.job_id)
            stage = {
                BOT_STAGES[0]: human - sample.sent,
                BOT_STAGES[3]: sample.seen - bot,
                BOT_ASIDE: sample.answered - sample.sent,
            }
            if times is not None:
                stage[BOT_STAGES[1]] = times[0] - human
                stage[BOT_STAGES[2]] = bot - times[0]
            stages.append(stage)
        return server, stages

    def until_human_owes(self) -> None:
        self.drain()
        if not self.owes(HUMAN) and not self.over:
            self.wait_for(lambda e: e is None or self.owes(HUMAN), "decision for the human")


def bot_period(
    http: JsonClient,
    base: str,
    game: str,
    bot: str,
    seconds: float,
    tick: Callable[[], None],
    jobs: redis.Redis,
) -> Period:
    """Play games against the bot for ``seconds`` (longer, up to a minute more, until there is
    a sample); each sample as the module's docs say."""
    period = Period("bot reply")
    stop = time.monotonic() + seconds

    def going() -> bool:
        now = time.monotonic()
        return now < stop or (not period.client and now < stop + REPLY_TIMEOUT)

    while going():
        table = Table1v1(http, base, game, bot, jobs)
        while not table.over and going():
            table.until_human_owes()
            if table.over:
                break
            latency = table.human_move()
            if latency is not None:
                period.client.append(latency)
            tick()
        table.close()
        server, stages = table.server_times()
        period.server.extend(server)
        period.stages.extend(stages)
    return period


def empty_job_period(queue: Queue, seconds: float, tick: Callable[[], None]) -> Period:
    """Enqueue empty jobs one after the other for ``seconds``, waiting for each result."""
    period = Period("empty job")
    stop = time.monotonic() + seconds
    while time.monotonic() < stop or not period.client:
        wall, t0 = time.time(), time.perf_counter()
        job = queue.enqueue(empty_job, result_ttl=60)
        result = job.latest_result(timeout=int(REPLY_TIMEOUT))
        latency = time.perf_counter() - t0
        if result is None or result.type is not Result.Type.SUCCESSFUL:
            raise RuntimeError(f"empty job {job.id}: no successful result ({result})")
        job.refresh()
        if job.ended_at is None or job.enqueued_at is None:
            raise RuntimeError(f"empty job {job.id}: finished without its times")
        period.client.append(latency)
        period.server.append((job.ended_at - job.enqueued_at).total_seconds())
        queued, ended = job.enqueued_at.timestamp(), job.ended_at.timestamp()
        started = job.started_at.timestamp() if job.started_at else ended
        stamps = (wall, queued, started, ended, wall + latency)
        period.stages.append(
            {name: b - a for name, a, b in zip(EMPTY_STAGES, stamps, stamps[1:], strict=False)}
        )
        tick()
    return period


def ms(values: list[float], q: float) -> str:
    return f"{percentile(values, q) * 1000:.1f}" if values else "-"


def game_table(game: str, periods: list[Period], args: argparse.Namespace) -> Table:
    table = Table(
        title=f"{game}: human (heuristic) v {args.bot} bot, {args.workers} rq worker(s), "
        f"{args.seconds:g} s periods"
    )
    for column in (
        "period",
        "samples",
        "client p50 ms",
        "client p95 ms",
        "server p50 ms",
        "server p95 ms",
    ):
        table.add_column(column, justify="right")
    for n, period in enumerate(periods):
        table.add_row(
            f"{period.kind} {n // 2 + 1}",
            str(len(period.client)),
            ms(period.client, 50),
            ms(period.client, 95),
            ms(period.server, 50),
            ms(period.server, 95),
        )
    return table


def pooled(periods: list[Period], kind: str, side: str) -> list[float]:
    return [x for p in periods if p.kind == kind for x in getattr(p, side)]


def summary_table(results: dict[str, list[Period]]) -> Table:
    table = Table(title="bot reply against an empty rq job (all periods of a game together)")
    for column in (
        "game",
        "bot p50 ms",
        "bot p95 ms",
        "empty job p50 ms",
        "empty job p95 ms",
        "ratio p50 (client)",
        "ratio p50 (server)",
        "ratio p50 per alternation",
    ):
        table.add_column(column, justify="right")
    for game, periods in results.items():
        bot, empty = pooled(periods, "bot reply", "client"), pooled(periods, "empty job", "client")
        ratio = percentile(bot, 50) / percentile(empty, 50) if bot and empty else float("nan")
        server_bot = pooled(periods, "bot reply", "server")
        server_empty = pooled(periods, "empty job", "server")
        server_ratio = (
            percentile(server_bot, 50) / percentile(server_empty, 50)
            if server_bot and server_empty
            else float("nan")
        )
        per = [
            f"{percentile(b.client, 50) / percentile(e.client, 50):.2f}"
            for b, e in zip(periods[::2], periods[1::2], strict=True)
            if b.client and e.client
        ]
        table.add_row(
            game,
            f"{ms(bot, 50)}",
            f"{ms(bot, 95)}",
            f"{ms(empty, 50)}",
            f"{ms(empty, 95)}",
            f"{ratio:.2f}",
            f"{server_ratio:.2f}",
            " ".join(per),
        )
    return table


def stage_medians(periods: list[Period], kind: str, names: tuple[str, ...]) -> dict[str, float]:
    """The median in ms of each stage over a kind's samples (a stage no sample has: absent)."""
    stages = [stage for p in periods if p.kind == kind for stage in p.stages]
    medians = {}
    for name in names:
        values = [stage[name] for stage in stages if name in stage]
        if values:
            medians[name] = percentile(values, 50) * 1000
    return medians


def stages_table(results: dict[str, list[Period]]) -> Table:
    table = Table(title="where the time goes: median ms of each stage (all periods of a game)")
    table.add_column("game")
    table.add_column("kind")
    table.add_column("stages, in order")
    for game, periods in results.items():
        for kind, names in (("bot reply", (*BOT_STAGES, BOT_ASIDE)), ("empty job", EMPTY_STAGES)):
            medians = stage_medians(periods, kind, names)
            table.add_row(
                game, kind, " | ".join(f"{name} {value:.2f}" for name, value in medians.items())
            )
    return table


def report(
    machine: dict[str, Any], args: argparse.Namespace, results: dict[str, list[Period]]
) -> dict[str, Any]:
    """The figures as ``--json`` writes them: per game, p50/p95 in ms of each kind and side,
    pooled and per period."""

    def figures(values: list[float]) -> dict[str, Any]:
        return {
            "samples": len(values),
            "p50_ms": percentile(values, 50) * 1000,
            "p95_ms": percentile(values, 95) * 1000,
        }

    games = {}
    for game, periods in results.items():
        row: dict[str, Any] = {}
        for kind, name in (("bot reply", "bot_reply"), ("empty job", "empty_job")):
            for side in ("client", "server"):
                row[f"{name}_{side}"] = figures(pooled(periods, kind, side))
        for side in ("client", "server"):
            empty = row[f"empty_job_{side}"]["p50_ms"]
            row[f"ratio_p50_{side}"] = row[f"bot_reply_{side}"]["p50_ms"] / empty if empty else None
        row["stages_ms"] = {
            "bot_reply": stage_medians(periods, "bot reply", (*BOT_STAGES, BOT_ASIDE)),
            "empty_job": stage_medians(periods, "empty job", EMPTY_STAGES),
        }
        row["periods"] = [
            {"kind": p.kind, "client": figures(p.client), "server": figures(p.server)}
            for p in periods
        ]
        games[game] = row
    return {"machine": machine, "args": vars(args) | {"json": str(args.json)}, "games": games}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="all", choices=("all", *GAMES))
    parser.add_argument("--seconds", type=float, default=10, help="length of each period")
    parser.add_argument("--alternations", type=int, default=3, help="periods of each kind")
    parser.add_argument("--bot", default="random", help="the bot seat's bot")
    parser.add_argument("--workers", type=int, default=1, help="rq workers")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    console = Console(width=None if sys.stdout.isatty() else 200)
    games = GAMES if args.game == "all" else (args.game,)
    machine = machine_state()
    results: dict[str, list[Period]] = {}
    with Cluster() as cluster:
        cluster.redis()
        base, _ = cluster.gunicorn("service.app:create_app()", "/v1/health")
        http = JsonClient(base, timeout=REPLY_TIMEOUT)
        cluster.rq_workers(args.workers)
        queue = Queue(Settings().queue_name, connection=redis.Redis.from_url(cluster.redis_url))
        with Progress(console=console) as progress:
            for game in games:
                task = progress.add_task(f"{game} warm-up", total=None)
                empty_job_period(queue, 0.5, lambda: None)
                bot_period(http, base, game, args.bot, 1.0, lambda: None, queue.connection)
                progress.update(task, total=1, completed=1)
                periods: list[Period] = []
                for n in range(1, args.alternations + 1):
                    for kind in ("bot replies", "empty jobs"):
                        task = progress.add_task(f"{game} {kind} {n}", total=args.seconds)
                        start = time.monotonic()

                        def tick(task=task, start=start) -> None:
                            progress.update(task, completed=time.monotonic() - start)

                        if kind == "bot replies":
                            periods.append(
                                bot_period(
                                    http, base, game, args.bot, args.seconds, tick, queue.connection
                                )
                            )
                        else:
                            periods.append(empty_job_period(queue, args.seconds, tick))
                        progress.update(task, completed=args.seconds)
                results[game] = periods
    for game, periods in results.items():
        console.print(game_table(game, periods, args))
    console.print(summary_table(results))
    console.print(stages_table(results))
    console.print(
        "ratio = bot reply p50 : empty rq job p50 (target <= 2); client: POST sent to the "
        "bot's move on the SSE stream, against enqueue to result; server: human commit to bot "
        "commit (game log), against rq's enqueued_at to ended_at"
    )
    machine["load_after"] = os.getloadavg()
    console.print(machine_line(machine))
    if args.json:
        args.json.write_text(json.dumps(report(machine, args, results), indent=2))
    if any(not pooled(p, "bot reply", "client") for p in results.values()):
        raise SystemExit("no bot reply was sampled for some game: lengthen --seconds")


if __name__ == "__main__":
    main()
