"""The ``Prefer`` request header (RFC 7240) of ``POST actions``: ``return=minimal``.

A client that follows its game through the event stream, or a bot that needs only its next
legal actions, may ask a move to answer without the mover's view (``view: null``; the
version, ``to_act``, events and next actions stay). The header is a comma-separated list
of preferences, each ``token [= word]`` followed by ``;`` parameters (ignored here); tokens
and the ``return`` values are case-insensitive, a preference given twice counts the first
time only. Anything this parser cannot read (a malformed list, an unknown preference, an
unknown ``return`` value) is ignored, never refused, as RFC 7240 asks: the answer is then
the full one (``return=representation``, the default).
"""

from __future__ import annotations

import re

MINIMAL = "return=minimal"
"""The preference (and its ``Preference-Applied`` answer) that leaves the view out."""

_TOKEN = r"[!#$%&'*+.^_`|~0-9A-Za-z-]+"
_PREFERENCE = re.compile(rf'[ \t]*({_TOKEN})[ \t]*(?:=[ \t]*({_TOKEN}|"(?:[^"\\]|\\.)*")[ \t]*)?')


def _split(text: str, separator: str) -> list[str]:
    """``text`` cut at each ``separator`` outside a quoted string."""
    parts, start, quoted, escaped = [], 0, False, False
    for at, char in enumerate(text):
        if escaped:
            escaped = False
        elif quoted and char == "\\":
            escaped = True
        elif char == '"':
            quoted = not quoted
        elif char == separator and not quoted:
            parts.append(text[start:at])
            start = at + 1
    parts.append(text[start:])
    return parts


def wants_minimal(prefer: str | None) -> bool:
    """Whether a ``Prefer`` header asks for ``return=minimal``: its first well-formed
    ``return`` preference does (``return=representation``, or a value this service does not
    know, asks for the full answer; a ``return`` after it is not considered)."""
    if not prefer:
        return False
    for preference in _split(prefer, ","):
        match = _PREFERENCE.fullmatch(_split(preference, ";")[0])
        if match is not None and match.group(1).lower() == "return":
            return (match.group(2) or "").strip('"').lower() == "minimal"
    return False
