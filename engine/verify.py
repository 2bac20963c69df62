"""Independent audit of a finished game: the seed, every draw, and a local re-play.

It uses only what the API publishes (the summary, the log with its revealed seed, and
views): it re-plays the published log with ``engine.replay`` / ``engine.dice`` /
``engine.games`` (and catches ``engine.contract.IllegalAction``, what a refused replay
raises). ``dicehall verify`` runs it on the caller's machine (through
:mod:`clients.verifier`), and the service's verification endpoint on the stored game
(``service.verification``): the same checks on both sides.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.contract import Game, IllegalAction, State
from engine.dice import Dice, verify_draws
from engine.games import UnknownGame, get_game
from engine.replay import Replayed, replay, replay_from


@dataclass(frozen=True)
class Check:
    """One verified claim: what was checked, whether it holds, and the evidence."""

    name: str
    ok: bool
    detail: str = ""


@dataclass
class Audit:
    """Every check made on one game; ``ok`` when all hold."""

    game_id: str
    checks: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.checks) and all(check.ok for check in self.checks)

    def add(self, name: str, ok: bool, detail: str = "") -> bool:
        self.checks.append(Check(name, ok, detail))
        return ok


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def _draw_lists(draws: Sequence[Sequence[int]] | None) -> list[list[int]]:
    return [list(map(int, draw)) for draw in draws or []]


def _first_difference(local: Any, remote: Any, path: str = "") -> str:
    """Where two JSON values first differ (a readable path), for the report."""
    if isinstance(local, Mapping) and isinstance(remote, Mapping):
        for key in sorted(set(local) | set(remote), key=str):
            if key not in local or key not in remote:
                return f"{path}/{key} present on one side only"
            if _canonical(local[key]) != _canonical(remote[key]):
                return _first_difference(local[key], remote[key], f"{path}/{key}")
    if isinstance(local, list) and isinstance(remote, list):
        if len(local) != len(remote):
            return f"{path} has {len(local)} items locally, {len(remote)} on the server"
        for index, (a, b) in enumerate(zip(local, remote, strict=True)):
            if _canonical(a) != _canonical(b):
                return _first_difference(a, b, f"{path}/{index}")
    return f"{path or '/'}: local {_canonical(local)[:80]} != server {_canonical(remote)[:80]}"


def fork_start(
    summary: Mapping[str, Any],
    origin: Mapping[str, Any],
    origin_log: Mapping[str, Any],
    origin_start: tuple[State, Dice] | None = None,
) -> tuple[State, Dice]:
    """A forked game's first state and dice, re-played here from its finished origin's
    published log (``origin_start``: the origin's own start when it is a fork too).

    Raises IllegalAction if the origin's log does not re-play."""
    fork = summary["forked_from"]
    game = get_game(str(origin.get("game")))
    moves = [(int(e["seat"]), e["action"]) for e in origin_log["entries"] if e["seat"] is not None]
    moves = moves[: int(fork["version"])]
    if origin_start is not None:
        replayed = replay_from(game, origin_start[0], origin_start[1], moves)
    else:
        seats = len(origin.get("seats") or [])
        replayed = replay(game, seats, origin.get("options") or {}, str(origin["seed"]), moves)
    counter = replayed.dice.counter if fork["dice"] == "original" else 0
    return replayed.state, Dice(str(summary["seed"]), counter)


def audit_game(
    summary: Mapping[str, Any],
    log: Mapping[str, Any],
    views: Mapping[int | None, Mapping[str, Any]],
    start: tuple[State, Dice] | None = None,
) -> Audit:
    """Check a finished game from its summary, its log and the server's final ``views``
    (``{seat or None: view dict}``, as ``GET .../view`` returns them in ``"view"``).

    ``start`` is a forked game's first state and its dice at the fork (set-up is skipped)."""
    audit = Audit(str(summary.get("id", log.get("game_id", ""))))
    seed = _check_seed(audit, summary, log)
    if seed is None:
        return audit
    entries = list(log.get("entries") or [])
    _check_draws(audit, seed, entries, start)
    try:
        game = get_game(str(summary.get("game")))
    except UnknownGame:
        audit.add("the game is known to this client's engine", False, str(summary.get("game")))
        return audit
    setup = [e for e in entries if e.get("seat") is None]
    moves = [e for e in entries if e.get("seat") is not None]
    if not audit.add("every action is published", all(e.get("action") is not None for e in moves)):
        return audit
    replayed = _replay(audit, game, summary, log, seed, moves, start)
    if replayed is None:
        return audit
    _check_steps(audit, replayed, setup, moves)
    audit.add(
        "the final version counts every action",
        summary.get("version") == len(moves),
        f"version {summary.get('version')}, {len(moves)} actions",
    )
    _check_outcome(audit, game, replayed, summary, views)
    return audit


def _check_seed(audit: Audit, summary: Mapping[str, Any], log: Mapping[str, Any]) -> str | None:
    """The game is over and its seed revealed (then the seed, checked against the commitment
    published at creation); None when there is nothing more to check."""
    if not audit.add(
        "the game is over", summary.get("status") == "over", str(summary.get("status"))
    ):
        return None
    seed = log.get("seed") or summary.get("seed")
    if not audit.add("the seed is revealed", isinstance(seed, str) and bool(seed)):
        return None
    assert isinstance(seed, str)
    commitment = str(log.get("commitment") or summary.get("commitment") or "")
    digest = hashlib.sha256(seed.encode()).hexdigest()
    audit.add(
        "sha256(seed) equals the commitment published at creation",
        digest == commitment,
        f"sha256 {digest[:16]}..., commitment {commitment[:16]}...",
    )
    return seed


def _check_draws(
    audit: Audit, seed: str, entries: list[Any], start: tuple[State, Dice] | None
) -> None:
    """The logged draws are numbered without a gap and each recomputes from the seed."""
    all_draws = [draw for entry in entries for draw in _draw_lists(entry.get("draws"))]
    ks = [k for k, _, _ in all_draws]
    first = start[1].counter if start else 0
    audit.add(
        f"the draws are numbered {first}..N-1 with no gap",
        ks == list(range(first, first + len(ks))),
        f"{len(ks)} draws",
    )
    wrong = verify_draws(seed, all_draws)
    audit.add(
        "every logged draw recomputes from the seed",
        not wrong,
        f"mismatched draws k={wrong[:10]}" if wrong else f"{len(all_draws)} draws",
    )


def _replay(
    audit: Audit,
    game: Game,
    summary: Mapping[str, Any],
    log: Mapping[str, Any],
    seed: str,
    moves: list[Any],
    start: tuple[State, Dice] | None,
) -> Replayed | None:
    """The published log re-played under the rules here; None (and a failed check) when the
    rules refuse one of its actions."""
    seats = log.get("seats") or len(summary.get("seats") or [])
    played = [(int(e["seat"]), e["action"]) for e in moves]
    try:
        if start is not None:
            replayed = replay_from(game, start[0], start[1], played)
        else:
            options = summary.get("options") or log.get("options") or {}
            replayed = replay(game, int(seats), options, seed, played)
    except IllegalAction as refused:
        audit.add("the log re-plays under the rules", False, f"{refused.code}: {refused.reason}")
        return None
    audit.add("the log re-plays under the rules", True, f"{len(moves)} actions")
    return replayed


def _check_steps(audit: Audit, replayed: Replayed, setup: list[Any], moves: list[Any]) -> None:
    """Each step of the re-play consumed exactly the draws logged for it."""
    logged = [_draw_lists(e.get("draws")) for e in setup[:1]] or [[]]
    logged += [_draw_lists(e.get("draws")) for e in moves]
    local = [[list(d) for d in step] for step in replayed.draws]
    bad_steps = [i for i, (a, b) in enumerate(zip(local, logged, strict=False)) if a != b]
    audit.add(
        "each turn consumed exactly the draws logged for it",
        len(local) == len(logged) and not bad_steps,
        f"first differing step {bad_steps[0]}" if bad_steps else f"{len(local)} steps",
    )


def _check_outcome(
    audit: Audit,
    game: Game,
    replayed: Replayed,
    summary: Mapping[str, Any],
    views: Mapping[int | None, Mapping[str, Any]],
) -> None:
    """The re-played result and final views equal the server's."""
    result = game.result(replayed.state)
    local_result = json.loads(json.dumps(result.to_json())) if result else None
    audit.add(
        "the result equals the server's",
        _canonical(local_result) == _canonical(summary.get("result")),
        ""
        if _canonical(local_result) == _canonical(summary.get("result"))
        else _first_difference(local_result, summary.get("result")),
    )
    for seat, remote in views.items():
        local_view = json.loads(json.dumps(game.view(replayed.state, seat)))
        same = _canonical(local_view) == _canonical(remote)
        who = "the spectator" if seat is None else f"seat {seat}"
        audit.add(
            f"the final view of {who} equals the server's",
            same,
            "" if same else _first_difference(local_view, remote),
        )
