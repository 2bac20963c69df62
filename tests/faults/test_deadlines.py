"""Deadlines fire within seconds of being due whichever worker is alive: kill -9 of the worker
that holds the sweep lock delays no fallback by more than a few seconds."""

from __future__ import annotations

import time

import pytest

from service.sweep import holder_key
from tests.conftest import wait_until
from tests.faults.conftest import Progress, Stack, kill9

GAMES = 6
DECISION_SECONDS = 2.0
LATEST = 5.0


@pytest.mark.fault
def test_fallbacks_fire_on_time_when_the_sweeping_worker_is_killed(stack: Stack) -> None:
    workers = {proc.pid: proc for proc in (stack.start_worker(), stack.start_worker())}
    service = stack.service()
    ids = []
    for n in range(GAMES):
        record, _, _ = service.create(
            "toy", [{"kind": "human"}] * 2, {}, seed=f"late-{n}", decision_seconds=DECISION_SECONDS
        )
        for seat in (0, 1):
            service.join(record.id, seat, None)
        ids.append(record.id)
    client = stack.client()
    wait_until(lambda: client.get(holder_key("dh")), 30, "a worker holding the sweep lock")
    # kill the holder once the first round's fallbacks are in
    wait_until(
        lambda: all(len(service.store.log(gid)) >= 3 for gid in ids), 30, "the first fallbacks"
    )
    holder_pid = int(str(client.get(holder_key("dh"))).split()[1])
    kill9(workers[holder_pid])
    killed_at = time.time()
    stack.start_worker()
    Progress(service, ids).wait_all_over(timeout=120)

    lateness = []
    for gid in ids:
        entries = service.store.log(gid)
        assert all(e["fallback"] for e in entries[1:]), entries
        for n, entry in enumerate(entries[1:], start=1):
            opened = entries[2 * ((n - 1) // 2)]["at"]  # the move that opened this round
            lateness.append(entry["at"] - opened - DECISION_SECONDS)
    after_kill = [x for x in lateness if x > 0]
    print(
        f"{len(lateness)} fallbacks in {GAMES} games, latest {max(lateness):.2f} s after its "
        f"deadline (sweeper killed at {killed_at:.0f})"
    )
    assert after_kill and max(lateness) <= LATEST, stack.tail()
