"""A move's answer carries the mover's next legal actions, and the hot answers are sent as
the service builds them (no marshmallow dump): each must already be its schema's dump.

Whole games of every game, played by the heuristic bots' scripts over the API (Flask test
client, real Redis), all seats human.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.games import get_game
from engine.simulate import make_bots, play
from service.api.play import ANSWERS
from tests.service.test_api_basics import auth

GAMES = ("carcassonne", "burgundy", "diceland", "kingdice")


def _start(client: Any, game: str) -> tuple[str, list[str], Any]:
    played = play(get_game(game), make_bots(get_game(game), ["heuristic"] * 2), f"answers-{game}")
    created = client.post(
        "/v1/games",
        json={
            "game": game,
            "seats": [{"kind": "human"}] * 2,
            "options": played.options,
            "seed": played.seed,
            "visibility": "public",
        },
    ).get_json()
    tokens = [
        client.post(f"/v1/games/{created['id']}/seats/{seat}/join", json={}).get_json()[
            "seat_token"
        ]
        for seat in range(2)
    ]
    return created["id"], tokens, played


@pytest.mark.parametrize("game", GAMES)
def test_a_moves_answer_holds_the_movers_next_legal_actions_only_when_it_decides_at_once(
    client: Any, game: str
) -> None:
    gid, tokens, played = _start(client, game)
    held, empty = 0, 0
    for seat, action in played.moves[:60]:
        reply = client.post(
            f"/v1/games/{gid}/actions", json={"action": action}, headers=auth(tokens[seat])
        )
        assert reply.status_code == 200, reply.get_json()
        answer = reply.get_json()
        assert reply.headers["ETag"] == f'"{answer["version"]}"'
        legal = client.get(f"/v1/games/{gid}/legal-actions", headers=auth(tokens[seat]))
        assert answer["actions"] == legal.get_json()["actions"]
        if str(seat) in answer["to_act"]:
            assert answer["actions"], "the mover decides again: its actions come with the answer"
            assert answer["to_act"][str(seat)]["decision"] == legal.get_json()["decision"]
            held += 1
        else:
            assert answer["actions"] == []
            empty += 1
    assert held + empty == min(60, len(played.moves))


@pytest.mark.parametrize("game", GAMES)
def test_the_hot_answers_are_their_schemas_dumps(client: Any, game: str) -> None:
    gid, tokens, played = _start(client, game)
    for seat, action in played.moves[:40]:
        headers = auth(tokens[seat])
        view = client.get(f"/v1/games/{gid}/view", headers=headers).get_json()
        assert ANSWERS["View"].dump(view) == view
        legal = client.get(f"/v1/games/{gid}/legal-actions", headers=headers).get_json()
        assert ANSWERS["LegalActions"].dump(legal) == legal
        answer = client.post(
            f"/v1/games/{gid}/actions", json={"action": action}, headers=headers
        ).get_json()
        assert ANSWERS["MoveResult"].dump(answer) == answer


def test_a_bot_jobs_answer_leaves_out_the_view_which_only_clients_read(client: Any) -> None:
    # A bot seat's job reads its answer's version and to_act only; building the view would
    # delay its commit. The same move made for a client answers with the view.
    from service.context import service_of
    from service.moves import MoveRequest

    gid, _, played = _start(client, "kingdice")
    service = service_of(client.application)
    (seat, action), (seat2, action2) = played.moves[:2]
    answer, _ = service.play(gid, MoveRequest(action, seat, answer_view=False, next_actions=False))
    assert answer["view"] is None
    assert answer["version"] == service.record(gid).version
    assert answer["to_act"] == client.get(f"/v1/games/{gid}").get_json()["to_act"]
    answer, _ = service.play(gid, MoveRequest(action2, seat2))
    assert answer["view"] is not None and answer["view"]["you"] == seat2
