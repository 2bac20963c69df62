"""``dicehall fork`` against the live service, and ``dicehall verify`` of the fork."""

from __future__ import annotations

import json

import pytest

from clients.cli.errors import ExitStatus
from clients.sdk import Client
from tests.clients.test_cli import dicehall, wait_over

pytestmark = pytest.mark.usefixtures("worker")


def finished_game(client: Client) -> dict:
    bots = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    return wait_over(client, client.create_game("kingdice", bots, seed="cli-fork")["id"])


def test_fork_joins_the_human_seats_and_records_the_origin(live_server: str) -> None:
    origin = finished_game(Client(live_server))
    result = dicehall(live_server, "fork", origin["id"], "--at", "4", "--bots", "1", "--json")
    assert result.exit_code == 0, result.output
    printed = json.loads(result.output)
    assert printed["forked_from"] == {"game": origin["id"], "version": 4, "dice": "fresh"}
    assert [seat["seat"] for seat in printed["seats"]] == [0]
    forked = Client(live_server).game(printed["id"])
    assert [seat["kind"] for seat in forked["seats"]] == ["human", "bot"]
    assert forked["status"] == "active"


def test_a_bot_fork_plays_to_the_end_and_verifies_on_this_machine(live_server: str) -> None:
    client = Client(live_server)
    origin = finished_game(client)
    result = dicehall(live_server, "fork", origin["id"], "--at", "5", "--dice", "original")
    assert result.exit_code == 0, result.output
    assert f"forked from {origin['id']} after move 5 (original dice)" in result.output
    fork_id = result.output.split("game ", 1)[1].split()[0]
    wait_over(client, fork_id)
    verified = dicehall(live_server, "verify", fork_id, "--json")
    assert verified.exit_code == 0, verified.output
    assert json.loads(verified.output)["ok"] is True


def test_fork_refuses_more_bots_than_seats(live_server: str) -> None:
    origin = finished_game(Client(live_server))
    result = dicehall(live_server, "fork", origin["id"], "--at", "1", "--bots", "3")
    assert result.exit_code == ExitStatus.USAGE
    assert "has 2 seats" in result.output
