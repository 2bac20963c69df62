"""Tournament throughput and the external bot's decision round trip.

    python bench/tournament.py [--games 60] [--workers 2] [--concurrency 6]

Starts a private redis-server, the API under gunicorn, rq workers and one external bot
process (``dicehall bot --strategy engine.carcassonne.bots:HeuristicBot``), then runs a
mirrored Carcassonne tournament between the bundled heuristic, the bundled random bot and the
external bot. Prints tournament games per minute, and the decision round trip of the
external bot (from the moment its decision fell due, which is when the feed event is
written, to the move applied) at p50 and p99, against the bundled heuristic's decision time
in the workers measured in the same run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import redis
import requests
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.conftest import free_port, redis_server_binary, wait_http_ok, wait_redis  # noqa: E402


def start(args: list[str], env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen(
        args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def gunicorn(app: str, port: int, env: dict[str, str]) -> subprocess.Popen:
    config = str(ROOT / "deploy" / "gunicorn.conf.py")
    bind = f"127.0.0.1:{port}"
    command = [sys.executable, "-m", "gunicorn", "-c", config, "--bind", bind, app]
    return start([*command, "--access-logfile", "/dev/null"], env)


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--concurrency", type=int, default=6)
    args = parser.parse_args()
    console = Console()
    port = free_port()
    workdir = tempfile.mkdtemp()
    env = dict(os.environ)
    procs = [
        start([redis_server_binary(), "--port", str(port), "--save", "", "--dir", workdir], env)
    ]
    url = f"redis://127.0.0.1:{port}/0"
    store = redis.Redis.from_url(url, decode_responses=True)
    wait_redis(store, 10)
    env = {**env, "REDIS_URL": url, "PYTHONPATH": str(ROOT), "DICEHALL_RATE_LIMIT": "0"}
    api_port = free_port()
    api = f"http://127.0.0.1:{api_port}"
    procs.append(gunicorn("service.app:create_app()", api_port, env))
    procs += [start([sys.executable, "-m", "service.worker"], env) for _ in range(args.workers)]
    try:
        wait_http_ok(f"{api}/v1/health", 30, "api")
        account = requests.post(
            f"{api}/v1/bots", json={"name": "outsider", "owner": "bench"}
        ).json()
        procs.append(
            start(
                [
                    sys.executable,
                    "-m",
                    "clients.cli",
                    "bot",
                    "--strategy",
                    "engine.carcassonne.bots:HeuristicBot",
                    "--server",
                    api,
                    "--token",
                    account["token"],
                    "--quiet",
                    "--wait",
                    "5",
                ],
                env,
            )
        )
        started = time.monotonic()
        t = requests.post(
            f"{api}/v1/tournaments",
            json={
                "game": "carcassonne",
                "games": args.games,
                "format": "mirrored",
                "seats_per_game": 2,
                "concurrency": args.concurrency,
                "seed": "bench",
                "participants": [
                    {"name": "heuristic", "bot": "heuristic"},
                    {"name": "random", "bot": "random"},
                    {"name": "outsider", "account": account["id"]},
                ],
            },
        ).json()
        with Progress(console=console) as progress:
            task = progress.add_task("tournament", total=t["games"])
            while t["status"] != "finished":
                time.sleep(0.5)
                t = requests.get(f"{api}/v1/tournaments/{t['id']}").json()
                progress.update(task, completed=t["progress"]["finished"])
        minutes = (time.monotonic() - started) / 60
        games = requests.get(f"{api}/v1/tournaments/{t['id']}/games").json()["games"]
        external: list[float] = []
        bundled: list[float] = []
        for game in games:
            for seat, name in enumerate(game["participants"]):
                times = [
                    float(x) for x in store.lrange(f"dh:{{{game['game_id']}}}:times:{seat}", 0, -1)
                ]
                (external if name == "outsider" else bundled if name == "heuristic" else []).extend(
                    times
                )
    finally:
        for proc in reversed(procs):
            proc.terminate()
    table = Table(title=f"tournament: Carcassonne, {t['games']} games, {args.workers} workers")
    for column in ("what", "figure"):
        table.add_column(column, justify="right")
    table.add_row("tournament games per minute", f"{t['games'] / minutes:.1f}")
    table.add_row("external decisions measured", f"{len(external):,}")
    table.add_row(
        "external round trip p50 / p99 (ms)",
        f"{quantile(external, 0.5):.1f} / {quantile(external, 0.99):.1f}",
    )
    table.add_row(
        "bundled heuristic in worker p50 / p99 (ms)",
        f"{quantile(bundled, 0.5):.1f} / {quantile(bundled, 0.99):.1f}",
    )
    table.add_row(
        "external / bundled at p50", f"{quantile(external, 0.5) / quantile(bundled, 0.5):.1f}x"
    )
    console.print(table)
    for row in t["standings"]:
        console.print(
            f"{row['rank']}. {row['name']}: mu {row['mu']:.1f} +- {2 * row['sigma']:.1f}, "
            f"{row['wins']}/{row['games']} won, mean decision "
            f"{(row['decision_time_mean'] or 0) * 1000:.1f} ms"
        )
    console.print(
        f"(mean of all bundled decision times: {statistics.fmean(bundled) * 1000:.1f} ms)"
    )


if __name__ == "__main__":
    main()
