"""HTTP moves per second with game state on one Redis, on a Redis Cluster, and with
``DICEHALL_MIN_REPLICAS=1`` (each move waits for a replica), in the same run.

    python bench/replicated.py [--game kingdice] [--seconds 8] [--clients 6] [--rounds 2]

Starts, from the ``redis-server`` binary (tests/redis_servers.py):

* ``one``: one Redis, no replica (the baseline);
* ``cluster``: a Redis Cluster of three masters with a replica each, the queues on a Redis of
  their own (``DICEHALL_QUEUE_URL``);
* ``one+replica, MIN_REPLICAS=1``: a primary with one replica (reached through its three
  sentinels, ``redis+sentinel://``), every move answered after ``WAIT 1``;
* ``cluster, MIN_REPLICAS=1``: the cluster, every move after ``WAIT 1`` on its master;

and a gunicorn of the API (deploy config, two gevent processes) on each. The load generator
is bench/http_moves.py's: ``--clients`` processes replaying the heuristic bots' games move
by move over HTTP (``GET legal-actions`` + ``POST actions`` a move, every seat human). The
setups take turns (``--rounds`` periods of ``--seconds`` each, in the same order every
round) so that a machine that gets busier or quieter moves every figure alike; the table
shows the median moves/s and latencies of each and its ratio to ``one``.

Second, what ``MIN_REPLICAS=1`` adds to one write, without HTTP: ``--writes`` times in a
row on the Sentinel's primary, a one-round-trip pipeline of ``SET`` alone, then of ``SET`` +
``WAIT 1`` (what the store sends after a move's commit), with their latency percentiles: the
difference is the replica's round trip a move waits for.

Clients, servers and every Redis share this machine: compare the ratios, and read the load
average printed at the end before trusting absolute numbers.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import redis
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.cluster import Cluster, machine_line, machine_state, percentile
from bench.http_load import Script, Tally, play_period, warm
from bench.http_moves import GAMES, make_scripts
from service.keys import Keys
from tests.redis_servers import Sentinel, cluster, plain, sentinel


@dataclass
class Setup:
    """One way of storing game state, its API's base URL and what its periods measured."""

    name: str
    base: str = ""
    rates: list[float] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return statistics.median(self.rates) if self.rates else 0.0


@contextlib.contextmanager
def servers(procs: Cluster) -> Iterator[tuple[list[Setup], Sentinel]]:
    """Every Redis topology and an API on each; the setups, in the order they take turns,
    and the Sentinel topology (for :func:`wait_cost`)."""
    with contextlib.ExitStack() as stack:
        one = stack.enter_context(plain())
        queues = stack.enter_context(plain())
        ring = stack.enter_context(cluster())
        watched = stack.enter_context(sentinel())
        configs = [
            ("one", one.url, {}),
            ("cluster", ring.url, {"DICEHALL_QUEUE_URL": queues.url}),
            ("one+replica, MIN_REPLICAS=1", watched.url(), {"DICEHALL_MIN_REPLICAS": "1"}),
            (
                "cluster, MIN_REPLICAS=1",
                ring.url,
                {"DICEHALL_QUEUE_URL": queues.url, "DICEHALL_MIN_REPLICAS": "1"},
            ),
        ]
        setups = []
        for name, url, env in configs:
            procs.use(url, DICEHALL_ACCESS_LOG="", **env)
            base, _ = procs.gunicorn("service.app:create_app()", "/v1/health/ready")
            setups.append(Setup(name, base))
        yield setups, watched


def wait_cost(primary: redis.Redis, writes: int) -> Table:
    """p50/p99 of ``writes`` one-round-trip pipelines of SET, then of SET + WAIT 1."""
    out = Table(title=f"one write on the primary, {writes} in a row (no HTTP)")
    for column in ("pipeline", "p50 ms", "p99 ms"):
        out.add_column(column, justify="left" if column == "pipeline" else "right")
    for label, wait in (("SET", False), ("SET + WAIT 1", True)):
        times = []
        keys = Keys("bench")
        for n in range(writes):
            with primary.pipeline(transaction=False) as pipe:
                pipe.set(keys.game("wait", f"w{n % 64}"), "x" * 2000)
                if wait:
                    pipe.execute_command("WAIT", 1, 1000)
                t0 = time.perf_counter()
                replies = pipe.execute()
                times.append(time.perf_counter() - t0)
            if wait and int(replies[1]) < 1:
                raise RuntimeError("the replica did not confirm a write")
        p50, p99 = percentile(times, 50), percentile(times, 99)
        out.add_row(label, f"{p50 * 1000:.3f}", f"{p99 * 1000:.3f}")
    return out


def period(
    pool: multiprocessing.pool.Pool,
    setup: Setup,
    scripts: list[Script],
    clients: int,
    seconds: float,
    progress: Progress,
    label: str,
) -> tuple[float, list[float]]:
    """Every client plays scripts against ``setup`` for ``seconds``; moves/s and latencies."""
    start = time.monotonic() + 0.3
    stop = start + seconds
    pending = pool.starmap_async(
        play_period,
        [(setup.base, scripts, i, clients, start, stop) for i in range(clients)],
        chunksize=1,
    )
    task = progress.add_task(label, total=seconds)
    while not pending.ready():
        pending.wait(0.25)
        progress.update(task, completed=min(seconds, max(0.0, time.monotonic() - start)))
    tallies: list[Tally] = pending.get()
    progress.update(task, completed=seconds)
    return sum(t.ops for t in tallies) / seconds, [x for t in tallies for x in t.latencies]


def table(setups: list[Setup], game: str) -> Table:
    out = Table(title=f"{game}: HTTP moves per second by where game state lives")
    for column in ("setup", "moves/s (median)", "periods", "p50 ms", "p99 ms", "ratio to one"):
        out.add_column(column, justify="left" if column == "setup" else "right")
    baseline = setups[0].rate
    for setup in setups:
        out.add_row(
            setup.name,
            f"{setup.rate:.1f}",
            " ".join(f"{r:.0f}" for r in setup.rates),
            f"{percentile(setup.latencies, 50) * 1000:.1f}",
            f"{percentile(setup.latencies, 99) * 1000:.1f}",
            f"{setup.rate / baseline:.2f}" if baseline else "-",
        )
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="kingdice", choices=GAMES)
    parser.add_argument("--seats", type=int, default=2, help="seats of every game (all human)")
    parser.add_argument("--seconds", type=float, default=8, help="length of each period")
    parser.add_argument("--clients", type=int, default=6, help="client processes")
    parser.add_argument("--rounds", type=int, default=2, help="periods of each setup")
    parser.add_argument("--warmup", type=float, default=2, help="seconds of warm-up a setup")
    parser.add_argument("--scripts", type=int, default=12, help="bot games the clients replay")
    parser.add_argument("--writes", type=int, default=2000, help="writes of the WAIT figure")
    args = parser.parse_args(argv)
    console = Console(width=None if sys.stdout.isatty() else 200)
    machine = machine_state()
    scripts = make_scripts(args.game, args.seats, args.scripts)
    pool = multiprocessing.get_context("spawn").Pool(args.clients)
    try:
        pool.map(warm, range(args.clients), chunksize=1)
        with Cluster() as procs, servers(procs) as (setups, watched):
            with Progress(console=console, transient=False) as progress:
                for setup in setups:
                    period(pool, setup, scripts, args.clients, args.warmup, progress, "warm-up")
                for n in range(1, args.rounds + 1):
                    for setup in setups:
                        rate, latencies = period(
                            pool, setup, scripts, args.clients, args.seconds, progress,
                            f"{setup.name} {n}",
                        )  # fmt: skip
                        setup.rates.append(rate)
                        setup.latencies += latencies
            console.print(table(setups, args.game))
            console.print(wait_cost(watched.primary.client(), args.writes))
    finally:
        pool.terminate()
        pool.join()
    console.print(
        "ratio = median moves/s of the setup : of one Redis; a move = GET legal-actions + "
        "POST actions; p50/p99 = that pair's latency"
    )
    machine["load_after"] = os.getloadavg()
    console.print(machine_line(machine))


if __name__ == "__main__":
    main()
