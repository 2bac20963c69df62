"""A ``Player`` that joins, reads and acts over HTTP like a client would (tests only)."""

from __future__ import annotations

import time
from typing import Any

import requests

from clients.sdk import Client
from clients.verifier import Audit, audit_game


class Player:
    """One human seat, driven over HTTP with requests."""

    def __init__(self, base: str, game_id: str, seat: int, name: str = "") -> None:
        self.base, self.game_id, self.seat = base, game_id, seat
        reply = requests.post(
            f"{base}/v1/games/{game_id}/seats/{seat}/join",
            json={"name": name or f"p{seat}"},
            timeout=10,
        )
        assert reply.status_code == 201, reply.text
        self.token = reply.json()["seat_token"]

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def get(self, part: str, **params: Any) -> dict[str, Any]:
        reply = requests.get(
            f"{self.base}/v1/games/{self.game_id}/{part}",
            headers=self.headers,
            params=params,
            timeout=40,
        )
        assert reply.ok, reply.text
        return reply.json()

    def view(self) -> dict[str, Any]:
        return self.get("view")

    def legal(self) -> list[dict[str, Any]]:
        return [item["action"] for item in self.get("legal-actions")["actions"]]

    def act(self, action: dict[str, Any], **headers: str) -> requests.Response:
        return requests.post(
            f"{self.base}/v1/games/{self.game_id}/actions",
            json={"action": action},
            headers={**self.headers, **headers},
            timeout=10,
        )


def create(base: str, game: str, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    body = {"game": game, "seats": seats, "visibility": "public", **extra}
    reply = requests.post(f"{base}/v1/games", json=body, timeout=10)
    assert reply.status_code == 201, reply.text
    return reply.json()


def wait_for(base: str, game_id: str, predicate, timeout: float = 120.0) -> dict[str, Any]:
    """Poll the game's summary until ``predicate(summary)``; fails after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    cursor = "0"
    summary: dict[str, Any] = {}
    while time.monotonic() < deadline:
        summary = requests.get(f"{base}/v1/games/{game_id}", timeout=10).json()
        if predicate(summary):
            return summary
        feed = requests.get(
            f"{base}/v1/games/{game_id}/events", params={"after": cursor, "wait": "2"}, timeout=40
        ).json()
        cursor = feed["cursor"]
    last = {k: summary.get(k) for k in ("status", "version", "to_act", "seats")}
    raise AssertionError(
        f"game {game_id} did not reach the expected state in {timeout} s; last seen: {last}"
    )


def play_until_over(
    base: str, players: list[Player], choose=None, timeout: float = 300.0
) -> dict[str, Any]:
    """Humans act (first legal action, or ``choose``) whenever they owe a decision; bots play
    in the workers. Returns the final summary."""
    deadline = time.monotonic() + timeout
    by_seat = {p.seat: p for p in players}
    while time.monotonic() < deadline:
        summary = wait_for(
            base,
            players[0].game_id,
            lambda s: s["status"] == "over" or any(int(k) in by_seat for k in s["to_act"]),
            timeout=max(1.0, deadline - time.monotonic()),
        )
        if summary["status"] == "over":
            return summary
        for key in summary["to_act"]:
            player = by_seat.get(int(key))
            if player is None:
                continue
            legal = player.legal()
            if not legal:
                continue
            action = choose(player, legal) if choose else legal[0]
            reply = player.act(action, **{"If-Match": f'"{summary["version"]}"'})
            assert reply.status_code in (200, 412), reply.text
    raise AssertionError("game did not finish in time")


def verify_finished(base: str, game_id: str) -> Audit:
    """Audit a finished game from what the API publishes: summary, log and every seat's final
    view (and the spectator's)."""
    summary = requests.get(f"{base}/v1/games/{game_id}", timeout=10).json()
    log = Client(base).log(game_id)  # every page: a long game has more than one
    views: dict[int | None, Any] = {
        None: requests.get(f"{base}/v1/games/{game_id}/view", timeout=10).json()["view"]
    }
    for seat in range(len(summary["seats"])):
        reply = requests.get(f"{base}/v1/games/{game_id}/view", params={"seat": seat}, timeout=10)
        views[seat] = reply.json()["view"]
    return audit_game(summary, log, views)
