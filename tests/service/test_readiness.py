"""A pooled Redis connection is checked before reuse with the same answers as redis-py's
own parser gives (idle, unread data, a socket the server closed), using the operating
system's poll even where gevent has patched it (``service.readiness``)."""

from __future__ import annotations

import subprocess
import sys

import redis

from service.connections import connect
from service.readiness import ReadinessParser
from tests.conftest import wait_until


def _only_connection(client: redis.Redis) -> redis.connection.Connection:
    """The one idle connection of ``client``'s pool (after one command)."""
    pool = client.connection_pool
    connection = pool.get_connection()
    pool.release(connection)
    return connection


def test_the_clients_of_the_service_use_the_readiness_parser(redis_url: str) -> None:
    client = connect(redis_url)
    client.ping()
    assert isinstance(_only_connection(client)._parser, ReadinessParser)  # type: ignore[attr-defined]


def test_a_connection_with_an_unread_reply_reads_as_ready(redis_url: str) -> None:
    """As redis-py's own parser answers (whether the pool then drops the connection is
    redis-py's choice, unchanged)."""
    for client in (connect(redis_url), redis.Redis.from_url(redis_url)):
        client.set("readiness:x", "1")
        connection = _only_connection(client)
        connection.send_command("GET", "readiness:x")  # its reply is not read yet
        wait_until(connection.can_read, 10, "the reply to arrive")
        assert connection.read_response() in ("1", b"1")
        assert connection.can_read() is False


def test_a_connection_the_server_closed_is_replaced(redis_url: str) -> None:
    client = connect(redis_url)
    client.set("readiness:z", "2")
    connection = _only_connection(client)
    killer = connect(redis_url)
    killer.client_kill_filter(_id=client.client_id())
    wait_until(lambda: _raises_closed(connection), 10, "the server to close the connection")
    assert client.get("readiness:z") == "2"  # reconnected by the pool, not an error


def _raises_closed(connection: redis.connection.Connection) -> bool:
    try:
        connection.can_read()
    except redis.ConnectionError:
        return True
    return False


def test_an_idle_connection_is_ready_for_reuse(redis_url: str) -> None:
    client = connect(redis_url)
    client.ping()
    assert _only_connection(client).can_read() is False


def test_under_gevent_the_check_polls_with_the_operating_systems_poll() -> None:
    code = (
        "from gevent import monkey; monkey.patch_all()\n"
        "import select, gevent.select\n"
        "from service.readiness import _os_poll\n"
        "assert select.poll is gevent.select.poll\n"
        "assert _os_poll() is not gevent.select.poll, _os_poll()\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
