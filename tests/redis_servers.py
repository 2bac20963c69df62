"""Real Redis topologies for the tests, started from the ``redis-server`` binary (no Docker).

* :func:`plain` -- one Redis (the queues' Redis beside a cluster);
* :func:`cluster` -- a Redis Cluster of three masters with one replica each, built with
  redis-py (``CLUSTER ADDSLOTS`` / ``MEET`` / ``REPLICATE``) and waited for until every node
  says ``cluster_state:ok`` and every replica is in sync;
* :func:`sentinel` -- one primary, one replica and three sentinels (``redis-server
  --sentinel``) watching them, waited for until every sentinel knows the replica and the
  other two sentinels.

Each is a context manager over a :class:`Servers`, which owns every process it started and
kills them all (``kill -9``, then waits) on the way out, whatever happened inside. Nodes
are killed with :meth:`Node.kill9`, a real crash: the topology's own failover (the cluster's
replica election, the sentinels' promotion) is what the fault tests exercise.
"""

from __future__ import annotations

import contextlib
import random
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import redis

from tests.conftest import STARTING, redis_server_binary, wait_redis, wait_until

SLOTS = 16384
NODE_TIMEOUT_MS = 1500
"""The cluster's node timeout: a master unreachable this long is failing, and its replica
starts an election (low, so a test's failover takes seconds)."""
DOWN_AFTER_MS = 1500
"""How long the sentinels wait before they call the primary down."""
SERVICE = "dicehall"
"""The name the sentinels monitor the primary under."""
SETUP_TIMEOUT = 60.0


def _is_free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port_pair() -> int:
    """A free port whose cluster bus port (``port + 10000``) is free as well."""
    for _ in range(1000):
        port = random.randint(20000, 50000)
        if _is_free(port) and _is_free(port + 10000):
            return port
    raise RuntimeError("no free port pair for a cluster node")


@dataclass
class Node:
    """One redis-server (or sentinel) process on a port of 127.0.0.1."""

    port: int
    workdir: Path
    proc: subprocess.Popen[bytes]
    role: str
    command: list[str] = field(default_factory=list)

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def client(self, **kwargs: object) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=self.port, decode_responses=True, **kwargs)  # type: ignore[arg-type]

    def kill9(self) -> None:
        """A crash: SIGKILL, no chance to hand anything over."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def restart(self, *extra: str) -> None:
        """Start the same server again (same port, directory and arguments, ``extra``
        added): a crashed machine coming back, answering PING when this returns."""
        assert not self.alive, f"{self.role} {self.port} is still running"
        self.proc = subprocess.Popen(
            [*self.command, *extra], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT
        )
        wait_redis(self.client(), SETUP_TIMEOUT, f"{self.role} on {self.port} again")

    def log(self) -> str:
        path = self.workdir / "redis.log"
        return path.read_text(errors="replace") if path.exists() else ""


@dataclass
class Servers:
    """Every process of one topology; :meth:`close` kills them all."""

    root: Path
    nodes: list[Node] = field(default_factory=list)

    def start(self, role: str, args: list[str], port: int | None = None) -> Node:
        """A redis-server with ``args`` (after its own port, bind, dir and log file) on a
        free port (or ``port``), answering PING when this returns."""
        port = port or free_port_pair()
        workdir = self.root / f"{role}-{port}"
        workdir.mkdir(parents=True)
        common = [
            "--port", str(port), "--bind", "127.0.0.1", "--dir", str(workdir),
            "--logfile", str(workdir / "redis.log"), "--save", "",
        ]  # fmt: skip
        command = (
            [redis_server_binary(), *args[:1], *common, *args[1:]]
            if args and not args[0].startswith("--")
            else [redis_server_binary(), *common, *args]
        )
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        node = Node(port, workdir, proc, role, command)
        self.nodes.append(node)
        wait_redis(node.client(), SETUP_TIMEOUT, f"{role} on {port}")
        return node

    def close(self) -> None:
        for node in self.nodes:
            with contextlib.suppress(OSError):
                node.kill9()

    def roles(self) -> str:
        """Every node's ROLE (or that it is down), for a failing test's message."""
        lines = []
        for node in self.nodes:
            try:
                role = (
                    node.client(socket_timeout=2).execute_command("ROLE") if node.alive else "down"
                )
            except Exception as exc:  # a node in trouble is what the message is for
                role = repr(exc)
            lines.append(f"{node.role} {node.port}: {role}")
        return "\n".join(lines)

    def logs(self, tail: int = 20) -> str:
        """The last lines of every node's log, for a failing test's message."""
        return "\n".join(
            f"--- {node.role} {node.port}\n" + "\n".join(node.log().splitlines()[-tail:])
            for node in self.nodes
        )


@contextlib.contextmanager
def _servers() -> Iterator[Servers]:
    root = Path(tempfile.mkdtemp(prefix="dicehall-topology-"))
    servers = Servers(root)
    try:
        yield servers
    finally:
        servers.close()
        shutil.rmtree(root, ignore_errors=True)


# --- one Redis ----------------------------------------------------------------------------


@dataclass
class Plain:
    """One Redis without persistence."""

    servers: Servers
    node: Node

    @property
    def url(self) -> str:
        return f"redis://{self.node.address}/0"


@contextlib.contextmanager
def plain() -> Iterator[Plain]:
    """One Redis (no persistence, no replica), e.g. for rq's queues beside a cluster."""
    with _servers() as servers:
        yield Plain(servers, servers.start("plain", ["--appendonly", "no"]))


# --- Redis Cluster ------------------------------------------------------------------------


@dataclass
class Cluster:
    """A Redis Cluster: ``masters[i]`` serves the i-th third of the slots, ``replicas[i]``
    replicates it."""

    servers: Servers
    masters: list[Node]
    replicas: list[Node]

    @property
    def url(self) -> str:
        """The dicehall URL of the cluster (every node a seed: any one may be dead)."""
        return "redis+cluster://" + ",".join(n.address for n in self.masters + self.replicas)

    def live_nodes(self) -> list[Node]:
        return [n for n in self.masters + self.replicas if n.alive]

    def state_ok(self) -> bool:
        """Every live node says ``cluster_state:ok``."""
        return all(n.client().cluster("info")["cluster_state"] == "ok" for n in self.live_nodes())

    def wait_promoted(self, dead: Node, timeout: float = SETUP_TIMEOUT) -> Node:
        """After ``dead`` (a master) was killed: wait until its replica is a master and
        the cluster is ok again; that replica."""
        replica = self.replicas[self.masters.index(dead)]

        def promoted() -> bool:
            role = replica.client().execute_command("ROLE")[0]
            return role == "master" and self.state_ok()

        wait_until(promoted, timeout, f"replica {replica.port} to take over", ignore=STARTING)
        return replica

    def rejoin(self, node: Node, timeout: float = SETUP_TIMEOUT) -> None:
        """Restart a killed node (its nodes.conf kept): it comes back as a replica of the
        master that took its slots; waits until it is in sync."""
        node.restart()

        def replicating() -> bool:
            return node.client().execute_command("ROLE")[0] == "slave" and _in_sync(node)

        wait_until(replicating, timeout, f"node {node.port} to rejoin as a replica", STARTING)

    def master_of(self, key: str) -> Node:
        """The master (at setup) serving ``key``'s slot."""
        slot = self.masters[0].client().cluster("keyslot", key)
        return self.masters[min(int(slot) * len(self.masters) // SLOTS, len(self.masters) - 1)]


CLUSTER_ARGS = [
    "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
    "--cluster-node-timeout", str(NODE_TIMEOUT_MS),
    # a replica may be elected however long it was cut off from its master
    "--cluster-replica-validity-factor", "0",
    "--appendonly", "no",
]  # fmt: skip


def _slot_ranges(count: int) -> list[range]:
    step = SLOTS // count
    return [range(i * step, SLOTS if i == count - 1 else (i + 1) * step) for i in range(count)]


def _node_id(node: Node) -> str:
    return str(node.client().execute_command("CLUSTER MYID"))


def _knows(node: Node, count: int) -> bool:
    """``node`` sees ``count`` nodes, every one connected and none in handshake."""
    seen = node.client().execute_command("CLUSTER NODES")  # parsed by redis-py
    return len(seen) == count and all(
        "handshake" not in n["flags"] and n["connected"] for n in seen.values()
    )


def _in_sync(replica: Node) -> bool:
    info = replica.client().info("replication")
    return info.get("master_link_status") == "up" and not info.get("master_sync_in_progress")


@contextlib.contextmanager
def cluster(masters: int = 3) -> Iterator[Cluster]:
    """A cluster of ``masters`` masters with one replica each, ``cluster_state:ok``, every
    replica in sync."""
    with _servers() as servers:
        heads = [servers.start("master", CLUSTER_ARGS) for _ in range(masters)]
        tails = [servers.start("replica", CLUSTER_ARGS) for _ in range(masters)]
        for node, slots in zip(heads, _slot_ranges(masters), strict=True):
            node.client().execute_command("CLUSTER ADDSLOTS", *slots)
        first = heads[0].client()
        for node in heads[1:] + tails:
            first.execute_command("CLUSTER MEET", "127.0.0.1", node.port)
        everyone = heads + tails
        wait_until(
            lambda: all(_knows(n, len(everyone)) for n in everyone),
            SETUP_TIMEOUT,
            "every cluster node to know every other",
        )
        for head, tail in zip(heads, tails, strict=True):
            tail.client().execute_command("CLUSTER REPLICATE", _node_id(head))
        built = Cluster(servers, heads, tails)

        def ready() -> bool:
            return built.state_ok() and all(_in_sync(t) for t in tails)

        wait_until(ready, SETUP_TIMEOUT, "cluster_state:ok and every replica in sync")
        yield built


# --- Sentinel -----------------------------------------------------------------------------


@dataclass
class Sentinel:
    """A primary and its replica watched by three sentinels under :data:`SERVICE`."""

    servers: Servers
    primary: Node
    replica: Node
    sentinels: list[Node]

    def url(self, db: int = 0) -> str:
        """The dicehall URL: every sentinel, the service name, the database."""
        hosts = ",".join(s.address for s in self.sentinels)
        return f"redis+sentinel://{hosts}/{SERVICE}/{db}"

    def current_primary(self) -> int:
        """The port of the primary as the sentinels' majority names it."""
        ports = []
        for watcher in self.sentinels:
            if watcher.alive:
                address = watcher.client().sentinel_get_master_addr_by_name(SERVICE)
                assert isinstance(address, tuple), address
                ports.append(int(address[1]))
        return max(set(ports), key=ports.count)

    def wait_promoted(self, timeout: float = SETUP_TIMEOUT) -> Node:
        """After the primary was killed: wait until the sentinels name the replica and it
        is a writable master; the replica."""

        def promoted() -> bool:
            role = self.replica.client().execute_command("ROLE")[0]
            return role == "master" and self.current_primary() == self.replica.port

        wait_until(promoted, timeout, "the sentinels to promote the replica", ignore=STARTING)
        return self.replica

    def rejoin(self, timeout: float = SETUP_TIMEOUT) -> None:
        """Restart the killed primary as a replica of the new one (as its machine's
        configuration would, once the sentinels had rewritten it; they would also turn it
        into one themselves, some seconds later); waits until it is in sync."""
        self.primary.restart("--replicaof", "127.0.0.1", str(self.current_primary()))

        def replicating() -> bool:
            role = self.primary.client().execute_command("ROLE")[0]
            return role == "slave" and _in_sync(self.primary)

        wait_until(replicating, timeout, "the old primary to rejoin as a replica", STARTING)


def _sentinel_conf(workdir: Path, primary: Node) -> Path:
    conf = workdir / "sentinel.conf"
    conf.write_text(
        f"sentinel monitor {SERVICE} 127.0.0.1 {primary.port} 2\n"
        f"sentinel down-after-milliseconds {SERVICE} {DOWN_AFTER_MS}\n"
        f"sentinel failover-timeout {SERVICE} 10000\n"
        f"sentinel parallel-syncs {SERVICE} 1\n"
    )
    return conf


@contextlib.contextmanager
def sentinel() -> Iterator[Sentinel]:
    """One primary, one replica in sync with it, three sentinels that all know both and
    each other."""
    with _servers() as servers:
        primary = servers.start("primary", ["--appendonly", "no"])
        replica = servers.start(
            "replica", ["--appendonly", "no", "--replicaof", "127.0.0.1", str(primary.port)]
        )
        wait_until(lambda: _in_sync(replica), SETUP_TIMEOUT, "the replica to sync")
        watchers = []
        for _ in range(3):
            port = free_port_pair()
            confdir = servers.root / f"sentinel-conf-{port}"
            confdir.mkdir()
            conf = _sentinel_conf(confdir, primary)
            watchers.append(servers.start("sentinel", [str(conf), "--sentinel"], port=port))
        built = Sentinel(servers, primary, replica, watchers)

        def watching() -> bool:
            for watcher in watchers:
                fields = watcher.client().sentinel_master(SERVICE)
                assert isinstance(fields, dict), fields
                if int(fields["num-slaves"]) < 1 or int(fields["num-other-sentinels"]) < 2:
                    return False
            return True

        wait_until(watching, SETUP_TIMEOUT, "every sentinel to know the replica and the others")
        yield built
