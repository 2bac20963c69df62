"""The topologies of tests/redis_servers.py do what the failover tests rely on: after a
``kill -9`` of a master (cluster) or of the primary (Sentinel), the replica takes over,
and every write that ``WAIT 1`` confirmed is on it."""

from __future__ import annotations

import pytest
import redis
from redis.cluster import RedisCluster
from redis.sentinel import Sentinel as SentinelClient

from tests.conftest import STARTING, wait_until
from tests.redis_servers import SERVICE, cluster, sentinel

KEYS = 60


def _write_confirmed(client: redis.Redis | RedisCluster, key: str) -> bool:
    """SET ``key`` and WAIT for one replica on the node that holds it."""
    client.set(key, key)
    if isinstance(client, RedisCluster):
        node = client.get_node_from_key(key)
        replicas = client.execute_command("WAIT", 1, 5000, target_nodes=node)
    else:
        replicas = client.execute_command("WAIT", 1, 5000)
    return int(replicas) >= 1


@pytest.mark.fault
def test_a_cluster_master_killed_hands_its_slots_and_confirmed_writes_to_its_replica() -> None:
    with cluster() as built:
        client = RedisCluster(host="127.0.0.1", port=built.masters[0].port, decode_responses=True)
        keys = [f"{{game-{n}}}:state" for n in range(KEYS)]
        assert all(_write_confirmed(client, key) for key in keys)
        victim = built.master_of(keys[0])
        victim.kill9()
        promoted = built.wait_promoted(victim)
        assert promoted.client().execute_command("ROLE")[0] == "master"
        fresh = RedisCluster(host="127.0.0.1", port=promoted.port, decode_responses=True)
        missing = wait_until(
            lambda: [k for k in keys if fresh.get(k) != k] or ["none"],
            30,
            "the cluster to answer for every key",
            ignore=(*STARTING, redis.exceptions.ClusterError),
        )
        assert missing == ["none"], built.servers.logs()
        built.rejoin(victim)
        assert _write_confirmed(fresh, keys[0] + "-again")


@pytest.mark.fault
def test_sentinels_promote_the_replica_with_every_confirmed_write() -> None:
    with sentinel() as built:
        watchers = SentinelClient([("127.0.0.1", s.port) for s in built.sentinels])
        primary = watchers.master_for(SERVICE, decode_responses=True)
        keys = [f"key-{n}" for n in range(KEYS)]
        assert all(_write_confirmed(primary, key) for key in keys)
        built.primary.kill9()
        built.wait_promoted()
        assert built.current_primary() == built.replica.port
        values = wait_until(
            lambda: primary.mget(keys), 30, "the new primary to answer", ignore=STARTING
        )
        assert values == keys, built.servers.logs()
        primary.set("after", "failover")  # writable
        built.rejoin()
        assert _write_confirmed(primary, "after-rejoin")
