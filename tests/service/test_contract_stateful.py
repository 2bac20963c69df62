"""Stateful contract test: schemathesis follows the OpenAPI links of openapi.yaml (createGame
-> joinSeat -> listLegalActions -> postAction -> listLegalActions ...) against a live
gunicorn and rq workers, so real moves of real games are posted as well as generated
(mostly invalid) ones. Every answer must be documented, conform to its (per-game) schema and
never be a 5xx.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, Phase, settings
from hypothesis.errors import Flaky

from tests.service.test_contract import CHECKS

ROOT = Path(__file__).resolve().parents[2]
CREATE = "POST /v1/games"
JOIN = "POST /v1/games/{game_id}/seats/{seat}/join"
PLAY = [
    "createGame",
    "joinSeat",
    "getGame",
    "getView",
    "listLegalActions",
    "postAction",
    "getLog",
    "listEvents",
]
"""The operations of playing a game (the stateless test covers every operation)."""
SEQUENCES, STEPS = 50, 20
POST_ACTION = "POST /v1/games/{game_id}/actions"


def test_stateful_run_follows_links_to_real_moves(live_server: str, worker: Any) -> None:
    schema = schemathesis.openapi.from_path(ROOT / "openapi.yaml").include(operation_id=PLAY)
    schema.config.phases.stateful.inference.algorithms = []  # the document's own links only
    base = schema.as_state_machine()
    tokens: dict[str, str] = {}
    failures: list[str] = []
    seen: Counter[tuple[str, int]] = Counter()
    codes: Counter[str] = Counter()
    sequences: list[int] = []

    class Machine(base):  # type: ignore[misc, valid-type]
        """Sends the seat token it was given for a game with every request on that game."""

        def setup(self) -> None:
            sequences.append(0)

        def before_call(self, case: Any) -> None:
            if case.query and "wait" in case.query:
                case.query["wait"] = 0  # no long-polls: nothing else happens meanwhile
            if case.operation.label == CREATE and isinstance(case.body, dict):
                # Games to play, not to refuse (the stateless test fuzzes createGame): seat 0
                # a human whom the JoinFirstSeat link seats, seat 1 a bot; no bot-only games.
                # Public, so that the link's anonymous join is let in (games are private by
                # default: a private game's seat opens only to its invite or the creator).
                case.body["seats"] = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
                case.body["options"] = {}
                case.body["visibility"] = "public"

        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            game_id = (case.path_parameters or {}).get("game_id")
            token = tokens.get(str(game_id))
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            return {"base_url": live_server, "headers": headers, "timeout": 30}

        def after_call(self, response: Any, case: Any) -> None:
            sequences[-1] += 1
            seen[(case.operation.label, response.status_code)] += 1
            if case.operation.label == POST_ACTION and response.status_code >= 400:
                codes[response.json().get("code", "")] += 1
            if case.operation.label == JOIN and response.status_code == 201:
                body = response.json()
                tokens[body["game_id"]] = body["seat_token"]

        def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
            try:
                case.validate_response(
                    response,
                    checks=CHECKS,
                    transport_kwargs={k: v for k, v in kwargs.items() if k != "headers"},
                    headers=kwargs.get("headers"),
                )
            except Exception as failure:  # every check failure is kept and fails the test below
                failures.append(f"{case.operation.label} -> {response.status_code}: {failure}")

    # A live service answers a replayed sequence differently (new game ids, seeds, bot moves),
    # which Hypothesis reports as Flaky; like schemathesis' own runner, start a new run then.
    runs = 0
    while len(sequences) < SEQUENCES and runs < 10:
        runs += 1
        try:
            Machine.run(
                settings=settings(
                    max_examples=SEQUENCES - len(sequences),
                    stateful_step_count=STEPS,
                    deadline=None,
                    database=None,
                    phases=[Phase.generate],
                    suppress_health_check=list(HealthCheck),
                )
            )
        except Flaky:
            continue
    operations = {label for label, _ in seen}
    requests = sum(seen.values())
    real_moves = seen[(POST_ACTION, 200)]
    refused = sum(
        n for (label, status), n in seen.items() if label == POST_ACTION and status >= 400
    )
    print(
        f"schemathesis stateful: {runs} runs, {len(sequences)} sequences, {requests} requests, "
        f"{len(operations)} operations, {real_moves} real moves, {refused} refused moves"
    )
    for (label, status), n in sorted(seen.items()):
        print(f"  {label} -> {status}: {n}")
    print(f"  refused moves by code: {dict(codes)}")
    assert failures == []
    assert seen[(JOIN, 201)] > 0, "no sequence joined a seat of a created game"
    assert real_moves > 0, "no sequence posted a legal action"
    assert refused > 0, "no sequence posted a refused action"
