"""HTTP moves per second, against a floor that does only the same Redis compare-and-set.

    python bench/http_moves.py [--game carcassonne] [--seconds 15] [--clients 8]

Starts a private redis-server and two real gunicorns with the API's config: the dicehall API,
and ``bench/floor_app.py`` (a bare endpoint doing the WATCH/HGET/MULTI/HSET/RPUSH/EXEC of a
move on a blob the size of the game's real state). Client threads play games over HTTP (each
move: GET legal-actions, POST the first action with If-Match), then hit the floor for the
same time. Prints moves/s, requests/s, latency percentiles and the ratio to the floor.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import redis
import requests
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.conftest import free_port, redis_server_binary, wait_until  # noqa: E402


def start(args: list[str], env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen(
        args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def gunicorn(app: str, port: int, env: dict[str, str]) -> subprocess.Popen:
    return start(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            str(ROOT / "deploy" / "gunicorn.conf.py"),
            "--bind",
            f"127.0.0.1:{port}",
            "--access-logfile",
            "/dev/null",
            app,
        ],
        env,
    )


def play_moves(base: str, game: str, seats: int, stop: float, latencies: list[float]) -> int:
    session = requests.Session()
    moves = 0
    while time.monotonic() < stop:
        created = session.post(
            f"{base}/v1/games", json={"game": game, "seats": [{"kind": "human"}] * seats}
        ).json()
        gid = created["id"]
        tokens = [
            session.post(f"{base}/v1/games/{gid}/seats/{s}/join", json={}).json()["seat_token"]
            for s in range(seats)
        ]
        version, to_act = 0, session.get(f"{base}/v1/games/{gid}").json()["to_act"]
        while to_act and time.monotonic() < stop:
            seat = int(next(iter(to_act)))
            auth = {"Authorization": f"Bearer {tokens[seat]}"}
            t0 = time.perf_counter()
            legal = session.get(f"{base}/v1/games/{gid}/legal-actions", headers=auth).json()[
                "actions"
            ]
            reply = session.post(
                f"{base}/v1/games/{gid}/actions",
                json={"action": legal[0]["action"]},
                headers={**auth, "If-Match": f'"{version}"'},
            )
            latencies.append(time.perf_counter() - t0)
            assert reply.status_code == 200, reply.text
            answer = reply.json()
            version, to_act = answer["version"], answer["to_act"]
            moves += 1
    return moves


def hit_floor(base: str, key: str, stop: float, latencies: list[float]) -> int:
    session = requests.Session()
    count = 0
    while time.monotonic() < stop:
        t0 = time.perf_counter()
        assert session.post(f"{base}/floor/{key}").ok
        latencies.append(time.perf_counter() - t0)
        count += 1
    return count


def run_threads(
    n: int, seconds: float, target, progress: Progress, label: str
) -> tuple[int, list[float]]:
    stop = time.monotonic() + seconds
    latencies: list[float] = []
    totals = [0] * n

    def work(i: int) -> None:
        totals[i] = target(i, stop, latencies)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(n)]
    task = progress.add_task(label, total=seconds)
    for t in threads:
        t.start()
    while any(t.is_alive() for t in threads):
        time.sleep(0.25)
        progress.update(task, completed=min(seconds, seconds - (stop - time.monotonic())))
    return sum(totals), latencies


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[int(q) - 1] * 1000 if len(values) > 1 else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="carcassonne")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--clients", type=int, default=8)
    args = parser.parse_args()
    console = Console()
    port = free_port()
    workdir = tempfile.mkdtemp()
    redis_proc = start(
        [redis_server_binary(), "--port", str(port), "--save", "", "--dir", workdir],
        dict(os.environ),
    )
    url = f"redis://127.0.0.1:{port}/0"
    client = redis.Redis.from_url(url)
    wait_until(client.ping, 10, "redis")
    env = {**os.environ, "REDIS_URL": url, "PYTHONPATH": str(ROOT)}
    api_port, floor_port = free_port(), free_port()
    procs = [redis_proc, gunicorn("service.app:create_app()", api_port, env)]
    api = f"http://127.0.0.1:{api_port}"
    try:
        wait_until(lambda: requests.get(f"{api}/v1/health", timeout=1).ok, 30, "api")
        with Progress(console=console) as progress:
            moves, move_lat = run_threads(
                args.clients,
                args.seconds,
                lambda i, stop, lat: play_moves(api, args.game, args.seats, stop, lat),
                progress,
                "API moves",
            )
            sizes = [client.hstrlen(k, "state") for k in client.scan_iter("dh:*:game", count=1000)]
            blob = int(statistics.mean(sizes)) if sizes else 4000
            procs.append(
                gunicorn(
                    "bench.floor_app:create_app()",
                    floor_port,
                    {**env, "FLOOR_BLOB_SIZE": str(blob)},
                )
            )
            floor = f"http://127.0.0.1:{floor_port}"
            wait_until(lambda: requests.post(f"{floor}/floor/warm", timeout=1).ok, 30, "floor")
            floors, floor_lat = run_threads(
                args.clients,
                args.seconds,
                lambda i, stop, lat: hit_floor(floor, f"k{i}", stop, lat),
                progress,
                "floor CAS",
            )
    finally:
        for proc in procs:
            proc.terminate()
    move_rate, floor_rate = moves / args.seconds, floors / args.seconds
    table = Table(
        title=(
            f"HTTP: {args.game}, {args.clients} clients, {args.seconds:.0f} s each, state ~{blob} B"
        )
    )
    for column in ("what", "per second", "p50 ms", "p99 ms"):
        table.add_column(column, justify="right")
    table.add_row(
        "moves (GET legal + POST action)",
        f"{move_rate:,.1f}",
        f"{pct(move_lat, 50):.1f}",
        f"{pct(move_lat, 99):.1f}",
    )
    table.add_row("move requests", f"{2 * move_rate:,.1f}", "", "")
    table.add_row(
        "floor CAS requests",
        f"{floor_rate:,.1f}",
        f"{pct(floor_lat, 50):.1f}",
        f"{pct(floor_lat, 99):.1f}",
    )
    console.print(table)
    console.print(
        f"moves/s vs floor ops/s: {move_rate / floor_rate:.2f}; "
        f"move requests/s vs floor requests/s: {2 * move_rate / floor_rate:.2f}"
    )


if __name__ == "__main__":
    main()
