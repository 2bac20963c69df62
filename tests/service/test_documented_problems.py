"""Every problem a request gets is one its operation documents (its status, and its code among
that status's examples in openapi.yaml): the contract says everything a route may answer.

schemathesis' conformance check cannot see this: every operation has a ``default`` response,
which takes any status, and nothing checks a problem's ``code``. So here each refusal the
routes can give for bad input (a body's hardening, a JSON body sent as another type, a seat
out of range in the path, a game or tournament the service cannot make) is asked for over a
real gunicorn, and its answer looked up in the document.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import requests
import yaml

from tests.players import Player, create

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = yaml.safe_load((ROOT / "openapi.yaml").read_text())
DEEP = '{"name": ' + "[" * 40 + "]" * 40 + "}"
LONG = '{"action": {"type": "bid", "card": ' + "9" * 60 + "}}"
HUMANS = [{"kind": "human"}, {"kind": "human"}]
BOTS = [{"name": "a", "bot": "random"}, {"name": "b", "bot": "random"}]


def documented(method: str, route: str, status: int) -> set[str]:
    """The problem codes ``method route`` documents for ``status`` (its examples' names)."""
    responses = DOCUMENT["paths"][route][method.lower()]["responses"]
    response = responses.get(str(status), {})
    content = response.get("content", {}).get("application/problem+json", {})
    return set(content.get("examples", {}))


def cases(
    game: dict[str, Any], account: str
) -> list[tuple[str, str, str, dict[str, Any], int, str]]:
    """(name, method, route, request keywords, status, code)."""
    toy = {"game": "toy", "seats": HUMANS, "visibility": "public"}
    text = {"headers": {"Content-Type": "text/plain"}}
    return [
        (
            "a body nested too deep",
            "POST",
            "/v1/bots",
            {"data": DEEP, **_json()},
            422,
            "json_too_deep",
        ),
        (
            "a number too long",
            "POST",
            "/v1/games/{game_id}/actions",
            {"data": LONG, **_json(game)},
            422,
            "json_number_too_long",
        ),
        (
            "a body too large",
            "POST",
            "/v1/games",
            {"data": '"' + "x" * 70_000 + '"', **_json()},
            413,
            "body_too_large",
        ),
        (
            "a join that is not JSON",
            "POST",
            "/v1/games/{game_id}/seats/{seat}/join",
            {"data": "{", **_json()},
            400,
            "invalid_json",
        ),
        (
            "a move sent as text",
            "POST",
            "/v1/games/{game_id}/actions",
            {"data": '{"action": {}}', **text},
            415,
            "unsupported_media_type",
        ),
        (
            "a join sent as a form",
            "POST",
            "/v1/games/{game_id}/seats/{seat}/join",
            {"data": {"name": "x"}},
            415,
            "unsupported_media_type",
        ),
        (
            "a tournament sent as text",
            "POST",
            "/v1/tournaments",
            {"data": "{}", **text},
            415,
            "unsupported_media_type",
        ),
        (
            "a negative seat to join",
            "POST",
            "/v1/games/{game_id}/seats/{seat}/join",
            {"seat": -1, "json": {}},
            404,
            "not_found",
        ),
        (
            "a negative seat to remove",
            "DELETE",
            "/v1/games/{game_id}/seats/{seat}",
            {"seat": -1},
            404,
            "not_found",
        ),
        (
            "a game with an unknown bot",
            "POST",
            "/v1/games",
            {"json": {**toy, "seats": [{"kind": "bot", "bot": "nobody"}] * 2}},
            422,
            "unknown_bot",
        ),
        (
            "a game with bot options a bot lacks",
            "POST",
            "/v1/games",
            {"json": {**toy, "seats": [{"kind": "bot", "bot": "random", "budget_ms": 5}] * 2}},
            422,
            "invalid_bot_options",
        ),
        (
            "a game with an unknown account",
            "POST",
            "/v1/games",
            {"json": {**toy, "seats": [{"kind": "external", "account": "nobody"}] * 2}},
            422,
            "unknown_account",
        ),
        (
            "a game with an account twice",
            "POST",
            "/v1/games",
            {"json": {**toy, "seats": [{"kind": "external", "account": account}] * 2}},
            422,
            "invalid_seats",
        ),
        (
            "a tournament with options the game lacks",
            "POST",
            "/v1/tournaments",
            {"json": {"game": "toy", "participants": BOTS, "games": 1, "options": {"rounds": 99}}},
            422,
            "invalid_options",
        ),
        (
            "a tournament with bot options a bot lacks",
            "POST",
            "/v1/tournaments",
            {
                "json": {
                    "game": "toy",
                    "participants": [{**BOTS[0], "budget_ms": 5}, BOTS[1]],
                    "games": 1,
                }
            },
            422,
            "invalid_bot_options",
        ),
        (
            "a tournament entrant without a bot",
            "POST",
            "/v1/tournaments",
            {"json": {"game": "toy", "participants": [{"name": "x"}, BOTS[1]], "games": 1}},
            422,
            "invalid_participant",
        ),
        (
            "a picture of a game without one",
            "GET",
            "/v1/games/{game_id}/picture.svg",
            {},
            404,
            "no_picture",
        ),
    ]


def _json(game: dict[str, Any] | None = None) -> dict[str, Any]:
    headers = {"Content-Type": "application/json"}
    if game is not None:
        headers["Authorization"] = f"Bearer {game['token']}"
    return {"headers": headers}


@pytest.fixture(scope="module")
def game(live_server: str) -> dict[str, Any]:
    created = create(live_server, "toy", [*HUMANS, {"kind": "human"}])
    player = Player(live_server, created["id"], 0)
    Player(live_server, created["id"], 1)
    return {"id": created["id"], "token": player.token}


@pytest.fixture(scope="module")
def account(live_server: str) -> str:
    reply = requests.post(f"{live_server}/v1/bots", json={"name": "a", "owner": "t"}, timeout=5)
    return str(reply.json()["id"])


NAMES = [case[0] for case in cases({"token": ""}, "")]


@pytest.mark.parametrize("name", NAMES)
def test_a_refusal_is_one_its_operation_documents(name, live_server, game, account):
    ((_, method, route, request, status, code),) = [c for c in cases(game, account) if c[0] == name]
    seat = request.pop("seat", 2)
    path = route.format(game_id=game["id"], seat=seat)
    before = requests.get(f"{live_server}/v1/games/{game['id']}", timeout=5).json()
    reply = requests.request(method, live_server + path, timeout=20, **request)
    assert reply.headers["Content-Type"] == "application/problem+json", reply.text[:300]
    assert (reply.status_code, reply.json()["code"]) == (status, code), reply.text[:300]
    assert reply.json()["detail"]
    assert code in documented(method, route, status), f"{method} {route} leaves out {status} {code}"
    after = requests.get(f"{live_server}/v1/games/{game['id']}", timeout=5).json()
    assert after == before, "the refused request changed the game"


def test_every_operation_with_a_body_documents_what_its_body_may_be_refused_for():
    from service.api import BODY_PROBLEMS

    for route, item in DOCUMENT["paths"].items():
        for method, operation in item.items():
            if not isinstance(operation, dict) or "requestBody" not in operation:
                continue
            for status, code in BODY_PROBLEMS:
                assert code in documented(method, route, status), (method, route, status, code)


def test_the_routes_of_the_cases_are_the_documents():
    for _, method, route, *_ in cases({"token": ""}, ""):
        assert method.lower() in DOCUMENT["paths"][route], route
        assert re.fullmatch(r"/v1/[a-z/{}_.-]+", route)
