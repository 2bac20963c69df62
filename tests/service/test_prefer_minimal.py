"""``Prefer: return=minimal`` (RFC 7240) on ``POST actions``: the answer leaves the mover's
view out (``view: null``) and says ``Preference-Applied: return=minimal``; everything else
is the full answer's. A malformed or unknown preference is ignored. A retry under an
Idempotency-Key gets the stored first answer in the form it was first given. (The lean
path and Flask's answer these requests alike: ``tests/service/test_lean_path.py``.)"""

from __future__ import annotations

from typing import Any

import pytest

from engine.games import LISTED
from service.prefer import wants_minimal
from tests.service.test_api_basics import auth, create_humans, join_all

MINIMAL = {"Prefer": "return=minimal"}


@pytest.mark.parametrize(
    "header",
    [
        "return=minimal",
        "RETURN=Minimal",
        "return = minimal",
        'return="minimal"',
        "respond-async, return=minimal; foo=bar",
        "wait=10,return=minimal",
        'foo="a,return=representation", return=minimal',
        "return=minimal, return=representation",
    ],
)
def test_a_prefer_header_asking_for_the_minimal_answer_is_read(header: str) -> None:
    assert wants_minimal(header)


@pytest.mark.parametrize(
    "header",
    [
        None,
        "",
        "return=representation",
        "return=representation, return=minimal",
        "return=banana, return=minimal",  # RFC 7240: only the first instance is considered
        "return, return=minimal",
        "respond-async",
        "return",
        "return=",
        "return=minimal-ish",
        "returns=minimal",
        'return="minimal',
        "return minimal",
        ",,;;==",
        "return=minimal=1",
        "\x00return=minimal",
    ],
)
def test_a_prefer_header_not_asking_for_it_or_malformed_is_ignored(header: str | None) -> None:
    assert not wants_minimal(header)


def post(client, game_id: str, token: str, action: Any, **headers: str) -> Any:
    return client.post(
        f"/v1/games/{game_id}/actions", json={"action": action}, headers={**auth(token), **headers}
    )


def first_legal(client, game_id: str, token: str) -> Any:
    legal = client.get(f"/v1/games/{game_id}/legal-actions", headers=auth(token)).get_json()
    return legal["actions"][0]["action"]


def owing(client, game_id: str) -> int:
    return int(min(client.get(f"/v1/games/{game_id}").get_json()["to_act"]))


def twins(client, game: str) -> list[tuple[str, list[str]]]:
    """Two games of ``game`` with the same seed: the same moves give the same answers."""
    made = [create_humans(client, game, f"{game}-twins") for _ in range(2)]
    return [(g["id"], join_all(client, g)) for g in made]


def but_view(answer: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in answer.items() if k not in ("view", "game_id")}


@pytest.mark.parametrize("game", LISTED)
def test_a_minimal_answer_is_the_full_answer_without_the_view(client, game: str) -> None:
    (full_id, full_tokens), (lean_id, lean_tokens) = twins(client, game)
    for _ in range(4):
        seat = owing(client, full_id)
        action = first_legal(client, full_id, full_tokens[seat])
        full = post(client, full_id, full_tokens[seat], action)
        minimal = post(client, lean_id, lean_tokens[seat], action, **MINIMAL)
        assert full.status_code == minimal.status_code == 200, (full.json, minimal.json)
        assert minimal.get_json()["view"] is None
        assert isinstance(full.get_json()["view"], dict)
        assert but_view(minimal.get_json()) == but_view(full.get_json())
        assert minimal.headers["Preference-Applied"] == "return=minimal"
        assert "Preference-Applied" not in full.headers
        assert full.headers["Vary"] == minimal.headers["Vary"] == "Prefer"
        assert full.headers["ETag"] == minimal.headers["ETag"]


@pytest.mark.parametrize(
    "prefer", ["return=representation", "return=tiny", 'return="minimal', "handling=lenient"]
)
def test_a_move_whose_prefer_is_not_minimal_gets_the_full_answer(client, prefer: str) -> None:
    game = create_humans(client, "diceland", "prefer-ignored")
    tokens = join_all(client, game)
    seat = owing(client, game["id"])
    action = first_legal(client, game["id"], tokens[seat])
    moved = post(client, game["id"], tokens[seat], action, Prefer=prefer)
    assert moved.status_code == 200, moved.get_json()
    assert isinstance(moved.get_json()["view"], dict)
    assert "Preference-Applied" not in moved.headers and moved.headers["Vary"] == "Prefer"


@pytest.mark.parametrize(
    ("first", "retry"),
    [(MINIMAL, {}), ({}, MINIMAL), (MINIMAL, {"Prefer": "return=representation"})],
)
def test_a_retry_gets_the_first_answer_in_the_form_it_was_given(
    client, first: dict[str, str], retry: dict[str, str]
) -> None:
    game = create_humans(client, "kingdice", "prefer-retry")
    tokens = join_all(client, game)
    seat = owing(client, game["id"])
    action = first_legal(client, game["id"], tokens[seat])
    key = {"Idempotency-Key": "prefer-retry-1"}
    answered = post(client, game["id"], tokens[seat], action, **key, **first)
    again = post(client, game["id"], tokens[seat], action, **key, **retry)
    assert answered.status_code == again.status_code == 200, again.get_json()
    assert again.get_json() == answered.get_json()
    assert (again.get_json()["view"] is None) == bool(first)
    assert again.headers.get("Preference-Applied") == answered.headers.get("Preference-Applied")
    assert again.headers.get("Preference-Applied") == ("return=minimal" if first else None)
    log = client.get(f"/v1/games/{game['id']}/log").get_json()
    assert log["version"] == 1, "the retry made no second move"


def test_a_move_decided_on_a_held_record_answers_minimal_too(app, client) -> None:
    from service.context import service_of

    service = service_of(app)
    game = create_humans(client, "carcassonne", "prefer-held")
    tokens = join_all(client, game)
    for _ in range(2):
        seat = owing(client, game["id"])
        action = first_legal(client, game["id"], tokens[seat])
        assert post(client, game["id"], tokens[seat], action).status_code == 200
    assert service.held._entries.get(game["id"]) is not None, "the last move left its record"
    seat = owing(client, game["id"])
    action = first_legal(client, game["id"], tokens[seat])
    loads: list[Any] = []
    store = service.store
    original = store.load

    def load(*args: Any, **kwargs: Any) -> Any:
        loads.append(args)
        return original(*args, **kwargs)

    store.load = load  # type: ignore[method-assign]
    moved = post(client, game["id"], tokens[seat], action, **MINIMAL)
    assert moved.status_code == 200 and loads == [], (moved.get_json(), loads)
    assert moved.get_json()["view"] is None and moved.get_json()["version"] == 3
    assert moved.headers["Preference-Applied"] == "return=minimal"
