"""The service's audit of a finished game: the project's verifier (:mod:`engine.verify`,
the same checks as ``dicehall verify``) run on the stored summary, log and final views.

A forked game is checked from its origin's state at the fork, and its origin is audited too.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from engine.codec import canonical_json
from engine.games import get_game
from engine.verify import audit_game
from service.errors import GameNotOver
from service.games import Caller, GameService
from service.history import History
from service.store import GameRecord, GameStatus


def verification(service: GameService, record: GameRecord) -> dict[str, Any]:
    """Every check made on the game and whether all hold. Raises GameNotOver while the game,
    or another game dealt the same seed (a mirrored round's table), is still played: the
    seed is then secret (``GameRecord.seed_public``)."""
    if record.status is not GameStatus.OVER:
        raise GameNotOver("the seed is revealed, and checked, at the end")
    if not record.seed_public:
        raise GameNotOver(
            "the seed is revealed, and checked, when every game dealt it is over "
            f"({', '.join(record.siblings)})"
        )
    checks: list[dict[str, Any]] = []
    start = None
    if record.forked_from is not None:
        history = History(service.store)
        checks.append(_origin_check(service, history, record))
        start = history.start(record)
    views = {
        seat: service.observe(record, seat)["view"] for seat in [None, *range(len(record.seats))]
    }
    audit = audit_game(service.summary(record), service.log(record, Caller()), views, start)
    checks.extend(asdict(check) for check in audit.checks)
    return {
        "game_id": record.id,
        "ok": audit.ok and all(check["ok"] for check in checks),
        "commitment": record.commitment,
        "seed": record.seed,
        "checks": checks,
    }


def _origin_check(service: GameService, history: History, record: GameRecord) -> dict[str, Any]:
    """Whether the game a fork was taken from verifies, and starts the fork where it says."""
    fork = record.forked_from
    assert fork is not None
    name = f"the origin game {fork['game']} verifies and reaches the fork's start"
    origin = service.store.load(fork["game"])
    if origin is None:
        return {"name": name, "ok": False, "detail": "the origin is no longer stored"}
    if not origin.seed_public:
        return {"name": name, "ok": False, "detail": "the origin's seed is still secret"}
    audit = verification(service, origin)
    replayed = history.replay(origin, int(fork["version"]))
    game = get_game(record.game)
    same = canonical_json(game.dump_state(replayed.state)) == canonical_json(fork["state"])
    detail = f"{len(audit['checks'])} checks" + ("" if same else "; the start state differs")
    return {"name": name, "ok": audit["ok"] and same, "detail": detail}
