"""Two hundred clients waiting on long-polls do not stop the service from taking moves.

gunicorn runs gevent workers (deploy/gunicorn.conf.py): a waiting long-poll is a parked
greenlet, not a busy thread, so moves are served while the waiters are still waiting.
"""

from __future__ import annotations

import threading

import requests

from tests.players import Player, create

WAITERS = 200


def test_moves_are_taken_while_two_hundred_long_polls_wait(live_server, redis_client):
    quiet = create(live_server, "toy", [{"kind": "human"}, {"kind": "human"}])
    events_url = f"{live_server}/v1/games/{quiet['id']}/events"
    cursor = requests.get(events_url, timeout=10).json()["cursor"]
    returned: list[int] = []

    def wait() -> None:
        reply = requests.get(events_url, params={"after": cursor, "wait": 25}, timeout=60)
        returned.append(reply.status_code)

    waiters = [threading.Thread(target=wait, daemon=True) for _ in range(WAITERS)]
    for thread in waiters:
        thread.start()
    busy = create(live_server, "toy", [{"kind": "human"}, {"kind": "human"}])
    p0, p1 = Player(live_server, busy["id"], 0), Player(live_server, busy["id"], 1)
    moves = 0
    for card in (1, 2, 3, 4):
        for player in (p0, p1):
            reply = player.act({"type": "bid", "card": card})
            assert reply.status_code == 200, reply.text
            moves += 1
    assert moves == 8
    assert returned == [], "the waiters should still be waiting while the moves were taken"
    for thread in waiters:
        thread.join(40)
    assert returned.count(200) == WAITERS
