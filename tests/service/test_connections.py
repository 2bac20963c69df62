"""``REDIS_URL`` and ``DICEHALL_QUEUE_URL``: one parser (``service.connections``) for one
server, a Redis Cluster and a Sentinel-managed primary; rq never runs on a cluster; readiness
probes both Redis with a write."""

from __future__ import annotations

import os
from typing import Any

import pytest

from service import worker
from service.app import create_app
from service.config import Settings
from service.connections import QueueOnCluster, Target, parse, queue_url
from tests.redis_servers import plain


def test_a_single_server_url_is_left_to_redis_py() -> None:
    for url in ("redis://127.0.0.1:6379/0", "rediss://user:pw@example.org:6380/2"):
        assert parse(url) == Target("single", url)


def test_a_cluster_url_names_its_startup_nodes() -> None:
    target = parse("redis+cluster://:secret@10.0.0.1:7000,10.0.0.2:7001,redis-c")
    assert target.kind == "cluster"
    assert target.nodes == (("10.0.0.1", 7000), ("10.0.0.2", 7001), ("redis-c", 6379))
    assert target.password == "secret"


def test_a_sentinel_url_names_its_sentinels_service_and_database() -> None:
    target = parse("redis+sentinel://s1:26379,s2:26379/dicehall/3")
    assert (target.kind, target.service, target.db) == ("sentinel", "dicehall", 3)
    assert target.nodes == (("s1", 26379), ("s2", 26379))
    assert parse("redis+sentinel://s1:26379/dicehall").db == 0


@pytest.mark.parametrize(
    "url",
    [
        "redis+cluster://",
        "redis+cluster://a:7000/1",
        "redis+sentinel://s1:26379",
        "redis+sentinel://s1:26379/a/1/2",
    ],
)
def test_a_malformed_url_is_refused_with_its_shape(url: str) -> None:
    with pytest.raises(ValueError, match="redis"):
        parse(url)


def test_the_queue_defaults_to_redis_url_unless_that_is_a_cluster() -> None:
    assert queue_url(Settings(redis_url="redis://a:1/0", queue_url="")) == "redis://a:1/0"
    sentinel = "redis+sentinel://s:26379/dicehall"
    assert queue_url(Settings(redis_url=sentinel, queue_url="")) == sentinel
    cluster = "redis+cluster://a:7000"
    assert queue_url(Settings(redis_url=cluster, queue_url="redis://q:1/0")) == "redis://q:1/0"
    with pytest.raises(QueueOnCluster, match="DICEHALL_QUEUE_URL"):
        queue_url(Settings(redis_url=cluster, queue_url=""))
    with pytest.raises(QueueOnCluster, match="DICEHALL_QUEUE_URL"):
        queue_url(Settings(redis_url="redis://a:1/0", queue_url=cluster))


def test_the_app_refuses_to_start_on_a_cluster_without_a_queue_redis() -> None:
    settings = Settings(redis_url="redis+cluster://127.0.0.1:1", queue_url="")
    with pytest.raises(QueueOnCluster, match="DICEHALL_QUEUE_URL"):
        create_app({"TESTING": True, "DICEHALL": settings})


def test_a_worker_refuses_to_start_on_a_cluster_without_a_queue_redis(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("REDIS_URL", "redis+cluster://127.0.0.1:1")
    monkeypatch.delenv("DICEHALL_QUEUE_URL", raising=False)
    with pytest.raises(SystemExit) as stopped:
        worker.main(["--burst"])
    assert stopped.value.code == 2
    assert "DICEHALL_QUEUE_URL" in capsys.readouterr().err


def test_readiness_reports_a_queue_redis_that_takes_no_writes(redis_client: Any) -> None:
    with plain() as queue:
        settings = Settings(redis_url=os.environ["REDIS_URL"], queue_url=queue.url)
        client = create_app({"TESTING": True, "DICEHALL": settings}).test_client()
        assert client.get("/v1/health/ready").status_code == 200
        port = os.environ["REDIS_URL"].rsplit(":", 1)[1].split("/")[0]
        queue.node.client().replicaof("127.0.0.1", port)  # now a read-only replica
        answer = client.get("/v1/health/ready")
        assert answer.status_code == 503
        assert answer.get_json()["code"] == "redis_not_writable"
        assert "queue" in answer.get_json()["detail"]
        assert answer.headers["Retry-After"] == "1"
