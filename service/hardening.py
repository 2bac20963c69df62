"""Limits on what a request may carry, checked before any handler parses it.

- a body larger than ``DICEHALL_MAX_BODY`` bytes (default 65,536) is ``413 body_too_large``;
- a body that does not arrive whole within ``DICEHALL_BODY_SECONDS`` (default 5: a
  ``Content-Length`` larger than what is sent) is ``408 body_timeout``; a chunked body
  that does not parse is ``400 malformed_body``;
- a body that is not UTF-8, or whose strings hold an unpaired surrogate (``"\\ud800"``: no
  character; Python's decoder lets it through, then no answer that holds it could be
  encoded, a seat's name answered 500 to every listing of its game) is
  ``400 invalid_json``;
- JSON nested deeper than ``MAX_DEPTH`` or with a number of more than ``MAX_NUMBER_CHARS``
  characters is ``422 json_too_deep`` / ``json_number_too_long`` (Python would otherwise
  recurse without bound or refuse to convert it, both 500s);
- a body that is not JSON (its ``Content-Type`` not ``application/json`` or another
  ``...json`` type) is ``415 unsupported_media_type``: read as a form, it would be taken for
  no body at all (a move answered "action: missing", a join made without its name).

Only a POST's body is read: no other route takes one. Every operation with a body documents
these answers (``service.api.BODY_PROBLEMS``).

Header limits (request line, header size) are gunicorn's (``deploy/gunicorn.conf.py``); its
own answers are rewritten as problem+json by :mod:`service.gunicorn_errors`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from flask import Flask, request
from werkzeug.exceptions import ClientDisconnected

from service.problems import Problem

MAX_DEPTH = 32
MAX_NUMBER_CHARS = 40
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NUMBER = re.compile(r"-?[0-9][0-9.eE+-]*")
_LONG_RUN = re.compile("[0-9.eE+-]{" + str(MAX_NUMBER_CHARS + 1) + "}")
"""A run of number characters longer than a number may be: without one anywhere in the text,
no number in it is too long."""
_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|.)", re.DOTALL)
"""An escape of a JSON string (``\\uXXXX`` with its code), from left to right."""
_BODY_METHODS = frozenset({"POST"})
"""The methods whose routes read a body (the others' bodies are never read)."""
BODY_SECONDS = "dicehall.body_seconds"
"""Where the app keeps ``DICEHALL_BODY_SECONDS``."""


def check_json_text(text: str) -> None:
    """Refuse JSON text nested too deep or holding an over-long number. Raises Problem 422.
    Malformed JSON passes: the schema layer answers it as ``invalid_json``."""
    if text.count("[") + text.count("{") <= MAX_DEPTH and _LONG_RUN.search(text) is None:
        return  # no deeper nesting than brackets, no longer number than a run: nothing to find
    bare = _STRING.sub('""', text)
    depth = deepest = 0
    for char in bare:
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_DEPTH:
                raise Problem(
                    422, "json_too_deep", f"the JSON body nests deeper than {MAX_DEPTH} levels"
                )
        elif char in "]}":
            depth -= 1
    for match in _NUMBER.finditer(bare):
        if len(match.group()) > MAX_NUMBER_CHARS:
            raise Problem(
                422,
                "json_number_too_long",
                f"a number in the JSON body has more than {MAX_NUMBER_CHARS} characters",
            )


def unpaired_surrogate(text: str) -> bool:
    """Whether an escape of ``text`` is half a surrogate pair without its other half."""
    if "\\u" not in text:
        return False
    high_ended = None  # where the escape of a high surrogate waiting for its low one ended
    for match in _ESCAPE.finditer(text):
        code = int(match.group(1), 16) if match.group(1) else None
        low = code is not None and 0xDC00 <= code <= 0xDFFF
        if high_ended is not None:
            if not (low and match.start() == high_ended):
                return True
            high_ended = None
        elif low:
            return True
        elif code is not None and 0xD800 <= code <= 0xDBFF:
            high_ended = match.end()
    return high_ended is not None


@contextmanager
def socket_timeout(environ: Mapping[str, Any], seconds: float) -> Iterator[None]:
    """A timeout of ``seconds`` on the client socket (gunicorn's), while the body is read."""
    sock: Any = environ.get("gunicorn.socket")
    timed = hasattr(sock, "settimeout") and hasattr(sock, "gettimeout")
    previous = sock.gettimeout() if timed else None
    try:
        if timed:
            sock.settimeout(seconds)
        yield
    finally:
        if timed:
            sock.settimeout(previous)


def _read_body(seconds: float) -> bytes:
    """The request body, read with a timeout on the client socket when there is one."""
    try:
        with socket_timeout(request.environ, seconds):
            return request.get_data(cache=True)
    except TimeoutError:
        raise Problem(
            408, "body_timeout", f"the body did not arrive whole within {seconds:g} s"
        ) from None


def init_app(app: Flask) -> None:
    """Limit the body size and check every request body before the handlers see it."""
    if app.config.get("MAX_CONTENT_LENGTH") is None:
        app.config["MAX_CONTENT_LENGTH"] = int(os.environ.get("DICEHALL_MAX_BODY", "65536"))
    seconds = app.extensions[BODY_SECONDS] = float(os.environ.get("DICEHALL_BODY_SECONDS", "5"))

    @app.before_request
    def check_body() -> None:
        if request.method not in _BODY_METHODS:
            return
        try:
            data = _read_body(seconds)
        except Problem:
            raise
        except Exception as exc:
            if isinstance(exc, ClientDisconnected):
                raise Problem(
                    408,
                    "body_timeout",
                    f"the body did not arrive whole within {seconds:g} s "
                    f"(Content-Length said {request.content_length} bytes)",
                ) from None
            if getattr(exc, "code", None) == 413:
                raise
            if getattr(exc, "code", None) == 400 or type(exc).__module__.startswith("gunicorn"):
                raise Problem(400, "malformed_body", f"the body could not be read: {exc}") from None
            raise
        if not data:
            return
        kind = request.mimetype
        if not kind.endswith("json"):  # else the body would be read as no body at all
            sent = f"not {kind}" if kind else "with its Content-Type"
            raise Problem(
                415, "unsupported_media_type", f"send the body as application/json, {sent}"
            )
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise Problem(400, "invalid_json", "the body is not UTF-8") from None
        if unpaired_surrogate(text):
            raise Problem(
                400, "invalid_json", "a string of the body holds an unpaired surrogate escape"
            )
        check_json_text(text)
