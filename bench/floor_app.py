"""The floor for HTTP moves: an endpoint that does only the Redis compare-and-set a move does.

``POST /floor/<id>`` WATCHes a hash holding a blob the size of a real game state, reads it,
and writes it back with a new version in MULTI/EXEC: the same Redis work as a move, with no
rules, no schemas and no engine (three round trips: WATCH, HMGET, MULTI..EXEC). Served by
the same gunicorn config as the API, through a Redis client made as the API makes its own
(``service.connections.connect``). The blob is ``?size=`` bytes (default
``FLOOR_BLOB_SIZE``, 4000), so one floor server serves every game's state size.
"""

from __future__ import annotations

import os

import redis
from flask import Flask, jsonify, request

from service.connections import connect
from service.keys import Keys

BLOB_SIZE = int(os.environ.get("FLOOR_BLOB_SIZE", "4000"))


FLOOR_KEYS = Keys("floor")
"""The floor's keys, laid out as a game's (one hash tag per game)."""


def create_app() -> Flask:
    app = Flask(__name__)
    client: redis.Redis = connect(os.environ["REDIS_URL"])  # the API's own client settings

    @app.get("/floor/health")
    def health():
        return jsonify({"status": "ok"})

    @app.post("/floor/<key>")
    def floor(key: str):
        size = request.args.get("size", BLOB_SIZE, type=int)
        name = FLOOR_KEYS.game(key)
        with client.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(name)
                    state, version = pipe.hmget(name, ["state", "version"])
                    blob = state if state and len(state) == size else "x" * size
                    pipe.multi()
                    pipe.hset(name, mapping={"state": blob, "version": int(version or 0) + 1})
                    pipe.rpush(FLOOR_KEYS.game(key, "log"), "{}")
                    pipe.execute()
                    return jsonify({"version": int(version or 0) + 1, "state": blob})
                except redis.WatchError:
                    continue

    return app
