"""Clients that keep playing through faults: they retry what failed in transport or with a 5xx
(with the same Idempotency-Key, so a retried move is never a second move) and record every
move the service acknowledged, to compare with the game's log afterwards."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import requests

from clients.sdk import Client
from clients.verifier import audit_game
from tests.conftest import ROOT

RETRY_PAUSE = 0.2
"""A client's pause before retrying a failed request (its backoff, not a synchronisation)."""


class Unreachable(AssertionError):
    """The service did not answer for longer than the client's patience."""


def call(method: str, url: str, patience: float = 60.0, **kwargs: Any) -> requests.Response:
    """One request, retried while the service is down or answers 5xx."""
    deadline = time.monotonic() + patience
    while True:
        try:
            reply = requests.request(method, url, timeout=40, **kwargs)
            if reply.status_code < 500:
                return reply
        except requests.RequestException:
            pass
        if time.monotonic() > deadline:
            raise Unreachable(f"{method} {url} failed for {patience} s")
        time.sleep(RETRY_PAUSE)


class Human(threading.Thread):
    """One human seat that plays its first legal action whenever it owes one, to the end."""

    def __init__(self, base: str, game_id: str, seat: int) -> None:
        super().__init__(daemon=True)
        self.base, self.game_id, self.seat = base, game_id, seat
        joined = call("POST", f"{base}/v1/games/{game_id}/seats/{seat}/join", json={})
        assert joined.status_code == 201, joined.text
        self.headers = {"Authorization": f"Bearer {joined.json()['seat_token']}"}
        self.acknowledged: list[tuple[int, Any]] = []
        self.error: BaseException | None = None
        self.finished = False

    def run(self) -> None:
        try:
            self._play(deadline=time.monotonic() + 300)
        except BaseException as exc:  # reported by the test
            self.error = exc

    def _play(self, deadline: float) -> None:
        game = f"{self.base}/v1/games/{self.game_id}"
        cursor = "0"
        while time.monotonic() < deadline:
            summary = call("GET", game).json()
            if summary["status"] == "over":
                self.finished = True
                return
            if str(self.seat) in summary["to_act"]:
                legal = call("GET", f"{game}/legal-actions", headers=self.headers).json()
                if legal["version"] == summary["version"] and legal["actions"]:
                    self._act(game, summary["version"], legal["actions"][0]["action"])
                continue
            feed = call("GET", f"{game}/events", params={"after": cursor, "wait": 2}).json()
            cursor = feed["cursor"]
        raise AssertionError(f"game {self.game_id} did not finish in time")

    def _act(self, game: str, version: int, action: Any) -> None:
        headers = {
            **self.headers,
            "If-Match": f'"{version}"',
            "Idempotency-Key": f"{self.game_id}-{self.seat}-{version}",
        }
        reply = call("POST", f"{game}/actions", json={"action": action}, headers=headers)
        if reply.status_code == 200:
            self.acknowledged.append((reply.json()["version"], action))
        else:
            assert reply.status_code == 412, reply.text


def start_humans(base: str, games: list[tuple[str, list[int]]]) -> list[Human]:
    """A started Human for every (game id, human seats) given."""
    humans = [Human(base, gid, seat) for gid, seats in games for seat in seats]
    for human in humans:
        human.start()
    return humans


def acknowledged_total(humans: list[Human]) -> int:
    return sum(len(h.acknowledged) for h in humans)


def finish(humans: list[Human], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    for human in humans:
        human.join(max(0.1, deadline - time.monotonic()))
        assert human.error is None, human.error
        assert human.finished, f"game {human.game_id} did not finish within {timeout} s"


def lost_moves(base: str, humans: list[Human]) -> list[tuple[str, int]]:
    """Acknowledged moves that are not in their game's log: (game id, version)."""
    lost = []
    for human in humans:
        log = call("GET", f"{base}/v1/games/{human.game_id}/log").json()
        by_version = {entry["version"]: entry for entry in log["entries"]}
        for version, action in human.acknowledged:
            entry = by_version.get(version)
            if entry is None or entry["seat"] != human.seat or entry["action"] != action:
                lost.append((human.game_id, version))
    return lost


def unverified(base: str, game_ids: list[str]) -> list[str]:
    """Finished games whose log does not check out against their seed and final view."""
    bad = []
    for game_id in game_ids:
        summary = call("GET", f"{base}/v1/games/{game_id}").json()
        log = call("GET", f"{base}/v1/games/{game_id}/log").json()
        view = call("GET", f"{base}/v1/games/{game_id}/view").json()["view"]
        if not audit_game(summary, log, {None: view}).ok:
            bad.append(game_id)
    return bad


class ExternalBot:
    """A bot account played by ``dicehall bot run`` (the CLI's SSE runner) in a process of
    its own, until ``games`` of its games end; its output goes to ``log``."""

    def __init__(self, base: str, name: str, log: Path, games: int, patience: float = 120) -> None:
        account = Client(base).register_bot(name, "faults@dicehall.dev")
        self.account, self.token, self.log = account["id"], account["token"], log
        self.base, self.games, self.patience = base, games, patience
        self.proc: subprocess.Popen[bytes] | None = None

    def seat(self) -> dict[str, str]:
        return {"kind": "external", "account": self.account}

    def start(self) -> None:
        command = [sys.executable, "-m", "clients.cli", "bot", "run", "--token", self.token]
        command += ["--strategy", "first", "--games", str(self.games)]
        command += ["--patience", str(self.patience)]
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(
                command,
                cwd=ROOT,
                env={**os.environ, "DICEHALL_URL": self.base, "COLUMNS": "200"},
                stdout=out,
                stderr=subprocess.STDOUT,
            )

    def finish(self, timeout: float) -> str:
        """Wait for the runner to end by itself (its games over); its output. Fails if it
        exits with an error or outlives ``timeout``."""
        assert self.proc is not None
        try:
            code = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            message = f"the bot runner still ran after {timeout} s:\n{self.output}"
            raise AssertionError(message) from None
        assert code == 0, f"the bot runner exited with {code}:\n{self.output}"
        return self.output

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    @property
    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""
