"""Redis connections from URLs: one parser, one shared client per process and URL.

``REDIS_URL`` (game state) and ``DICEHALL_QUEUE_URL`` (rq's queues) take:

- ``redis://host:port/db`` or ``rediss://...``: one server (redis-py's own URL syntax);
- ``redis+cluster://host:port[,host:port...]``: a Redis Cluster, given by its startup nodes
  (redis-py's ``RedisCluster``: it learns the slots, follows ``MOVED`` and a promotion);
  game state only, since rq needs multi-key commands across its own keys;
- ``redis+sentinel://host:port[,host:port...]/service_name[/db]``: the primary that the
  Sentinels name for ``service_name`` (redis-py's ``Sentinel.master_for``: a connection asks
  the Sentinels again after a promotion, and a demoted primary's ``READONLY`` reply drops
  the connection).

Also on the Flask app context, in the manner of the Flask tutorial's ``db.py``
(:func:`get_redis`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, cast
from urllib.parse import unquote, urlsplit

import redis
from flask import Flask, current_app, g
from redis.cluster import ClusterNode, RedisCluster
from redis.exceptions import RedisClusterException
from redis.sentinel import Sentinel

from service.config import Settings
from service.readiness import ReadinessParser

SOCKET_TIMEOUT = 60.0
"""Longer than the longest blocking read (a 30 s long-poll), shorter than forever."""
MAX_CONNECTIONS = 4096
"""Each waiting long-poll or SSE stream holds a connection for its blocking read."""
CLUSTER = "redis+cluster"
SENTINEL = "redis+sentinel"


REDIS_FAILURES: tuple[type[Exception], ...] = (redis.RedisError, RedisClusterException)
"""What a failing Redis raises: redis-py's errors, and the cluster client's own (no node
reachable, a slot not covered while a failover runs), which are not ``RedisError``."""


class QueueOnCluster(ValueError):
    """rq cannot run on a Redis Cluster: set ``DICEHALL_QUEUE_URL``."""


@dataclass(frozen=True)
class Target:
    """What a URL names: ``kind`` (``single``, ``cluster`` or ``sentinel``), its nodes
    (cluster startup nodes or Sentinels), the Sentinel service name, the database and the
    password."""

    kind: str
    url: str
    nodes: tuple[tuple[str, int], ...] = ()
    service: str = ""
    db: int = 0
    password: str | None = None
    username: str | None = None


def parse(url: str) -> Target:
    """Read a ``REDIS_URL`` (see the module docstring). Raises ValueError on a malformed
    one."""
    scheme = url.partition("://")[0].lower()
    if scheme not in (CLUSTER, SENTINEL):
        return Target("single", url)
    parts = urlsplit(url)
    userinfo, _, hosts = parts.netloc.rpartition("@")
    username, _, password = userinfo.partition(":") if userinfo else ("", "", "")
    nodes = tuple(_node(host) for host in hosts.split(",") if host)
    if not nodes:
        raise ValueError(f"{url!r} names no host")
    path = [unquote(piece) for piece in parts.path.split("/") if piece]
    common = {
        "url": url,
        "nodes": nodes,
        "password": unquote(password) or None,
        "username": unquote(username) or None,
    }
    if scheme == CLUSTER:
        if path:
            raise ValueError(f"{url!r}: a cluster has only database 0 (no path)")
        return Target("cluster", **common)  # type: ignore[arg-type]
    if not path or len(path) > 2:
        raise ValueError(f"{url!r}: want redis+sentinel://host:port,.../service_name[/db]")
    db = int(path[1]) if len(path) == 2 else 0
    return Target("sentinel", service=path[0], db=db, **common)  # type: ignore[arg-type]


def _node(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    return (host, int(port)) if host else (text, 6379)


def connect(url: str, decode: bool = True) -> Any:
    """A new client for ``url``: ``str`` replies (``decode``) or raw bytes (rq's), waiting
    out blocking reads. Returns a ``redis.Redis`` (single, Sentinel) or a ``RedisCluster``."""
    target = parse(url)
    options: dict[str, Any] = {
        "socket_timeout": SOCKET_TIMEOUT,
        "socket_connect_timeout": 5,
        "decode_responses": decode,
    }
    if decode:
        options.update(health_check_interval=30, max_connections=MAX_CONNECTIONS)
    auth: dict[str, Any] = {"username": target.username, "password": target.password}
    if target.kind == "cluster":  # the cluster client takes no parser of ours
        return RedisCluster(
            startup_nodes=[ClusterNode(host, port) for host, port in target.nodes],
            **auth,
            **options,
        )
    options["parser_class"] = ReadinessParser  # a cheap pool check under gevent
    if target.kind == "sentinel":
        sentinels = Sentinel(
            list(target.nodes), socket_timeout=5, socket_connect_timeout=5, sentinel_kwargs=auth
        )
        return sentinels.master_for(target.service, db=target.db, **auth, **options)
    return redis.Redis.from_url(url, **options)


@lru_cache(maxsize=8)
def shared_client(url: str) -> redis.Redis:
    """The process's ``str`` client for ``url`` (one connection pool per URL). Typed as
    ``redis.Redis``, whose commands ``RedisCluster`` shares."""
    return cast(redis.Redis, connect(url))


@lru_cache(maxsize=8)
def shared_bytes_client(url: str) -> redis.Redis:
    """The process's bytes client for ``url`` (rq's)."""
    if is_cluster(url):
        raise QueueOnCluster(
            f"rq cannot run on the Redis Cluster {url!r}: set DICEHALL_QUEUE_URL to a single "
            "Redis or a Sentinel URL"
        )
    return cast(redis.Redis, connect(url, decode=False))


def is_cluster(url: str) -> bool:
    return parse(url).kind == "cluster"


def queue_url(settings: Settings) -> str:
    """rq's Redis: ``DICEHALL_QUEUE_URL``, else ``REDIS_URL`` unless that is a cluster.
    Raises :class:`QueueOnCluster` then."""
    url = settings.queue_url or settings.redis_url
    if is_cluster(url):
        raise QueueOnCluster(
            "REDIS_URL is a Redis Cluster, where rq cannot run: set DICEHALL_QUEUE_URL to a "
            "single Redis or a Sentinel URL for the queues"
        )
    return url


def store_client(settings: Settings) -> redis.Redis:
    """The game store's shared client."""
    return shared_client(settings.redis_url)


def queue_client(settings: Settings) -> redis.Redis:
    """rq's shared bytes client (rq needs raw bytes)."""
    return shared_bytes_client(queue_url(settings))


def queue_str_client(settings: Settings) -> redis.Redis:
    """A ``str`` client on rq's Redis (the bot job markers, the readiness probe)."""
    return shared_client(queue_url(settings))


# --- the Flask app context --------------------------------------------------------------------
def get_redis() -> redis.Redis:
    """The request's Redis client for game state (one connection pool per process and URL)."""
    if "redis" not in g:
        g.redis = current_app.extensions["dicehall.redis"]
    return cast(redis.Redis, g.redis)


def init_app(app: Flask) -> None:
    """Attach the Redis client named by the app's settings; refuse to start on a cluster
    without a queue Redis."""
    settings: Settings = app.config["DICEHALL"]
    queue_url(settings)
    app.extensions["dicehall.redis"] = store_client(settings)
