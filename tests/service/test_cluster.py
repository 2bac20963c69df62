"""Game state on a real Redis Cluster (three masters, a replica each) with rq's queues on a
plain Redis (issue 14): every transaction and script stays in one slot (the cluster refuses
anything else with CROSSSLOT), global indexes are sharded, bot jobs are enqueued after the
game's commit on the other Redis, and the sweep repairs a crash between the two."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

import pytest
from rq import SimpleWorker

from service.app import create_app
from service.config import Settings
from service.runtime import game_service, queue_for
from service.sweep import BOT_GRACE, Sweep
from service.tournaments import TournamentRunner
from tests.redis_servers import cluster, plain

QUEUE = "dicehall-cluster-test"


@pytest.fixture(scope="module")
def settings() -> Iterator[Settings]:
    with cluster() as game_state, plain() as queues:
        wanted = {
            "REDIS_URL": game_state.url,
            "DICEHALL_QUEUE_URL": queues.url,
            "DICEHALL_QUEUE": QUEUE,
            "DICEHALL_MIN_REPLICAS": "1",
        }
        saved = {name: os.environ.get(name) for name in wanted}
        os.environ.update(wanted)  # the jobs read their settings there, as in a worker
        try:
            yield Settings()
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value


def work(settings: Settings) -> None:
    """Run the queued jobs (and the ones they enqueue) in this process."""
    queue = queue_for(settings)
    SimpleWorker([queue], connection=queue.connection).work(burst=True)


def test_a_game_with_a_human_and_a_bot_is_played_over_http_on_a_cluster(settings) -> None:
    client = create_app({"TESTING": True, "DICEHALL": settings}).test_client()
    assert client.get("/v1/health/ready").status_code == 200
    created = client.post(
        "/v1/games",
        json={"game": "toy", "seats": [{"kind": "human"}, {"kind": "bot"}], "visibility": "public"},
    ).get_json()
    game_id = created["id"]
    token = client.post(f"/v1/games/{game_id}/seats/0/join", json={"name": "h"}).get_json()[
        "seat_token"
    ]
    headers = {"Authorization": f"Bearer {token}"}
    for n in range(100):
        game = client.get(f"/v1/games/{game_id}", headers=headers).get_json()
        if game["status"] == "over":
            break
        legal = client.get(f"/v1/games/{game_id}/legal-actions", headers=headers).get_json()
        if not legal.get("actions"):
            work(settings)  # the bot owes
            continue
        action = legal["actions"][0]["action"]
        moved = client.post(
            f"/v1/games/{game_id}/actions",
            json={"action": action},
            headers={**headers, "Idempotency-Key": f"m{n}"},
        )
        assert moved.status_code == 200, moved.get_json()  # WAIT reached the replica
    assert game["status"] == "over"
    assert game_id in [g["id"] for g in client.get("/v1/games").get_json()["games"]]
    assert client.get(f"/v1/games/{game_id}/verification").status_code == 200


def test_accounts_and_a_tournament_need_no_cross_slot_transaction(settings) -> None:
    service = game_service(settings)
    account, token = service.accounts.register("ext", "tests")
    assert service.accounts.by_token(token) == account
    runner = TournamentRunner(settings, service)
    spec: dict[str, Any] = {
        "game": "toy",
        "participants": [{"name": "a", "bot": "random"}, {"name": "b", "bot": "random"}],
        "games": 2,
    }
    tournament = runner.create(spec)
    assert tournament.id in [t.id for t in runner.recent(0, 50)]
    for _ in range(10):
        work(settings)
        if runner.load(tournament.id).status == "finished":
            break
        runner.tick(tournament.id, False)
    assert runner.load(tournament.id).status == "finished"


def test_the_sweep_enqueues_a_bot_job_lost_between_the_commit_and_the_enqueue(settings) -> None:
    service = game_service(settings)
    queue = queue_for(settings)
    queue.empty()
    record, _, _ = service.create("toy", [{"kind": "bot"}] * 2, {}, seed="lost")
    queue.empty()  # the process died after the game's commit, before its jobs were sent
    report = Sweep(service, settings).run(now=time.time() + BOT_GRACE + 1)
    assert sorted(seat for game_id, seat in report.enqueued if game_id == record.id) == [0, 1]
    work(settings)
    finished = service.store.load(record.id)
    assert finished is not None and finished.status.value == "over"
