"""Where the API's gunicorn workers spend a move's CPU, beside the floor's, under the move bench.

    python bench/worker_profile.py [--game carcassonne] [--seconds 10] [--clients 8]

Starts what ``bench/http_moves.py`` starts (a private Redis, the API and the floor app under
the deploy config), warms up, then runs one API period and one floor period with the same
client processes (``bench/http_load.py``). During each period ``py-spy`` samples every worker
of that server (``--gil``: only a thread holding the GIL, so the samples are Python's own
work; the time in system calls, a socket's send for one, is not in them) and the bench
sorts each sample by the innermost frame it knows (walking out from the leaf): the engine,
the Redis client, encoding (cattrs, JSON), the web framework (Flask, werkzeug, marshmallow,
webargs), metrics, logging, the service's own code, gevent's event loop, the HTTP server
(gunicorn outside the app). It prints each layer's share of the samples and, scaled by the
workers' CPU time per operation (``/proc``, the system time included), an estimate of its
milliseconds per move and per floor request.

``py-spy`` (the test extra) needs to attach to the workers (ptrace: root, or
``kernel.yama.ptrace_scope`` 0). Sampling costs the workers a little; compare the two
columns, measured alike, rather than the absolute figures with ``bench/http_moves.py``'s.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import multiprocessing.pool
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.cluster import Cluster, children_cpu_seconds, machine_line, machine_state
from bench.http_load import Tally, floor_period, play_period, warm
from bench.http_moves import GAMES, make_scripts

LAYERS: list[tuple[str, re.Pattern[str]]] = [
    ("engine", re.compile(r"(^|/)engine/")),
    ("Redis client", re.compile(r"(^|/)(redis|hiredis)/")),
    ("encoding (cattrs, JSON)", re.compile(r"(^|/)(cattrs|orjson|json)/|jsonio\.py|codec\.py")),
    ("metrics", re.compile(r"(^|/)prometheus_client/")),
    ("logging", re.compile(r"(^|/)logging/|glogging\.py")),
    ("web framework", re.compile(r"(^|/)(flask|werkzeug|marshmallow|webargs|flask_smorest)/")),
    ("service", re.compile(r"(^|/)service/|(^|/)bench/floor_app\.py")),
    ("HTTP server (gunicorn)", re.compile(r"(^|/)gunicorn/")),
    ("gevent", re.compile(r"(^|/)gevent/")),
]
"""Each sample goes to the first layer (from its innermost frame outwards) whose pattern
matches a frame's file; the standard library's frames go to whoever called them."""
OTHER = "other"
_FRAME = re.compile(r"\((.*?):\d+\)$")


def layer_of(stack: str) -> str:
    """The layer a sample belongs to (its frames outermost first, ``;``-separated)."""
    for frame in reversed(stack.split(";")):
        found = _FRAME.search(frame)
        path = found.group(1) if found else frame
        for name, pattern in LAYERS:
            if pattern.search(path):
                return name
    return OTHER


def read_samples(paths: list[Path]) -> Counter[str]:
    """Samples per layer in py-spy's raw (collapsed stack) files."""
    layers: Counter[str] = Counter()
    for path in paths:
        if not path.exists():
            continue
        for line in path.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            if count.isdigit():
                layers[layer_of(stack)] += int(count)
    return layers


def workers_of(master: int) -> list[int]:
    """The gunicorn master's worker processes."""
    listed = subprocess.run(
        ["ps", "-o", "pid=", "--ppid", str(master)], capture_output=True, text=True, check=False
    )
    return [int(pid) for pid in listed.stdout.split()]


def sampled_period(
    master: int,
    seconds: float,
    pool: multiprocessing.pool.Pool,
    make_args: Callable[[int, float, float], tuple],
    target: Callable[..., Tally],
    clients: int,
    workdir: Path,
    label: str,
) -> tuple[int, float, Counter[str]]:
    """One period under py-spy: operations, worker CPU seconds, samples per layer."""
    outputs = [workdir / f"{label}-{pid}.txt" for pid in workers_of(master)]
    spy_program = py_spy() or "py-spy"
    spies = [
        subprocess.Popen(
            [
                spy_program,
                "record",
                "--gil",
                "--rate",
                "500",
                "--format",
                "raw",
                "--duration",
                str(int(seconds) + 3),
                "--pid",
                path.stem.rsplit("-", 1)[1],
                "--output",
                str(path),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        for path in outputs
    ]
    for spy in spies:
        wait_until_sampling(spy)
    start = time.monotonic() + 0.1
    cpu = children_cpu_seconds(master)
    tallies = pool.starmap(
        target, [make_args(i, start, start + seconds) for i in range(clients)], chunksize=1
    )
    cpu = children_cpu_seconds(master) - cpu
    for spy in spies:
        spy.communicate(timeout=seconds + 30)
    return sum(t.ops for t in tallies), cpu, read_samples(outputs)


def wait_until_sampling(spy: subprocess.Popen[str], timeout: float = 30.0) -> None:
    """Return once ``py-spy record`` has attached (it says so on its first line); raise if
    it has said nothing within ``timeout`` seconds or said something else."""
    assert spy.stdout is not None
    if not select.select([spy.stdout], [], [], timeout)[0]:
        raise RuntimeError(f"py-spy did not say it was sampling within {timeout:g} s")
    line = spy.stdout.readline()
    if "Sampling process" not in line:
        raise RuntimeError(f"py-spy did not attach: {line.strip() or 'it exited'}")


def py_spy() -> str | None:
    """The py-spy program: beside this interpreter (a virtualenv run without activating it),
    else on ``PATH``; None when neither has it."""
    beside = Path(sys.executable).parent / "py-spy"
    return str(beside) if beside.is_file() else shutil.which("py-spy")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="carcassonne", choices=GAMES)
    parser.add_argument("--seconds", type=float, default=10, help="length of each period")
    parser.add_argument("--clients", type=int, default=8, help="client processes")
    parser.add_argument("--scripts", type=int, default=16, help="bot games the clients replay")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    if py_spy() is None:
        parser.exit(2, "py-spy is not installed (pip install -e '.[test]')\n")
    console = Console(width=None if sys.stdout.isatty() else 160)
    machine = machine_state()
    workdir = Path(tempfile.mkdtemp(prefix="dicehall-profile-"))
    with Cluster() as cluster:
        cluster.redis()
        api, api_proc = cluster.gunicorn("service.app:create_app()", "/v1/health")
        floor, floor_proc = cluster.gunicorn("bench.floor_app:create_app()", "/floor/health")
        pool = multiprocessing.get_context("spawn").Pool(args.clients)
        try:
            pool.map(warm, range(args.clients), chunksize=1)
            scripts = make_scripts(args.game, 2, args.scripts)
            start = time.monotonic() + 0.3
            pool.starmap(
                play_period,
                [(api, scripts, i, args.clients, start, start + 2) for i in range(args.clients)],
            )
            moves, api_cpu, api_layers = sampled_period(
                api_proc.pid,
                args.seconds,
                pool,
                lambda i, a, b: (api, scripts, i, args.clients, a, b),
                play_period,
                args.clients,
                workdir,
                "api",
            )
            requests, floor_cpu, floor_layers = sampled_period(
                floor_proc.pid,
                args.seconds,
                pool,
                lambda i, a, b: (floor, f"k{i}", 4000, a, b),
                floor_period,
                args.clients,
                workdir,
                "floor",
            )
        finally:
            pool.terminate()
            pool.join()
    shutil.rmtree(workdir, ignore_errors=True)
    per_move = api_cpu * 1000 / max(moves, 1)
    per_request = floor_cpu * 1000 / max(requests, 1)
    table = Table(
        title=f"{args.game}: the workers' Python samples by layer (py-spy --gil), and the "
        "estimated CPU ms of each (a move's includes its share of its game's set-up)"
    )
    for column in ("layer", "API share", "API ms/move", "floor share", "floor ms/request"):
        table.add_column(column, justify="right")
    api_total, floor_total = sum(api_layers.values()) or 1, sum(floor_layers.values()) or 1
    for name in [n for n, _ in LAYERS] + [OTHER]:
        a, f = api_layers[name] / api_total, floor_layers[name] / floor_total
        table.add_row(name, f"{a:.1%}", f"{a * per_move:.3f}", f"{f:.1%}", f"{f * per_request:.3f}")
    table.add_row("all", "100%", f"{per_move:.3f}", "100%", f"{per_request:.3f}")
    console.print(table)
    console.print(
        f"{moves / args.seconds:,.0f} moves/s, {requests / args.seconds:,.0f} floor requests/s; "
        f"samples: API {api_total}, floor {floor_total}"
    )
    machine["load_after"] = os.getloadavg()
    console.print(machine_line(machine))
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "machine": machine,
                    "game": args.game,
                    "api": {"ops": moves, "cpu_ms_per_op": per_move, "samples": api_layers},
                    "floor": {
                        "ops": requests,
                        "cpu_ms_per_op": per_request,
                        "samples": floor_layers,
                    },
                },
                indent=2,
            )
        )


if __name__ == "__main__":
    main()
