"""Over real HTTP (gunicorn) with real rq workers: concurrency, bots, the event feed."""

from __future__ import annotations

import json
import threading

import requests

from engine.codec import canonical_json
from engine.dice import commitment, verify_draws
from engine.games import get_game
from engine.replay import replay
from tests.players import Player, create, play_until_over, wait_for


def race(n: int, fn) -> list:
    """Run ``fn(i)`` in ``n`` threads released at once; return their results."""
    barrier = threading.Barrier(n)
    results: list = [None] * n

    def run(i: int) -> None:
        barrier.wait()
        results[i] = fn(i)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_concurrent_posts_with_one_idempotency_key_make_one_move(live_server, redis_client):
    game = create(live_server, "toy", [{"kind": "human"}, {"kind": "human"}], seed="race-1")
    p0, _ = Player(live_server, game["id"], 0), Player(live_server, game["id"], 1)
    replies = race(12, lambda i: p0.act({"type": "bid", "card": 2}, **{"Idempotency-Key": "same"}))
    assert {r.status_code for r in replies} == {200}
    assert len({canonical_json(r.json()) for r in replies}) == 1
    log = requests.get(f"{live_server}/v1/games/{game['id']}/log", timeout=5).json()
    assert len(log["entries"]) == 2


def test_concurrent_posts_with_one_if_match_make_one_move(live_server, redis_client):
    game = create(live_server, "toy", [{"kind": "human"}, {"kind": "human"}], seed="race-2")
    p0, _ = Player(live_server, game["id"], 0), Player(live_server, game["id"], 1)
    replies = race(
        12,
        lambda i: p0.act(
            {"type": "bid", "card": 1 + i % 4}, **{"If-Match": '"0"', "Idempotency-Key": f"k{i}"}
        ),
    )
    codes = sorted(r.status_code for r in replies)
    assert codes.count(200) == 1, codes
    assert set(codes) == {200, 412}
    log = requests.get(f"{live_server}/v1/games/{game['id']}/log", timeout=5).json()
    assert len(log["entries"]) == 2


def test_seat_token_cannot_act_for_another_seat(live_server, redis_client):
    game = create(live_server, "toy", [{"kind": "human"}, {"kind": "human"}])
    p0, p1 = Player(live_server, game["id"], 0), Player(live_server, game["id"], 1)
    p0.act({"type": "bid", "card": 1})
    # p0's token used again can only ever act as seat 0, which owes nothing now
    reply = p0.act({"type": "bid", "card": 2})
    assert reply.status_code == 422 and reply.json()["rule"] == "not_your_turn"
    assert p1.view()["view"]["bids"][1]["decided"] is False


def test_bots_play_a_game_to_the_end_in_workers(live_server, worker, redis_client):
    game = create(live_server, "toy", [{"kind": "bot", "bot": "random"}] * 3)
    summary = wait_for(live_server, game["id"], lambda s: s["status"] == "over", timeout=60)
    assert summary["result"]["winners"]
    log = requests.get(f"{live_server}/v1/games/{game['id']}/log", timeout=5).json()
    assert commitment(log["seed"]) == game["commitment"]
    moves = [(e["seat"], e["action"]) for e in log["entries"][1:]]
    again = replay(get_game("toy"), 3, log["options"], log["seed"], moves)
    final = requests.get(f"{live_server}/v1/games/{game['id']}/view", timeout=5).json()
    assert get_game("toy").view(again.state, None) == final["view"]
    assert verify_draws(log["seed"], [d for e in log["entries"] for d in e["draws"]]) == []


def test_human_and_bots_over_http_with_long_poll(live_server, worker, redis_client):
    game = create(live_server, "toy", [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}])
    human = Player(live_server, game["id"], 0)
    summary = play_until_over(live_server, [human])
    assert summary["status"] == "over" and len(summary["result"]["scores"]) == 3


def test_sse_stream_resumes_from_last_event_id(live_server, redis_client):
    game = create(live_server, "toy", [{"kind": "human"}, {"kind": "human"}])
    p0, p1 = Player(live_server, game["id"], 0), Player(live_server, game["id"], 1)
    p0.act({"type": "bid", "card": 1})
    url = f"{live_server}/v1/games/{game['id']}/events/stream"

    def read(last: str | None) -> list[dict]:
        headers = {"Last-Event-ID": last} if last else {}
        with requests.get(
            url, params={"once": "1"}, headers=headers, stream=True, timeout=30
        ) as reply:
            assert reply.headers["Content-Type"].startswith("text/event-stream")
            data = [
                json.loads(line[6:])
                for line in reply.text.splitlines()
                if line.startswith("data: ")
            ]
            assert isinstance(data[0], list), "an SSE stream first says what is pending"
            return data[1:]

    first = read(None)
    assert [e["type"] for e in first][:3] == ["game_created", "seat_joined", "seat_joined"]
    p1.act({"type": "bid", "card": 2})
    rest = read(first[-1]["id"])
    assert rest and all(e["id"] > first[-1]["id"] for e in rest)
    assert any(e["type"] == "game_event" and e["event"]["type"] == "round_resolved" for e in rest)


def test_bot_move_answers_are_kept_briefly_client_answers_for_a_day(
    live_server, worker, redis_client
):
    from service.games import SERVICE_ANSWER_TTL

    game = create(live_server, "toy", [{"kind": "human"}, {"kind": "bot"}])
    human = Player(live_server, game["id"], 0)
    wait_for(live_server, game["id"], lambda s: "1" not in s["to_act"], timeout=30)
    human.act({"type": "bid", "card": 1}, **{"Idempotency-Key": "mine"})
    ttls = {
        key: redis_client.ttl(key) for key in redis_client.scan_iter(f"dh:{{{game['id']}}}:idem:*")
    }
    bot_ttls = [ttl for key, ttl in ttls.items() if ":1:bot-" in key]
    assert bot_ttls and all(0 < ttl <= SERVICE_ANSWER_TTL for ttl in bot_ttls)
    assert ttls[f"dh:{{{game['id']}}}:idem:0:mine"] > 3600
