"""The one SSE generator behind both feeds: its first lines, its end, its time cap."""

from __future__ import annotations

import json
import os

import pytest

from service.api.sse import FIRST_LINES, TIME_UP_HINT
from service.keys import Keys
from service.lifecycle import DRAIN_HINT
from tests.service.test_api_basics import auth, create_toy, join_all, play_toy_to_end


@pytest.fixture()
def short_client(redis_client):
    """A client of an app whose streams run one heartbeat (0.05 s) and then reach their cap."""
    from service.app import create_app
    from service.config import Settings

    settings = Settings(redis_url=os.environ["REDIS_URL"], heartbeat=0.05, stream_seconds=0)
    return create_app({"TESTING": True, "DICEHALL": settings}).test_client()


def chunks(reply) -> list[str]:
    assert reply.status_code == 200, reply.get_data(as_text=True)
    assert reply.mimetype == "text/event-stream"
    return [f"{chunk}\n\n" for chunk in reply.get_data(as_text=True).split("\n\n") if chunk]


def test_bot_feed_stream_reaching_its_cap_ends_with_a_retry_hint(short_client):
    bot = short_client.post("/v1/bots", json={"name": "capped", "owner": "me@example.org"})
    lines = chunks(
        short_client.get("/v1/bots/me/feed/stream", headers=auth(bot.get_json()["token"]))
    )
    assert lines == [FIRST_LINES, "event: pending\ndata: []\n\n", ": heartbeat\n\n", TIME_UP_HINT]
    assert TIME_UP_HINT.startswith("retry: ") and TIME_UP_HINT != DRAIN_HINT


def test_game_event_stream_reaching_its_cap_ends_with_a_retry_hint(short_client):
    game = create_toy(short_client)
    tokens = join_all(short_client, game)
    lines = chunks(
        short_client.get(f"/v1/games/{game['id']}/events/stream", headers=auth(tokens[0]))
    )
    assert lines[0] == FIRST_LINES and lines[1].startswith("event: pending\n")
    assert any(line.startswith("id: ") for line in lines), "the events so far come first"
    assert lines[-1] == TIME_UP_HINT


def test_stream_of_a_finished_game_ends_after_its_events_without_a_hint(short_client):
    game = create_toy(short_client)
    tokens = join_all(short_client, game)
    play_toy_to_end(short_client, game["id"], tokens)
    lines = chunks(
        short_client.get(f"/v1/games/{game['id']}/events/stream", headers=auth(tokens[0]))
    )
    assert "event: game_over\n" in lines[-1]
    assert TIME_UP_HINT not in lines and ": heartbeat\n\n" not in lines


def test_bot_feed_stream_says_pending_again_so_a_lost_notice_is_offered_again(redis_client):
    """A notice written after its move's commit can be lost to a Redis failover (the commit
    replicated, the notice not): the stream says ``pending`` again every
    ``pending_seconds``, so the decision is offered again without any new event. Here
    ``pending_seconds=0`` repeats it on the stream's one pass (``stream_seconds=0``), so the
    lines do not depend on the machine's speed."""
    from service.app import create_app
    from service.config import Settings

    settings = Settings(
        redis_url=os.environ["REDIS_URL"], heartbeat=0.05, stream_seconds=0, pending_seconds=0
    )
    client = create_app({"TESTING": True, "DICEHALL": settings}).test_client()
    bot = client.post("/v1/bots", json={"name": "forgetful", "owner": "me@example.org"})
    account = bot.get_json()
    other = client.post("/v1/bots", json={"name": "other", "owner": "me@example.org"})
    seats = [{"kind": "external", "account": a["id"]} for a in (account, other.get_json())]
    game = client.post("/v1/games", json={"game": "toy", "seats": seats}).get_json()
    feed_key = Keys(settings.key_prefix).account(account["id"], "feed")
    assert redis_client.delete(feed_key) == 1, "the feed held the game's notices"

    lines = chunks(client.get("/v1/bots/me/feed/stream", headers=auth(account["token"])))
    assert lines[0] == FIRST_LINES and lines[-2:] == [": heartbeat\n\n", TIME_UP_HINT], lines
    said = [json.loads(line.split("data: ", 1)[1]) for line in lines[1:-2]]
    assert lines[1:-2] == [line for line in lines if line.startswith("event: pending\n")]
    assert len(said) == 2, "said at the start, then again without any event"
    for pending in said:
        assert {(n["game_id"], n["decision"]) for n in pending} == {(game["id"], 0)}


def test_a_stream_sends_the_events_before_working_out_a_later_one():
    """A completed decision notice (a read and the seat's legal actions) is worked out only
    when its turn comes, so the move before it is already on its way; a later event that
    comes to nothing is left out."""
    from service.api.sse import _generate

    worked_out: list[str] = []

    def notice() -> dict:
        worked_out.append("notice")
        return {"id": "1-0", "type": "decision_due"}

    def nothing() -> None:
        worked_out.append("nothing")

    action = {"id": "1-0", "type": "action"}
    stream = _generate(
        lambda cursor: ([action, notice, nothing], "1-0"), "0", [], True, False, lambda e: False, 60
    )
    assert next(stream) == FIRST_LINES
    assert next(stream).startswith("event: pending")
    assert json.loads(next(stream).split("data: ", 1)[1]) == action
    assert worked_out == []
    assert "event: decision_due" in next(stream)
    assert worked_out == ["notice"]
    assert list(stream) == []
    assert worked_out == ["notice", "nothing"]


def test_a_stream_sends_a_moves_events_in_one_write():
    """The events of a read go out in one write (one chunk), not one each: a move's action,
    events and next prompt reach the client together, with one wake-up of its reader."""
    from service.api.sse import _generate

    events = [
        {"id": "1-0", "type": "action"},
        {"id": "1-1", "type": "game_event"},
        {"id": "1-2", "type": "to_act"},
    ]
    stream = _generate(lambda cursor: (events, "1-2"), "0", [], True, False, lambda e: False, 60)
    assert next(stream) == FIRST_LINES
    assert next(stream).startswith("event: pending")
    write = next(stream)
    assert [block.split("\n")[1] for block in write.split("\n\n") if block] == [
        f"event: {event['type']}" for event in events
    ]
    assert list(stream) == []


def test_a_stream_ends_with_the_write_of_the_event_that_finishes_its_feed():
    from service.api.sse import _generate

    events = [{"id": "1-0", "type": "action"}, {"id": "1-1", "type": "game_over"}, {"id": "2-0"}]
    stream = _generate(
        lambda cursor: (events, "2-0"),
        "0",
        [],
        False,
        False,
        lambda e: e["type"] == "game_over",
        60,
    )
    next(stream), next(stream)
    write = next(stream)
    assert "event: action" in write and write.endswith('"type": "game_over"}\n\n'), write
    assert list(stream) == []
