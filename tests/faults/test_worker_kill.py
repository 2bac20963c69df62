"""kill -9 of a worker in the middle of a bot job: the sweep re-enqueues the lost job and every
game finishes; no game waits long after the kill."""

from __future__ import annotations

import os
from functools import partial

import pytest

from service.store import GameStatus
from tests.faults.conftest import Progress, Stack, bot_games, kill9

PER_GAME = int(os.environ.get("DICEHALL_FAULT_GAMES", "5"))
"""Games of each of the four games in flight: five each keeps this test to about half a
minute in CI; the issue's soak is ``DICEHALL_FAULT_GAMES=40``."""
KILLS = 3
MAX_WAIT = 30.0


@pytest.mark.fault
def test_killing_one_of_two_workers_three_times_strands_no_game(stack: Stack) -> None:
    stack.start_worker()
    stack.start_worker()
    service = stack.service()
    game_ids = bot_games(service, PER_GAME)
    progress = Progress(service, game_ids)
    baseline = max(progress.waits_after(lambda: None, timeout=MAX_WAIT).values())
    print(f"{len(game_ids)} games; without a kill the longest wait for a move is {baseline:.1f} s")
    worst: list[float] = []
    for _ in range(KILLS):
        active = [r for r in progress.snapshot().values() if r and r.status is GameStatus.ACTIVE]
        if len(active) < 2 * PER_GAME:  # games end: keep enough in flight for a job to catch
            progress.game_ids.extend(bot_games(service, PER_GAME))
        # a job frozen after its own commit ended its game would leave no game to wait on
        victim, game_id = stack.frozen_worker_in_a_job(wanted=progress.is_active)
        waits = progress.waits_after(partial(kill9, victim), timeout=MAX_WAIT)
        stack.start_worker()
        assert game_id in waits, f"the lost job's game {game_id} was not active\n{stack.tail()}"
        worst.append(max(waits.values()))
        print(
            f"kill: {len(waits)} active games, game of the lost job waited "
            f"{waits[game_id]:.1f} s, longest wait {worst[-1]:.1f} s"
        )
    progress.wait_all_over(timeout=240)
    assert max(worst) <= MAX_WAIT
