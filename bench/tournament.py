"""Tournament throughput and the external bot's decision round trip, with its breakdown.

    python bench/tournament.py [--games 60] [--workers 2] [--concurrency 6] [--json FILE]

Starts a private redis-server, the API under gunicorn (deploy config), ``--workers`` rq
workers and one external bot process (``dicehall bot run --strategy
engine.carcassonne.bots:HeuristicBot --trace FILE``), then runs a mirrored Carcassonne
tournament between the bundled heuristic, the bundled random bot and the external bot (the
same heuristic, run outside). Prints tournament games per minute and, in the same run:

* the **external round trip**: from the moment the external seat's decision fell due (the
  service's time of the move that made it due) to its move applied (the service's time of
  that move), p50 / p95 / p99: what the standings' decision times measure;
* the **bundled heuristic's decision time** measured the same way (its job in a worker);
* the **breakdown** of the external round trip, p50 and mean of each step, one decision at a
  time: *commit + notice written* (decision due -> the ``decision_due`` entry's id on the
  account feed, Redis's clock, milliseconds), *feed delivery* (written -> the runner's feed
  thread has the SSE event parsed, the notice completed with view and legal actions on the
  way), *queued in the runner* (behind notices of other games), *strategy* (and the hand-off
  to a sending thread), *POST to move applied* (the move sent -> the service's time of the
  move); and, after the round trip, the move's answer coming back. Every clock is this
  machine's (the service's ``time.time()``, Redis ``TIME`` and the runner's), so steps add
  up.

The machine running the clients, the API, the workers and Redis together bounds these; the
load average is printed with the figures. Run it under ``nice`` on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import redis
import requests
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import itertools

from bench.cluster import Cluster, machine_line, machine_state, percentile
from service.keys import Keys

EXTERNAL, BUNDLED = "outsider", "heuristic"
STEPS = (
    ("commit + notice written", "due", "written"),
    ("feed delivery", "written", "received"),
    ("queued in the runner", "received", "started"),
    ("strategy (+ hand-off to a sender)", "started", "posted"),
    ("POST to move applied", "posted", "applied"),
)
AFTER = ("(after the round trip) move applied -> answer back", "applied", "answered")
"""Not part of the round trip, but of the runner's time per decision."""


@dataclass
class Decision:
    """One answered decision's moments (epoch seconds), from the log, the feed and the trace."""

    due: float
    applied: float
    written: float | None = None
    received: float | None = None
    started: float | None = None
    posted: float | None = None
    answered: float | None = None

    @property
    def round_trip(self) -> float:
        return self.applied - self.due


def _get(http: requests.Session, url: str, what: str) -> dict[str, Any]:
    reply = http.get(url, timeout=30)
    if not reply.ok:
        raise RuntimeError(f"{what}: {reply.status_code} {reply.text[:300]}")
    answer: dict[str, Any] = reply.json()
    return answer


def decisions_of(
    http: requests.Session, api: str, game: dict[str, Any]
) -> dict[str, dict[tuple[int, int], Decision]]:
    """Per participant name: (seat, decision id) -> its moments from the game's log. In a
    Carcassonne game one seat acts at a time, so a decision falls due with the move before."""
    log = _get(http, f"{api}/v1/games/{game['game_id']}/log?limit=1000", "log")["entries"]
    found: dict[str, dict[tuple[int, int], Decision]] = {}
    for before, entry in itertools.pairwise(log):
        if entry.get("seat") is None or "at" not in before or entry.get("fallback"):
            continue
        name = game["participants"][entry["seat"]]
        key = (entry["seat"], before["n"])
        found.setdefault(name, {})[key] = Decision(due=before["at"], applied=entry["at"])
    return found


def feed_times(client: redis.Redis, account_id: str) -> dict[tuple[str, int, int], float]:
    """When each ``decision_due`` notice was written to the account's feed (its entry id)."""
    written = {}
    entries = cast(
        "list[tuple[str, dict[str, str]]]", client.xrange(Keys().account(account_id, "feed"))
    )
    for entry_id, fields in entries:
        event = json.loads(fields["data"])
        if event.get("type") == "decision_due":
            key = (event["game_id"], event["seat"], event["decision"])
            written[key] = int(entry_id.split("-")[0]) / 1000
    return written


def ms(values: list[float], q: float) -> float:
    return percentile(values, q) * 1000


def summary(values: list[float]) -> dict[str, float]:
    return {
        "samples": len(values),
        "p50_ms": ms(values, 50),
        "p95_ms": ms(values, 95),
        "p99_ms": ms(values, 99),
        "mean_ms": sum(values) / len(values) * 1000 if values else 0.0,
    }


def breakdown(
    decisions: list[Decision], steps_of: tuple[tuple[str, str, str], ...] = STEPS
) -> dict[str, dict[str, float]]:
    """p50 and mean (ms) of each step, over the decisions that have both of its moments."""
    steps = {}
    for label, start, end in steps_of:
        spans = [
            getattr(d, end) - getattr(d, start)
            for d in decisions
            if getattr(d, start) is not None and getattr(d, end) is not None
        ]
        steps[label] = summary(spans)
    return steps


def run_tournament(
    args: argparse.Namespace, cluster: Cluster, trace: Path, console: Console
) -> tuple[dict[str, Any], float, str, str]:
    """Start everything, play the tournament; returns it, its minutes, the API and account."""
    api, _ = cluster.gunicorn(
        "service.app:create_app()", "/v1/health", {"DICEHALL_RATE_LIMIT": "0"}
    )
    cluster.rq_workers(args.workers)
    http = requests.Session()
    account = http.post(f"{api}/v1/bots", json={"name": EXTERNAL, "owner": "bench"}).json()
    runner = [sys.executable, "-m", "clients.cli", "bot", "run", "--server", api]
    runner += ["--token", account["token"], "--quiet", "--trace", str(trace)]
    runner += ["--strategy", "engine.carcassonne.bots:HeuristicBot"]
    runner += ["--parallel", str(args.parallel), "--detail", args.detail]
    cluster.process(runner, "runner.log")
    started = time.monotonic()
    body = {
        "game": "carcassonne",
        "games": args.games,
        "format": "mirrored",
        "seats_per_game": 2,
        "concurrency": args.concurrency,
        "seed": "bench",
        "participants": [
            {"name": BUNDLED, "bot": "heuristic"},
            {"name": "random", "bot": "random"},
            {"name": EXTERNAL, "account": account["id"]},
        ],
    }
    reply = http.post(f"{api}/v1/tournaments", json=body)
    if reply.status_code != 201:
        raise RuntimeError(f"tournament: {reply.status_code} {reply.text[:300]}")
    t = reply.json()
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("tournament", total=t["games"])
        while t["status"] != "finished":
            time.sleep(0.5)
            t = _get(http, f"{api}/v1/tournaments/{t['id']}", "tournament")
            progress.update(task, completed=t["progress"]["finished"])
    return t, (time.monotonic() - started) / 60, api, account["id"]


def collect(
    store: redis.Redis, api: str, account_id: str, t: dict[str, Any], trace: Path
) -> tuple[list[Decision], list[Decision]]:
    """The external bot's decisions (with every moment found) and the bundled heuristic's."""
    http = requests.Session()
    games = _get(http, f"{api}/v1/tournaments/{t['id']}/games", "games")["games"]
    written = feed_times(store, account_id)
    traced = {}
    for line in trace.read_text().splitlines():
        item = json.loads(line)
        traced[(item["game_id"], item["seat"], item["decision"])] = item
    external: list[Decision] = []
    bundled: list[Decision] = []
    for game in games:
        by_name = decisions_of(http, api, game)
        for (seat, decision_id), decision in by_name.get(EXTERNAL, {}).items():
            key = (game["game_id"], seat, decision_id)
            decision.written = written.get(key)
            moments = traced.get(key, {})
            decision.received = moments.get("received")
            decision.started = moments.get("started")
            decision.posted = moments.get("posted")
            decision.answered = moments.get("answered")
            external.append(decision)
        bundled.extend(by_name.get(BUNDLED, {}).values())
    return external, bundled


def report_table(
    title: str, rows: list[tuple[str, dict[str, float]]], columns: tuple[str, ...]
) -> Table:
    table = Table(title=title)
    table.add_column("what")
    for column in columns:
        table.add_column(column, justify="right")
    for label, figures in rows:
        table.add_row(label, *(_cell(figures, column) for column in columns))
    return table


def _cell(figures: dict[str, float], column: str) -> str:
    value = figures[column.replace(" ", "_")]
    return f"{value:,}" if column == "samples" else f"{value:.1f}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--concurrency", type=int, default=6)
    parser.add_argument(
        "--parallel", type=int, default=4, help="the runner's sending threads (--parallel)"
    )
    parser.add_argument(
        "--detail", default="full", choices=("full", "compact"), help="the runner's --detail"
    )
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    console = Console()
    machine = machine_state()
    with Cluster() as cluster:
        trace = Path(cluster.workdir) / "trace.jsonl"
        store = cluster.redis()
        t, minutes, api, account_id = run_tournament(args, cluster, trace, console)
        external, bundled = collect(store, api, account_id, t, trace)
    machine["load_after"] = os.getloadavg()
    round_trip: Callable[[list[Decision]], dict[str, float]] = lambda ds: summary(  # noqa: E731
        [d.round_trip for d in ds]
    )
    figures = {
        "machine": machine,
        "args": vars(args) | {"json": str(args.json)},
        "games": t["games"],
        "games_per_minute": t["games"] / minutes,
        "external_round_trip": round_trip(external),
        "bundled_decision": round_trip(bundled),
        "breakdown": breakdown(external),
        "answer_back": breakdown(external, (AFTER,))[AFTER[0]],
        "standings": [
            {k: row.get(k) for k in ("name", "decision_time_p50", "decision_time_p95")}
            for row in t["standings"]
        ],
    }
    ratio = figures["external_round_trip"]["p50_ms"] / max(
        figures["bundled_decision"]["p50_ms"], 1e-9
    )
    figures["external_to_bundled_p50"] = ratio
    columns = ("samples", "p50 ms", "p95 ms", "p99 ms", "mean ms")
    console.print(
        report_table(
            f"Carcassonne tournament: {t['games']} games, {args.workers} workers, "
            f"{figures['games_per_minute']:.1f} games/min; runner --parallel {args.parallel} "
            f"--detail {args.detail}",
            [
                ("external bot round trip (due -> applied)", figures["external_round_trip"]),
                ("bundled heuristic in a worker (due -> applied)", figures["bundled_decision"]),
            ],
            columns,
        )
    )
    console.print(f"external / bundled at p50: {ratio:.1f}x")
    console.print(
        report_table(
            "external round trip, step by step",
            [*figures["breakdown"].items(), (AFTER[0], figures["answer_back"])],
            columns,
        )
    )
    for row in figures["standings"]:
        p50, p95 = row["decision_time_p50"], row["decision_time_p95"]
        if p50 is not None:
            console.print(
                f"standings: {row['name']}: decision p50 {p50 * 1000:.1f} ms, "
                f"p95 {p95 * 1000:.1f} ms"
            )
    console.print(machine_line(machine))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
