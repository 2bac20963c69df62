"""A process gives a seat's described legal actions again only for the very state they were
built from (``service.described``): same game, same seat, same version, same stored data."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from engine.codec import canonical_json
from engine.dice import Dice
from engine.games import get_game
from service.api.events import _read
from service.api.sse import resolved
from service.context import service_of
from service.described import DescribedActions, described_actions
from service.store import GameRecord, StoredRecord
from tests.service.test_api_basics import auth, create_humans, join_all
from tests.service.test_decoded import record_fields

GAME = get_game("burgundy")
FIELDS = record_fields("burgundy")


def stored(game_id: str, version: int, state: Any) -> GameRecord:
    """A record of ``state`` as the store reads it (its stored bytes beside it)."""
    data = GAME.dump_state(state)
    return StoredRecord(
        state_json=canonical_json(data).encode(), id=game_id, version=version, **FIELDS
    )


def a_state(seed: str = "described") -> Any:
    return GAME.setup(2, GAME.validate_options(2, {}), Dice(seed))


def test_the_held_actions_are_given_again_for_the_same_seat_version_and_data():
    held, state = DescribedActions(), a_state()
    seat = min(GAME.to_act(state))
    first = held.get(GAME, stored("g", 3, state), state, seat)
    assert first and first == described_actions(GAME, state, seat)
    assert held.get(GAME, stored("g", 3, state), state, seat) is first


def test_a_new_version_or_other_data_builds_them_again():
    held, state, other = DescribedActions(), a_state(), a_state("other")
    seat = min(GAME.to_act(state))
    first = held.get(GAME, stored("g", 3, state), state, seat)
    assert held.get(GAME, stored("g", 4, state), state, seat) is not first
    again = held.get(GAME, stored("g", 4, other), other, seat)
    assert again == described_actions(GAME, other, seat), "the same version, other data"


def test_one_seats_actions_are_never_given_for_another_seat_or_game():
    held, state = DescribedActions(), a_state()
    seat = min(GAME.to_act(state))
    mine = held.get(GAME, stored("g", 3, state), state, seat)
    theirs = held.get(GAME, stored("g", 3, state), state, 1 - seat)
    assert theirs is not mine and theirs == described_actions(GAME, state, 1 - seat)
    assert held.get(GAME, stored("h", 3, state), state, seat) is not mine, "another game"


def test_a_record_whose_bytes_are_unknown_is_never_held():
    held, state = DescribedActions(), a_state()
    seat = min(GAME.to_act(state))
    made = GameRecord(id="g", version=3, state=GAME.dump_state(state), **FIELDS)
    assert made.state_json is None
    assert held.get(GAME, made, state, seat) == described_actions(GAME, state, seat)
    assert len(held) == 0


def test_the_actions_held_are_bounded():
    held, state = DescribedActions(size=3), a_state()
    seat = min(GAME.to_act(state))
    for n in range(10):
        held.get(GAME, stored(f"g{n}", 1, state), state, seat)
    assert len(held) == 3


def notice(service: Any, game_id: str, seat: int) -> dict[str, Any] | None:
    """The completed decision notice the seat's stream sends now (from the start)."""
    events, _ = _read(service, game_id, seat, "0", 0.0, "full")
    notices = [e for e in resolved(events) if e["type"] == "decision_due"]
    return notices[-1] if notices else None


def played(client: Any, seed: str, pick: int, moves: int = 6) -> Iterator[Played]:
    """A Burgundy game of two humans, played ``moves`` moves through the API (each seat's
    legal action number ``pick``, after a GET legal-actions): after each, the move and the
    state it left, as decoding the stored record gives it."""
    created = create_humans(client, "burgundy", seed)
    game_id, tokens = created["id"], join_all(client, created)
    service = service_of(client.application)
    for _ in range(moves):
        seat = int(min(client.get(f"/v1/games/{game_id}").get_json()["to_act"]))
        legal = client.get(f"/v1/games/{game_id}/legal-actions", headers=auth(tokens[seat]))
        action = legal.get_json()["actions"][pick]["action"]
        moved = client.post(
            f"/v1/games/{game_id}/actions", json={"action": action}, headers=auth(tokens[seat])
        ).get_json()
        record = service.store.load(game_id)
        assert record is not None and record.version == moved["version"]
        yield Played(service, game_id, tokens, seat, moved, GAME.load_state(record.state))


@dataclass
class Played:
    """One move of :func:`played`."""

    service: Any
    game_id: str
    tokens: list[str]
    seat: int
    moved: dict[str, Any]
    state: Any


def test_answers_and_notices_of_a_move_give_each_seat_its_own_current_actions(client):
    # Burgundy, two humans: the move's answer, the mover's stream notice and GET
    # legal-actions give the mover's actions for the new state; the other seat's notice and
    # GET give the other seat's, built from the state as decoding gives it; after the next
    # version, the actions are the new state's.
    for move in played(client, "described", -1):
        state, game_id = move.state, move.game_id
        for each in (0, 1):
            fresh = described_actions(GAME, state, each) if each in GAME.to_act(state) else []
            if each == move.seat:
                assert move.moved["actions"] == fresh
            headers = auth(move.tokens[each])
            read = client.get(f"/v1/games/{game_id}/legal-actions", headers=headers)
            assert read.get_json()["actions"] == fresh
            due = notice(move.service, game_id, each)
            if fresh:
                assert due is not None and due["current"] and due["actions"] == fresh
