"""redis-py's reply parser, with its check of a pooled connection made cheap under gevent.

Each time redis-py takes a connection from its pool it asks the parser whether the socket
holds unread data (``can_read(0)``): a connection left dirty or closed by the server must not
be reused. The check polls the socket with a timeout of 0. In the API's gunicorn workers,
gevent has patched ``select.poll``, and its poll goes through the event loop (a watcher per
socket, a switch to the hub and back) to answer the same question: under the move
benchmark that was about 7% of the API workers' Python time, paid two or three times a
move (the read, the commit, a bot's job).

:class:`ReadinessParser` asks the operating system's own ``poll`` first (the original
function, not gevent's; with a timeout of 0 it never blocks, so it cannot stall the other
greenlets). A socket with nothing to read, the common case, is answered at once; any other
answer goes to redis-py's own check unchanged, which tells pending data from a closed
connection as before. Outside gevent the original ``poll`` is the same function redis-py
uses, so nothing changes there.
"""

from __future__ import annotations

import select
import sys
from collections.abc import Callable
from typing import Any

from redis._parsers import _HiredisParser


def _os_poll() -> Callable[[], Any]:
    """The operating system's ``select.poll`` (gevent's monkey-patching keeps the original)."""
    monkey = sys.modules.get("gevent.monkey")
    if monkey is not None:
        original: Callable[[], Any] = monkey.get_original("select", "poll")
        return original
    return select.poll


class ReadinessParser(_HiredisParser):
    """redis-py's hiredis parser whose idle check asks the OS first (see the module)."""

    def can_read(self, timeout: float = 0) -> bool:
        sock, reader = getattr(self, "_sock", None), getattr(self, "_reader", None)
        if timeout == 0 and sock is not None and reader is not None and not reader.has_data():
            # an SSL socket may hold decrypted bytes the OS does not see: redis-py's check
            pending = getattr(sock, "pending", None)
            fileno = sock.fileno()
            if fileno >= 0 and not (pending is not None and pending()):
                poller = _os_poll()()
                poller.register(fileno, select.POLLIN)
                if not poller.poll(0):
                    return False
        return bool(super().can_read(timeout))
