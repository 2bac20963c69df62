"""Commands sent by ``service.wire.round_trip`` get exactly the replies and errors that
redis-py's pipeline gives them, and the connection stays in step after an error."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from redis.client import NEVER_DECODE

from service.connections import connect
from service.store import GameStore
from service.wire import round_trip


@pytest.fixture()
def client(redis_url: str) -> redis.Redis:
    made: redis.Redis = connect(redis_url)
    made.delete("wire:n", "wire:h", "wire:s")
    made.hset("wire:h", mapping={"a": "1", "b": "é"})
    return made


def queued(client: redis.Redis) -> Any:
    pipe = client.pipeline(transaction=False)
    pipe.incr("wire:n")
    pipe.expire("wire:n", 60)
    pipe.execute_command("HMGET", "wire:h", "a", "b", "c", **{NEVER_DECODE: True})
    pipe.hmget("wire:h", ["a", "b"])
    pipe.set("wire:s", "x")
    pipe.get("wire:s")
    return pipe


def test_the_replies_are_the_pipelines(client):
    expected = queued(client).execute()
    client.delete("wire:n")
    assert round_trip(client, queued(client).command_stack) == expected
    assert expected[1:4] == [True, [b"1", "é".encode(), None], ["1", "é"]]


def test_an_error_reply_is_raised_after_every_reply_is_read(client):
    pipe = queued(client)
    pipe.lpush("wire:h", "x")  # a hash is not a list: WRONGTYPE
    pipe.incr("wire:n")
    with pytest.raises(redis.ResponseError, match="WRONGTYPE"):
        pipe.execute()
    client.delete("wire:n")
    stack = queued(client)
    stack.lpush("wire:h", "x")
    stack.incr("wire:n")
    with pytest.raises(redis.ResponseError, match="WRONGTYPE"):
        round_trip(client, stack.command_stack)
    assert client.get("wire:n") == "2", "the commands after the error ran"
    assert round_trip(client, [(("GET", "wire:n"), {})]) == ["2"], "the connection is in step"


def test_nothing_to_send_is_no_round_trip(client):
    assert round_trip(client, []) == []


def test_a_dropped_connection_is_made_again(client, redis_url):
    [pooled] = round_trip(client, [(("CLIENT", "ID"), {})])  # the pool's one connection
    other = redis.Redis.from_url(redis_url)
    assert other.client_kill_filter(_id=pooled) == 1
    other.close()
    assert round_trip(client, [(("GET", "wire:s"), {})]) == [None]


def test_arguments_redis_cannot_take_are_refused(client):
    with pytest.raises(redis.DataError):
        round_trip(client, [(("SET", "wire:s", None), {})])


def test_two_word_commands_and_memoryviews_are_packed_as_redis_py_packs_them(client):
    commands = [(("CONFIG GET", "maxmemory"), {}), (("SET", "wire:s", memoryview(b"mv")), {})]
    config, stored = round_trip(client, commands)
    assert list(config) == ["maxmemory"] and stored is True
    assert client.get("wire:s") == "mv"


def test_store_send_keeps_an_explicit_transaction_atomic_and_empties_the_pipeline(client):
    pipe = client.pipeline(transaction=False)
    pipe.multi()  # MULTI asked for by hand: round_trip (no MULTI/EXEC) must not take it
    pipe.incr("wire:n")
    pipe.execute_command("INCR")  # wrong arity: the whole transaction is refused
    with pytest.raises(redis.ResponseError):
        GameStore.send(pipe)
    assert client.get("wire:n") is None, "nothing of a refused transaction ran"
    plain = client.pipeline(transaction=False)
    plain.incr("wire:n")
    assert GameStore.send(plain) == [1]
    assert plain.command_stack == [], "sent commands are not sent again"
    assert GameStore.send(plain) == []
    assert client.get("wire:n") == "1"
