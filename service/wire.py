"""Commands in one round trip, without redis-py's pipeline machinery around them.

A move reads its game (with the rate limiter's counters) in one round trip and commits it in
another. redis-py's ``Pipeline.execute`` costs about twice the CPU of the exchange itself (its
bookkeeping, observability hooks and reset around the same packing and parsing): some 40 us
a round trip, two or three a move. :func:`round_trip` sends a pipeline's queued commands
(``Pipeline.command_stack``, or the same ``(args, options)`` pairs) on a connection of the
client's pool and reads their replies with the client's own ``parse_response``, so the replies
are exactly what ``pipeline(transaction=False).execute()`` gives: the response callbacks
applied, ``NEVER_DECODE`` honoured, and the first error reply raised once every reply has been
read (the connection stays in step). A connection that fails is dropped and the exchange tried
again as the connection's retry policy says, as redis-py's pipeline does. For a plain
``redis.Redis`` (one server, or a Sentinel's primary); a cluster client goes through its own
pipeline. Not done here, as dicehall uses none of it: redis-py 8's HIMPORT field-set
bookkeeping around a pipeline.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import hiredis
import redis
from redis.exceptions import DataError, ResponseError

Command = tuple[tuple[Any, ...], dict[str, Any]]
"""A command's arguments (its name first) and its parsing options, as a pipeline queues it."""


def round_trip(client: redis.Redis, commands: Sequence[Command]) -> list[Any]:
    """The replies of ``commands``, sent together on one of ``client``'s connections.
    Raises the first error reply (after reading them all), or the connection's error once its
    retries are spent."""
    if not commands:
        return []
    pool = client.connection_pool
    connection = pool.get_connection()
    try:
        replies: list[Any] = connection.retry.call_with_retry(
            lambda: _exchange(client, connection, commands),
            lambda _error: connection.disconnect(),
        )
    finally:
        pool.release(connection)
    return replies


def _exchange(client: redis.Redis, connection: Any, commands: Sequence[Command]) -> list[Any]:
    connection.send_packed_command(packed(connection, commands))
    replies: list[Any] = []
    for args, options in commands:
        try:
            replies.append(client.parse_response(connection, args[0], **options))
        except ResponseError as error:
            replies.append(error)
    for number, (reply, (args, _)) in enumerate(zip(replies, commands, strict=True), 1):
        if isinstance(reply, ResponseError):
            annotate = getattr(client, "annotate_exception", None)
            if annotate is not None:  # "Command # n (...) of pipeline caused error", as redis-py
                annotate(reply, number, args)
            raise reply
    return replies


def packed(connection: Any, commands: Sequence[Command]) -> list[bytes]:
    """``commands`` in Redis's protocol, packed by hiredis without redis-py's per-argument
    checks when every command is named by one word and its arguments are ``str``, ``bytes``,
    ``int`` or ``float`` (a move's commands); anything else (``"CONFIG GET"``, a memoryview)
    by the connection's own packer, as redis-py's pipeline packs it."""
    if all(" " not in str(args[0]) for args, _ in commands):
        try:
            return [b"".join([hiredis.pack_command(args) for args, _ in commands])]
        except TypeError:
            pass
    try:
        chunks: list[bytes] = connection.pack_commands([args for args, _ in commands])
    except TypeError as error:
        raise DataError(str(error)) from None
    return chunks
