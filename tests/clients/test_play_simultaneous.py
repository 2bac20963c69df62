"""``dicehall play`` in sealed simultaneous rounds, driven through a pseudo-terminal.

The two other seats are external bots that the test plays (Burgundy's heuristic on their own
views), so that they decide exactly while the player's menu is open.
"""

from __future__ import annotations

import functools
import io
import os
import random
import re
import sys
import time

import pexpect
import pytest

from clients.cli.simultaneous import deciding_line, still_to_decide
from clients.sdk import Client
from engine.games import get_game
from tests.conftest import ROOT, wait_until

pytestmark = pytest.mark.usefixtures("worker")

PROMPT = r"Choose: "


def spawn_play(server: str, *args: str) -> tuple[pexpect.spawn, io.StringIO]:
    env = {
        **os.environ,
        "DICEHALL_URL": server,
        "PYTHONPATH": str(ROOT),
        "NO_COLOR": "1",
        "COLUMNS": "120",
        "LINES": "40",
    }
    env.pop("DICEHALL_TOKEN", None)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "clients.cli", "play", *args],
        env=env,
        cwd=str(ROOT),
        encoding="utf-8",
        codec_errors="replace",
        dimensions=(40, 120),
        timeout=90,
    )
    transcript = io.StringIO()
    child.logfile_read = transcript
    return child, transcript


class ExternalSeat:
    """A bot seat played by the test as an external bot: Burgundy's heuristic choosing from
    the seat's own view and legal actions, posted when the test says."""

    def __init__(self, hall: Client, game_id: str, seat: int, token: str) -> None:
        self.client, self.game_id, self.seat = hall.with_token(token), game_id, seat
        self.bot = get_game("burgundy").bots["heuristic"]()
        self.rng = random.Random(seat)

    def decide(self) -> None:
        legal = self.client.legal_actions(self.game_id)
        view = self.client.view(self.game_id)["view"]
        action = self.bot.choose(view, [item["action"] for item in legal["actions"]], self.rng)
        self.client.act(self.game_id, action, if_match=legal["version"])


def answered_(hall: Client, game_id: str, decision: int) -> bool:
    """Whether seat 0 has answered its decision ``decision`` (it owes another, or none)."""
    prompt = hall.game(game_id)["to_act"].get("0")
    return prompt is None or prompt["decision"] != decision


def test_every_answer_in_a_burgundy_game_is_taken(live_server: str) -> None:
    """A whole Burgundy game in a terminal against two bots: at every prompt the bots
    decide while the player's menu is open (the CLI says so as it happens), and only then
    does the player answer, with the If-Match of the version it read: every answer is taken.
    """
    hall = Client(live_server)
    accounts = [hall.register_bot(f"sealed-{n}", "tests@dicehall.dev") for n in (1, 2)]
    seats = [{"kind": "human"}] + [{"kind": "external", "account": a["id"]} for a in accounts]
    game_id = hall.create_game("burgundy", seats, {}, "pty-burgundy", visibility="public")["id"]
    child, transcript = spawn_play(live_server, "--join", game_id)
    bots = [ExternalSeat(hall, game_id, n + 1, a["token"]) for n, a in enumerate(accounts)]
    answered = waited = 0
    deadline = time.monotonic() + 300
    try:
        while True:
            summary = hall.game(game_id)
            if summary["status"] == "over":
                break
            owing = [bot for bot in bots if str(bot.seat) in summary["to_act"]]
            if "0" not in summary["to_act"]:
                for bot in owing:
                    bot.decide()
                if not owing:
                    hall.events(game_id, wait=2)
                continue
            decision = summary["to_act"]["0"]["decision"]
            assert time.monotonic() < deadline, "the game did not end within 5 minutes"
            seen = child.expect([PROMPT, "the only move: taken for you", pexpect.TIMEOUT], 2)
            if seen != 0:  # a forced move the CLI took itself, or no prompt yet: look again
                continue
            if owing:
                assert "also deciding now" in str(child.before).rsplit("you:", 1)[-1]
                for bot in owing:
                    bot.decide()
                    child.expect("has decided", timeout=60)
                    child.expect(PROMPT, timeout=60)  # the CLI asks again below the news
                waited += 1
            child.sendline("1")
            answered += 1
            answered_now = functools.partial(answered_, hall, game_id, decision)
            wait_until(answered_now, 60, f"seat 0's answer to decision {decision}")
        child.expect("game over", timeout=60)
        child.expect(pexpect.EOF, timeout=60)
    finally:
        child.close(force=True)
    text = re.sub(r"\x1b\[[0-9;]*m", "", transcript.getvalue())
    assert "not taken" not in text, text[-2000:]
    assert "refused" not in text
    assert "verify it" in text
    print(f"burgundy in a pty: {answered} answers taken, {waited} after the bots decided")
    assert answered >= 20, f"only {answered} answers"
    assert waited >= answered - 1, "the bots decided during nearly every prompt"
    forced = text.count("the only move: taken for you")
    assert text.count("you: ") == answered + forced, "every answer is echoed once"


def test_a_previous_rounds_sealed_choices_do_not_hide_this_rounds_deciders() -> None:
    """The CLI reads the view, then the events since its cursor: sealed choices newer than the
    view are decided already; older ones (the round before, read in the same batch) are not
    this round's, and the view's to_act already counts them."""
    prompt = {"kind": "pick", "sealed": True}
    current = {"version": 28, "to_act": {"0": prompt, "1": prompt, "2": prompt}}
    sealed = [
        {"type": "action", "version": v, "seat": s, "sealed": True} for v, s in ((26, 1), (27, 2))
    ]
    assert set(still_to_decide(current, sealed, 0)) == {"0", "1", "2"}
    newer = [{"type": "action", "version": 29, "seat": 2, "sealed": True}]
    assert set(still_to_decide(current, sealed + newer, 0)) == {"0", "1"}
    line = deciding_line(still_to_decide(current, sealed, 0), 0, ["you", "ann", "bob"])
    assert line == "also deciding now: ann, bob"
