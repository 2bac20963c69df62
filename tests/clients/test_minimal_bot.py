"""The minimal bot of docs/BOTS.md, run as written, plays whole games against the service."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import requests

from tests.players import create, wait_for

ROOT = Path(__file__).resolve().parents[2]


def documented_bot(tmp_path: Path) -> Path:
    text = (ROOT / "docs" / "BOTS.md").read_text()
    found = re.search(r"## A minimal bot in Python.*?```python\n(.*?)```", text, re.S)
    assert found, "docs/BOTS.md has a minimal bot in Python"
    code = found.group(1)
    path = tmp_path / "mybot.py"
    path.write_text(code)
    return path


def test_documented_minimal_bot_plays_two_games_to_the_end(
    live_server, worker, redis_client, tmp_path
):
    account = requests.post(
        f"{live_server}/v1/bots", json={"name": "doc", "owner": "docs"}, timeout=5
    ).json()
    games = [
        create(
            live_server, "toy", [{"kind": "external", "account": account["id"]}, {"kind": "bot"}]
        ),
        create(
            live_server, "toy", [{"kind": "bot"}, {"kind": "external", "account": account["id"]}]
        ),
    ]
    bot = subprocess.run(
        [sys.executable, str(documented_bot(tmp_path)), live_server, account["token"], "2"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bot.returncode == 0, bot.stderr
    for game in games:
        summary = wait_for(live_server, game["id"], lambda s: s["status"] == "over", timeout=30)
        log = requests.get(f"{live_server}/v1/games/{game['id']}/log", timeout=5).json()
        external = next(s["seat"] for s in summary["seats"] if s["kind"] == "external")
        moves = [e for e in log["entries"][1:] if e["seat"] == external]
        assert moves and not any(e["fallback"] for e in moves)
