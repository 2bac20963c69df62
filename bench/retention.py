"""Bytes in Redis per finished game, before and after the end-of-game compaction.

    nice -n 15 python bench/retention.py [--seats 4] [--games carcassonne,burgundy,...]

Starts a private redis-server, then for each game plays one game with ``--seats`` human
seats (fewer when the game allows fewer) through the game service, the way HTTP clients do
(every move with an Idempotency-Key), choosing with the game's heuristic bot (random where
there is none). The same seeded game is played twice: once with the end-of-game work
switched off (what a finished game kept before compaction existed), once as the service
runs. Prints ``MEMORY USAGE`` summed over the game's keys, per game, and the ratio.
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path
from typing import Any

import redis
from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.games import LISTED, get_game  # noqa: E402
from service.accounts import AccountStore  # noqa: E402
from service.games import GameService  # noqa: E402
from service.keys import Keys  # noqa: E402
from service.moves import MoveRequest  # noqa: E402
from service.store import ANSWER_GRACE, GameStatus, GameStore  # noqa: E402
from tests.conftest import free_port, redis_server_binary, wait_redis  # noqa: E402


class NoJobs:
    """No background work: the bench plays every seat itself."""

    rides_commits = False

    def bots(self, game_id: str, version: int, seats: list[int]) -> None: ...

    def bots_in_commit(self, pipe: Any, game_id: str, version: int, seats: list[int]) -> None: ...

    def deadline(self, game_id: str, seat: int, due: float, at: float) -> None: ...

    def tournament(self, tournament_id: str) -> None: ...


def game_bytes(client: redis.Redis, game_id: str, answers: bool) -> tuple[int, int]:
    """(bytes, keys) of every key holding the game's hash tag; with ``answers`` False,
    without the idempotency answers (clients' retries: they expire within a day, or within
    ``ANSWER_GRACE`` of the end once compacted)."""
    keys = [
        key
        for key in client.scan_iter(match=Keys().game(game_id, "*"), count=1000)
        if answers or ":idem:" not in key
    ]
    return sum(client.memory_usage(key, samples=0) or 0 for key in keys), len(keys)


def play(service: GameService, name: str, seats: int, seed: str) -> str:
    game = get_game(name)
    bot_name = "heuristic" if "heuristic" in game.bots else "random"
    record, _, _ = service.create(name, [{"kind": "human"}] * seats, {}, seed)
    for seat in range(seats):
        service.join(record.id, seat, None)
    rng = random.Random(seed)
    bot = game.bots[bot_name]()
    while True:
        record = service.record(record.id)
        if record.status is GameStatus.OVER:
            return record.id
        state = game.load_state(record.state)
        for seat in sorted(game.to_act(state)):
            action = bot.choose(game.view(state, seat), game.legal_actions(state, seat), rng)
            move = MoveRequest(action, seat, idempotency_key=str(uuid.uuid4()))
            service.act(record.id, move)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--games", default=",".join(LISTED))
    parser.add_argument("--seed", default="retention")
    args = parser.parse_args()

    workdir = tempfile.mkdtemp(prefix="dicehall-bench-")
    port = free_port()
    server = subprocess.Popen(
        [redis_server_binary(), "--port", str(port), "--save", "", "--dir", workdir],
        stdout=subprocess.DEVNULL,
    )
    try:
        client = redis.Redis(port=port, decode_responses=True)
        wait_redis(client, 10)
        table = Table(title="bytes in Redis per finished game (MEMORY USAGE over its keys)")
        columns = (
            "game",
            "seats",
            "moves",
            "before",
            "keys",
            "before*",
            "after*",
            "keys",
            "ratio*",
        )
        for column in columns:
            table.add_column(column, justify="left" if column == "game" else "right")
        for name in args.games.split(","):
            seats = min(args.seats, get_game(name).max_seats)
            figures = []
            for compact in (False, True):
                service = GameService(GameStore(client), AccountStore(client), NoJobs(), 86400)
                if not compact:
                    service.ended = lambda record: None  # type: ignore[method-assign]
                game_id = play(service, name, seats, args.seed)
                figures += [game_bytes(client, game_id, answers=not compact)]
                if not compact:
                    figures += [game_bytes(client, game_id, answers=False)]
                moves = service.record(game_id).version
            (before, before_keys), (bare, _), (after, after_keys) = figures
            table.add_row(
                name,
                str(seats),
                str(moves),
                f"{before:,}",
                str(before_keys),
                f"{bare:,}",
                f"{after:,}",
                str(after_keys),
                f"{bare / after:.0f}x",
            )
        Console().print(table)
        Console().print(
            "before: every key of the finished game without compaction; before*: the same "
            "without the clients' idempotency answers; after*: what the compacted game keeps "
            f"until it expires (its answers go within {ANSWER_GRACE} s)"
        )
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
