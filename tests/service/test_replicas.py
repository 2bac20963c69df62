"""``DICEHALL_MIN_REPLICAS``: a move is answered only once that many replicas hold it
(``WAIT``); with fewer, ``503 not_replicated`` (the move stands), and a retry with the same
``Idempotency-Key`` returns the stored first answer once it is replicated."""

from __future__ import annotations

import os
from typing import Any

from service.app import create_app
from service.config import Settings
from service.keys import Keys
from tests.conftest import wait_until
from tests.redis_servers import _in_sync, plain
from tests.service.test_api_basics import auth


def make_app(**options: Any) -> Any:
    settings = Settings(redis_url=os.environ["REDIS_URL"], **options)
    return create_app({"TESTING": True, "DICEHALL": settings}).test_client()


def test_a_move_no_replica_confirmed_is_503_and_its_retry_answers_once_replicated(
    redis_client: Any,
) -> None:
    alone = make_app()
    waiting = make_app(min_replicas=1, replica_timeout_ms=100)
    created = alone.post(
        "/v1/games",
        json={"game": "toy", "seats": [{"kind": "human"}] * 2, "visibility": "public"},
    ).get_json()
    game_id = created["id"]
    seats = [
        alone.post(f"/v1/games/{game_id}/seats/{seat}/join", json={}).get_json()["seat_token"]
        for seat in (0, 1)
    ]
    token, legal = next(
        (token, legal)
        for token in seats
        if (
            legal := alone.get(f"/v1/games/{game_id}/legal-actions", headers=auth(token)).get_json()
        ).get("actions")
    )
    before = legal["version"]
    move = {"action": legal["actions"][0]["action"]}
    headers = {**auth(token), "Idempotency-Key": "only-once"}

    refused = waiting.post(f"/v1/games/{game_id}/actions", json=move, headers=headers)
    assert refused.status_code == 503
    assert refused.get_json()["code"] == "not_replicated"
    assert refused.headers["Retry-After"] == "1"
    after = alone.get(f"/v1/games/{game_id}", headers=auth(token)).get_json()["version"]
    assert after == before + 1  # the move was made

    again = waiting.post(f"/v1/games/{game_id}/actions", json=move, headers=headers)
    assert again.get_json()["code"] == "not_replicated"  # still no replica

    with plain() as replica:
        port = os.environ["REDIS_URL"].rsplit(":", 1)[1].split("/")[0]
        replica.node.client().replicaof("127.0.0.1", port)
        wait_until(lambda: _in_sync(replica.node), 30, "the replica to sync")
        kept = waiting.post(f"/v1/games/{game_id}/actions", json=move, headers=headers)
        assert kept.status_code == 200, kept.get_json()
        assert kept.get_json()["version"] == before + 1  # the first answer, no second move
        stored = replica.node.client().hget(Keys().game(game_id), "version")
        assert stored == str(before + 1)
    assert alone.get(f"/v1/games/{game_id}", headers=auth(token)).get_json()["version"] == after
