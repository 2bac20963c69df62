"""The one rich console every command prints through (and its twin on stderr for errors),
and :func:`shown`, for the server's text printed through them."""

from __future__ import annotations

import re

from rich.console import Console
from rich.markup import escape

console = Console(highlight=False)
"""Normal output (stdout)."""

err_console = Console(stderr=True, highlight=False)
"""Error messages (stderr)."""

_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def shown(text: object) -> str:
    """``text`` from the server (a name, a problem's detail) made safe to print through the
    consoles: its control characters (a terminal's escape sequences) and bidirectional
    overrides (text shown in another order than written) dropped and its square
    brackets escaped, so rich shows it as written instead of reading it as markup (where an
    unbalanced ``[/b]`` raised MarkupError)."""
    return escape(_CONTROLS.sub("", str(text)))
