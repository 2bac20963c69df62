"""``dicehall bot`` and ``dicehall tournament`` against the live service and real workers."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import requests
from click.testing import CliRunner, Result

from clients.cli.bot_runner import BotRunner
from clients.cli.errors import ExitStatus
from clients.cli.main import cli
from clients.sdk import Client
from clients.strategies import load_strategy, pick
from tests.conftest import wait_until

pytestmark = pytest.mark.usefixtures("worker")


def dicehall(server: str, *args: str) -> Result:
    env = {"DICEHALL_URL": server, "DICEHALL_TOKEN": None, "COLUMNS": "200"}
    return CliRunner().invoke(cli, list(args), env=env)


def register(server: str, name: str) -> tuple[str, str]:
    result = dicehall(server, "bot", "register", name, "--owner", "tests@dicehall.dev")
    assert result.exit_code == 0, result.output
    account = re.search(r"bot account (\S+)", result.output)
    token = re.search(r"token (\S+)", result.output)
    assert account and token
    return account.group(1), token.group(1)


def run_bot(server: str, token: str, strategy: str, games: int = 1, quiet: bool = False) -> Result:
    """``dicehall bot run`` for the account of ``token`` until ``games`` games end."""
    args = ["bot", "run", "--token", token, "--strategy", strategy]
    args += ["--games", str(games)] + (["--quiet"] if quiet else [])
    return dicehall(server, *args)


def game_against_random(server: str, account: str) -> str:
    seats = [{"kind": "external", "account": account}, {"kind": "bot", "bot": "random"}]
    return Client(server).create_game("toy", seats)["id"]


def seat_zero_bids(server: str, game_id: str) -> list[int]:
    log = Client(server).log(game_id)
    return [e["action"]["card"] for e in log["entries"] if e["seat"] == 0]


def test_bot_run_plays_its_seat_to_the_end_with_the_first_strategy(live_server: str) -> None:
    account, token = register(live_server, "firstbot")
    game_id = game_against_random(live_server, account)
    result = run_bot(live_server, token, "first")
    assert result.exit_code == 0, result.output
    assert f"game {game_id} over" in result.output
    assert Client(live_server).game(game_id)["status"] == "over"
    assert seat_zero_bids(live_server, game_id) == [1, 2, 3, 4]


def test_bot_run_loads_a_user_strategy_module(
    live_server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "highest_bid.py").write_text("def choose(view, actions):\n    return actions[-1]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    account, token = register(live_server, "highbot")
    game_id = game_against_random(live_server, account)
    result = run_bot(live_server, token, "highest_bid:choose", quiet=True)
    assert result.exit_code == 0, result.output
    assert seat_zero_bids(live_server, game_id) == [4, 3, 2, 1]


def test_bot_run_stops_when_idle(live_server: str) -> None:
    _, token = register(live_server, "idlebot")
    result = dicehall(live_server, "bot", "run", "--token", token, "--idle", "1")
    assert result.exit_code == 0, result.output
    assert "idle for 1 s; 0 games finished" in result.output


def test_bot_run_needs_a_token_and_a_valid_strategy(live_server: str) -> None:
    assert dicehall(live_server, "bot", "run").exit_code == ExitStatus.USAGE
    _, token = register(live_server, "badbot")
    result = dicehall(live_server, "bot", "run", "--token", token, "--strategy", "nomodule")
    assert result.exit_code == ExitStatus.USAGE
    assert "module:function" in result.output


def test_strategies_pick_by_index_or_action() -> None:
    actions = [{"action": {"type": "bid", "card": c}, "text": f"bid {c}"} for c in (1, 2, 3)]
    assert pick(load_strategy("first")({}, actions), actions) == {"type": "bid", "card": 1}
    assert pick({"type": "bid", "card": 3}, actions) == {"type": "bid", "card": 3}
    assert pick(actions[1], actions) == {"type": "bid", "card": 2}
    chosen = [pick(load_strategy("random", seed=7)({}, actions), actions) for _ in range(3)]
    again = [pick(load_strategy("random", seed=7)({}, actions), actions) for _ in range(3)]
    assert chosen == again
    with pytest.raises(ValueError, match="outside"):
        pick(3, actions)
    with pytest.raises(ValueError, match="index or an action"):
        pick("bid", actions)


def test_tournament_start_follows_to_the_standings_and_show_lists_games(
    live_server: str, tmp_path: Path
) -> None:
    chart = tmp_path / "ratings.svg"
    result = dicehall(
        live_server,
        "tournament",
        "start",
        "toy",
        "--bot",
        "random",
        "--bot",
        "random",
        "--games",
        "4",
        "--seed",
        "cli-test",
        "--poll",
        "0.2",
        "--chart",
        str(chart),
    )
    assert result.exit_code == 0, result.output
    tournament_id = re.search(r"tournament (\S+) \(", result.output)
    assert tournament_id
    assert "random-2" in result.output
    assert chart.read_text().startswith("<svg") and "random-2" in chart.read_text()
    assert "seed cli-test" in result.output
    shown = dicehall(live_server, "tournament", "show", tournament_id.group(1), "--games")
    assert shown.exit_code == 0, shown.output
    assert "4/4 games finished" in shown.output
    game_ids = re.findall(r"(" + re.escape(tournament_id.group(1)) + r"-\d+)", shown.output)
    assert len(set(game_ids)) == 4
    verdict = dicehall(live_server, "verify", game_ids[0])
    assert verdict.exit_code == 0, verdict.output


def test_tournament_needs_two_entrants(live_server: str) -> None:
    result = dicehall(live_server, "tournament", "start", "toy", "--bot", "random")
    assert result.exit_code == ExitStatus.USAGE
    assert "two entrants" in result.output


def test_bot_feed_stream_starts_with_what_the_bot_owes(live_server: str) -> None:
    account, token = register(live_server, "streambot")
    game_id = game_against_random(live_server, account)
    stream = Client(live_server, token).stream_bot_feed()
    first = next(stream)
    stream.close()
    assert first.event == "pending"
    assert [(due["game_id"], due["seat"]) for due in first.data] == [(game_id, 0)]


def test_tournament_with_an_external_bot_run_by_the_cli(live_server: str) -> None:
    account, token = register(live_server, "entrant")
    started = dicehall(
        live_server,
        "tournament",
        "start",
        "toy",
        "--bot",
        "random",
        "--account",
        f"{account}=entrant",
        "--games",
        "2",
        "--no-wait",
    )
    assert started.exit_code == 0, started.output
    tournament_id = re.search(r"tournament (\S+) \(", started.output)
    assert tournament_id
    ran = run_bot(live_server, token, "first", games=2, quiet=True)
    assert ran.exit_code == 0, ran.output
    hall = Client(live_server)
    wait_until(
        lambda: hall.tournament(tournament_id.group(1))["status"] != "running",
        30,
        f"tournament {tournament_id.group(1)} to finish",
    )
    shown = dicehall(live_server, "tournament", "show", tournament_id.group(1))
    assert "entrant" in shown.output
    standing = {s["name"]: s for s in hall.tournament(tournament_id.group(1))["standings"]}
    assert standing["entrant"]["games"] == 2
    assert standing["entrant"]["illegal_actions"] == 0


def test_bot_run_counts_only_games_that_end_during_the_run(live_server: str) -> None:
    account, token = register(live_server, "twicebot")
    game_against_random(live_server, account)
    first = run_bot(live_server, token, "first", quiet=True)
    assert first.exit_code == 0, first.output
    second_game = game_against_random(live_server, account)
    again = run_bot(live_server, token, "first", quiet=True)
    assert again.exit_code == 0, again.output
    assert f"game {second_game} over" in again.output
    assert Client(live_server).game(second_game)["status"] == "over"


def test_bot_run_plays_a_search_bot_as_an_external_bot(
    live_server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "quick_search.py").write_text(
        "from engine.kingdice.search import KingdiceSearchBot\n\n\n"
        "class QuickSearch(KingdiceSearchBot):\n"
        "    def __init__(self):\n"
        "        super().__init__(iterations=3)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    account, token = register(live_server, "searchbot")
    seats = [{"kind": "external", "account": account}, {"kind": "bot", "bot": "heuristic"}]
    game_id = Client(live_server).create_game("kingdice", seats)["id"]
    result = run_bot(live_server, token, "quick_search:QuickSearch", quiet=True)
    assert result.exit_code == 0, result.output
    summary = Client(live_server).game(game_id)
    assert summary["status"] == "over"
    log = Client(live_server).log(game_id)
    assert not any(e.get("fallback") for e in log["entries"] if e["seat"] == 0)


def test_a_strategy_module_in_the_current_directory_loads_without_pythonpath(
    tmp_path, monkeypatch
) -> None:
    (tmp_path / "mybot_here.py").write_text("def choose(view, actions):\n    return 1\n")
    monkeypatch.chdir(tmp_path)
    actions = [{"action": {"type": "bid", "card": c}, "text": f"bid {c}"} for c in (1, 2)]
    strategy = load_strategy("mybot_here:choose")
    assert pick(strategy({}, actions), actions) == {"type": "bid", "card": 2}
    assert str(tmp_path) not in sys.path, "the directory is added only while importing"


def test_match_via_the_service_plays_an_external_account_on_mirrored_deals(
    live_server: str,
) -> None:
    """``dicehall match --via``: every deal's games are created on the service with the deal's
    seed and the seats rotated; the external account's bot (a child ``dicehall bot run``)
    plays A's seats, a worker plays B's."""
    account, token = register(live_server, "matchbot")
    args = ["bot", "run", "--token", token, "--strategy", "first", "--games", "4", "--wait", "2"]
    env = {**os.environ, "DICEHALL_URL": live_server}
    env.pop("DICEHALL_TOKEN", None)
    with subprocess.Popen(
        [sys.executable, "-m", "clients.cli", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    ) as bot:
        match = dicehall(
            live_server,
            *("match", "toy", f"account:{account}", "random", "--via", live_server),
            *("--max-pairs", "2", "--min-pairs", "2", "--seed", "via", "--json"),
        )
        out, _ = bot.communicate(timeout=60)
    assert match.exit_code == 0, match.output
    report = json.loads(match.output)
    assert (report["pairs"], report["games"]) == (2, 4)
    assert bot.returncode == 0, out
    games = re.findall(r"game (\S+) over", out)
    assert len(games) == 4, out
    hall = Client(live_server)
    seeds = [hall.log(game_id)["seed"] for game_id in games]
    assert len(set(seeds)) == 2, "each deal's two games share its seed"
    seats = [hall.game(game_id)["seats"] for game_id in games]
    assert sorted(
        next(n for n, s in enumerate(table) if s["kind"] == "external") for table in seats
    ) == [0, 0, 1, 1]


def test_match_names_an_account_only_through_a_service() -> None:
    result = CliRunner().invoke(cli, ["match", "toy", "account:someone", "random"])
    assert result.exit_code == 2
    assert "--via" in result.output
    result = CliRunner().invoke(
        cli, ["match", "toy", "engine.contract:RandomBot", "random", "--via", "http://x"]
    )
    assert result.exit_code == 2
    assert "account:NAME" in result.output


def test_tournament_start_sets_a_time_bank(live_server: str) -> None:
    started = dicehall(
        live_server,
        *("tournament", "start", "toy", "--bot", "random", "--bot", "random"),
        *("--games", "2", "--time-bank", "30+1.5", "--no-wait"),
    )
    assert started.exit_code == 0, started.output
    tournament_id = re.search(r"tournament (\S+) \(", started.output)
    assert tournament_id
    found = Client(live_server).tournament(tournament_id.group(1))
    assert found["time_bank"] == {"start": 30.0, "increment": 1.5}
    bad = dicehall(
        live_server,
        *("tournament", "start", "toy", "--bot", "random", "--bot", "random", "--time-bank", "x"),
    )
    assert bad.exit_code == 2 and "START+INC" in bad.output


def test_bot_run_asks_for_minimal_answers_to_its_moves(live_server: str) -> None:
    # The runner's strategies read each decision's view from its notice, never from a move's
    # answer: every move it posts asks for the minimal answer, and the service applies it.
    account, token = register(live_server, "minimalbot")
    game_id = game_against_random(live_server, account)
    moves: list[requests.Response] = []
    session = requests.Session()
    session.hooks["response"].append(
        lambda reply, *args, **kwargs: (
            moves.append(reply)
            if reply.request.method == "POST" and reply.request.path_url.endswith("/actions")
            else None
        )
    )
    runner = BotRunner(
        Client(live_server, token, session=session), load_strategy("first"), quiet=True, parallel=1
    )
    runner.run(max_games=1, idle=60)
    assert Client(live_server).game(game_id)["status"] == "over"
    assert len(moves) == 4, [m.status_code for m in moves]
    for reply in moves:
        assert reply.request.headers["Prefer"] == "return=minimal"
        assert reply.headers["Preference-Applied"] == "return=minimal"
        assert reply.json()["view"] is None
