"""The API's JSON encoding: orjson for every answer Flask's ``jsonify`` makes.

The answers of the hot endpoints (a move with the mover's next legal actions, a view, the
legal actions) are 2 to 20 kB of plain dicts; the standard library's encoder took over a
millisecond for a Burgundy answer, orjson a tenth of that. Decoding stays the standard
library's (``request.get_json``), so what a request body may hold (big integers, the limits
of :mod:`service.hardening`) is unchanged.

Anything orjson does not encode itself (dates, dataclasses, decimals...) goes through Flask's
own ``default``, so the output is what Flask's provider gave, byte for byte apart from
whitespace (orjson writes none; the standard encoder wrote ``", "`` and ``": "``).
"""

from __future__ import annotations

from typing import Any, cast

import orjson
from flask.json.provider import DefaultJSONProvider
from werkzeug.sansio.response import Response

_OPTIONS = (
    orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
)


class OrjsonProvider(DefaultJSONProvider):
    """Flask's JSON provider with orjson's encoder (and Flask's ``default`` for the rest)."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return self.dump_bytes(obj).decode()

    def dump_bytes(self, obj: Any) -> bytes:
        """``obj`` as compact UTF-8 JSON."""
        return orjson.dumps(obj, default=self.default, option=_OPTIONS)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        obj = self._prepare_response_obj(args, kwargs)
        make: Any = self._app.response_class  # typed as the sans-IO base, which takes no body
        return cast(Response, make(self.dump_bytes(obj) + b"\n", mimetype=self.mimetype))
