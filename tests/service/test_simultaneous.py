"""Simultaneous decisions never collide, and idempotent retries never lie.

Against real gunicorn instances and rq workers: human seats answer sealed simultaneous
decisions (Burgundy's rounds and castle picks, Diceland's crossing phase) at the same instant
as each other and as the bots, each with ``If-Match`` set to the version it read, and no
answer is refused. The same move posted eight times at once, across two API instances, with
one ``Idempotency-Key`` gets the first answer eight times and makes one move.
"""

from __future__ import annotations

import functools
import random
import threading
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import pytest
import redis
import requests

from service.store import GameStore
from tests.players import Player, create, verify_finished, wait_for

pytestmark = pytest.mark.usefixtures("worker")
T = TypeVar("T")


def at_once(calls: list[Callable[[], T]]) -> list[T]:
    """Run ``calls`` in threads released together by a barrier; their results in order."""
    barrier = threading.Barrier(len(calls))

    def run(call: Callable[[], T]) -> T:
        barrier.wait(timeout=30)
        return call()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


def play_simultaneous(
    base: str, game: str, options: dict[str, Any], seed: str
) -> tuple[int, list[str]]:
    """Play one game with two human seats (0 and 2) and two random bots, the humans posting
    together whenever both owe a decision. Returns the number of simultaneous rounds and the
    problems any human answer got."""
    seats: list[dict[str, Any]] = [
        {"kind": "human"},
        {"kind": "bot", "bot": "random"},
        {"kind": "human"},
        {"kind": "bot", "bot": "random"},
    ]
    game_id = create(base, game, seats, options=options, seed=seed)["id"]
    humans = [Player(base, game_id, 0), Player(base, game_id, 2)]
    rng = random.Random(seed)
    rounds = 0
    refused: list[Any] = []
    while True:
        summary = wait_for(
            base,
            game_id,
            lambda s: s["status"] == "over" or any(str(p.seat) in s["to_act"] for p in humans),
        )
        if summary["status"] == "over":
            audit = verify_finished(base, game_id)
            assert audit.ok, [c.name for c in audit.checks if not c.ok]
            return rounds, refused
        reads = [(p, p.get("legal-actions")) for p in humans if str(p.seat) in summary["to_act"]]
        reads = [(p, legal) for p, legal in reads if legal["actions"]]
        if not reads:
            continue
        replies = at_once(
            [
                functools.partial(
                    p.act,
                    rng.choice(legal["actions"])["action"],
                    **{"If-Match": f'"{legal["version"]}"'},
                )
                for p, legal in reads
            ]
        )
        refused += [f"{r.status_code} {r.text[:160]}" for r in replies if r.status_code != 200]
        rounds += len(replies) >= 2


def post_answer(url: str, action: Any, headers: dict[str, str]) -> tuple[int, Any]:
    reply = requests.post(url, json={"action": action}, headers=headers, timeout=30)
    return reply.status_code, reply.json()


@pytest.mark.parametrize(
    ("game", "options", "target"),
    [("burgundy", {}, 50), ("diceland", {}, 50)],
)
def test_humans_answering_at_once_are_never_refused(
    live_server: str, game: str, options: dict[str, Any], target: int
) -> None:
    """Rule of the contract: a seat's If-Match names its own decision; other seats' sealed
    choices never make it stale (0 of the simultaneous answers refused)."""
    rounds, games = 0, 0
    refused: list[Any] = []
    while rounds < target:
        played, problems = play_simultaneous(live_server, game, options, f"{game}-sim-{games}")
        rounds, refused, games = rounds + played, refused + problems, games + 1
    print(f"{game}: {rounds} simultaneous rounds in {games} games, {len(refused)} refused")
    assert refused == [], f"{len(refused)} answers refused in {rounds} rounds: {refused[:3]}"
    assert rounds >= target


def test_one_idempotency_key_posted_eight_times_across_two_instances_moves_once(
    live_server: str, second_live_server: str, redis_client: redis.Redis
) -> None:
    """200 rounds of 8 parallel posts with one key, 4 to each API instance: every answer is
    the first answer, the game moves exactly once per round, nothing is counted as illegal."""
    store = GameStore(redis_client)
    bases = [live_server, second_live_server] * 4
    rng = random.Random(11)
    rounds, games = 0, []
    while rounds < 200:
        game_id = create(live_server, "carcassonne", [{"kind": "human"}], seed=f"idem-{rounds}")[
            "id"
        ]
        games.append(game_id)
        player = Player(live_server, game_id, 0)
        summary = wait_for(live_server, game_id, lambda s: s["status"] == "active")
        while summary["status"] != "over" and rounds < 200:
            legal = player.get("legal-actions")
            action = rng.choice(legal["actions"])["action"]
            headers = {
                **player.headers,
                "If-Match": f'"{legal["version"]}"',
                "Idempotency-Key": str(uuid.uuid4()),
            }
            answers = at_once(
                [
                    functools.partial(
                        post_answer, f"{base}/v1/games/{game_id}/actions", action, headers
                    )
                    for base in bases
                ]
            )
            assert all(a == answers[0] for a in answers), [a[0] for a in answers]
            assert answers[0][0] == 200, answers[0]
            summary = requests.get(f"{live_server}/v1/games/{game_id}", timeout=10).json()
            assert summary["version"] == legal["version"] + 1, "one move per round"
            rounds += 1
    for game_id in games:
        log = requests.get(f"{live_server}/v1/games/{game_id}/log", timeout=10).json()
        assert [e["version"] for e in log["entries"]] == list(range(log["version"] + 1))
        assert store.stats(game_id, 1)[0]["illegal"] == 0


def test_the_same_key_with_another_action_is_refused(live_server: str) -> None:
    game_id = create(live_server, "carcassonne", [{"kind": "human"}], seed="reuse")["id"]
    player = Player(live_server, game_id, 0)
    wait_for(live_server, game_id, lambda s: s["status"] == "active")
    first, second = player.legal()[:2]
    key = {"Idempotency-Key": "same-key"}
    assert player.act(first, **key).status_code == 200
    reused = player.act(second, **key)
    assert reused.status_code == 422
    assert reused.json()["code"] == "idempotency_key_reused"
    assert player.act(first, **key).json()["version"] == 1, "the first answer, again"


def test_a_stale_if_match_says_whose_decision_changed(live_server: str) -> None:
    """412 only when the seat's own decision changed, and the answer says so."""
    game_id = create(live_server, "carcassonne", [{"kind": "human"}], seed="stale")["id"]
    player = Player(live_server, game_id, 0)
    wait_for(live_server, game_id, lambda s: s["status"] == "active")
    legal = player.get("legal-actions")
    assert legal["decision"] == 0
    assert player.act(legal["actions"][0]["action"], **{"If-Match": '"0"'}).status_code == 200
    now = player.get("legal-actions")
    stale = player.act(now["actions"][0]["action"], **{"If-Match": '"0"'})
    assert stale.status_code == 412
    body = stale.json()
    assert body["decision"] == now["decision"] == 1
    assert "decision changed at version 1" in body["detail"]
    assert body["current"]["version"] == 1
