"""kill -9 of ``dicehall up``: its children die with it (parent-death signal), and the next
``up`` on the same data dir starts cleanly with every acknowledged move."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from clients.sdk import Client
from tests.clients.test_cli_up import UP, free_port, running_up, up_env
from tests.conftest import wait_until
from tests.players import Player, create


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (Linux /proc)."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        path = Path(f"/proc/{parent}/task/{parent}/children")
        if not path.exists():
            continue
        for child in path.read_text().split():
            found.add(int(child))
            todo.append(int(child))
    return found


def running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


@pytest.mark.fault
def test_kill_9_of_up_leaves_no_orphan_and_the_next_up_has_every_move(tmp_path: Path) -> None:
    data = tmp_path / "hall"
    port = free_port()
    proc = subprocess.Popen(
        [*UP, "--port", str(port), "--data-dir", str(data), "--workers", "2"],
        env=up_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if "dicehall is up" in line:
                break
        url = f"http://127.0.0.1:{port}"
        game = create(url, "toy", [{"kind": "human"}, {"kind": "bot"}])
        human = Player(url, game["id"], 0)
        acknowledged = []
        for _ in range(2):
            summary = Client(url).game(game["id"])
            while "0" not in summary["to_act"]:
                Client(url).events(game["id"], wait=1)
                summary = Client(url).game(game["id"])
            reply = human.act(human.legal()[0])
            assert reply.status_code == 200, reply.text
            acknowledged.append(reply.json()["version"])
        children = descendants(proc.pid)
        assert len(children) >= 5  # Redis, gunicorn and its 2 workers, 2 rq workers
    except BaseException:
        proc.send_signal(signal.SIGINT)  # a failure before the kill must not leave up running
        proc.communicate(timeout=60)
        raise
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    killed = time.monotonic()
    wait_until(
        lambda: not any(running(pid) for pid in children),
        90,  # each stops as on SIGTERM (gunicorn's graceful 10 s, a job in hand finished)
        f"the children of up {children} to exit after kill -9 (orphans)",
        interval=0.1,
    )
    print(f"{len(children)} children of up gone {time.monotonic() - killed:.1f} s after kill -9")

    with running_up("--data-dir", str(data), port=port) as (again, _):
        log = Client(again).log(game["id"])
        versions = {entry["version"]: entry for entry in log["entries"]}
        assert all(versions[v]["seat"] == 0 for v in acknowledged), log
