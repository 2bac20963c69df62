"""``verify`` catches every kind of tampering with a finished game's published record.

A real game is played on the live service; the audit is then run on what the API published,
as is and with one thing altered at a time (the seed, a draw, an action, the result, a view).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from clients.sdk import Client
from clients.verifier import Audit, audit_game
from tests.players import wait_for

pytestmark = pytest.mark.usefixtures("worker")


@pytest.fixture(scope="module")
def finished(live_server: str) -> dict[str, Any]:
    """A finished three-bot Sealed Bids game: summary, log and the spectator's final view."""
    hall = Client(live_server)
    bots = [{"kind": "bot", "bot": "random"}] * 3
    game_id = hall.create_game("toy", bots, {"rounds": 4})["id"]
    wait_for(live_server, game_id, lambda summary: summary["status"] == "over", 60)
    return {
        "summary": hall.game(game_id),
        "log": hall.log(game_id),
        "views": {None: hall.view(game_id)["view"]},
    }


def audit(record: dict[str, Any]) -> Audit:
    return audit_game(record["summary"], record["log"], record["views"])


def failed(result: Audit) -> list[str]:
    return [check.name for check in result.checks if not check.ok]


def test_an_untouched_game_verifies(finished: dict[str, Any]) -> None:
    result = audit(finished)
    assert result.ok, failed(result)
    assert len(result.checks) >= 10


def test_a_seed_that_does_not_match_the_commitment_fails(finished: dict[str, Any]) -> None:
    record = copy.deepcopy(finished)
    record["log"]["seed"] = "0" * 64
    assert "sha256(seed) equals the commitment published at creation" in failed(audit(record))


def test_a_forged_draw_fails(finished: dict[str, Any]) -> None:
    record = copy.deepcopy(finished)
    entry = next(e for e in record["log"]["entries"] if e.get("draws"))
    k, n, value = entry["draws"][0]
    entry["draws"][0] = [k, n, (value + 1) % n]
    names = failed(audit(record))
    assert "every logged draw recomputes from the seed" in names
    assert "each turn consumed exactly the draws logged for it" in names


def test_a_missing_draw_fails(finished: dict[str, Any]) -> None:
    record = copy.deepcopy(finished)
    entry = next(e for e in record["log"]["entries"] if e.get("draws"))
    entry["draws"].pop(0)
    assert "the draws are numbered 0..N-1 with no gap" in failed(audit(record))


def test_an_altered_action_fails_the_replay_or_the_views(finished: dict[str, Any]) -> None:
    record = copy.deepcopy(finished)
    moves = [e for e in record["log"]["entries"] if e["seat"] is not None]
    moves[0]["action"] = {"type": "bid", "card": 99}
    assert "the log re-plays under the rules" in failed(audit(record))


def test_a_dropped_action_fails(finished: dict[str, Any]) -> None:
    record = copy.deepcopy(finished)
    record["log"]["entries"].pop()
    assert not audit(record).ok


def test_a_different_result_fails(finished: dict[str, Any]) -> None:
    record = copy.deepcopy(finished)
    record["summary"]["result"]["scores"][0] += 1
    assert failed(audit(record)) == ["the result equals the server's"]


def test_a_different_final_view_fails(finished: dict[str, Any]) -> None:
    record = copy.deepcopy(finished)
    record["views"][None]["round"] = -1
    assert failed(audit(record)) == ["the final view of the spectator equals the server's"]


def test_a_game_still_running_is_not_verified(finished: dict[str, Any]) -> None:
    record = copy.deepcopy(finished)
    record["summary"]["status"] = "active"
    result = audit(record)
    assert not result.ok
    assert failed(result) == ["the game is over"]


def test_verify_command_says_a_game_not_over_cannot_be_verified_yet(live_server: str) -> None:
    from click.testing import CliRunner

    from clients.cli.errors import ExitStatus
    from clients.cli.main import cli

    hall = Client(live_server)
    created = hall.create_game("toy", [{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    result = CliRunner().invoke(
        cli, ["verify", created["id"], "--server", live_server], env={"COLUMNS": "200"}
    )
    assert result.exit_code == ExitStatus.NOT_OVER
    assert "NOT OVER" in result.output and "MISMATCH" not in result.output


def test_verify_command_json_lists_every_check(live_server: str, finished: dict[str, Any]) -> None:
    import json

    from click.testing import CliRunner

    from clients.cli.main import cli

    game_id = finished["summary"]["id"]
    result = CliRunner().invoke(cli, ["verify", game_id, "--server", live_server, "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["ok"] is True
    assert report["game_id"] == game_id
    names = [c["check"] for c in report["checks"]]
    assert set(c.name for c in audit(finished).checks) <= set(names)
    seats = len(finished["summary"]["seats"])
    for seat in range(seats):
        assert f"the final view of seat {seat} equals the server's" in names
