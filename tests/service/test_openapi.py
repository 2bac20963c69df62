"""The committed OpenAPI document: up to date, valid, with examples and error responses."""

from __future__ import annotations

import re
from pathlib import Path

import requests
import yaml
from openapi_spec_validator import validate

from engine.games import LISTED, get_game
from service.components import camel
from service.openapi import render
from tests.players import create

ROOT = Path(__file__).resolve().parents[2]


def committed() -> dict:
    return yaml.safe_load((ROOT / "openapi.yaml").read_text())


def test_committed_openapi_matches_the_app():
    assert (ROOT / "openapi.yaml").read_text() == render(), (
        "openapi.yaml is stale: run `python -m service.openapi` and commit it"
    )


def test_openapi_document_validates():
    spec = committed()
    assert spec["openapi"] == "3.1.0"
    validate(spec)


def operations(spec: dict):
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method in {"get", "post", "put", "patch", "delete"}:
                yield f"{method.upper()} {path}", operation


def test_every_operation_has_a_success_example_and_documented_problems():
    spec = committed()
    for name, operation in operations(spec):
        responses = operation["responses"]
        success = [code for code in responses if code.startswith("2")]
        assert success, name
        for code in success:
            content = responses[code].get("content", {})
            if "application/json" in content:
                assert "example" in content["application/json"], f"{name} {code} has no example"
        problems = [code for code in responses if code[0] in "45" or code == "default"]
        assert problems, f"{name} documents no error response"
        for code in problems:
            content = responses[code].get("content", {})
            if "application/problem+json" in content:
                continue
            ref = responses[code].get("$ref", "")
            assert ref.startswith("#/components/responses/"), f"{name} {code}"
            target = spec["components"]["responses"][ref.rsplit("/", 1)[1]]
            assert "application/problem+json" in target["content"], f"{name} {code}"


def test_request_bodies_have_examples():
    spec = committed()
    for name, operation in operations(spec):
        body = operation.get("requestBody")
        if body:
            assert "example" in body["content"]["application/json"], name


def test_every_operation_has_a_short_unique_operation_id_and_a_tag():
    spec = committed()
    ids = [operation.get("operationId") for _, operation in operations(spec)]
    assert all(ids) and len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"[a-z][A-Za-z]{2,29}", i) for i in ids), ids
    assert {
        "createGame",
        "joinSeat",
        "getView",
        "listLegalActions",
        "postAction",
        "getLog",
        "listEvents",
        "getRules",
    } <= set(ids)
    assert all(operation.get("tags") for _, operation in operations(spec))


def by_id(spec: dict) -> dict[str, dict]:
    return {operation["operationId"]: operation for _, operation in operations(spec)}


def test_a_token_is_optional_for_reading_a_game_and_required_for_playing_it():
    spec = committed()
    # openapi-python-client asks for an AuthenticatedClient whenever an operation lists any
    # security requirement, so optional auth is the document's default, not repeated per op
    assert spec["security"] == [{}, {"bearer": []}]
    ops = by_id(spec)
    # joinSeat takes a token when it has one: a private game's seat opens to its invite token
    # or to the creator's token, a public game's seat to anyone
    for name in (
        "getView",
        "getLog",
        "listEvents",
        "streamEvents",
        "getGame",
        "getPicture",
        "joinSeat",
    ):
        assert "security" not in ops[name], name
    for name in (
        "listLegalActions",
        "postAction",
        "getBotAccount",
        "getBotFeed",
        "cancelGame",
        "removeSeat",
    ):
        assert ops[name]["security"] == [{"bearer": []}], name
    for name in ("createGame", "listCatalogue", "getHealth", "getLiveness", "getReadiness"):
        assert ops[name]["security"] == [], name


def test_prompts_carry_their_decision_id_and_scores_are_integers():
    schemas = committed()["components"]["schemas"]
    assert schemas["Prompt"]["properties"]["decision"]["type"] == "integer"
    for name in ("Result", *(f"{camel(g)}Result" for g in LISTED)):
        assert schemas[name]["properties"]["scores"]["items"]["type"] == "integer", name


def test_game_data_is_typed_per_game_by_a_discriminator_on_the_game_name():
    schemas = committed()["components"]["schemas"]
    for envelope in ("View", "LegalActions", "MoveResult", "Log", "Events"):
        union = schemas[envelope]
        assert union["discriminator"]["propertyName"] == "game"
        mapping = union["discriminator"]["mapping"]
        assert set(mapping) == set(LISTED), envelope
        for game, ref in mapping.items():
            variant = schemas[ref.rsplit("/", 1)[1]]
            assert variant["properties"]["game"]["const"] == game


def test_the_legal_action_is_the_action_a_client_posts():
    schemas = committed()["components"]["schemas"]
    assert schemas["ActionRequest"]["properties"]["action"]["$ref"] == "#/components/schemas/Action"
    posted = {member["$ref"] for member in schemas["Action"]["anyOf"]}
    for game in LISTED:
        listed = schemas[f"{camel(game)}LegalAction"]["properties"]["action"]["$ref"]
        assert listed == f"#/components/schemas/{camel(game)}Action" and listed in posted
        union = schemas[f"{camel(game)}Action"]
        assert set(union["discriminator"]["mapping"]) == set(get_game(game).action_schemas)


def test_links_lead_from_creating_a_game_to_posting_a_legal_action():
    ops = by_id(committed())
    chain = [
        ("createGame", "201", "joinSeat"),
        ("joinSeat", "201", "listLegalActions"),
        ("listLegalActions", "200", "postAction"),
        ("postAction", "200", "listLegalActions"),
    ]
    for source, status, target in chain:
        targets = {
            link["operationId"] for link in ops[source]["responses"][status]["links"].values()
        }
        assert target in targets, (source, target)


def test_the_streams_document_what_they_read_and_what_they_answer():
    """The two SSE operations read Last-Event-ID, ``after``, ``once`` and ``detail``
    (``service.api.events``, ``service.api.bots``) and answer text/event-stream; on main the
    contract named none of the four and gave the 200 answer no content, so a generated client
    could neither resume a stream nor ask for compact notices."""
    ops = by_id(committed())
    for name in ("streamEvents", "streamBotFeed"):
        named = {(p["in"], p["name"]) for p in ops[name].get("parameters", [])}
        assert named >= {
            ("header", "Last-Event-ID"),
            ("query", "after"),
            ("query", "once"),
            ("query", "detail"),
        }, name
        assert "text/event-stream" in ops[name]["responses"]["200"]["content"], name


def test_the_streams_do_what_their_parameters_say(live_server):
    game = create(live_server, "kingdice", [{"kind": "human"}, {"kind": "human"}])["id"]
    joined = requests.post(f"{live_server}/v1/games/{game}/seats/0/join", json={}, timeout=10)
    assert joined.status_code == 201, joined.text  # a second event to resume at
    url = f"{live_server}/v1/games/{game}/events/stream"
    whole = requests.get(url, params={"once": "1"}, timeout=10).text
    first = re.findall(r"^id: (\S+)$", whole, re.M)
    assert len(first) == 2, whole
    resumed = requests.get(url, params={"once": "1", "after": first[0]}, timeout=10).text
    assert re.findall(r"^id: (\S+)$", resumed, re.M) == first[1:]
    header = requests.get(
        url, params={"once": "1"}, headers={"Last-Event-ID": first[0]}, timeout=10
    )
    assert re.findall(r"^id: (\S+)$", header.text, re.M) == first[1:]
    for query in ({"detail": "loud"}, {"after": "x"}):
        refused = requests.get(url, params={"once": "1", **query}, timeout=10)
        assert refused.status_code == 400 and refused.json()["code"] == "bad_request", query


def test_the_answers_document_the_headers_clients_act_on():
    """Every 429 says when to retry (``Retry-After``, from ``service.ratelimit``), as does a
    503 (contention, not replicated, Redis failing); a view and a move carry the game's
    version as ``ETag`` (what ``If-Match`` takes). On main the contract named none of them,
    so a generated client had no word of the header that says how long to back off."""
    spec = committed()
    documented_retries = 0
    for _, operation in operations(spec):
        for status in ("429", "503"):
            answer = operation["responses"].get(status)
            if answer is not None:
                assert "Retry-After" in answer.get("headers", {}), (
                    operation["operationId"],
                    status,
                )
                documented_retries += 1
    assert documented_retries > len(list(operations(spec)))
    ops = by_id(spec)
    for name in ("getView", "postAction"):
        assert "ETag" in ops[name]["responses"]["200"]["headers"], name
