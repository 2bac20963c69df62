"""Decision notices carry everything needed to answer: an external bot answers with one POST.

``decision_due`` notices in the account feed, the game feed and ``pending`` lists carry the
seat's view, its legal actions with their texts, the decision id for ``If-Match``, the
deadline and the seat's measured round trip for its previous decision.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
import redis
import requests

from service.accounts import AccountStore
from tests.conftest import ROOT, gunicorn_server, wait_until
from tests.players import Player, create, wait_for

pytestmark = pytest.mark.usefixtures("worker")


def register(base: str, name: str) -> dict[str, Any]:
    reply = requests.post(f"{base}/v1/bots", json={"name": name, "owner": "tests"}, timeout=5)
    assert reply.status_code == 201, reply.text
    return reply.json()


def feed(base: str, token: str, **params: Any) -> dict[str, Any]:
    reply = requests.get(
        f"{base}/v1/bots/me/feed",
        params=params,
        headers={"Authorization": f"Bearer {token}"},
        timeout=40,
    )
    assert reply.ok, reply.text
    return reply.json()


def test_a_notice_holds_the_view_the_actions_and_the_decision(live_server: str) -> None:
    account = register(live_server, "reader")
    seats = [{"kind": "external", "account": account["id"]}]
    game_id = create(live_server, "carcassonne", seats, seed="notice")["id"]
    (notice,) = feed(live_server, account["token"])["pending"]
    assert notice["current"] is True
    assert notice["decision"] == 0 and notice["last_round_trip"] is None
    assert notice["view"]["seats"] == 1
    assert notice["actions"] and all(item["text"] for item in notice["actions"])
    answer = requests.post(
        f"{live_server}/v1/games/{game_id}/actions",
        json={"action": notice["actions"][0]["action"]},
        headers={"Authorization": f"Bearer {account['token']}", "If-Match": '"0"'},
        timeout=10,
    )
    assert answer.status_code == 200, answer.text
    (after,) = feed(live_server, account["token"])["pending"]
    assert after["decision"] == 1
    assert after["last_round_trip"] is not None and after["last_round_trip"] >= 0
    # the feed's own notice of that decision, completed from the same reads
    events = feed(live_server, account["token"], after="0")["events"]
    (event,) = [e for e in events if e["type"] == "decision_due" and e["decision"] == 1]
    assert event["current"] is True and event["last_round_trip"] == after["last_round_trip"]
    compact = feed(live_server, account["token"], detail="compact")["pending"][0]
    assert compact["actions"] and all("text" not in item for item in compact["actions"])
    bare = feed(live_server, account["token"], detail="none")["pending"][0]
    assert "actions" not in bare and "view" not in bare and bare["decision"] == 1


def test_an_answered_notice_is_no_longer_current(live_server: str) -> None:
    account = register(live_server, "late")
    seats = [{"kind": "external", "account": account["id"]}]
    game_id = create(live_server, "carcassonne", seats, seed="stale-notice")["id"]
    first = feed(live_server, account["token"], after="0")
    started = [e for e in first["events"] if e["type"] == "decision_due"]
    requests.post(
        f"{live_server}/v1/games/{game_id}/actions",
        json={"action": first["pending"][0]["actions"][0]["action"]},
        headers={"Authorization": f"Bearer {account['token']}"},
        timeout=10,
    ).raise_for_status()
    again = feed(live_server, account["token"], after="0")
    old = [e for e in again["events"] if e["type"] == "decision_due" and e["decision"] == 0]
    assert started and old and old[0]["current"] is False and "actions" not in old[0]


def test_the_game_feed_tells_a_seat_its_decision(live_server: str) -> None:
    game_id = create(
        live_server, "carcassonne", [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    )["id"]
    player = Player(live_server, game_id, 0)
    summary = wait_for(live_server, game_id, lambda s: "0" in s["to_act"])
    events = player.get("events", after="0")
    due = [e for e in events["events"] if e["type"] == "decision_due"]
    assert due and due[-1]["decision"] == summary["to_act"]["0"]["decision"]
    assert due[-1]["actions"] == player.get("legal-actions")["actions"]
    assert events["pending"][0]["view"] == player.view()["view"]
    spectator = requests.get(f"{live_server}/v1/games/{game_id}/events", timeout=10).json()
    assert not [e for e in spectator["events"] if e["type"] == "decision_due"]


def test_an_external_bot_process_makes_one_request_per_decision(
    redis_url: str, live_server: str, tmp_path: Path
) -> None:
    """A real ``dicehall bot run`` process plays a whole game against a dedicated API whose
    access log records every request it makes: one POST per decision, no reads of views or
    legal actions, one feed read per notification."""
    log = tmp_path / "access.log"
    extra = ["--access-logfile", str(log), "--access-logformat", "%(m)s %(U)s %(s)s"]
    account = register(live_server, "counted")
    seats = [{"kind": "external", "account": account["id"]}, {"kind": "bot", "bot": "heuristic"}]
    with gunicorn_server(redis_url, workers=1, extra=extra) as bot_api:
        game_id = create(live_server, "carcassonne", seats, seed="counted")["id"]
        strategy = "engine.carcassonne.bots:HeuristicBot"
        bot = subprocess.run(
            [
                *(sys.executable, "-m", "clients.cli", "bot", "run", "--server", bot_api),
                *("--token", account["token"], "--games", "1", "--quiet", "--strategy", strategy),
            ],
            capture_output=True,
            text=True,
            timeout=240,
            cwd=ROOT,
        )
        assert bot.returncode == 0, bot.stderr
    entries = requests.get(f"{live_server}/v1/games/{game_id}/log", timeout=10).json()["entries"]
    decisions = [e for e in entries if e["seat"] == 0]
    assert decisions and not any(e["fallback"] for e in decisions)
    kinds = Counter(
        re.sub(r"/v1/games/\w+/", "/v1/games/ID/", " ".join(line.split()[:2]))
        for line in log.read_text().splitlines()
    )
    print(f"{len(decisions)} decisions: {dict(kinds)}")
    assert kinds["POST /v1/games/ID/actions"] == len(decisions)
    assert kinds["GET /v1/games/ID/view"] == kinds["GET /v1/games/ID/legal-actions"] == 0
    # the feed is one SSE stream the server pushes notices on: no polling requests
    assert kinds["GET /v1/bots/me/feed/stream"] == 1
    assert kinds["GET /v1/bots/me/feed"] == 0


def test_a_waiting_feed_read_is_woken_by_the_notice_not_by_its_timeout(redis_url: str) -> None:
    """An account's feed waits in a blocking XREAD on its stream (no poll interval): a read
    blocked for a minute returns the notice written while it waits, long before that."""
    name = "feed-reader-" + uuid.uuid4().hex[:8]
    accounts = AccountStore(
        redis.Redis.from_url(redis_url, decode_responses=True, client_name=name)
    )
    account, _ = accounts.register("woken", "tests")
    after = accounts.last_feed_id(account.id)
    got: list[tuple[str, dict[str, Any]]] = []
    reader = threading.Thread(
        target=lambda: got.extend(accounts.read_feed(account.id, after, 60_000))
    )
    reader.start()
    watcher = redis.Redis.from_url(redis_url, decode_responses=True)

    def blocked_in_xread() -> bool:
        mine = [c for c in watcher.client_list() if c.get("name") == name]
        return any(c["cmd"] == "xread" and "b" in c["flags"] for c in mine)

    wait_until(blocked_in_xread, 10, "the feed read to block in Redis (XREAD BLOCK)")
    accounts.notify(account.id, {"type": "decision_due", "game_id": "g", "seat": 0, "decision": 3})
    reader.join(30)
    assert not reader.is_alive(), (
        "the read still waits out its 60 s block: the notice did not wake it"
    )
    assert [event["decision"] for _, event in got] == [3]


def test_the_bot_stream_pushes_a_decision_that_falls_due_while_it_waits(live_server: str) -> None:
    """The account's SSE stream, opened before the game exists, delivers the game's
    ``decision_due`` notice (completed) as soon as it is written: after ``pending`` come the
    game's start and the notice, with no heartbeat (15 s) in between."""
    account = register(live_server, "pushed")
    headers = {"Authorization": f"Bearer {account['token']}", "Accept": "text/event-stream"}
    url = f"{live_server}/v1/bots/me/feed/stream"
    with requests.get(url, headers=headers, stream=True, timeout=(5, 60)) as stream:
        # text/event-stream; charset=utf-8: requests decodes every line to str
        lines = cast("Iterator[str]", stream.iter_lines(chunk_size=65536, decode_unicode=True))
        assert next(line for line in lines if line.startswith("event:")) == "event: pending"
        seats = [{"kind": "external", "account": account["id"]}]
        game_id = create(live_server, "carcassonne", seats, seed="pushed")["id"]
        before: list[str] = []
        for line in lines:
            if line.startswith("data:") and '"decision_due"' in line:
                notice = json.loads(line.removeprefix("data:"))
                break
            before.append(line)
    assert ": heartbeat" not in before
    assert "event: game_started" in before
    assert notice["game_id"] == game_id and notice["current"] is True
    assert notice["decision"] == 0 and notice["view"]["seats"] == 1 and notice["actions"]


def test_an_account_is_refused_a_second_seat_of_one_game(live_server: str, redis_client) -> None:
    """Its token opens one seat of a game: a second seat would owe decisions nobody can make
    (a game, or a tournament, stalled for good). Nothing is created."""
    account = register(live_server, "twice")
    seats = [{"kind": "external", "account": account["id"]}] * 2
    before = requests.get(f"{live_server}/v1/games", params={"limit": 100}, timeout=5).json()
    body: dict[str, Any] = {"game": "toy", "seats": seats, "visibility": "public"}
    game = requests.post(f"{live_server}/v1/games", json=body, timeout=10)
    assert game.status_code == 422 and game.json()["code"] == "invalid_seats", game.text
    entrants = [{"name": name, "account": account["id"]} for name in ("a", "b")]
    body = {"game": "toy", "participants": entrants, "games": 1}
    tournament = requests.post(f"{live_server}/v1/tournaments", json=body, timeout=10)
    assert tournament.status_code == 422, tournament.text
    assert tournament.json()["code"] == "invalid_participant"
    after = requests.get(f"{live_server}/v1/games", params={"limit": 100}, timeout=5).json()
    assert after == before
    assert requests.get(f"{live_server}/v1/tournaments", timeout=5).json()["tournaments"] == []
