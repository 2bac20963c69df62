"""A process reuses a decoded game state only for the very state it stands for
(``service.decoded``): same game, same version, same stored data; one request at a time."""

from __future__ import annotations

from typing import Any

from engine.codec import canonical_json
from engine.games import get_game
from service.context import service_of
from service.decoded import DecodedStates
from service.store import GameRecord, GameStatus, StoredRecord
from tests.service.test_api_basics import auth, create_humans, join_all


def record_fields(game: str) -> dict[str, Any]:
    """A test record's fields beside its id, version and state: an active game of ``game``."""
    return {
        "game": game,
        "seats": [],
        "options": {},
        "seed": "s",
        "commitment": "c",
        "creator_digest": "d",
        "created_at": 0.0,
        "status": GameStatus.ACTIVE,
    }


FIELDS = record_fields("kingdice")


def record(game_id: str, version: int, state: dict[str, Any]) -> GameRecord:
    """A record as the store reads it (its state's stored bytes beside it)."""
    return StoredRecord(
        state_json=canonical_json(state).encode(), id=game_id, version=version, **FIELDS
    )


def test_a_kept_state_is_reused_once_for_the_same_version_and_data():
    states = DecodedStates()
    decoded = object()
    states.keep(record("g", 3, {"x": [1, 2]}), decoded)
    assert states.take(record("g", 3, {"x": [1, 2]})) is decoded
    assert states.take(record("g", 3, {"x": [1, 2]})) is None, "taken out while in use"


def test_a_kept_state_is_not_used_for_another_version():
    states = DecodedStates()
    states.keep(record("g", 3, {"x": 1}), object())
    assert states.take(record("g", 4, {"x": 1})) is None
    assert len(states) == 0, "a stale entry is dropped"


def test_a_kept_state_is_not_used_for_other_data_at_the_same_version():
    # The store lost a write and another move took the same version: the data differ, so
    # the state this process committed is not the game's any more.
    states = DecodedStates()
    states.keep(record("g", 3, {"x": 1}), object())
    assert states.take(record("g", 3, {"x": 2})) is None


def test_a_record_whose_state_was_set_anew_is_neither_kept_nor_matched():
    states = DecodedStates()
    changed = record("g", 3, {"x": 1})
    changed.state = {"x": 1}
    assert changed.state_json is None, "setting the state drops the bytes it was stored as"
    states.keep(changed, object())
    assert len(states) == 0
    states.keep(record("g", 3, {"x": 1}), object())
    assert states.take(changed) is None


def test_a_stored_record_parses_its_state_only_when_read():
    stored = record("g", 3, {"x": [1, 2]})
    assert isinstance(stored, StoredRecord) and stored._parsed is None, "nothing parsed yet"
    assert stored.state == {"x": [1, 2]} and stored.state_json == b'{"x":[1,2]}'
    stored.state = {"x": [3]}
    assert stored.state == {"x": [3]} and stored.state_json is None


def test_a_record_not_read_from_the_store_is_never_kept():
    states = DecodedStates()
    made = GameRecord(id="g", version=3, state={"x": 1}, **FIELDS)
    states.keep(made, object())
    assert made.state_json is None and len(states) == 0


def test_the_states_held_are_bounded():
    states = DecodedStates(size=3)
    for n in range(10):
        states.keep(record(f"g{n}", 1, {}), object())
    assert len(states) == 3
    assert states.take(record("g9", 1, {})) is not None
    assert states.take(record("g0", 1, {})) is None, "the games used last are kept"


def test_a_move_keeps_the_state_it_left_and_the_next_request_uses_it(client):
    # King of the Dice, two humans: the POST keeps the state it committed; the next read of
    # legal actions takes it (and keeps it again) instead of decoding, with the same answer
    # as a decoded state gives.
    created = create_humans(client, "kingdice", "decoded")
    game_id, tokens = created["id"], join_all(client, created)
    service = service_of(client.application)
    seat = int(min(client.get(f"/v1/games/{game_id}").get_json()["to_act"]))
    legal = client.get(f"/v1/games/{game_id}/legal-actions", headers=auth(tokens[seat]))
    action = legal.get_json()["actions"][0]["action"]
    moved = client.post(
        f"/v1/games/{game_id}/actions", json={"action": action}, headers=auth(tokens[seat])
    )
    assert moved.status_code == 200, moved.get_json()
    stored = service.store.load(game_id)
    assert stored is not None and stored.state_json == canonical_json(stored.state).encode()
    held = service.states.take(stored)
    assert held is not None, "the move kept the state it committed"
    game = get_game("kingdice")
    assert game.dump_state(held) == stored.state
    service.states.keep(stored, held)
    seat = int(min(moved.get_json()["to_act"]))
    again = client.get(f"/v1/games/{game_id}/legal-actions", headers=auth(tokens[seat]))
    service.states.take(stored)  # the next read decodes
    fresh = client.get(f"/v1/games/{game_id}/legal-actions", headers=auth(tokens[seat]))
    assert again.status_code == 200 and again.get_json() == fresh.get_json()
    assert again.get_json()["version"] == stored.version


def test_a_decision_notice_reads_the_held_state_and_keeps_it_again(client):
    # The seat's stream completes its notice from the state the move kept, then holds it
    # again for the next request; what it says is what decoding gives.
    created = create_humans(client, "kingdice", "decoded-notice")
    game_id = created["id"]
    join_all(client, created)
    service = service_of(client.application)
    stored = service.store.load(game_id)
    assert stored is not None
    seat = int(min(client.get(f"/v1/games/{game_id}").get_json()["to_act"]))
    held = service.states.decoded(get_game("kingdice"), stored)
    service.states.keep(stored, held)
    notice = service.briefing.owed(stored, seat, "full")
    assert service.states.take(stored) is held, "kept again after the notice"
    fresh = service.briefing.owed(stored, seat, "full")
    assert notice is not None and notice == fresh
