"""Hostile requests against a real gunicorn (``deploy/gunicorn.conf.py``): each gets its 4xx
problem+json, the game it aims at is unchanged, and the service stays up. The contract's own
request examples are valid requests."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import requests
import yaml

from service import gunicorn_errors, problems
from tests.conftest import gunicorn_server
from tests.players import Player, create

ROOT = Path(__file__).resolve().parents[2]
ENV: dict[str, str] = {
    "DICEHALL_BODY_SECONDS": "1",
    "DICEHALL_QUEUE": "hostile-tests",
    "DICEHALL_PREFIX": "hostile",
}
"""Its own queue and key prefix: the session's workers never play what these tests create."""


@pytest.fixture(scope="module")
def server(redis_url: str) -> Iterator[str]:
    with gunicorn_server(redis_url, env=ENV) as base:
        yield base


@pytest.fixture()
def game(server: str, redis_client) -> tuple[str, str]:
    created = create(server, "toy", [{"kind": "human"}, {"kind": "human"}])
    player = Player(server, created["id"], 0)
    Player(server, created["id"], 1)
    return created["id"], player.token


def raw(base: str, data: bytes, timeout: float = 15) -> tuple[int, dict[str, str], bytes]:
    """Send ``data`` as it is on a new connection; the answer's status, headers and body."""
    where = urlsplit(base)
    with socket.create_connection((where.hostname, where.port), timeout=timeout) as sock:
        sock.sendall(data)
        received = b""
        while b"\r\n\r\n" not in received:
            chunk = sock.recv(65536)
            assert chunk, f"the connection closed without an answer: {received[:200]!r}"
            received += chunk
        head, _, body = received.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
        length = int(headers.get("content-length", "0"))
        while len(body) < length:
            chunk = sock.recv(65536)
            assert chunk, "the connection closed in the middle of the answer"
            body += chunk
    return int(lines[0].split()[1]), headers, body[:length]


def request(
    method: str, path: str, headers: dict[str, str] | None = None, body: bytes = b""
) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: localhost", "Connection: close"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    if body and not any(name.lower() == "transfer-encoding" for name in headers or {}):
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def move(token: str, body: bytes, **headers: str) -> tuple[str, dict[str, str], bytes]:
    return (
        "POST",
        {"Authorization": f"Bearer {token}", "Content-Type": "application/json", **headers},
        body,
    )


DEEP = b'{"action": ' + b"[" * 10_000 + b"]" * 10_000 + b"}"
HUGE_INT = b'{"action": {"type": "bid", "card": ' + b"7" * 5_000 + b"}}"


def cases(game_id: str, token: str) -> dict[str, tuple[bytes, int, str]]:
    """name -> (raw request, status, code)."""
    actions = f"/v1/games/{game_id}/actions"
    auth = f"Authorization: Bearer {token}\r\n".encode()
    good = b'{"action": {"type": "bid", "card": 1}}'
    return {
        "body over the size limit": (
            request(*_at(actions, move(token, b'{"action": "' + b"x" * 100_000 + b'"}'))),
            413,
            "body_too_large",
        ),
        "JSON nested 10,000 deep": (
            request(*_at(actions, move(token, DEEP))),
            422,
            "json_too_deep",
        ),
        "a 5,000-digit integer in an action": (
            request(*_at(actions, move(token, HUGE_INT))),
            422,
            "json_number_too_long",
        ),
        "a 5,000-digit integer in options": (
            request(
                "POST",
                "/v1/games",
                {"Content-Type": "application/json"},
                b'{"game": "toy", "seats": [{"kind": "human"}, {"kind": "human"}], '
                b'"options": {"rounds": ' + b"9" * 5_000 + b"}}",
            ),
            422,
            "json_number_too_long",
        ),
        "a 5,000-digit If-Match": (
            request(*_at(actions, move(token, good, **{"If-Match": '"' + "9" * 5_000 + '"'}))),
            400,
            "invalid_if_match",
        ),
        "a malformed chunked body": (
            f"POST {actions} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n".encode()
            + auth
            + b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
            + b"zz\r\n{}\r\n0\r\n\r\n",
            400,
            "malformed_body",
        ),
        "a Content-Length larger than the body": (
            f"POST {actions} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n".encode()
            + auth
            + b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n"
            + good,
            408,
            "body_timeout",
        ),
        "a 10 KB game id": (request("GET", "/v1/games/" + "g" * 10_000), 414, "uri_too_long"),
        "a header over 8 KB": (
            request("GET", f"/v1/games/{game_id}", {"X-Padding": "p" * 9_000}),
            431,
            "headers_too_large",
        ),
        "an Idempotency-Key with 0x00": (
            request(*_at(actions, move(token, good)))[: -len(good) - 4]
            + b"\r\nIdempotency-Key: a\x00b\r\n\r\n"
            + good,
            400,
            "bad_request",
        ),
        "an Idempotency-Key with 0xff": (
            request(*_at(actions, move(token, good)))[: -len(good) - 4]
            + b"\r\nIdempotency-Key: a\xffb\r\n\r\n"
            + good,
            422,
            "validation_failed",
        ),
        "a method the route does not have": (
            request("DELETE", actions, {"Authorization": f"Bearer {token}"}),
            405,
            "method_not_allowed",
        ),
        "a body that is not JSON": (
            request(*_at(actions, move(token, b'{"action": '))),
            400,
            "invalid_json",
        ),
    }


def _at(path: str, parts: tuple[str, dict[str, str], bytes]) -> tuple[str, str, dict, bytes]:
    method, headers, body = parts
    return method, path, headers, body


CASES = list(cases("g", "t"))


@pytest.mark.parametrize("name", CASES)
def test_hostile_request_gets_its_problem_and_changes_nothing(name, server, game):
    game_id, token = game
    before = requests.get(f"{server}/v1/games/{game_id}", timeout=5).json()
    data, status, code = cases(game_id, token)[name]
    got, headers, body = raw(server, data)
    assert got == status, body[:300]
    assert headers["content-type"] == "application/problem+json", body[:300]
    problem = json.loads(body)
    assert problem["status"] == status and problem["code"] == code, problem
    assert problem["detail"]
    if status == 405:
        assert set(headers["allow"].replace(" ", "").split(",")) >= {"POST", "OPTIONS"}
    after = requests.get(f"{server}/v1/games/{game_id}", timeout=5).json()
    assert after == before, "the game changed"
    assert requests.get(f"{server}/v1/health", timeout=5).ok, "the service went down"
    assert Player(server, create(server, "toy", [{"kind": "human"}] * 2)["id"], 0).view()


def test_gunicorn_problems_share_the_api_problem_base():
    assert gunicorn_errors.PROBLEM_BASE == problems.PROBLEM_BASE


def _examples() -> dict[str, object]:
    contract = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    found = {}
    for path, operations in contract["paths"].items():
        for method, operation in operations.items():
            body = operation.get("requestBody") if isinstance(operation, dict) else None
            if body:
                found[f"{method.upper()} {path}"] = body["content"]["application/json"]["example"]
    return found


def test_every_request_example_of_the_contract_is_accepted(server, redis_client):
    examples = _examples()
    assert set(examples) == {
        "POST /v1/games",
        "POST /v1/games/{game_id}/seats/{seat}/join",
        "POST /v1/games/{game_id}/actions",
        "POST /v1/bots",
        "POST /v1/tournaments",
    }, "a new request body needs a case here"
    created = requests.post(f"{server}/v1/games", json=examples["POST /v1/games"], timeout=10)
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    joined = requests.post(
        f"{server}/v1/games/{game_id}/seats/0/join",
        json=examples["POST /v1/games/{game_id}/seats/{seat}/join"],
        headers={"Authorization": f"Bearer {created.json()['invites']['0']}"},
        timeout=10,
    )
    assert joined.status_code == 201, joined.text
    moved = requests.post(
        f"{server}/v1/games/{game_id}/actions",
        json=examples["POST /v1/games/{game_id}/actions"],
        headers={"Authorization": f"Bearer {joined.json()['seat_token']}"},
        timeout=10,
    )
    assert moved.status_code == 200, moved.text
    for path in ("POST /v1/bots", "POST /v1/tournaments"):
        reply = requests.post(f"{server}{path.split()[1]}", json=examples[path], timeout=10)
        assert reply.status_code == 201, (path, reply.text)


def post_game(server: str, name: bytes) -> requests.Response:
    body = (
        b'{"game": "toy", "visibility": "public", "seats": [{"kind": "human", "name": "'
        + name
        + b'"}, {"kind": "bot"}]}'
    )
    headers = {"Content-Type": "application/json"}
    return requests.post(f"{server}/v1/games", data=body, headers=headers, timeout=10)


@pytest.mark.parametrize(
    "name", [b"a\\ud800b", b"\\udfff", b"\\ud83d\\u0041", b"\xed\xa0\x80", b"\xff"]
)
def test_a_string_that_is_no_unicode_text_is_refused_before_it_is_stored(server, name) -> None:
    """A lone surrogate (escaped, or as UTF-8 bytes) passes Python's JSON decoder but no
    answer holding it can be encoded: the game was stored (its creation answered 500), and
    every listing of public games answered 500 to everyone until it expired."""
    reply = post_game(server, name)
    assert reply.status_code == 400, reply.text
    assert reply.json()["code"] == "invalid_json"
    assert requests.get(f"{server}/v1/games", timeout=10).status_code == 200


def test_a_surrogate_pair_is_a_character_like_any_other(server) -> None:
    reply = post_game(server, b"ann \\ud83c\\udfb2")
    assert reply.status_code == 201, reply.text
    assert reply.json()["seats"][0]["name"] == "ann \N{GAME DIE}"


@pytest.mark.parametrize(
    "name",
    [
        *(b"ann\\u0007", b"\\u001b[31mred", b"a\\u0000b", b"x\\u009by", b"ann\\n", b"ann\\r\\n"),
        *(b"a\\ufffe", b"\\uffffb", "a\uffff".encode()),  # not characters: no XML holds them
        # bidirectional overrides and isolates: "ann\u202egnp.exe" reads as "annexe.png"
        *(b"ann\\u202egnp.exe", "a\u202ab".encode(), b"a\\u2066b\\u2069", "x\u2068".encode()),
    ],
)
def test_a_name_with_a_control_character_is_malformed(server, name) -> None:
    """Names are read by people: in a terminal (an escape would be obeyed) and in the SVG
    pictures (XML holds no control character: one entrant's name made a tournament's chart
    unreadable). Such a name is refused as malformed; nothing is stored."""
    listed = requests.get(f"{server}/v1/games", timeout=10).json()
    reply = post_game(server, name)
    assert reply.status_code == 422, reply.text
    problem = reply.json()
    assert problem["code"] == "validation_failed"
    assert "control characters" in json.dumps(problem)
    assert requests.get(f"{server}/v1/games", timeout=10).json() == listed


@pytest.mark.parametrize(
    "path, field, bad",
    [
        ("POST /v1/bots", ("name",), "bell\u0007"),
        ("POST /v1/bots", ("owner",), "ann@example.org\r\nX: y"),
        ("POST /v1/tournaments", ("participants", 0, "name"), "r\u001b"),
        ("POST /v1/bots", ("name",), "bot\n"),  # a last newline too ('$' matches before it)
        ("POST /v1/tournaments", ("participants", 0, "name"), "random\n"),
        ("POST /v1/tournaments", ("participants", 0, "name"), "r\uffff"),  # a chart's SVG
    ],
)
def test_bot_and_entrant_names_refuse_control_characters(server, path, field, bad) -> None:
    """The contract's own example is accepted; the same body with a control character in
    one name is refused as malformed."""
    route = path.split()[1]
    good = json.loads(json.dumps(_examples()[path]))
    if route == "/v1/bots":
        good["name"] = f"names-{len(bad)}-{field[0]}"
    reply = requests.post(f"{server}{route}", json=good, timeout=10)
    assert reply.status_code == 201, reply.text
    hostile = json.loads(json.dumps(good))
    where = hostile
    for step in field[:-1]:
        where = where[step]
    where[field[-1]] = bad
    reply = requests.post(f"{server}{route}", json=hostile, timeout=10)
    assert reply.status_code == 422, reply.text
    assert reply.json()["code"] == "validation_failed"


def test_a_joining_name_refuses_control_characters(server, game) -> None:
    created = create(server, "toy", [{"kind": "human"}, {"kind": "human"}])
    reply = requests.post(
        f"{server}/v1/games/{created['id']}/seats/0/join", json={"name": "ann\u0085"}, timeout=10
    )
    assert reply.status_code == 422, reply.text
    assert reply.json()["code"] == "validation_failed"
    assert Player(server, created["id"], 0, name="ann \N{GAME DIE}").token


@pytest.mark.parametrize(
    ("path", "query", "status", "code"),
    [
        ("/v1/games", "limit=1&limit=3", 422, "validation_failed"),
        ("/v1/games", "offset=0&limit=2&offset=5", 422, "validation_failed"),
        ("/v1/tournaments", "limit=3&limit=1", 422, "validation_failed"),
        ("/v1/games/{game}/log", "after=-1&after=3", 422, "validation_failed"),
        ("/v1/games/{game}/events", "after=0&after=0", 422, "validation_failed"),
        ("/v1/games/{game}/picture.svg", "player=0&player=1", 422, "validation_failed"),
        ("/v1/games/{game}/events/stream", "once=1&after=0&after=0", 400, "bad_request"),
        ("/v1/games/{game}/events/stream", "once=1&once=0", 400, "bad_request"),
    ],
)
def test_a_query_parameter_given_twice_is_refused(server, game, path, query, status, code):
    """On main the first value counted and the others were dropped without a word:
    ``/v1/games?limit=1&limit=3`` listed one game, ``?limit=3&limit=1`` three."""
    url = server + path.format(game=game[0]) + "?" + query
    reply = requests.get(url, timeout=10)
    assert (reply.status_code, reply.json()["code"]) == (status, code), reply.text
    name = query.split("&")[-1].split("=")[0]
    assert name in reply.text and "more than once" in reply.text


@pytest.mark.parametrize(
    ("path", "query"),
    [
        ("/v1/games", "limt=5"),
        ("/v1/tournaments", "ofset=20"),
        ("/v1/games/{game}/log", "afterr=3"),
        ("/v1/games/{game}/view", "seats=1"),
        ("/v1/games/{game}/events", "wiat=5"),
        ("/v1/games/{game}/picture.svg", "players=1"),
    ],
)
def test_a_query_parameter_the_operation_does_not_take_is_refused(server, game, path, query):
    """A mistyped parameter was dropped without a word (``?limt=5`` listed 20 games, a log
    ``?afterr=3`` began at the set-up, ``view?seats=1`` was the caller's own view): refused,
    not ignored, as a body's unknown field is."""
    url = server + path.format(game=game[0]) + "?" + query
    reply = requests.get(url, timeout=10)
    assert (reply.status_code, reply.json()["code"]) == (422, "validation_failed"), reply.text
    assert query.split("=")[0] in reply.json()["errors"]


def test_a_stream_refuses_a_query_parameter_it_does_not_take(server, game):
    url = f"{server}/v1/games/{game[0]}/events/stream?once=1&detial=none"
    reply = requests.get(url, timeout=10)
    assert (reply.status_code, reply.json()["code"]) == (400, "bad_request"), reply.text
    assert "detial" in reply.json()["detail"]
