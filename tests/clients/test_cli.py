"""The ``dicehall`` commands against the live service (real gunicorn, Redis and rq workers)."""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import os
import re
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import requests
from click.testing import CliRunner, Result

from clients.cli.console import shown
from clients.cli.errors import ExitStatus
from clients.cli.main import cli
from clients.sdk import Client, RetryPolicy, StaleVersion
from tests.conftest import wait_until
from tests.players import wait_for

pytestmark = pytest.mark.usefixtures("worker")


class Output:
    """A child's stdout, read line by line in a thread, so a test can wait for a line."""

    def __init__(self, stream: Any) -> None:
        self.lines: list[str] = []
        self.thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self.thread.start()

    def _read(self, stream: Any) -> None:
        for line in stream:
            self.lines.append(line)

    def wait_for(self, pattern: str, what: str, timeout: float = 60) -> None:
        wait_until(lambda: any(re.search(pattern, line) for line in self.lines), timeout, what)

    def versions(self) -> list[int]:
        """The versions of the game the watcher has drawn so far (`` v12 (`` in its header)."""
        return [int(v) for line in list(self.lines) for v in re.findall(r" v(\d+) \(", line)]

    def wait_for_version(self, version: int, timeout: float = 60) -> None:
        wait_until(
            lambda: max(self.versions(), default=-1) >= version,
            timeout,
            f"the watcher's drawing of version {version} or later",
        )

    def text(self) -> str:
        self.thread.join(10)
        return "".join(self.lines)


def stderr_of(child: subprocess.Popen[str]) -> str:
    """All a finished child wrote to its piped stderr."""
    assert child.stderr is not None, "the child's stderr is a pipe"
    return child.stderr.read()


def unbuffered() -> dict[str, str]:
    return {**os.environ, "PYTHONUNBUFFERED": "1"}


def dicehall(server: str, *args: str, input: str | None = None) -> Result:
    """Run one command in-process, as a person would type it."""
    runner = CliRunner()
    return runner.invoke(
        cli,
        list(args),
        input=input,
        env={"DICEHALL_URL": server, "DICEHALL_TOKEN": None, "COLUMNS": "200"},
    )


def game_id_in(output: str) -> str:
    found = re.search(r"game ([0-9a-f]{16})", output)
    assert found, output
    return found.group(1)


def wait_over(client: Client, game_id: str, timeout: float = 60) -> dict[str, Any]:
    return wait_for(client.base_url, game_id, lambda summary: summary["status"] == "over", timeout)


def test_games_lists_the_catalogue(live_server: str) -> None:
    result = dicehall(live_server, "games")
    assert result.exit_code == 0, result.output
    assert "carcassonne" in result.output
    assert "random" in result.output


def test_new_joins_every_human_seat_and_prints_its_token(live_server: str) -> None:
    result = dicehall(
        live_server,
        "new",
        "toy",
        "--humans",
        "2",
        "--bots",
        "1",
        "--bot",
        "random",
        "--name",
        "ann",
        "--option",
        "rounds=2",
        "--json",
    )
    assert result.exit_code == 0, result.output
    made = json.loads(result.stdout)
    assert [(s["seat"], s["name"]) for s in made["seats"]] == [(0, "ann"), (1, "player2")]
    summary = Client(live_server).game(made["id"])
    assert summary["status"] == "active"
    assert summary["options"] == {"rounds": 2}
    for seat in made["seats"]:
        assert Client(live_server, seat["seat_token"]).view(made["id"])["seat"] == seat["seat"]
    assert Client(live_server, made["creator_token"]).view(made["id"])["status"] == "active"


def test_new_prints_a_token_table_for_people(live_server: str) -> None:
    result = dicehall(live_server, "new", "toy", "--humans", "1", "--bots", "1", "--bot", "random")
    assert result.exit_code == 0, result.output
    assert "creator token creator_" in result.stdout
    game_id = game_id_in(result.stdout)
    assert re.search(rf"dicehall play --join {game_id} --token seat_\S+", result.stdout)


def test_unknown_game_exits_not_found_with_the_problem(live_server: str) -> None:
    result = dicehall(live_server, "new", "no-such-game", "--bots", "1")
    assert result.exit_code == ExitStatus.NOT_FOUND
    assert "unknown_game" in result.stderr
    assert result.stdout == ""


def test_invalid_options_exit_invalid_and_name_the_field(live_server: str) -> None:
    result = dicehall(
        live_server, "new", "toy", "--bots", "1", "--bot", "random", "--option", "rounds=99"
    )
    assert result.exit_code == ExitStatus.INVALID
    assert "invalid_options" in result.stderr
    assert "rounds" in result.stderr


def test_malformed_option_is_a_usage_error(live_server: str) -> None:
    result = dicehall(live_server, "new", "toy", "--option", "rounds")
    assert result.exit_code == ExitStatus.USAGE
    assert "KEY=VALUE" in result.output


def test_unreachable_server_exits_unreachable() -> None:
    result = dicehall("http://127.0.0.1:9", "games")
    assert result.exit_code == ExitStatus.UNREACHABLE
    assert "Cannot reach the server" in result.stderr


def test_play_reads_menu_choices_from_stdin(live_server: str) -> None:
    # Sealed Bids: each round the menu lists the hand; "1" bids the lowest card left. Spare
    # lines cover menus shown again when the bot's simultaneous bid made ours stale (412).
    result = dicehall(
        live_server, "play", "toy", "--bots", "1", "--bot", "random", input="x\n9\n" + "1\n" * 12
    )
    assert result.exit_code == 0, result.output
    assert "no choice contains 'x'" in result.output
    assert "'9' is not a number between 1 and 4" in result.output
    assert "the only move: taken for you" in result.output, "the last card is bid unasked"
    assert "Result" in result.output
    game_id = game_id_in(result.output)
    log = Client(live_server).log(game_id)
    mine = [e["action"] for e in log["entries"] if e["seat"] == 0]
    assert mine == [{"type": "bid", "card": card} for card in (1, 2, 3, 4)]


def test_play_quits_on_q_leaving_the_game_open(live_server: str) -> None:
    result = dicehall(live_server, "play", "toy", "--bots", "1", "--bot", "random", input="q\n")
    assert result.exit_code == 0, result.output
    game_id = game_id_in(result.output)
    assert Client(live_server).game(game_id)["status"] == "active"
    hint = re.search(
        rf"come back with dicehall play --join {game_id} --token (seat_\S+)", result.output
    )
    assert hint, result.output
    again = dicehall(
        live_server, "play", "--join", game_id, "--token", hint.group(1), input="1\n" * 12
    )
    assert again.exit_code == 0, again.output
    assert "you are seat 0" in again.output and "Result" in again.output


def test_verify_on_a_game_not_over_says_so_with_its_own_exit_code(live_server: str) -> None:
    made = json.loads(dicehall(live_server, "new", "toy", "--humans", "2", "--json").stdout)
    result = dicehall(live_server, "verify", made["id"])
    assert result.exit_code == ExitStatus.NOT_OVER, result.output
    assert "NOT OVER" in result.output and "MISMATCH" not in result.output
    assert "verify it then" in result.output
    as_json = dicehall(live_server, "verify", made["id"], "--json")
    assert as_json.exit_code == ExitStatus.NOT_OVER
    assert json.loads(as_json.stdout) == {
        "game_id": made["id"],
        "ok": False,
        "over": False,
        "status": "active",
    }


def test_play_carcassonne_auto_plays_a_whole_game_then_verifies(live_server: str) -> None:
    result = dicehall(
        live_server, "play", "carcassonne", "--bots", "2", "--auto", "--seed", "cli-carcassonne"
    )
    assert result.exit_code == 0, result.output[-3000:]
    assert "game over" in result.output
    assert "Result" in result.output
    game_id = game_id_in(result.output)
    token = re.search(r"seat token (\S+)", result.output)
    assert token
    summary = Client(live_server).game(game_id)
    assert summary["status"] == "over"
    assert len(summary["result"]["ranks"]) == 3
    verdict = dicehall(live_server, "verify", game_id, "--seat-token", f"0={token.group(1)}")
    assert verdict.exit_code == 0, verdict.output
    assert "VERIFIED" in verdict.output
    assert "the final view of seat 0 equals the server's" in verdict.output


def test_replay_prints_every_turn_with_the_seed(live_server: str) -> None:
    made = json.loads(
        dicehall(
            live_server, "new", "toy", "--humans", "0", "--bots", "2", "--bot", "random", "--json"
        ).stdout
    )
    summary = wait_over(Client(live_server), made["id"])
    result = dicehall(live_server, "replay", made["id"])
    assert result.exit_code == 0, result.output
    assert f"seed {summary['seed']}" in result.output
    turns = re.findall(r"^│\s+(\d+) │", result.output, flags=re.MULTILINE)
    assert [int(t) for t in turns] == list(range(summary["version"] + 1))


@pytest.mark.parametrize("mode", [[], ["--sse"]], ids=["long-poll", "sse"])
def test_watch_redraws_until_the_game_is_over(live_server: str, mode: list[str]) -> None:
    hall = Client(live_server)
    created = hall.create_game(
        "toy", [{"kind": "human", "name": "ann"}, {"kind": "bot", "bot": "random"}], {"rounds": 3}
    )
    joined = hall.join(created["id"], 0, "ann", invite=created["invites"]["0"])
    seat = hall.with_token(joined["seat_token"])
    watcher = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from clients.cli.main import cli; cli()",
            "watch",
            created["id"],
            "--server",
            live_server,
            *mode,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=unbuffered(),
    )
    drawn = Output(watcher.stdout)
    try:
        drawn.wait_for(r" v\d+ \(", "the watcher's first drawing")
        while seat.view(created["id"])["status"] != "over":
            legal = seat.legal_actions(created["id"])
            if legal["actions"]:
                with contextlib.suppress(StaleVersion):  # the bot's simultaneous bid came first
                    moved = seat.act(
                        created["id"], legal["actions"][0]["action"], if_match=legal["version"]
                    )
                    # one move at a time: each is drawn before the next (one redraw each)
                    drawn.wait_for_version(moved["version"])
            else:
                seat.events(created["id"], wait=1)
        watcher.wait(timeout=60)
        out, err = drawn.text(), stderr_of(watcher)
    finally:
        watcher.kill()
    assert watcher.returncode == 0, err
    versions = [int(v) for v in re.findall(r" v(\d+) \(", out)]
    assert versions[0] < versions[-1]
    assert len(versions) >= 3
    assert "Result" in out


def test_play_join_takes_the_first_open_human_seat(live_server: str) -> None:
    hall = Client(live_server)
    created = hall.create_game(
        "toy", [{"kind": "bot", "bot": "random"}, {"kind": "human"}], visibility="public"
    )
    result = dicehall(live_server, "play", "--join", created["id"], "--auto", "--quiet")
    assert result.exit_code == 0, result.output
    assert "you are seat 1" in result.output
    summary = hall.game(created["id"])
    assert summary["status"] == "over"
    assert summary["seats"][1]["joined"]


def test_two_people_play_each_other_with_their_seat_tokens(live_server: str) -> None:
    made = json.loads(dicehall(live_server, "new", "toy", "--humans", "2", "--json").stdout)
    players = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                "from clients.cli.main import cli; cli()",
                "play",
                "--join",
                made["id"],
                "--server",
                live_server,
                "--token",
                seat["seat_token"],
                "--auto",
                "--quiet",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for seat in made["seats"]
    ]
    outputs = [player.communicate(timeout=60) for player in players]
    for player, (out, err) in zip(players, outputs, strict=True):
        assert player.returncode == 0, err
        assert "Result" in out
    assert "you are seat 0" in outputs[0][0]
    assert "you are seat 1" in outputs[1][0]


def test_the_invites_of_new_are_commands_that_take_the_seats(live_server: str) -> None:
    made = json.loads(
        dicehall(live_server, "new", "toy", "--humans", "2", "--invite", "--json").stdout
    )
    assert set(made["commands"]) == {"0", "1"}
    players = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                "from clients.cli.main import cli; cli()",
                *shlex.split(command)[1:],
                "--server",
                live_server,
                "--auto",
                "--quiet",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for command in made["commands"].values()
    ]
    for player in players:
        out, err = player.communicate(timeout=60)
        assert player.returncode == 0, err
        assert "Result" in out
    assert Client(live_server).game(made["id"])["status"] == "over"


def test_play_without_a_game_is_a_usage_error(live_server: str) -> None:
    result = dicehall(live_server, "play", "--bots", "1")
    assert result.exit_code == ExitStatus.USAGE
    assert "--join GAME_ID" in result.output


def test_long_poll_may_wait_longer_than_five_seconds(live_server: str) -> None:
    # docs/API.md: the long-poll waits up to `wait` seconds (max 30) when nothing happens.
    hall = Client(live_server, retry=RetryPolicy(attempts=1))
    created = hall.create_game("toy", [{"kind": "human"}, {"kind": "human"}])
    cursor = hall.events(created["id"])["cursor"]
    started = time.monotonic()
    quiet = hall.with_token(None).events(created["id"], after=cursor, wait=7)
    assert quiet["events"] == []
    assert time.monotonic() - started >= 6.5


@pytest.mark.parametrize("game", ["burgundy", "diceland", "kingdice"])
def test_play_auto_draws_each_listed_game_to_the_end_and_verifies(
    live_server: str, game: str
) -> None:
    # carcassonne has its own whole-game test above (a drawn solo game runs long)
    info = Client(live_server).game_info(game)
    bots = max(1, info["min_seats"] - 1)
    result = dicehall(
        live_server,
        "play",
        game,
        "--bots",
        str(bots),
        "--bot",
        "random",
        "--auto",
        "--seed",
        f"smoke-{game}",
    )
    assert result.exit_code == 0, result.output[-3000:]
    assert "board picture failed" not in result.output
    assert "Result" in result.output
    token = re.search(r"seat token (\S+)", result.output)
    assert token
    verdict = dicehall(
        live_server, "verify", game_id_in(result.output), "--seat-token", f"0={token.group(1)}"
    )
    assert verdict.exit_code == 0, verdict.output
    assert "the final view of seat 0 equals the server's" in verdict.output


def test_list_shows_recent_games_newest_first(live_server: str) -> None:
    hall = Client(live_server)
    seats = [{"kind": "human"}, {"kind": "human"}]
    older = hall.create_game("toy", seats, visibility="public")["id"]
    newer = hall.create_game("toy", seats, visibility="public")["id"]
    result = dicehall(live_server, "list", "--limit", "5")
    assert result.exit_code == 0, result.output
    assert result.output.index(newer) < result.output.index(older)
    assert "waiting" in result.output


def test_picture_saves_the_servers_svg(live_server: str, tmp_path: Path) -> None:
    made = json.loads(
        dicehall(
            live_server,
            "new",
            "carcassonne",
            "--humans",
            "1",
            "--bots",
            "1",
            "--bot",
            "random",
            "--json",
        ).stdout
    )
    target = tmp_path / "board.svg"
    result = dicehall(live_server, "picture", made["id"], "--player", "0", "-o", str(target))
    assert result.exit_code == 0, result.output
    text = target.read_text()
    assert text.lstrip().startswith(("<svg", "<?xml"))
    assert "</svg>" in text
    printed = dicehall(live_server, "picture", made["id"], "-o", "-")
    assert printed.stdout.strip().endswith("</svg>")


def test_play_join_waits_for_the_other_human_to_join(live_server: str) -> None:
    hall = Client(live_server)
    created = hall.create_game("toy", [{"kind": "human"}, {"kind": "human"}], {"rounds": 2})
    first = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from clients.cli.main import cli; cli()",
            "play",
            "--join",
            created["id"],
            "--seat",
            "0",
            "--token",
            created["invites"]["0"],
            "--server",
            live_server,
            "--auto",
            "--quiet",
            "--wait",
            "2",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=unbuffered(),
    )
    printed = Output(first.stdout)
    try:
        printed.wait_for("waiting for the other human seats to join", "the first player waiting")
        joined = hall.join(created["id"], 1, "bo", invite=created["invites"]["1"])
        second = hall.with_token(joined["seat_token"])
        while second.view(created["id"])["status"] != "over":
            legal = second.legal_actions(created["id"])
            if legal["actions"]:
                with contextlib.suppress(StaleVersion):
                    second.act(
                        created["id"], legal["actions"][0]["action"], if_match=legal["version"]
                    )
            else:
                second.events(created["id"], wait=1)
        first.wait(timeout=60)
        out, err = printed.text(), stderr_of(first)
    finally:
        first.kill()
    assert first.returncode == 0, err
    assert "waiting for the other human seats to join" in out
    assert "you are seat 0" in out
    assert "Result" in out


def test_a_wrong_token_exits_auth(live_server: str) -> None:
    created = Client(live_server).create_game("toy", [{"kind": "human"}, {"kind": "human"}])
    result = dicehall(live_server, "play", "--join", created["id"], "--token", "seat_bogus")
    assert result.exit_code == ExitStatus.AUTH
    assert "unauthorized" in result.stderr


def test_new_with_a_deadline_lets_the_server_play_fallbacks_shown_in_replay(
    live_server: str,
) -> None:
    made = json.loads(
        dicehall(
            live_server,
            "new",
            "toy",
            "--humans",
            "1",
            "--bots",
            "1",
            "--bot",
            "random",
            "--deadline",
            "0.2",
            "-o",
            "rounds=2",
            "--json",
        ).stdout
    )
    wait_over(Client(live_server), made["id"], timeout=60)
    result = dicehall(live_server, "replay", made["id"])
    assert result.exit_code == 0, result.output
    assert result.output.count("(deadline fallback)") == 2  # the idle human's two bids


def test_a_server_answering_no_json_is_a_server_error_not_a_traceback(tmp_path: Path) -> None:
    """--server naming an HTTP server that is not dicehall (a proxy's page, a web server):
    its 200 answer of HTML was parsed as JSON and ended the CLI in a traceback."""
    (tmp_path / "v1").mkdir()
    (tmp_path / "v1" / "games").write_text("<html>not dicehall</html>")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            result = dicehall(f"http://127.0.0.1:{server.server_address[1]}", "list")
        finally:
            server.shutdown()
    assert result.exit_code == ExitStatus.SERVER_ERROR, result.output
    assert "is not JSON" in result.stderr
    assert "Traceback" not in result.output


def test_names_and_problems_from_the_server_print_as_written(live_server: str) -> None:
    """A seat's name, a problem's detail: text of the server's (of other people's) was read
    as rich markup, so a name holding '[/bold]' ended `dicehall list` with MarkupError for
    everyone listing games, '[red]x' printed a red x, and an escape sequence reached the
    terminal. (The service now refuses a name with a control character; a server of another
    version, or a problem's detail, may still send one: the console drops it.)"""
    assert shown("[/bold]\x1b[2Jann") == "\\[/bold][2Jann"
    assert shown("ann\u202egnp.exe \u2066x\u2069") == "anngnp.exe x"  # no override obeyed
    name = "[/bold][2Jann"
    seats = [{"kind": "human", "name": name}, {"kind": "bot"}]
    reply = requests.post(
        f"{live_server}/v1/games",
        json={"game": "toy", "seats": seats, "visibility": "public"},
        timeout=10,
    )
    game_id = reply.json()["id"]
    listed = dicehall(live_server, "list", "--limit", "100")
    assert listed.exit_code == 0, listed.output
    assert game_id in listed.output
    assert "0 [/bold][2Jann" in listed.output

    missing = dicehall(live_server, "tournament", "show", "[red]x")
    assert missing.exit_code == ExitStatus.NOT_FOUND, missing.output
    assert "'[red]x'" in missing.stderr


def test_a_seed_from_the_server_prints_as_written(live_server: str) -> None:
    """A game's seed is any text its creator chose, published at the end: `dicehall replay`
    of a game seeded '[/bold]x' ended in MarkupError (exit 1) for everyone replaying it."""
    client = Client(live_server)
    made = client.create_game("toy", [{"kind": "bot"}, {"kind": "bot"}], seed="[/bold]x")
    wait_over(client, made["id"])
    result = dicehall(live_server, "replay", made["id"])
    assert result.exit_code == 0, result.output
    assert "seed [/bold]x" in result.output


@pytest.mark.parametrize("server", ["nothttp", "http://[::1", "http://127.0.0.1:99999", "https://"])
def test_a_server_that_is_no_url_is_a_usage_error(server: str) -> None:
    """On main requests raised MissingSchema or InvalidURL from inside the command: a
    traceback (exit 1)."""
    result = dicehall(server, "list")
    assert result.exit_code == ExitStatus.USAGE, result.output
    assert "--server" in result.output and "Traceback" not in result.output
    assert not isinstance(result.exception, requests.RequestException)


def test_an_output_file_that_cannot_be_written_is_refused_before_the_work(
    tmp_path, monkeypatch
) -> None:
    """On main `picture -o missing/x.svg` fetched the picture and ended in FileNotFoundError
    (a traceback), and `tournament start --chart missing/c.svg` played the whole tournament
    first. Nothing is asked of the server (there is none at this address)."""
    monkeypatch.chdir(tmp_path)
    nowhere = "http://127.0.0.1:9"
    missing = str(tmp_path / "missing" / "x.svg")
    picture = dicehall(nowhere, "picture", "g1", "-o", missing)
    assert picture.exit_code == ExitStatus.USAGE, picture.output
    assert "is not a folder" in picture.output
    start = dicehall(
        nowhere,
        "tournament",
        "start",
        "toy",
        "--bot",
        "random",
        "--bot",
        "random",
        "--chart",
        missing,
    )
    assert start.exit_code == ExitStatus.USAGE, start.output
    assert "--chart" in start.output


def test_tournament_entrants_get_names_no_other_entrant_has() -> None:
    """The server refuses two entrants of one name; on main the CLI's suffix made
    ``random-2`` twice from ``--bot random --bot random --account x=random-2``."""
    from clients.cli.commands.tournament import participants

    names = [e["name"] for e in participants(("random", "random"), ("x=random-2",))]
    assert names == ["random", "random-3", "random-2"]
    names = [e["name"] for e in participants(("random", "random", "heuristic", "random"), ())]
    assert names == ["random", "random-2", "heuristic", "random-3"]
