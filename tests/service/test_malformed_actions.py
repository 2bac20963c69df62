"""Malformed actions at the door (Flask test client, real Redis): the cases of issue 10 get
422 malformed_action naming the field, leave the game unchanged and are not counted as
illegal attempts; a well-formed action the rules forbid stays 422 illegal_action with its
rule and is counted; afterwards a legal move still plays (the game is not stuck)."""

from __future__ import annotations

from typing import Any

import pytest

from service.context import game_service
from tests.service.test_api_basics import auth

MALFORMED: list[tuple[str, dict[str, Any], str]] = [
    ("kingdice", {"type": "hire", "stack": 5.0}, "stack"),
    ("kingdice", {"type": "place", "space": 4.0}, "space"),
    ("kingdice", {"type": "reroll", "keep": [True]}, "keep.0"),
    (
        "burgundy",
        {"type": "mark", "sell": False, "pip": 1.0, "colour": 0, "hex": [3, 1], "bonus": None},
        "pip",
    ),
    ("burgundy", {}, "type"),
    ("burgundy", {"type": "take_worker"}, "sell"),
    ("diceland", {"type": "stop", "colour": "blue"}, "colour"),
    ("diceland", {"type": "fly"}, "type"),
    ("carcassonne", {"type": "place", "die": 0, "x": "0", "y": 0, "rotation": 0}, "x"),
    ("carcassonne", {"type": "keep_knight", "die": 1, "why": "x"}, "why"),
]

ILLEGAL: dict[str, tuple[dict[str, Any], str]] = {
    "kingdice": ({"type": "stop"}, "wrong_phase"),
    "burgundy": ({"type": "take_worker", "sell": True}, "no_sale"),
    "diceland": ({"type": "stop"}, "wrong_phase"),
    "carcassonne": ({"type": "hold_knight"}, "too_few_knights"),
}
"""Per game: a well-formed action the rules forbid in the state the test reaches."""


def start(client, name: str) -> tuple[str, list[str]]:
    """A two-seat game of ``name`` with both seats joined; Burgundy past its castle picks."""
    seats = [{"kind": "human", "name": f"p{n}"} for n in range(2)]
    body = {"game": name, "seats": seats, "visibility": "public"}
    body["seed"] = f"malformed-{name}"
    gid = client.post("/v1/games", json=body).get_json()["id"]
    tokens = [
        client.post(f"/v1/games/{gid}/seats/{seat}/join", json={"name": f"p{seat}"}).get_json()[
            "seat_token"
        ]
        for seat in range(2)
    ]
    if name == "burgundy":
        for seat in range(2):
            play_first_legal(client, gid, tokens[seat])
    return gid, tokens


def play_first_legal(client, gid: str, token: str) -> None:
    legal = client.get(f"/v1/games/{gid}/legal-actions", headers=auth(token)).get_json()
    reply = client.post(
        f"/v1/games/{gid}/actions",
        json={"action": legal["actions"][0]["action"]},
        headers=auth(token),
    )
    assert reply.status_code == 200, reply.get_json()


def acting_token(client, gid: str, tokens: list[str]) -> str:
    summary = client.get(f"/v1/games/{gid}").get_json()
    seats = sorted(int(seat) for seat in summary["to_act"])
    return tokens[seats[0]]


def illegal_count(app, gid: str) -> int:
    with app.app_context():
        return sum(row["illegal"] for row in game_service().store.stats(gid, 2))


def snapshot(client, gid: str, token: str) -> tuple[Any, Any]:
    view = client.get(f"/v1/games/{gid}/view", headers=auth(token)).get_json()
    return view, client.get(f"/v1/games/{gid}/log").get_json()


@pytest.mark.parametrize(
    ("name", "action", "field"), MALFORMED, ids=[f"{c[0]}-{c[2]}" for c in MALFORMED]
)
def test_malformed_action_is_422_names_the_field_and_changes_and_counts_nothing(
    app, client, name, action, field
):
    gid, tokens = start(client, name)
    token = acting_token(client, gid, tokens)
    before = snapshot(client, gid, token)
    reply = client.post(f"/v1/games/{gid}/actions", json={"action": action}, headers=auth(token))
    body = reply.get_json()
    assert reply.status_code == 422 and reply.mimetype == "application/problem+json"
    assert body["code"] == "malformed_action" and body["title"] == "Malformed action"
    assert body["field"] == field and field in body["errors"] and body["detail"]
    assert snapshot(client, gid, token) == before
    assert illegal_count(app, gid) == 0
    play_first_legal(client, gid, token)


@pytest.mark.parametrize("name", sorted(ILLEGAL))
def test_well_formed_illegal_action_stays_illegal_action_with_its_rule_and_is_counted(
    app, client, name
):
    gid, tokens = start(client, name)
    token = acting_token(client, gid, tokens)
    before = snapshot(client, gid, token)
    action, rule = ILLEGAL[name]
    reply = client.post(f"/v1/games/{gid}/actions", json={"action": action}, headers=auth(token))
    body = reply.get_json()
    assert (reply.status_code, body["code"], body["rule"]) == (422, "illegal_action", rule)
    assert snapshot(client, gid, token) == before
    assert illegal_count(app, gid) == 1
    play_first_legal(client, gid, token)
