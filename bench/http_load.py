"""The load generator of ``bench/http_moves.py``: what one client process does in a period.

Each client is a separate process (a ``multiprocessing`` pool of the bench), so the clients'
own Python work never shares a GIL with the bench or with each other. A client plays
scripted games over HTTP: a script is a game the heuristic bots played in memory (seed,
options, moves); the client creates the game with that seed, joins every seat (it plays all
human seats of its game) and posts the script's moves in order, each as a *move*: ``POST
actions`` with ``If-Match``, preceded by ``GET legal-actions`` only when the client does not
hold that seat's legal actions for its current decision. Like any client, it keeps per seat
the ``actions`` of the seat's last answer (a move's answer carries them when the seat decides
again at once) with their decision id, and reads them again when the seat's decision in
``to_act`` is another one (the turn came back to it, or another seat's move changed what it
may do): a seat never moves without having been told its legal actions for that decision.
Seats that owe a decision at the same time (Burgundy's and Diceland's sealed rounds) each get
their post, in seat order, as the engine's own simulations play them. Scripted moves make
the mix of moves realistic (whole games as the bots play them), cost the client almost
nothing, and let the bench replay exactly the same moves through the engine.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import requests

_session: requests.Session | None = None


def session() -> requests.Session:
    """The process's keep-alive session (one per client process, reused across periods)."""
    global _session
    if _session is None:
        _session = requests.Session()
    return _session


@dataclass(frozen=True)
class Script:
    """A game to play: its seats, options, seed and the moves in order."""

    game: str
    seats: int
    options: dict[str, Any]
    seed: str
    moves: list[tuple[int, Any]]


@dataclass
class Tally:
    """What a client did in a period: operations finished by the stop time, their latencies
    in seconds, the games it set up, the HTTP requests its operations made and the client's
    own CPU seconds (its process's, from the start to its last operation)."""

    ops: int = 0
    games: int = 0
    latencies: list[float] = field(default_factory=list)
    requests: int = 0
    cpu: float = 0.0


def wait_for_start(start: float) -> None:
    """Hold until the period's common start (every client starts together)."""
    delay = start - time.monotonic()
    if delay > 0:
        time.sleep(delay)


def _check(reply: requests.Response, what: str) -> dict[str, Any]:
    if not reply.ok:
        raise RuntimeError(f"{what}: {reply.status_code} {reply.text[:500]}")
    return reply.json()


def creation(script: Script) -> dict[str, Any]:
    """The body of the request that creates the script's game (every seat human, its seed)."""
    return {
        "game": script.game,
        "seats": [{"kind": "human"}] * script.seats,
        "options": script.options,
        "seed": script.seed,
        "visibility": "public",
    }


def set_up(http: requests.Session, base: str, script: Script) -> tuple[str, list[dict], dict]:
    """Create the script's game with its seed, join every seat; the id, each seat's auth
    header and the game's summary."""
    created = _check(http.post(f"{base}/v1/games", json=creation(script)), "create")
    gid = created["id"]
    auth = []
    for seat in range(script.seats):
        joined = _check(http.post(f"{base}/v1/games/{gid}/seats/{seat}/join", json={}), "join")
        auth.append({"Authorization": f"Bearer {joined['seat_token']}"})
    return gid, auth, _check(http.get(f"{base}/v1/games/{gid}"), "summary")


def setup_period(base: str, scripts: list[Script], first: int, step: int, games: int) -> Tally:
    """Only set up ``games`` games (what a game's start costs, to take out of the moves')."""
    http = session()
    cpu = time.process_time()
    for n in range(games):
        set_up(http, base, scripts[(first + n * step) % len(scripts)])
    return Tally(ops=games, games=games, cpu=time.process_time() - cpu)


PREFER_MINIMAL = {"Prefer": "return=minimal"}
"""What a move sends to ask for the minimal answer (no view: ``--prefer-minimal``)."""


def play_period(
    base: str,
    scripts: list[Script],
    first: int,
    step: int,
    start: float,
    stop: float,
    minimal: bool = False,
) -> Tally:
    """Play scripts ``first``, ``first + step``, ... (cyclically) from ``start`` to ``stop``;
    ``minimal``: every move asks for the minimal answer (``Prefer: return=minimal``, no
    view), as a client following the event stream would, and fails if it gets another."""
    http = session()
    prefer = PREFER_MINIMAL if minimal else {}
    tally = Tally()
    wait_for_start(start)
    cpu = time.process_time()
    n = first
    while time.monotonic() < stop:
        script = scripts[n % len(scripts)]
        n += step
        gid, auth, summary = set_up(http, base, script)
        tally.games += 1
        version, to_act = summary["version"], summary["to_act"]
        known: dict[int, int] = {}  # seat -> the decision id whose legal actions it holds
        for seat, action in script.moves:
            if time.monotonic() >= stop:
                break
            if str(seat) not in to_act:
                raise RuntimeError(f"{script.game} {script.seed}: seat {seat} owes nothing now")
            t0 = time.perf_counter()
            requests_made = 1
            if known.get(seat) != to_act[str(seat)]["decision"]:
                legal = _check(
                    http.get(f"{base}/v1/games/{gid}/legal-actions", headers=auth[seat]),
                    "legal",
                )
                known[seat] = legal["decision"]
                requests_made += 1
            answer = _check(
                http.post(
                    f"{base}/v1/games/{gid}/actions",
                    json={"action": action},
                    headers={**auth[seat], "If-Match": f'"{version}"', **prefer},
                ),
                "act",
            )
            if minimal and answer["view"] is not None:
                raise RuntimeError(f"act: Prefer: return=minimal was not applied ({gid})")
            latency = time.perf_counter() - t0
            version, to_act = answer["version"], answer["to_act"]
            known.pop(seat, None)
            if answer["actions"]:
                known[seat] = to_act[str(seat)]["decision"]
            if time.monotonic() <= stop:
                tally.ops += 1
                tally.requests += requests_made
                tally.latencies.append(latency)
    tally.cpu = time.process_time() - cpu
    return tally


def floor_period(base: str, key: str, size: int, start: float, stop: float) -> Tally:
    """POST the floor's compare-and-set on ``key`` (a ``size``-byte blob) until ``stop``."""
    http = session()
    tally = Tally()
    wait_for_start(start)
    cpu = time.process_time()
    while time.monotonic() < stop:
        t0 = time.perf_counter()
        _check(http.post(f"{base}/floor/{key}", params={"size": size}), "floor")
        latency = time.perf_counter() - t0
        if time.monotonic() <= stop:
            tally.ops += 1
            tally.latencies.append(latency)
    tally.cpu = time.process_time() - cpu
    return tally


def warm(_: int) -> int:
    """Nothing: makes the pool start its processes and import this module before timing."""
    session()
    return 0
