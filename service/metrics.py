"""Prometheus metrics of the API (``GET /metrics``), with prometheus-client.

Under gunicorn every worker process counts in its own files (multiprocess mode:
``PROMETHEUS_MULTIPROC_DIR``, set by ``deploy/gunicorn.conf.py``) and a scrape adds them up.
Counted as requests are served: requests by route and status, requests in flight, the time to
answer a move, compare-and-set retries. Read from Redis at each scrape
(:class:`StoreCollector`): the queue's depth and its started, scheduled and failed jobs,
games not over and games stalled past their expected time (as the last sweep saw them),
and Redis's memory against its ``maxmemory``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

import redis
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from service.config import Settings

REQUESTS = Counter(
    "dicehall_http_requests", "HTTP requests answered", ["method", "route", "status"]
)
IN_FLIGHT = Gauge(
    "dicehall_http_requests_in_flight",
    "HTTP requests being served (open long-polls and SSE streams among them)",
    ["route"],
    multiprocess_mode="livesum",
)
MOVE_SECONDS = Histogram(
    "dicehall_move_duration_seconds",
    "Time to answer a move (POST /v1/games/{id}/actions), by status",
    ["status"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
CAS_RETRIES = Counter(
    "dicehall_cas_retries",
    "Compare-and-set retries of game writes (another writer changed a watched key first)",
)

MOVE_ROUTE = "/v1/games/<string:game_id>/actions"


@lru_cache(maxsize=1024)
def labelled(metric: Any, *values: str) -> Any:
    """``metric.labels(*values)``, looked up once: a request counts itself in three or four
    labelled series, and prometheus_client's lookup (a lock and the labels' checks) cost
    2-4 us each. The series are few (routes, methods and statuses) and never removed."""
    return metric.labels(*values)


def registry() -> CollectorRegistry:
    """What a scrape reads: every process's counts (multiprocess mode) or this process's."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        merged = CollectorRegistry()
        MultiProcessCollector(merged)
        return merged
    return REGISTRY


def exposition(client: redis.Redis, settings: Settings) -> tuple[bytes, str]:
    """The text of a scrape and its content type."""
    scraped = CollectorRegistry()
    for collector in (_Merged(registry()), StoreCollector(client, settings)):
        scraped.register(collector)
    return generate_latest(scraped), CONTENT_TYPE_LATEST


class _Merged(Collector):
    """A registry's metrics, as one collector of another registry."""

    def __init__(self, source: CollectorRegistry) -> None:
        self.source = source

    def collect(self) -> Iterator[Metric]:
        yield from self.source.collect()


class StoreCollector(Collector):
    """Metrics read from Redis at scrape time (see the module docstring)."""

    def __init__(self, client: redis.Redis, settings: Settings) -> None:
        self.client = client
        self.settings = settings

    def collect(self) -> Iterator[Metric]:
        up = GaugeMetricFamily("dicehall_redis_up", "Whether the API reached Redis at this scrape")
        try:
            found = list(self._read())
        except redis.RedisError:
            up.add_metric([], 0)
            yield up
            return
        up.add_metric([], 1)
        yield up
        yield from found

    def _read(self) -> Iterator[Metric]:
        from rq.registry import FailedJobRegistry, ScheduledJobRegistry, StartedJobRegistry

        from service.runtime import queue_for
        from service.sweep import stats_key

        queue = queue_for(self.settings)
        jobs = GaugeMetricFamily("dicehall_queue_jobs", "Jobs of the bot queue", labels=["state"])
        jobs.add_metric(["queued"], queue.count)
        for state, kind in (
            ("started", StartedJobRegistry),
            ("scheduled", ScheduledJobRegistry),
            ("failed", FailedJobRegistry),
        ):
            jobs.add_metric([state], kind(queue=queue).count)
        yield jobs

        stats = self.client.hgetall(stats_key(self.settings.key_prefix))
        yield GaugeMetricFamily(
            "dicehall_games_live",
            "Games not over, as the last sweep saw them",
            value=float(stats.get("live", 0)),
        )
        yield GaugeMetricFamily(
            "dicehall_games_stalled",
            "Games owing a decision more than 30 s past its expected time (a bot move, a deadline)",
            value=float(stats.get("stalled", 0)),
        )
        at = float(stats.get("at", 0))
        yield GaugeMetricFamily(
            "dicehall_sweep_age_seconds",
            "Seconds since the last sweep pass (large: no worker is sweeping)",
            value=time.time() - at if at else float("inf"),
        )
        yield CounterMetricFamily(
            "dicehall_sweep_bot_jobs",
            "Bot jobs the sweep enqueued for lost ones",
            value=float(stats.get("enqueued", 0)),
        )
        yield CounterMetricFamily(
            "dicehall_sweep_fallbacks",
            "Fallback moves the sweep played for passed deadlines",
            value=float(stats.get("fallbacks", 0)),
        )

        memory = self.client.info("memory")
        yield GaugeMetricFamily(
            "dicehall_redis_used_memory_bytes",
            "Memory Redis uses",
            value=float(memory.get("used_memory", 0)),
        )
        yield GaugeMetricFamily(
            "dicehall_redis_maxmemory_bytes",
            "Redis's memory limit (0: none)",
            value=float(memory.get("maxmemory", 0)),
        )
