"""SIGTERM lets work finish: open long-polls answer at once (empty, with their cursor), SSE
streams end with a retry hint, and a worker finishes the job in hand."""

from __future__ import annotations

import signal
import threading
import time
from typing import Any

import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families

from tests.conftest import wait_until
from tests.faults.conftest import Progress, Stack
from tests.players import create

LONG_POLLS = 20
STREAMS = 20


def in_flight(base: str) -> dict[str, float]:
    text = requests.get(f"{base}/metrics", timeout=10).text
    return {
        s.labels["route"]: s.value
        for family in text_string_to_metric_families(text)
        if family.name == "dicehall_http_requests_in_flight"
        for s in family.samples
    }


@pytest.mark.fault
def test_sigterm_gives_every_long_poll_and_stream_its_last_answer(stack: Stack) -> None:
    api = stack.start_api()
    base = stack.base
    game = create(base, "toy", [{"kind": "human"}, {"kind": "human"}])
    cursor = requests.get(f"{base}/v1/games/{game['id']}/events", timeout=10).json()["cursor"]
    polls: list[dict[str, Any]] = []
    streams: list[str] = []
    done = threading.Event()

    def long_poll() -> None:
        reply = requests.get(
            f"{base}/v1/games/{game['id']}/events",
            params={"after": cursor, "wait": 30},
            timeout=60,
        )
        polls.append({"status": reply.status_code, **reply.json(), "at": time.monotonic()})

    def stream() -> None:
        with requests.get(
            f"{base}/v1/games/{game['id']}/events/stream",
            headers={"Last-Event-ID": cursor},
            stream=True,
            timeout=60,
        ) as reply:
            text = reply.text
        streams.append(text)

    threads = [threading.Thread(target=long_poll) for _ in range(LONG_POLLS)]
    threads += [threading.Thread(target=stream) for _ in range(STREAMS)]
    for thread in threads:
        thread.start()
    events_route = "/v1/games/<string:game_id>/events"
    wait_until(
        lambda: (
            in_flight(base).get(events_route) == LONG_POLLS
            and in_flight(base).get(f"{events_route}/stream") == STREAMS
        ),
        30,
        f"{LONG_POLLS} long-polls and {STREAMS} streams open",
    )
    api.send_signal(signal.SIGTERM)
    asked = time.monotonic()
    for thread in threads:
        thread.join(30)
    done.set()
    took = time.monotonic() - asked
    assert len(polls) == LONG_POLLS and len(streams) == STREAMS, stack.tail()
    for poll in polls:
        assert poll["status"] == 200
        assert poll["events"] == [] and poll["cursor"] == cursor
    for text in streams:
        assert text.startswith("retry: 2000")
        assert text.rstrip().endswith("reconnect with Last-Event-ID"), text[-200:]
        assert "retry: 1000" in text
    latest = max(poll["at"] for poll in polls) - asked
    print(
        f"{LONG_POLLS} long-polls answered within {latest:.1f} s of SIGTERM, "
        f"{STREAMS} streams ended, all within {took:.1f} s"
    )
    assert api.wait(30) == 0


@pytest.mark.fault
def test_sigterm_lets_a_worker_finish_the_job_in_hand(stack: Stack) -> None:
    service = stack.service()
    record, _, _ = service.create(
        "carcassonne", [{"kind": "bot", "bot": "heuristic"}], {}, seed="solo-sigterm"
    )
    worker = stack.start_worker()
    victim, game_id = stack.worker_doing_a_job()
    assert victim is worker and game_id == record.id
    worker.send_signal(signal.SIGTERM)
    assert worker.wait(180) == 0, stack.tail()  # a whole solo game, on a busy machine
    # a solo game is one job: the worker played it to the end before it stopped
    Progress(service, [record.id]).wait_all_over(timeout=1)
