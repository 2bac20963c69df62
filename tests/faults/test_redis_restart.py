"""kill -9 of redis-server (append-only file, fsync every second) under load, restarted 3 s
later: the workers stay up, every game finishes, no acknowledged move is lost, and every
finished game verifies."""

from __future__ import annotations

import time

import pytest

from tests.conftest import wait_until
from tests.faults.clients import (
    acknowledged_total,
    finish,
    lost_moves,
    start_humans,
    unverified,
)
from tests.faults.conftest import Progress, Stack
from tests.players import create

GAMES = ("kingdice", "diceland", "burgundy", "carcassonne")
OUTAGE = 3.0
"""How long Redis stays down: the fault itself, not a wait for anything."""


@pytest.mark.fault
def test_a_redis_crash_and_restart_loses_no_acknowledged_move(aof_stack: Stack) -> None:
    stack = aof_stack
    stack.start_api()
    workers = [stack.start_worker(), stack.start_worker()]
    games = []
    for name in GAMES:
        for _ in range(2):
            seats = [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}]
            games.append((create(stack.base, name, seats)["id"], [0]))
    humans = start_humans(stack.base, games)
    wait_until(lambda: acknowledged_total(humans) >= 40, 60, "40 acknowledged moves")
    before = acknowledged_total(humans)
    stack.kill_redis()
    time.sleep(OUTAGE)  # the outage: Redis stays down this long (the fault, not a wait)
    stack.start_redis()
    finish(humans, timeout=240)

    assert all(w.poll() is None for w in workers), stack.tail()  # the workers stayed up
    lost = lost_moves(stack.base, humans)
    game_ids = [gid for gid, _ in games]
    bad = unverified(stack.base, game_ids)
    print(
        f"{len(game_ids)} games, {acknowledged_total(humans)} acknowledged moves "
        f"({before} before the kill), lost {len(lost)}, unverified {len(bad)}"
    )
    assert lost == []
    assert bad == []


@pytest.mark.fault
def test_a_worker_outlives_a_redis_restart_in_the_middle_of_its_job(aof_stack: Stack) -> None:
    stack = aof_stack
    worker = stack.start_worker()
    service = stack.service()
    record, _, _ = service.create(
        "carcassonne", [{"kind": "bot", "bot": "heuristic"}], {}, seed="solo-outage"
    )
    stack.worker_doing_a_job()
    stack.kill_redis()
    time.sleep(1.0)  # the outage
    stack.start_redis()
    Progress(service, [record.id]).wait_all_over(timeout=90)
    assert worker.poll() is None, stack.tail()
