"""``dicehall bot run`` rides out an outage of the API: kill -9 of gunicorn in the middle of
its games, back 3 s later; the runner retries its moves (same Idempotency-Key) and reopens
its feed, and plays every game to the end without exiting. A runner started while the
service is down waits for it from its very first request."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from service.store import GameStatus
from tests.conftest import wait_until
from tests.faults.clients import ExternalBot, call, unverified
from tests.faults.conftest import Progress, Stack
from tests.players import create

GAMES = ("carcassonne", "burgundy")
"""Long games: both still running when the API is killed."""
OUTAGE = 3.0
"""How long the API stays down: the fault itself, not a wait for anything."""


@pytest.mark.fault
def test_the_bot_runner_plays_on_through_an_api_outage(stack: Stack, tmp_path: Path) -> None:
    stack.start_api()
    stack.start_worker()
    bot = ExternalBot(stack.base, "outlasting", tmp_path / "bot.log", games=len(GAMES))
    seats = [bot.seat(), {"kind": "bot", "bot": "heuristic"}]
    game_ids = [create(stack.base, name, seats)["id"] for name in GAMES]
    bot.start()
    try:
        progress = Progress(stack.service(), game_ids)

        def some_moves() -> bool:
            return all(r is not None and r.version >= 4 for r in progress.snapshot().values())

        wait_until(some_moves, 60, "the bot to play a few moves of every game")
        stack.kill_api()
        at_kill = {game_id: r for game_id, r in progress.snapshot().items() if r is not None}
        running = [r.status for r in at_kill.values()]
        assert running == [GameStatus.ACTIVE] * len(GAMES), "a game ended before the outage"
        time.sleep(OUTAGE)  # the outage: the API stays down this long (the fault)
        stack.start_api()
        output = bot.finish(timeout=240)
    finally:
        bot.stop()
    # The outage is absorbed by the runner (which says "retrying" / "reconnecting") or, when
    # it is short enough, by the SDK's own retries underneath it; either way the runner must
    # have played on: a move of the bot's in every game after the version it was killed at.
    for game_id, record in at_kill.items():
        played = [int(v) for v in re.findall(rf"{game_id} v(\d+):", output)]
        assert any(v > record.version for v in played), (record.version, output)
    for game_id in game_ids:
        assert call("GET", f"{stack.base}/v1/games/{game_id}").json()["status"] == "over"
        assert f"game {game_id} over" in output
    assert unverified(stack.base, game_ids) == []


@pytest.mark.fault
def test_the_bot_runner_started_during_an_outage_waits_for_the_service(
    stack: Stack, tmp_path: Path
) -> None:
    stack.start_api()
    stack.start_worker()
    bot = ExternalBot(stack.base, "early", tmp_path / "bot.log", games=1)
    game_id = create(stack.base, "kingdice", [bot.seat(), {"kind": "bot", "bot": "random"}])["id"]
    stack.kill_api()
    bot.start()
    try:

        def retrying() -> bool:
            exited = bot.proc is not None and bot.proc.poll() is not None
            assert not exited, f"the runner gave up during the outage:\n{bot.output}"
            return "retrying" in bot.output

        wait_until(
            retrying,
            60,
            "the runner to meet the outage with its first request and say it retries",
        )
        stack.start_api()
        output = bot.finish(timeout=240)
    finally:
        bot.stop()
    assert re.search(rf"{game_id} v\d+:", output), output
    assert f"game {game_id} over" in output
    assert call("GET", f"{stack.base}/v1/games/{game_id}").json()["status"] == "over"
