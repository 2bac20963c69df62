"""A whole game of each game played through ``dicehall play`` in a 24-row pseudo-terminal.

The player always answers ``1``; the test reads what a person would see and checks that no
menu (from its title to the prompt) is taller than the terminal, that the bot's moves are
shown as the game's sentences (not raw JSON), and that the game ends.
"""

from __future__ import annotations

import fcntl
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time

import pytest

ROWS, COLUMNS = 24, 80
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")
PROMPT = "Choose: "


def screen_text(raw: bytes) -> str:
    return ANSI.sub("", raw.decode("utf-8", "replace"))


def answer(menu: str, word: str | None, tried: bool) -> tuple[bytes, bool]:
    """What the player types at a menu: ``word`` to narrow it the first time (a person
    looking for a kind of move), then the first number shown, else 1."""
    if word and not tried:
        return f"{word}\n".encode(), True
    if word and "no choice contains" not in menu:
        first = re.search(r"^\s*(\d+) ", menu.split("\n", 1)[1], re.M)
        if first:
            return f"{first.group(1)}\n".encode(), False
    return b"1\n", False


def play_in_pty(
    server: str, *args: str, word: str | None = None, timeout: float = 400
) -> tuple[int, str, list[int]]:
    """Run ``dicehall play ARGS`` on a 24x80 terminal answering every menu (see
    :func:`answer`); returns the exit code, everything shown, and every menu's height."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
    env = {**os.environ, "DICEHALL_URL": server, "TERM": "xterm-256color"}
    for name in ("DICEHALL_TOKEN", "COLUMNS", "LINES"):
        env.pop(name, None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "clients.cli", "play", *args],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        close_fds=True,
    )
    os.close(slave)
    shown, heights, answered, tried = b"", [], 0, False
    deadline = time.monotonic() + timeout
    try:
        while True:
            if time.monotonic() > deadline:
                raise AssertionError(f"no end in {timeout} s:\n{screen_text(shown)[-3000:]}")
            ready, _, _ = select.select([master], [], [], 1.0)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # the child closed the terminal
                    break
                if not chunk:
                    break
                shown += chunk
                text = screen_text(shown)
                start = text.rfind("Your move (")
                # a new menu since the last answer (a watcher may show the prompt again)
                if start > answered and text.rstrip(" ").endswith(PROMPT.strip()):
                    menu = text[start : text.rindex(PROMPT)]
                    heights.append(len(menu.splitlines()) + 1)
                    typed, tried = answer(text[start:], word, tried)
                    answered = start
                    os.write(master, typed)
            elif proc.poll() is not None:
                break
        code = proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    return code, screen_text(shown), heights


@pytest.mark.usefixtures("worker")
@pytest.mark.parametrize(
    ("game", "word"),
    [
        ("carcassonne", "score"),  # the heuristic reaches 42 while we end our turns at once
        ("burgundy", None),
        ("diceland", None),
        ("kingdice", None),
    ],
)
def test_a_whole_game_in_a_24_row_terminal_never_shows_a_taller_menu(live_server, game, word):
    bot = "heuristic" if game == "carcassonne" else "random"
    code, text, heights = play_in_pty(
        live_server, game, "--bots", "1", "--bot", bot, "--seed", f"pty-{game}", word=word
    )
    assert code == 0, text[-3000:]
    assert "game over" in text and "Result" in text, text[-3000:]
    assert heights, "the player was asked at least once"
    assert max(heights) <= ROWS, f"a menu of {max(heights)} rows in a {ROWS}-row terminal"
    # "1 random-1: Roll all six dice", or "v4 1 random-1 has decided" while it is sealed
    bot_moves = re.findall(rf"^\s*(?:v\d+ )?1 \S*{bot}\S*:? (.+)$", text, re.M)
    assert bot_moves, "the bot's moves are shown"
    assert not [m for m in bot_moves if m.lstrip().startswith("{")], "sentences, not raw JSON"
