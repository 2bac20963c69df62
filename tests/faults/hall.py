"""A dicehall of several processes on a replicated Redis (tests/redis_servers.py), and the
mixed load the failover tests put on it.

:class:`Hall`: two API instances (real gunicorns) and two rq workers on a game-state URL
(cluster or Sentinel) and a queue URL. :class:`Load`: games of all four games with a human
seat (a :class:`~tests.faults.clients.Human` client on either API, recording every move it
was acknowledged) and a bot seat, a game and a tournament of an external bot played by
``dicehall bot run``, and a game played only by its deadlines. :meth:`Load.check` waits
for all of it to finish and says what is wrong: games not over or not verifying,
acknowledged moves missing from the logs.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from service.connections import connect
from tests.conftest import ROOT, _child_env, gunicorn_server, stop, wait_until, wait_workers_ready
from tests.faults.clients import (
    ExternalBot,
    Human,
    acknowledged_total,
    call,
    finish,
    lost_moves,
    start_humans,
    unverified,
)
from tests.players import create

GAMES = ("carcassonne", "burgundy", "diceland", "kingdice")
DEADLINE_SECONDS = 2.0
"""The decision time of the game nobody plays: its deadlines play it (some 16 s for its
eight moves, so the kill usually falls in the middle of it)."""
TOURNAMENT_GAMES = 2


@dataclass
class Hall:
    """The API's base URLs and the workers, on ``env`` (REDIS_URL and the rest)."""

    env: dict[str, str]
    bases: list[str] = field(default_factory=list)
    workers: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def workers_alive(self) -> bool:
        return all(w.poll() is None for w in self.workers)


@contextlib.contextmanager
def hall(redis_url: str, workdir: Path, **env: str) -> Iterator[Hall]:
    """Two gunicorns and two rq workers on ``redis_url`` with ``env`` added; all stopped
    on the way out."""
    settings = {"REDIS_URL": redis_url, **env}
    built = Hall(settings)
    with contextlib.ExitStack() as stack:
        for _ in range(2):
            built.bases.append(stack.enter_context(gunicorn_server(redis_url, env=settings)))
        for n in range(2):
            with (workdir / f"worker-{n}.log").open("wb") as log:
                proc = subprocess.Popen(
                    [sys.executable, "-m", "service.worker"],
                    cwd=ROOT,
                    env={**_child_env(redis_url), **settings},
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            built.workers.append(proc)
            stack.callback(stop, proc)
        queue = connect(env.get("DICEHALL_QUEUE_URL") or redis_url, decode=False)
        wait_workers_ready(queue, [w.pid for w in built.workers], 60)
        yield built


@dataclass
class Outcome:
    """What a run came to: counts to print, and the lists that must be empty."""

    games: int
    acknowledged: int
    acknowledged_before_kill: int
    lost: list[tuple[str, int]]
    unverified: list[str]
    not_over: list[str]
    deadline_moves: int

    def assert_kept(self) -> None:
        """Every game over and verifying, no acknowledged move lost, moves made after the
        kill and by deadlines."""
        assert self.not_over == []
        assert self.unverified == []
        assert self.lost == []
        assert self.acknowledged > self.acknowledged_before_kill
        assert self.deadline_moves > 0

    def line(self) -> str:
        return (
            f"{self.games} games, {self.acknowledged} acknowledged human moves "
            f"({self.acknowledged_before_kill} before the kill), lost {len(self.lost)}, "
            f"unverified {len(self.unverified)}, not over {len(self.not_over)}, "
            f"{self.deadline_moves} moves played by deadlines"
        )


class Load:
    """The mixed load of a failover run, started on a :class:`Hall`."""

    def __init__(self, built: Hall, workdir: Path) -> None:
        self.hall = built
        self.workdir = workdir
        first, second = built.bases
        self.bot = ExternalBot(
            first, "feedbot", workdir / "bot.log", games=1 + TOURNAMENT_GAMES, patience=120
        )
        human_games: list[tuple[str, list[int]]] = []
        self.game_ids: list[str] = []
        for n, name in enumerate(GAMES):
            base = built.bases[n % 2]
            seats = [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}]
            game_id = create(base, name, seats)["id"]
            human_games.append((game_id, [0]))
            self.game_ids.append(game_id)
        bot_seats = [self.bot.seat(), {"kind": "bot", "bot": "random"}]
        self.game_ids.append(create(second, "kingdice", bot_seats)["id"])
        self.deadline_game = create(
            second, "toy", [{"kind": "human"}] * 2, decision_seconds=DEADLINE_SECONDS
        )["id"]
        for seat in (0, 1):  # joined, never played: every move is a deadline's
            joined = call(
                "POST", f"{second}/v1/games/{self.deadline_game}/seats/{seat}/join", json={}
            )
            assert joined.status_code == 201, joined.text
        self.game_ids.append(self.deadline_game)
        entrants = [
            {"name": "random", "bot": "random"},
            {"name": "feed", "account": self.bot.account},
        ]
        started = call(
            "POST",
            f"{first}/v1/tournaments",
            json={"game": "toy", "participants": entrants, "games": TOURNAMENT_GAMES},
        )
        assert started.status_code == 201, started.text
        self.tournament = started.json()["id"]
        self.bot.start()
        self.humans: list[Human] = []
        for n, played in enumerate(human_games):
            self.humans += start_humans(built.bases[n % 2], [played])
        self.before_kill = 0

    def wait_acknowledged(self, count: int, timeout: float = 90) -> None:
        wait_until(
            lambda: acknowledged_total(self.humans) >= count,
            timeout,
            f"{count} acknowledged human moves",
        )
        self.before_kill = acknowledged_total(self.humans)

    def state(self) -> str:
        """Where every game stands and the workers' last words, for a failure's message."""
        lines = []
        for gid in self.game_ids:
            summary = call("GET", f"{self.hall.bases[0]}/v1/games/{gid}").json()
            lines.append(
                f"{gid} {summary.get('game')} {summary.get('status')} "
                f"v{summary.get('version')} to act {summary.get('to_act')}"
            )
        for log in sorted(self.workdir.glob("*.log")):
            tail = log.read_text(errors="replace").splitlines()[-15:]
            lines += [f"--- {log.name}", *tail]
        return "\n".join(lines)

    def check(self, timeout: float = 240, describe: Callable[[], str] = str) -> Outcome:
        """Wait for every game, the bot and the tournament to finish; what came of it.
        ``describe`` tells the topology's state for a failure's message."""
        base = self.hall.bases[0]
        try:
            finish(self.humans, timeout)
            self.bot.finish(timeout)
        except AssertionError as failed:
            raise AssertionError(f"{failed}\n{self.state()}\n{describe()}") from None
        finally:
            self.bot.stop()

        def tournament_done() -> bool:
            reply = call("GET", f"{base}/v1/tournaments/{self.tournament}")
            return reply.json()["status"] != "running"

        wait_until(tournament_done, timeout, f"tournament {self.tournament} to finish")
        games = call("GET", f"{base}/v1/tournaments/{self.tournament}/games").json()["games"]
        all_ids = self.game_ids + [g["game_id"] for g in games]

        def not_over() -> list[str]:
            return [
                gid
                for gid in all_ids
                if call("GET", f"{base}/v1/games/{gid}").json()["status"] != "over"
            ]

        with contextlib.suppress(AssertionError):
            wait_until(lambda: not not_over(), timeout, "every game to end")
        log = call("GET", f"{base}/v1/games/{self.deadline_game}/log").json()["entries"]
        return Outcome(
            games=len(all_ids),
            acknowledged=acknowledged_total(self.humans),
            acknowledged_before_kill=self.before_kill,
            lost=lost_moves(base, self.humans),
            unverified=unverified(base, [gid for gid in all_ids if gid not in not_over()]),
            not_over=not_over(),
            deadline_moves=sum(1 for e in log if e.get("fallback")),
        )
