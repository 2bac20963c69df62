"""HTTP moves per second against a floor doing only a move's Redis compare-and-set.

    python bench/http_moves.py [--game all] [--seconds 10] [--clients 8] [--alternations 3]
        [--prefer-minimal]

Starts a private redis-server and two gunicorns with the API's deploy config: the dicehall
API, and ``bench/floor_app.py`` (a bare endpoint doing a move's WATCH, HMGET, MULTI/HSET/
RPUSH/EXEC on a blob the size of the game's stored state). The load generator is a pool of
``--clients`` processes (``bench/http_load.py``): each plays whole scripted games (the
heuristic bots' games, replayed move by move over HTTP, every human seat of its game) or hits
the floor. For each game (``--game all``: carcassonne, burgundy, diceland, kingdice in turn)
the bench runs a short warm-up, then alternates API and floor periods (API, floor, API,
floor...; ``--alternations`` of each) and prints each period and the minimum and median of
moves/s and floor requests/s with their ratio (target >= 0.6). A move is a ``POST actions``,
preceded by ``GET legal-actions`` only when the client does not hold the seat's legal actions
for its current decision (a move's answer carries the mover's next ones: see
``bench/http_load.py``); the bench prints the HTTP requests per move. A floor request is one
compare-and-set. ``--prefer-minimal``: every move asks for the minimal answer (``Prefer:
return=minimal``: no view, as a client following the event stream needs); the bench prints
which answers its moves asked for.

**Redis round trips**, counted by Redis itself (``INFO everything`` before and after each
period, less the bench's own INFO), per move and per floor request:

* *commands*: the calls of every command in ``commandstats``; a WATCH/MULTI/EXEC pipeline
  counts each command it holds (MULTI, the queued commands and EXEC all count).
* *round trips*: the reply writes Redis made (``total_writes_processed``): Redis writes
  once to a client for each batch of commands it read and answered, so a MULTI..EXEC
  pipeline, or a non-transactional pipeline like the rate limiter's INCR+EXPIRE, is one
  write, and each immediate command (WATCH, a read between WATCH and MULTI) is one. It
  over-counts only when one request reaches Redis in pieces (values over ~6 kB, which
  redis-py sends in separate chunks); the floor, which does exactly three round trips,
  is the check of the method, printed next to it.
* *MULTI blocks*: ``exec`` calls (transactions committed or aborted).
* *commandstats bound*: commands less two per MULTI block (MULTI and EXEC ride with the
  block); an upper bound on round trips that counts each queued command as one.

Moves' figures include what the clients' game creations and joins cost (a create, one join
per seat and a summary per scripted game of some 50 to 130 moves).

**Engine cost**: the scripts' moves are replayed in this process through the engine, timing
``legal_actions`` + ``apply`` per move (CPU time), against the CPU time of the API's gunicorn
workers per HTTP move in the API periods (``/proc``): the engine's share of a move's cost
(target <= 10%).

**All CPU** per operation: the server's workers (``/proc``), Redis (``INFO``) and the client
processes (each its own ``time.process_time`` over the period), less the set-up of games for
moves. Clients, servers and Redis share the machine's cores, so when the cores are the bound
the ratio tends to the *CPU ratio*, a floor request's all CPU : a move's, which does not move
with the load of other processes as the rates do (compare two trees with it).

The machine running clients, servers and Redis together bounds all of these; compare the
ratios, and rerun on a quiet machine before trusting absolute numbers.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.cluster import (
    Cluster,
    RedisCounters,
    children_cpu_seconds,
    machine_line,
    machine_state,
    percentile,
)
from bench.http_load import Script, Tally, floor_period, play_period, setup_period, warm
from engine.dice import Dice
from engine.games import get_game
from engine.simulate import make_bots, play
from service.keys import Keys

GAMES = ("carcassonne", "burgundy", "diceland", "kingdice")


@dataclass
class Period:
    """One measured period: operations per second, latencies, Redis and CPU per operation."""

    kind: str
    ops: int
    seconds: float
    latencies: list[float]
    redis: RedisCounters
    server_cpu: float
    games: int = 0
    requests: int = 0
    client_cpu: float = 0.0

    @property
    def rate(self) -> float:
        return self.ops / self.seconds if self.seconds else float("nan")

    def per_op(self, count: float) -> float:
        return count / self.ops if self.ops else float("nan")

    def costs(self, setup: Period | None = None) -> dict[str, float]:
        """Per operation: Redis commands, round trips (reply writes), MULTI blocks, the
        commandstats bound, server, client and Redis CPU ms and their sum; less ``setup``'s
        cost per game for each game this period set up."""

        def per_op(amount: Callable[[Period], float]) -> float:
            spent = amount(self)
            if setup is not None and self.games:
                spent -= self.games * setup.per_op(amount(setup))
            return self.per_op(spent)

        return {
            "commands": per_op(lambda p: p.redis.commands),
            "round_trips": per_op(lambda p: p.redis.writes),
            "multi_blocks": per_op(lambda p: p.redis.transactions),
            "round_trip_bound": per_op(lambda p: p.redis.round_trip_bound),
            "server_cpu_ms": per_op(lambda p: p.server_cpu) * 1000,
            "redis_cpu_ms": per_op(lambda p: p.redis.cpu) * 1000,
            "client_cpu_ms": per_op(lambda p: p.client_cpu) * 1000,
            "cpu_ms": per_op(lambda p: p.server_cpu + p.redis.cpu + p.client_cpu) * 1000,
        }


@dataclass
class GameFigures:
    """Everything measured for one game."""

    game: str
    state_bytes: int
    setup: Period
    periods: list[Period] = field(default_factory=list)
    engine_seconds_per_move: float = 0.0

    def costs(self, period: Period) -> dict[str, float]:
        """A period's costs per operation; a move's without the set-up of games."""
        return period.costs(self.setup if period.kind == "API" else None)

    def of(self, kind: str) -> list[Period]:
        return [p for p in self.periods if p.kind == kind]


def make_scripts(game_name: str, seats: int, count: int) -> list[Script]:
    """``count`` games of the heuristic bots, as scripts for the clients."""
    game = get_game(game_name)
    scripts = []
    for n in range(count):
        played = play(game, make_bots(game, ["heuristic"] * seats), f"bench-{game_name}-{n}")
        scripts.append(Script(game_name, seats, played.options, played.seed, played.moves))
    return scripts


def engine_seconds_per_move(scripts: list[Script]) -> float:
    """CPU seconds of ``legal_actions`` + ``apply`` per move, replaying the scripts."""
    spent, moves = 0.0, 0
    for script in scripts:
        game = get_game(script.game)
        dice = Dice(script.seed)
        state = game.setup(script.seats, dict(script.options), dice)
        for seat, action in script.moves:
            t0 = time.process_time()
            game.legal_actions(state, seat)
            game.apply(state, seat, action, dice)
            spent += time.process_time() - t0
            dice.take_draws()
            moves += 1
    return spent / moves


class Bench:
    """The cluster's servers, the pool of client processes, and the periods."""

    def __init__(self, args: argparse.Namespace, cluster: Cluster) -> None:
        self.args = args
        self.redis = cluster.redis()
        self.api, self.api_proc = cluster.gunicorn("service.app:create_app()", "/v1/health")
        self.floor, self.floor_proc = cluster.gunicorn(
            "bench.floor_app:create_app()", "/floor/health"
        )
        self.pool = multiprocessing.get_context("spawn").Pool(args.clients)
        self.pool.map(warm, range(args.clients), chunksize=1)

    def close(self) -> None:
        self.pool.terminate()
        self.pool.join()

    def run_game(self, progress: Progress, game: str) -> GameFigures:
        """Warm-up, then API and floor periods in turn, then the engine replay."""
        args = self.args
        self.redis.flushdb()
        task = progress.add_task(f"{game}: heuristic bots play {args.scripts} scripts", total=1)
        scripts = make_scripts(game, args.seats, args.scripts)
        progress.update(task, completed=1)
        self.api_period(progress, f"{game} warm-up", scripts, args.warmup)
        sizes = [self.redis.hstrlen(key, "state") for key in self.redis.scan_iter(Keys().game("*"))]
        setup = self.setup_phase(scripts)
        figures = GameFigures(game, int(statistics.mean(sizes)) if sizes else 1000, setup)
        for n in range(1, args.alternations + 1):
            figures.periods.append(self.api_period(progress, f"{game} API {n}", scripts))
            figures.periods.append(
                self.floor_period(progress, f"{game} floor {n}", figures.state_bytes)
            )
        figures.engine_seconds_per_move = engine_seconds_per_move(scripts)
        return figures

    def setup_phase(self, scripts: list[Script]) -> Period:
        """Every client sets up ``--setup-games`` games, moving none: a game's set-up cost."""
        args = self.args
        before, cpu = RedisCounters.read(self.redis), children_cpu_seconds(self.api_proc.pid)
        tallies = self.pool.starmap(
            setup_period,
            [(self.api, scripts, i, args.clients, args.setup_games) for i in range(args.clients)],
            chunksize=1,
        )
        counters = RedisCounters.read(self.redis).since(before)
        cpu = children_cpu_seconds(self.api_proc.pid) - cpu
        games = sum(t.games for t in tallies)
        return Period(
            "setup", games, 0.0, [], counters, cpu, games, client_cpu=sum(t.cpu for t in tallies)
        )

    def api_period(
        self, progress: Progress, label: str, scripts: list[Script], seconds: float | None = None
    ) -> Period:
        clients = self.args.clients
        return self._period(
            progress,
            label,
            "API",
            self.api_proc.pid,
            seconds,
            play_period,
            lambda i, start, stop: (
                self.api,
                scripts,
                i,
                clients,
                start,
                stop,
                self.args.prefer_minimal,
            ),
        )

    def floor_period(self, progress: Progress, label: str, size: int) -> Period:
        return self._period(
            progress,
            label,
            "floor",
            self.floor_proc.pid,
            None,
            floor_period,
            lambda i, start, stop: (self.floor, f"k{i}", size, start, stop),
        )

    def _period(
        self,
        progress: Progress,
        label: str,
        kind: str,
        server_pid: int,
        seconds: float | None,
        target: Callable[..., Tally],
        make_args: Callable[[int, float, float], tuple],
    ) -> Period:
        """Run ``target`` in every client process from a common start for ``seconds``."""
        seconds = self.args.seconds if seconds is None else seconds
        start = time.monotonic() + 0.3
        stop = start + seconds
        before, cpu = RedisCounters.read(self.redis), children_cpu_seconds(server_pid)
        pending = self.pool.starmap_async(
            target, [make_args(i, start, stop) for i in range(self.args.clients)], chunksize=1
        )
        task = progress.add_task(label, total=seconds)
        while not pending.ready():
            pending.wait(0.25)
            progress.update(task, completed=min(seconds, max(0.0, time.monotonic() - start)))
        tallies: list[Tally] = pending.get()
        counters = RedisCounters.read(self.redis).since(before)
        cpu = children_cpu_seconds(server_pid) - cpu
        progress.update(task, completed=seconds)
        return Period(
            kind,
            sum(t.ops for t in tallies),
            seconds,
            [x for t in tallies for x in t.latencies],
            counters,
            cpu,
            sum(t.games for t in tallies),
            sum(t.requests for t in tallies),
            sum(t.cpu for t in tallies),
        )


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f}"


def periods_table(figures: GameFigures, args: argparse.Namespace) -> Table:
    table = Table(
        title=f"{figures.game}: {args.clients} client processes, {args.seconds:g} s periods, "
        f"{args.seats} seats, stored state ~{figures.state_bytes} B; a move's costs exclude "
        "the set-up of its game (own row, per game)"
    )
    for column in (
        "period",
        "ops/s",
        "p50 ms",
        "p99 ms",
        "Redis cmds/op",
        "round trips/op",
        "MULTI blocks/op",
        "server CPU ms/op",
        "Redis CPU ms/op",
        "client CPU ms/op",
        "all CPU ms/op",
    ):
        table.add_column(column, justify="right")
    names = {"API": "API moves", "floor": "floor CAS"}
    rows = [(f"game set-up ({figures.setup.games})", figures.setup)] + [
        (f"{names[p.kind]} {n // 2 + 1}", p) for n, p in enumerate(figures.periods)
    ]
    for name, period in rows:
        costs = figures.costs(period)
        table.add_row(
            name,
            f"{period.rate:,.1f}" if period.seconds else "",
            ms(percentile(period.latencies, 50)) if period.latencies else "",
            ms(percentile(period.latencies, 99)) if period.latencies else "",
            f"{costs['commands']:.2f}",
            f"{costs['round_trips']:.2f}",
            f"{costs['multi_blocks']:.2f}",
            f"{costs['server_cpu_ms']:.2f}",
            f"{costs['redis_cpu_ms']:.2f}",
            f"{costs['client_cpu_ms']:.2f}",
            f"{costs['cpu_ms']:.2f}",
        )
    return table


def median_of(periods: list[Period], value: Callable[[Period], float]) -> float:
    return statistics.median(value(p) for p in periods) if periods else float("nan")


def ratio(a: float, b: float) -> float:
    return a / b if b else float("nan")


def summary(figures: GameFigures) -> dict[str, Any]:
    """The figures of one game (medians over its periods unless named min), as printed and
    as written by ``--json``."""
    api, floor = figures.of("API"), figures.of("floor")
    rates, floors = [p.rate for p in api], [p.rate for p in floor]

    def cost(periods: list[Period], name: str) -> float:
        return median_of(periods, lambda p: figures.costs(p)[name])

    cpu = cost(api, "server_cpu_ms") / 1000
    moves = sum(p.ops for p in api)
    games = sum(p.games for p in api)
    calls: dict[str, float] = {}
    for period in api:
        for name, count in period.redis.calls.items():
            calls[name] = calls.get(name, 0) + count
    for name, count in figures.setup.redis.calls.items():
        calls[name] = calls.get(name, 0) - count * games / figures.setup.games
    busiest = sorted(calls.items(), key=lambda item: -item[1])
    return {
        "game": figures.game,
        "state_bytes": figures.state_bytes,
        "moves_per_s": {"min": min(rates), "median": statistics.median(rates)},
        "floor_per_s": {"min": min(floors), "median": statistics.median(floors)},
        "ratio_median": ratio(statistics.median(rates), statistics.median(floors)),
        "ratio_min": ratio(min(rates), min(floors)),
        "requests_per_move": ratio(sum(p.requests for p in api), moves),
        "round_trips_per_move": cost(api, "round_trips"),
        "floor_round_trips_per_request": cost(floor, "round_trips"),
        "commands_per_move": cost(api, "commands"),
        "round_trip_bound_per_move": cost(api, "round_trip_bound"),
        "multi_blocks_per_move": cost(api, "multi_blocks"),
        "commands_per_move_by_name": {
            name: count / moves for name, count in busiest if moves and count > 0
        },
        "setup_per_game": figures.setup.costs(),
        "engine_ms_per_move": figures.engine_seconds_per_move * 1000,
        "api_cpu_ms_per_move": cpu * 1000,
        "client_cpu_ms_per_move": cost(api, "client_cpu_ms"),
        "cpu_ms_per_move": cost(api, "cpu_ms"),
        "floor_cpu_ms_per_request": cost(floor, "cpu_ms"),
        "cpu_ratio": ratio(cost(floor, "cpu_ms"), cost(api, "cpu_ms")),
        "engine_share": ratio(figures.engine_seconds_per_move, cpu),
        "periods": [
            {
                "kind": p.kind,
                "ops": p.ops,
                "seconds": p.seconds,
                "per_s": p.rate,
                "p50_ms": percentile(p.latencies, 50) * 1000,
                "p99_ms": percentile(p.latencies, 99) * 1000,
                "games_set_up": p.games,
                **{f"{name}_per_op": value for name, value in figures.costs(p).items()},
            }
            for p in figures.periods
        ],
    }


def top_commands(row: dict[str, Any], top: int = 8) -> str:
    """The commands a move makes most, per move over the API periods."""
    by_name = list(row["commands_per_move_by_name"].items())[:top]
    shown = ", ".join(f"{name} {count:.2f}" for name, count in by_name)
    return f"{row['game']}: Redis commands per move: {shown}"


def summary_table(rows: list[dict[str, Any]]) -> Table:
    table = Table(title="moves/s against floor requests/s, and what a move costs (median periods)")
    columns = {
        "game": lambda r: r["game"],
        "moves/s min": lambda r: f"{r['moves_per_s']['min']:,.1f}",
        "moves/s median": lambda r: f"{r['moves_per_s']['median']:,.1f}",
        "floor/s min": lambda r: f"{r['floor_per_s']['min']:,.1f}",
        "floor/s median": lambda r: f"{r['floor_per_s']['median']:,.1f}",
        "ratio median": lambda r: f"{r['ratio_median']:.2f}",
        "ratio min": lambda r: f"{r['ratio_min']:.2f}",
        "HTTP requests/move": lambda r: f"{r['requests_per_move']:.2f}",
        "round trips/move": lambda r: f"{r['round_trips_per_move']:.2f}",
        "floor round trips/req": lambda r: f"{r['floor_round_trips_per_request']:.2f}",
        "Redis cmds/move": lambda r: f"{r['commands_per_move']:.2f}",
        "cmdstats bound": lambda r: f"{r['round_trip_bound_per_move']:.2f}",
        "engine ms/move": lambda r: f"{r['engine_ms_per_move']:.3f}",
        "API CPU ms/move": lambda r: f"{r['api_cpu_ms_per_move']:.2f}",
        "all CPU ms/move": lambda r: f"{r['cpu_ms_per_move']:.2f}",
        "all CPU ms/floor req": lambda r: f"{r['floor_cpu_ms_per_request']:.2f}",
        "CPU ratio": lambda r: f"{r['cpu_ratio']:.2f}",
        "engine share": lambda r: f"{r['engine_share']:.1%}",
    }
    for column in columns:
        table.add_column(column, justify="right")
    for row in rows:
        table.add_row(*(cell(row) for cell in columns.values()))
    return table


def mode_line(minimal: bool) -> str:
    """Which answer the API periods' moves asked for."""
    if minimal:
        return "moves: Prefer: return=minimal (answers without the view; --prefer-minimal)"
    return "moves: full answers (with the view; --prefer-minimal asks for minimal ones)"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="all", choices=("all", *GAMES))
    parser.add_argument("--seats", type=int, default=2, help="seats of every game (all human)")
    parser.add_argument("--seconds", type=float, default=10, help="length of each period")
    parser.add_argument("--clients", type=int, default=8, help="client processes")
    parser.add_argument("--alternations", type=int, default=3, help="API and floor periods each")
    parser.add_argument("--warmup", type=float, default=2, help="seconds of API warm-up a game")
    parser.add_argument("--scripts", type=int, default=16, help="bot games the clients replay")
    parser.add_argument(
        "--setup-games", type=int, default=3, help="games each client sets up to cost a set-up"
    )
    parser.add_argument(
        "--prefer-minimal",
        action="store_true",
        help="moves ask for the minimal answer (Prefer: return=minimal: no view)",
    )
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    console = Console(width=None if sys.stdout.isatty() else 200)
    games = GAMES if args.game == "all" else (args.game,)
    machine = machine_state()
    results: list[GameFigures] = []
    with Cluster() as cluster:
        bench = Bench(args, cluster)
        try:
            with Progress(console=console, transient=False) as progress:
                for game in games:
                    results.append(bench.run_game(progress, game))
        finally:
            bench.close()
    rows = [summary(figures) for figures in results]
    for figures, row in zip(results, rows, strict=True):
        console.print(periods_table(figures, args))
        console.print(top_commands(row))
    console.print(summary_table(rows))
    console.print(
        "ratio = moves/s : floor requests/s (target >= 0.6); round trips from Redis's reply "
        "writes (target: <= 3 for the POST + <= 1 for a GET); engine share "
        "= legal_actions + apply CPU against the API workers' CPU per move (target <= 10%); all "
        "CPU = API or floor workers + Redis + the client processes; CPU ratio = a floor "
        "request's all CPU : a move's (what the ratio tends to when the cores are the bound)"
    )

    machine["load_after"] = os.getloadavg()
    console.print(mode_line(args.prefer_minimal))
    console.print(machine_line(machine))
    if args.json:
        args.json.write_text(
            json.dumps(
                {"machine": machine, "args": vars(args) | {"json": str(args.json)}, "games": rows},
                indent=2,
            )
        )


if __name__ == "__main__":
    main()
