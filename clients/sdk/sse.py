"""A small Server-Sent Events parser (the ``text/event-stream`` format of the HTML spec).

:func:`parse_events` turns an iterator of decoded lines into :class:`ServerEvent` objects;
comment lines (``: heartbeat``) are skipped, ``retry:`` is ignored.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ServerEvent:
    """One event of the stream: ``id`` (the resume cursor), ``event`` type and ``data``.

    ``data`` is the decoded JSON when the payload is JSON, else the raw text.
    """

    id: str | None
    event: str
    data: Any


def _decode(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def parse_events(lines: Iterable[str]) -> Iterator[ServerEvent]:
    """Yield each complete event of an SSE line stream (dispatched on a blank line)."""
    event_id: str | None = None
    event_type = ""
    data: list[str] = []
    for raw in lines:
        line = raw.rstrip("\r")
        if not line:
            if data:
                yield ServerEvent(event_id, event_type or "message", _decode("\n".join(data)))
            event_type, data = "", []
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "data":
            data.append(value)
        elif name == "event":
            event_type = value
        elif name == "id" and "\0" not in value:
            event_id = value
