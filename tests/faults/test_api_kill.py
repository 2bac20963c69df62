"""kill -9 of gunicorn (master and workers) right after moves commit, under load from 16
clients in games with human and bot seats: after a restart every game finishes (a bot job
lost between a commit and its enqueue is the sweep's)."""

from __future__ import annotations

import pytest

from tests.conftest import wait_until
from tests.faults.clients import acknowledged_total, finish, lost_moves, start_humans
from tests.faults.conftest import Stack
from tests.players import create

GAMES = 8
"""Games of two human seats and one bot: 16 clients."""


@pytest.mark.fault
def test_killing_gunicorn_under_load_strands_no_game(stack: Stack) -> None:
    stack.start_api()
    stack.start_worker()
    stack.start_worker()
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "heuristic"}]
    games = [
        (create(stack.base, "kingdice" if n % 2 else "diceland", seats)["id"], [0, 1])
        for n in range(GAMES)
    ]
    humans = start_humans(stack.base, games)
    wait_until(lambda: acknowledged_total(humans) >= 60, 60, "60 acknowledged moves")
    stack.kill_api()
    killed_at = acknowledged_total(humans)
    stack.start_api()
    finish(humans, timeout=240)
    lost = lost_moves(stack.base, humans)
    print(
        f"{GAMES} games, {len(humans)} clients, {acknowledged_total(humans)} acknowledged "
        f"moves ({killed_at} before the kill), lost {len(lost)}"
    )
    assert lost == []
