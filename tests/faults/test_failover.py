"""Failover of the game state's Redis under a mixed load (tests/faults/hall.py): two API
instances, two rq workers, human and bot seats of all four games, an external bot on its
feed (``dicehall bot run``), a tournament and a game played by its deadlines.

* On a Redis Cluster of three masters with a replica each, the queues on a Redis of their
  own: ``kill -9`` of the master that holds a game mid-run; its replica is elected.
* On Sentinel (one primary, one replica, three sentinels), game state and queues both:
  ``kill -9`` of the primary; the sentinels promote the replica.

The killed server is then started again (a crashed machine coming back) and rejoins as a
replica: until it has, the promoted one has no replica, and writes are answered
``503 not_replicated`` (made, kept, answered on retry once replicated).

Either way every game finishes and verifies, the workers stay up, and with
``DICEHALL_MIN_REPLICAS=1`` every move a client was acknowledged is in its game's log.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.faults.hall import Load, hall
from tests.redis_servers import cluster, plain, sentinel

BEFORE_KILL = 12
"""Acknowledged human moves before the kill: the run is well under way."""


@pytest.mark.fault
def test_a_cluster_master_killed_mid_run_loses_no_acknowledged_move(tmp_path: Path) -> None:
    with cluster() as built, plain() as queues:
        env = {"DICEHALL_QUEUE_URL": queues.url, "DICEHALL_MIN_REPLICAS": "1"}
        with hall(built.url, tmp_path, **env) as running:
            load = Load(running, tmp_path)
            load.wait_acknowledged(BEFORE_KILL)
            victim = built.master_of("{" + load.humans[0].game_id + "}")
            victim.kill9()
            built.wait_promoted(victim)
            built.rejoin(victim)  # back as a replica: MIN_REPLICAS=1 can be met again
            outcome = load.check(describe=built.servers.roles)
            print(f"cluster, master {victim.port} killed: {outcome.line()}")
            assert running.workers_alive(), (tmp_path / "worker-0.log").read_text()[-3000:]
    outcome.assert_kept()


@pytest.mark.fault
def test_a_sentinel_primary_killed_mid_run_loses_no_acknowledged_move(tmp_path: Path) -> None:
    with sentinel() as built, hall(built.url(), tmp_path, DICEHALL_MIN_REPLICAS="1") as running:
        load = Load(running, tmp_path)
        load.wait_acknowledged(BEFORE_KILL)
        built.primary.kill9()
        built.wait_promoted()
        built.rejoin()  # back as a replica: MIN_REPLICAS=1 can be met again
        outcome = load.check(describe=built.servers.roles)
        print(f"sentinel, primary killed: {outcome.line()}")
        assert running.workers_alive(), (tmp_path / "worker-0.log").read_text()[-3000:]
    outcome.assert_kept()
