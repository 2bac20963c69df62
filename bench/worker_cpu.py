"""What a bot job costs the rq worker itself, against an empty job, in process.

    python bench/worker_cpu.py [--game all] [--jobs 300] [--json FILE]

Starts a private redis-server and plays, in this one process, two-seat games of a human seat
(random legal moves, seeded) against a ``random`` bot seat through the game service; each
bot job that a human move queues is run by the service's worker (``DicehallWorker``, as
``python -m service.worker`` runs it: its loop's dequeue, then the job) in this process. Then
as many empty jobs (``bench.empty_job``) through the same worker. For each job: the worker's
CPU (``time.thread_time``, the system time of its socket calls included), split for a bot
job at the bot's commit (from BLMOVE's answer to the commit sent: between the human's move
and the bot's, what delays the reply; from the commit's answer to the job done: rq's
finishing, while the move goes out on the game's stream), and its round trips (Redis's own
count of the replies it wrote). Prints p50 of each and the ratio bot job : empty job.

The machine's load moves CPU times less than it moves latencies, and round trips not at
all: compare two trees by running this in each, back to back.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import redis
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.cluster import Cluster, RedisCounters, machine_line, machine_state

GAMES = ("carcassonne", "burgundy", "diceland", "kingdice")


class Probe:
    """The worker's CPU time at BLMOVE's answer and around the bot's commit (the store's
    ``commit_if``, wrapped for the bench), while a job runs."""

    def __init__(self) -> None:
        self.marks: dict[str, float] = {}
        self.on = False

    def install(self) -> None:
        from rq.queue import Queue

        from service.store import GameStore

        commit_if = GameStore.commit_if
        lmove = Queue.__dict__["lmove"].__func__
        probe = self

        def timed_commit(store: Any, *args: Any, **kwargs: Any) -> Any:
            if probe.on:
                probe.marks.setdefault("sent", time.thread_time())
            done = commit_if(store, *args, **kwargs)
            if probe.on:
                probe.marks["answered"] = time.thread_time()
            return done

        def timed_lmove(cls: Any, *args: Any, **kwargs: Any) -> Any:
            found = lmove(cls, *args, **kwargs)
            if probe.on:
                probe.marks["woke"] = time.thread_time()
            return found

        GameStore.commit_if = timed_commit  # type: ignore[method-assign, assignment]
        Queue.lmove = classmethod(timed_lmove)  # type: ignore[assignment]


def run_job(worker: Any, client: redis.Redis, probe: Probe) -> tuple[float, int]:
    """Run the next queued job through the worker's loop: its CPU seconds and round trips
    (less the INFO that counts them)."""
    probe.marks.clear()
    probe.on = True
    before = RedisCounters.read(client)
    start = time.thread_time()
    dequeued = worker.dequeue_job_and_maintain_ttl(timeout=1)
    if dequeued is None:
        raise RuntimeError("no job was queued")
    worker.execute_job(*dequeued)
    probe.marks["done"] = done = time.thread_time()
    probe.on = False
    spent = done - start
    return spent, RedisCounters.read(client).since(before).writes


def measure(game_name: str, jobs: int, client: redis.Redis, worker: Any, probe: Probe) -> dict:
    """``jobs`` bot jobs of ``game_name`` and as many empty jobs: their figures."""
    from bench.empty_job import empty_job
    from engine.games import get_game
    from service.config import Settings
    from service.moves import MoveRequest
    from service.runtime import game_service
    from service.store import GameStatus

    service = game_service(Settings())
    game = get_game(game_name)
    queue = worker.queues[0]
    rng = random.Random(game_name)
    bot: dict[str, list[float]] = {"total": [], "to_commit": [], "after_commit": [], "trips": []}
    n = 0
    while len(bot["total"]) < jobs:
        created, _, _ = service.create(
            game_name, [{"kind": "human"}, {"kind": "bot", "bot": "random"}], None, f"cpu-{n}"
        )
        n += 1
        service.join(created.id, 0, "bench")
        while len(bot["total"]) < jobs:
            record = service.store.load(created.id)
            if record is None or record.status is not GameStatus.ACTIVE:
                break
            state = game.load_state(record.state)
            if 0 in game.to_act(state):
                action = rng.choice(game.legal_actions(state, 0))
                service.play(record.id, MoveRequest(action, seat=0))
            elif not queue.count:
                break  # the bot owes a decision with no job queued: not this bench's case
            while queue.count and len(bot["total"]) < jobs:
                spent, trips = run_job(worker, client, probe)
                marks = probe.marks
                if "sent" not in marks:
                    continue  # a job that found nothing to play
                bot["total"].append(spent)
                bot["to_commit"].append(marks["sent"] - marks["woke"])
                bot["after_commit"].append(marks["done"] - marks["answered"])
                bot["trips"].append(trips)
    empty: dict[str, list[float]] = {"total": [], "trips": []}
    for _ in range(jobs):
        queue.enqueue(empty_job, result_ttl=60)
        spent, trips = run_job(worker, client, probe)
        empty["total"].append(spent)
        empty["trips"].append(trips)
    return {"bot": bot, "empty": empty}


def p50_ms(values: list[float]) -> float:
    return statistics.median(values) * 1000


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="all", choices=("all", *GAMES))
    parser.add_argument("--jobs", type=int, default=300, help="bot jobs (and empty jobs) a game")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    console = Console(width=None if sys.stdout.isatty() else 160)
    machine = machine_state()
    results: dict[str, Any] = {}
    with Cluster() as cluster:
        cluster.redis()
        os.environ["REDIS_URL"] = cluster.redis_url
        os.environ.pop("DICEHALL_QUEUE_URL", None)
        client = redis.Redis.from_url(cluster.redis_url)  # bytes, as rq's worker reads
        from rq import Queue

        from service.config import Settings
        from service.logs import configure_logging
        from service.worker import DicehallWorker

        log = open(Path(cluster.workdir) / "worker.log", "w")  # noqa: SIM115 - closed below
        sys.stderr, stderr = log, sys.stderr
        configure_logging()  # the worker's log lines, as its process writes them
        probe = Probe()
        probe.install()
        queue = Queue(Settings().queue_name, connection=client)
        worker = DicehallWorker([queue], connection=client)
        worker.register_birth()
        worker.get_redis_server_version()
        try:
            for game in GAMES if args.game == "all" else (args.game,):
                results[game] = measure(game, args.jobs, client, worker, probe)
        finally:
            worker.register_death()
            sys.stderr = stderr
            log.close()
    table = Table(title=f"the worker's CPU and round trips a job, p50 of {args.jobs} jobs each")
    for column in (
        "game",
        "bot job ms",
        "BLMOVE to commit sent ms",
        "commit answered to done ms",
        "bot job round trips",
        "empty job ms",
        "empty job round trips",
        "CPU bot : empty",
    ):
        table.add_column(column, justify="right")
    figures = {}
    for game, found in results.items():
        bot, empty = found["bot"], found["empty"]
        row = {
            "bot_job_ms": p50_ms(bot["total"]),
            "to_commit_ms": p50_ms(bot["to_commit"]),
            "after_commit_ms": p50_ms(bot["after_commit"]),
            "bot_job_round_trips": statistics.median(bot["trips"]),
            "empty_job_ms": p50_ms(empty["total"]),
            "empty_job_round_trips": statistics.median(empty["trips"]),
        }
        row["cpu_ratio"] = row["bot_job_ms"] / row["empty_job_ms"]
        figures[game] = row
        table.add_row(
            game,
            f"{row['bot_job_ms']:.3f}",
            f"{row['to_commit_ms']:.3f}",
            f"{row['after_commit_ms']:.3f}",
            f"{row['bot_job_round_trips']:g}",
            f"{row['empty_job_ms']:.3f}",
            f"{row['empty_job_round_trips']:g}",
            f"{row['cpu_ratio']:.2f}",
        )
    console.print(table)
    console.print(
        "a job: from the worker's dequeue (its idle state and heartbeat, BLMOVE) to the job "
        "finished; round trips: the replies Redis wrote meanwhile"
    )
    machine["load_after"] = os.getloadavg()
    console.print(machine_line(machine))
    if args.json:
        args.json.write_text(json.dumps({"machine": machine, "games": figures}, indent=2))


if __name__ == "__main__":
    main()
