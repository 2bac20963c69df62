"""gunicorn's access log as one JSON object a line (``DICEHALL_LOG_FORMAT=json``).

gunicorn fills ``access_log_format`` with its atoms escaping only ``"`` (``SafeAtoms``), so a
request line holding a backslash (the request target may: RFC 9112 leaves it to the server)
made a line that is not JSON, or one with fields of the client's choosing. Here every atom
is escaped as the inside of a JSON string. Imports no Flask (the gunicorn master loads it).
"""

from __future__ import annotations

import json
from typing import Any

from gunicorn.glogging import Logger, SafeAtoms


class JsonAtoms(SafeAtoms):
    """gunicorn's atoms, each text escaped for a JSON string (quotes, backslashes, controls)."""

    def __init__(self, atoms: dict[str, Any]) -> None:
        super().__init__(atoms)
        for key, value in atoms.items():
            if isinstance(value, str):
                self[key] = json.dumps(value)[1:-1]


class JsonAccessLogger(Logger):
    """gunicorn's logger, its access lines escaped for the JSON ``access_log_format``."""

    atoms_wrapper_class = JsonAtoms
