"""A move whose action is exactly one of the seat's listed legal actions, held by the process
for the very state it reads, is performed without the engine's checks (``decide_move``'s
``listed``); every other action is still checked: an illegal one is refused with its rule and
counted, one that only looks equal (``1.0`` or ``true`` for ``1``) is malformed."""

from __future__ import annotations

from typing import Any

import pytest

from engine import dice as dice_mod
from engine.games import get_game
from service.context import game_service
from service.moves import decide_move, listed_text, same_json
from service.store import GameRecord
from tests.service.test_api_basics import auth
from tests.service.test_malformed_actions import (
    ILLEGAL,
    acting_token,
    illegal_count,
    play_first_legal,
    snapshot,
    start,
)


def held_actions(app, client, gid: str, token: str) -> list[dict[str, Any]]:
    """The seat's legal actions as ``GET legal-actions`` lists them, after checking that the
    process now holds them for the game's current state (what a move's fast path needs)."""
    legal = client.get(f"/v1/games/{gid}/legal-actions", headers=auth(token)).get_json()
    with app.app_context():
        service = game_service()
        held = service.described.held(service.record(gid), legal["seat"])
    assert held == legal["actions"], "the process holds what it listed"
    return legal["actions"]


def loosely_equal(value: Any, path: str = "") -> tuple[Any, str] | None:
    """``value`` (an action) with its first integer as a float, or its first flag as an
    integer (``==`` to it in Python, not the same JSON), and that field's dotted path; None
    if it holds neither."""
    if type(value) is int:
        return float(value), path
    if type(value) is bool:
        return int(value), path
    items: Any = value.items() if type(value) is dict else ()
    if type(value) is list:
        items = enumerate(value)
    for key, item in items:
        found = loosely_equal(item, f"{path}.{key}" if path else str(key))
        if found is not None:
            changed = dict(value) if type(value) is dict else list(value)
            changed[key] = found[0]
            return changed, found[1]
    return None


def refused(app, client, gid: str, token: str, action: Any) -> tuple[int, Any, int]:
    """Post ``action`` for ``token``'s seat: its status and problem, and the illegal
    attempts counted, once checked that the game did not change."""
    before = snapshot(client, gid, token)
    reply = client.post(f"/v1/games/{gid}/actions", json={"action": action}, headers=auth(token))
    assert snapshot(client, gid, token) == before
    return reply.status_code, reply.get_json(), illegal_count(app, gid)


@pytest.mark.parametrize("name", sorted(ILLEGAL))
def test_an_illegal_action_is_refused_while_the_listed_actions_are_held(app, client, name):
    gid, tokens = start(client, name)
    token = acting_token(client, gid, tokens)
    listed = held_actions(app, client, gid, token)
    action, rule = ILLEGAL[name]
    assert all(item["action"] != action for item in listed)
    status, body, counted = refused(app, client, gid, token, action)
    assert (status, body["code"], body["rule"], counted) == (422, "illegal_action", rule, 1)


@pytest.mark.parametrize("name", sorted(ILLEGAL))
def test_an_action_only_loosely_equal_to_a_listed_one_is_malformed(app, client, name):
    gid, tokens = start(client, name)
    for _ in range(20):  # until the seat to act has an action with a number or a flag
        token = acting_token(client, gid, tokens)
        listed = held_actions(app, client, gid, token)
        found = next((loose for item in listed if (loose := loosely_equal(item["action"]))), None)
        if found is not None:
            break
        play_first_legal(client, gid, token)
    assert found is not None, "a listed action with a number or a flag"
    action, field = found
    status, body, counted = refused(app, client, gid, token, action)
    assert (status, body["code"], body["field"], counted) == (422, "malformed_action", field, 0)


@pytest.mark.parametrize("name", sorted(ILLEGAL))
def test_a_listed_action_plays_with_its_listed_sentence(app, client, name):
    gid, tokens = start(client, name)
    token = acting_token(client, gid, tokens)
    listed = held_actions(app, client, gid, token)
    chosen = listed[-1]
    action = dict(reversed(list(chosen["action"].items())))  # the keys in another order
    reply = client.post(f"/v1/games/{gid}/actions", json={"action": action}, headers=auth(token))
    assert reply.status_code == 200, reply.get_json()
    log = client.get(f"/v1/games/{gid}/log", headers=auth(token)).get_json()
    last = log["entries"][-1]
    assert last["action"] == chosen["action"] and last["text"].endswith(chosen["text"])


def test_decide_move_takes_a_listed_actions_sentence_and_checks_any_other():
    """The listed path is taken (the sentence is the listed one, not the engine's) and gives
    the state and events the checked path gives; an action not listed is checked."""
    game = get_game("kingdice")
    start_state = game.setup(2, game.validate_options(2, {}), dice_mod.Dice("listed"))
    seat = min(game.to_act(start_state))
    action = game.legal_actions(start_state, seat)[0]
    said = game.describe(start_state, seat, action)

    def decide(listed: list[dict[str, Any]] | None) -> Any:
        record = GameRecord(
            id="g",
            game=game.name,
            seats=[],
            options={},
            seed="listed",
            commitment="",
            creator_digest="",
            created_at=0.0,
            state=game.dump_state(start_state),
        )
        state = game.load_state(record.state)
        before = game.to_act(state)
        return decide_move(record, game, state, before, seat, dict(action), False, listed)

    checked, quick = decide(None), decide([{"action": action, "text": "as listed"}])
    assert (checked.stream[0]["text"], quick.stream[0]["text"]) == (said, "as listed")
    assert (quick.record.state, quick.events) == (checked.record.state, checked.events)
    other = decide([{"action": {**action, "type": "not this one"}, "text": "never said"}])
    assert other.stream[0]["text"] == said


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ({"x": 1}, {"x": 1}, True),
        ({"x": 1}, {"x": 1.0}, False),
        ({"x": 1}, {"x": True}, False),
        ({"x": 0}, {"x": False}, False),
        ({"x": [1, 2]}, {"x": [1, 2]}, True),
        ({"x": [1, 2]}, {"x": [1, 2.0]}, False),
        ({"x": {"y": None}}, {"x": {"y": None}}, True),
        ({"x": 1, "y": 2}, {"y": 2, "x": 1}, True),
        ({"x": 1}, {"x": 1, "y": 2}, False),
    ],
)
def test_same_json_tells_types_apart(a, b, same):
    assert same_json(a, b) is same
    listed = [{"action": a, "text": "t"}]
    assert listed_text(listed, b) == ("t" if same else None)
