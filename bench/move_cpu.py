"""CPU time of the API's move path in process, independent of the machine's load.

    python bench/move_cpu.py [--game all] [--games 6] [--streams] [--profile burgundy]

Starts a private redis-server, builds the app (``create_app``) and replays the heuristic
bots' games through Flask's test client exactly as ``bench/http_load.py`` plays them: a
move is ``POST actions`` with If-Match, preceded by ``GET legal-actions`` only when the
client does not hold the seat's legal actions for its decision. With ``--streams`` every
seat also has an event stream open: after each move, each seat's stream reads what the move
published as a connected SSE stream does (``service.api.events._read``, the completed
``decision_due`` notice included), and a seat told its decision by its notice needs no ``GET
legal-actions``. It prints the CPU time
(``time.process_time``: this process only, so other processes' load does not count) per
move, less what the same moves cost the engine alone (``legal_actions`` + ``apply``), for
each game. Set-up (create, joins) is not counted. ``--profile GAME`` prints that game's
cProfile (CPU clock) top functions instead, and writes it to ``GAME.prof``. Compare two
trees in the same minutes: the figures move with the CPU's speed, not with the load average.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.cluster import Cluster
from bench.http_load import Script, creation
from bench.http_moves import engine_seconds_per_move, make_scripts
from service.api.events import _read
from service.api.sse import resolved
from service.app import create_app
from service.config import Settings
from service.context import service_of
from service.games import GameService

GAMES = {"carcassonne": 2, "burgundy": 2, "diceland": 2, "kingdice": 2}


def set_up(client: Any, script: Script) -> tuple[str, list[dict[str, str]], dict[str, Any]]:
    """Create the script's game, join every seat: its id, the seats' headers, its summary."""
    created = client.post("/v1/games", json=creation(script)).get_json()
    gid = created["id"]
    auth = []
    for seat in range(script.seats):
        joined = client.post(f"/v1/games/{gid}/seats/{seat}/join", json={}).get_json()
        auth.append({"Authorization": f"Bearer {joined['seat_token']}"})
    return gid, auth, client.get(f"/v1/games/{gid}").get_json()


def read_streams(
    service: GameService | None, gid: str, cursors: list[str], known: dict[int, int]
) -> None:
    """What each seat's connected stream reads now; a seat given a current decision notice
    holds its legal actions for that decision."""
    if service is None:
        return
    for seat, cursor in enumerate(cursors):
        events, cursors[seat] = _read(service, gid, seat, cursor, 0.0, "full")
        for event in resolved(events):
            if event["type"] == "decision_due" and event.get("current"):
                known[seat] = event["decision"]


def play(client: Any, script: Script, service: GameService | None) -> tuple[float, int]:
    """CPU seconds spent on the script's moves, and the moves (``service``: with streams)."""
    gid, auth, summary = set_up(client, script)
    version, to_act = summary["version"], summary["to_act"]
    known: dict[int, int] = {}
    cursors = ["0"] * script.seats
    read_streams(service, gid, cursors, known)
    spent = 0.0
    for seat, action in script.moves:
        t0 = time.process_time()
        if known.get(seat) != to_act[str(seat)]["decision"]:
            legal = client.get(f"/v1/games/{gid}/legal-actions", headers=auth[seat])
            known[seat] = legal.get_json()["decision"]
        reply = client.post(
            f"/v1/games/{gid}/actions",
            json={"action": action},
            headers={**auth[seat], "If-Match": f'"{version}"'},
        )
        if reply.status_code != 200:
            raise RuntimeError(f"{script.game}: {reply.status_code} {reply.get_data(True)}")
        answer = reply.get_json()
        version, to_act = answer["version"], answer["to_act"]
        known.pop(seat, None)
        if answer["actions"]:
            known[seat] = to_act[str(seat)]["decision"]
        read_streams(service, gid, cursors, known)
        spent += time.process_time() - t0
    return spent, len(script.moves)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="all")
    parser.add_argument("--games", type=int, default=6, help="scripted games per game")
    parser.add_argument("--streams", action="store_true", help="every seat has a stream")
    parser.add_argument("--profile", default="", help="print this game's cProfile instead")
    args = parser.parse_args(argv)
    names = list(GAMES) if args.game == "all" else [args.game]
    with Cluster() as cluster:
        cluster.redis()
        os.environ["REDIS_URL"] = cluster.redis_url
        app = create_app({"TESTING": True, "DICEHALL": Settings(redis_url=cluster.redis_url)})
        client = app.test_client()
        service = service_of(app) if args.streams else None
        for name in names:
            scripts = make_scripts(name, GAMES[name], args.games)
            play(client, scripts[0], service)  # warm-up
            if args.profile == name:
                profile = cProfile.Profile(time.process_time)
                profile.enable()
            spent, moves = 0.0, 0
            for script in scripts:
                s, m = play(client, script, service)
                spent, moves = spent + s, moves + m
            if args.profile == name:
                profile.disable()
                profile.dump_stats(f"{name}.prof")
                pstats.Stats(profile).sort_stats("tottime").print_stats(40)
                continue
            engine = engine_seconds_per_move(scripts)
            per_move = spent / moves
            beyond = (per_move - engine) * 1e6
            print(
                f"{name:12} {moves:5} moves  {per_move * 1e6:7.0f} us CPU a move"
                f"  engine {engine * 1e6:5.0f} us  beyond the engine {beyond:7.0f} us"
            )


if __name__ == "__main__":
    main()
