"""A number on the command line is a finite one: NaN and the infinities, which ``float``
reads and a click range lets through (NaN compares false with every bound), are a usage
error (exit 2) before anything is sent or played, never a traceback (JSON cannot carry them,
a wait cannot take them); a game option JSON has no number for goes as the text it is."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from clients.cli.errors import ExitStatus
from clients.cli.main import cli
from clients.cli.options import parse_options

UNREACHABLE = "http://127.0.0.1:9"
"""No server: a command that got past its options would exit 3 (unreachable) here."""
TOURNAMENT = ("tournament", "start", "toy", "--bot", "random", "--bot", "random")
MATCH = ("match", "toy", "random", "random", "--max-pairs", "1", "--min-pairs", "1")
COMMANDS = [
    (*TOURNAMENT, "--poll"),
    (*TOURNAMENT, "--decision-seconds"),
    (*TOURNAMENT, "--time-bank"),
    ("new", "toy", "--deadline"),
    ("fork", "0123456789abcdef", "--at", "1", "--deadline"),
    ("watch", "0123456789abcdef", "--wait"),
    ("bot", "run", "--token", "bot_x", "--idle"),
    ("bot", "run", "--token", "bot_x", "--patience"),
    (*MATCH, "--elo0"),
    (*MATCH, "--elo1"),
    (*MATCH, "--alpha"),
]


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), env={"DICEHALL_URL": UNREACHABLE})
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"dicehall {' '.join(args)}: {result.exception!r}\n{result.output}"
    )
    return result.exit_code, result.output


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:1] + c[-1:]))
def test_a_number_option_refuses_nan_and_the_infinities(command: tuple[str, ...], value: str):
    code, output = run(*command, value)
    assert code == ExitStatus.USAGE, output
    assert command[-1] in output


def test_a_time_bank_with_an_infinite_increment_is_a_usage_error():
    code, output = run(*TOURNAMENT, "--time-bank", "60+1e400")
    assert code == ExitStatus.USAGE, output
    assert "is not START or START+INC" in output


@pytest.mark.parametrize("elo", ["-1e308", "2401", "-2401"])
def test_match_refuses_an_elo_hypothesis_no_share_tells_apart_before_playing(elo: str):
    code, output = run(*MATCH, "--elo0", elo, "--elo1", "2400")
    assert code == ExitStatus.USAGE, output
    assert "an Elo difference from -2400 to 2400" in output


def test_match_takes_the_widest_elo_hypotheses():
    code, output = run(*MATCH, "--elo0", "-2400", "--elo1", "2400", "--json")
    assert code == ExitStatus.SUCCESS, output
    assert "NaN" not in output


def test_a_game_option_json_has_no_number_for_is_sent_as_text():
    found = parse_options(("a=NaN", "b=Infinity", "c=-Infinity", "d=1e400", "e=1.5", "f=[1]"))
    assert found == {
        "a": "NaN",
        "b": "Infinity",
        "c": "-Infinity",
        "d": "1e400",
        "e": 1.5,
        "f": [1],
    }
