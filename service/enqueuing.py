"""Enqueueing many rq jobs of one function and options: rq's own commands, replayed.

rq's ``Queue.enqueue`` builds every job through its generic path (options parsed and
checked, callbacks, dependencies, the serializer resolved, the call described), about 60 us
of CPU warm and 240 us in a move's commit, where it runs with cold caches (Burgundy, a human
move handing the turn to a bot, 2026-11-25): between the human's move and its bot's job
reaching Redis. A :class:`Template` sends its first job through rq's own ``enqueue`` and
keeps the commands rq queued; each later job queues the same commands with its own id, call
(``data`` and ``description``, made by rq's serializer and ``get_call_string``) and times.
``tests/service/test_enqueuing.py`` checks them against rq's own, command for command.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from typing import Any
from uuid import uuid4

from rq import Queue
from rq.serializers import resolve_serializer
from rq.utils import get_call_string, now, utcformat

VARYING = ("created_at", "enqueued_at", "data", "description")
"""The fields of a job's hash that differ between two jobs of one template (its id aside)."""
SHAPE = ("SADD", "HSET", "HSET", "PUSH")
"""What rq queues for a plain job: the queue in the set of queues, the job's status, the job's
hash, its id pushed on the queue (RPUSH, or LPUSH at the front)."""


class Template:
    """Jobs of ``func`` (an importable name) with rq's enqueue ``options``, at the queue's
    end or ``at_front``, queued on a caller's pipeline (sent by the caller)."""

    def __init__(
        self, queue: Queue, func: str, options: dict[str, Any], at_front: bool = False
    ) -> None:
        self.queue = queue
        self.func = func
        self.options = options
        self.at_front = at_front
        self.serializer = resolve_serializer(queue.serializer)
        self.shape: tuple[list[tuple[Any, ...]], str, str] | None = None
        """The first job's commands, its id and its key: one value, set at once and read once
        by each job, so that a job never pairs one first job's commands with another's id
        (two threads may both find no template and set one)."""

    @property
    def commands(self) -> list[tuple[Any, ...]]:
        """The template's commands (none until a first job of a plain shape)."""
        return [] if self.shape is None else self.shape[0]

    def enqueue(self, pipe: Any, *args: Any) -> str:
        """Queue the job ``func(*args)`` on ``pipe``; its id."""
        shape = self.shape
        if shape is None:
            return self._first(pipe, args)
        commands, first_id, first_key = shape
        job_id = str(uuid4())
        stamp = utcformat(now())
        fields = {
            "created_at": stamp,
            "enqueued_at": stamp,
            "data": zlib.compress(self.serializer.dumps((self.func, None, args, {}))),
            "description": get_call_string(self.func, args, {}, max_length=75),
        }
        key = self.queue.job_class.key_for(job_id)
        for n, command in enumerate(commands):
            if n == 2:  # the job's hash: field, value pairs after the key
                pairs = list(command[2:])
                for i in range(0, len(pairs), 2):
                    if pairs[i] in fields:
                        pairs[i + 1] = fields[pairs[i]]
                pipe.execute_command(command[0], key, *pairs)
            else:
                pipe.execute_command(
                    *(key if a == first_key else job_id if a == first_id else a for a in command)
                )
        return job_id

    def _first(self, pipe: Any, args: Sequence[Any]) -> str:
        """The first job goes through rq's own enqueue; its commands become the template if
        they have a plain job's shape (``SHAPE``), else each job takes rq's path."""
        scratch = self.queue.connection.pipeline(transaction=False)  # never sent
        job = self.queue.enqueue(
            self.func, *args, at_front=self.at_front, pipeline=scratch, **self.options
        )
        stack = [(command, options) for command, options in scratch.command_stack]
        scratch.reset()
        for command, options in stack:
            pipe.execute_command(*command, **options)
        names = tuple(str(command[0]).upper() for command, _ in stack)
        plain = (
            len(names) == len(SHAPE)
            and names[:3] == SHAPE[:3]
            and names[3] == ("LPUSH" if self.at_front else "RPUSH")
            and not any(options for _, options in stack)
            and all(field in stack[2][0][2::2] for field in VARYING)
        )
        if plain:
            self.shape = ([command for command, _ in stack], job.id, job.key)
        return job.id
