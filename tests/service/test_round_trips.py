"""Round trips to Redis per request on the move path, as Redis itself counts them.

A private redis-server (nothing else talks to it) and the app in process: Redis's
``total_writes_processed`` counts one reply write per batch of commands it answered, so a
pipeline or a script is one round trip and each immediate command is one. Budgets (issue
"A move costs little more than the Redis write it must make"): a move at most 3 round trips,
reading legal actions or a view 1, the rate limiter's counters included.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from rq.exceptions import StopRequested

from service.store import SCRIPTS
from tests.conftest import STARTING, free_port, redis_server_binary, stop, wait_until
from tests.service.test_api_basics import auth

GAMES = ("carcassonne", "burgundy", "diceland", "kingdice")
MOVES_PER_GAME = 6
MOVE_BUDGET = 3
READ_BUDGET = 1


@pytest.fixture(scope="module")
def private_redis() -> Iterator[redis.Redis]:
    """A redis-server of this module's own, so no worker or server of other tests adds to
    its counters."""
    port = free_port()
    workdir = tempfile.mkdtemp(prefix="dicehall-roundtrips-")
    server = [redis_server_binary(), "--port", str(port), "--bind", "127.0.0.1", "--save", ""]
    proc = subprocess.Popen(
        [*server, "--appendonly", "no", "--dir", workdir],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    client = redis.Redis.from_url(f"redis://127.0.0.1:{port}/0", decode_responses=True)
    try:
        wait_until(client.ping, 10, "the round-trip test's redis-server", ignore=STARTING)
        for script in SCRIPTS.values():  # loaded once per Redis; not a move's cost
            client.script_load(script)
        yield client
    finally:
        stop(proc)
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture()
def api(private_redis: redis.Redis, monkeypatch: pytest.MonkeyPatch):
    from service.app import create_app
    from service.config import Settings

    monkeypatch.delenv("DICEHALL_RATE_LIMIT", raising=False)  # the default limit, counted
    url = private_redis.connection_pool.connection_kwargs
    settings = Settings(redis_url=f"redis://{url['host']}:{url['port']}/0")
    return create_app({"TESTING": True, "DICEHALL": settings}).test_client()


class Counted:
    """Round trips (reply writes) and commands Redis counted during a request."""

    def __init__(self, client: redis.Redis) -> None:
        self.client = client

    def _now(self) -> tuple[int, dict[str, int]]:
        info = self.client.info("everything")
        calls = {k[8:]: int(v["calls"]) for k, v in info.items() if k.startswith("cmdstat_")}
        return int(info["total_writes_processed"]), calls

    def during(self, request: Any) -> tuple[Any, int, dict[str, int]]:
        """``request()``'s reply, its round trips and its commands (less the INFO before)."""
        writes, calls = self._now()
        reply = request()
        writes_after, calls_after = self._now()
        used = {k: n - calls.get(k, 0) for k, n in calls_after.items() if n - calls.get(k, 0)}
        used["info"] -= 1
        return reply, writes_after - writes - 1, {k: n for k, n in used.items() if n}


def start(
    api, game: str, seats: list[dict[str, Any]], seed: str | None = None
) -> tuple[str, dict[int, str]]:
    created = api.post(
        "/v1/games",
        json={"game": game, "seats": seats, "seed": seed or f"rt-{game}", "visibility": "public"},
    )
    assert created.status_code == 201, created.get_json()
    game_id = created.get_json()["id"]
    tokens = {}
    for seat, info in enumerate(seats):
        if info["kind"] == "human":
            joined = api.post(f"/v1/games/{game_id}/seats/{seat}/join", json={})
            tokens[seat] = joined.get_json()["seat_token"]
    return game_id, tokens


def owing(api, game_id: str) -> int:
    return int(min(api.get(f"/v1/games/{game_id}").get_json()["to_act"]))


@pytest.mark.parametrize("game", GAMES)
def test_a_move_takes_at_most_three_round_trips_and_a_read_one(api, private_redis, game):
    game_id, tokens = start(api, game, [{"kind": "human"}, {"kind": "human"}])
    counted = Counted(private_redis)
    for n in range(MOVES_PER_GAME):
        seat = owing(api, game_id)
        headers = auth(tokens[seat])
        url = f"/v1/games/{game_id}"
        legal, trips, calls = counted.during(
            lambda: api.get(f"{url}/legal-actions", headers=headers)  # noqa: B023
        )
        assert legal.status_code == 200, legal.get_json()
        assert trips <= READ_BUDGET, f"legal actions: {trips} round trips {calls}"
        assert calls.get("incrby") == 1, f"the rate limiter counts this read too: {calls}"
        view, trips, calls = counted.during(
            lambda: api.get(f"{url}/view", headers=headers)  # noqa: B023
        )
        assert view.status_code == 200 and trips <= READ_BUDGET, f"view: {trips} {calls}"
        body = {"action": legal.get_json()["actions"][0]["action"]}
        move_headers = {**headers, "If-Match": str(legal.get_json()["decision"])}
        if n % 2:
            move_headers["Idempotency-Key"] = f"move-{n}"
        moved, trips, calls = counted.during(
            lambda: api.post(f"{url}/actions", json=body, headers=move_headers)  # noqa: B023
        )
        assert moved.status_code == 200, moved.get_json()
        assert trips <= MOVE_BUDGET, f"move {n}: {trips} round trips {calls}"
        assert calls.get("incrby") == 1 and "watch" not in calls, calls


def last_move(api, private_redis, seed: str) -> tuple[str, int, dict[str, int]]:
    """Play a toy game to its end; the game, and the round trips and commands of the move
    that ended it."""
    game_id, tokens = start(api, "toy", [{"kind": "human"}, {"kind": "human"}], seed)
    counted, url, last = Counted(private_redis), f"/v1/games/{game_id}", None
    while api.get(url).get_json()["status"] != "over":
        seat = owing(api, game_id)
        legal = api.get(f"{url}/legal-actions", headers=auth(tokens[seat])).get_json()
        body = {"action": legal["actions"][0]["action"]}
        last = counted.during(
            lambda: api.post(f"{url}/actions", json=body, headers=auth(tokens[seat]))  # noqa: B023
        )
        assert last[0].status_code == 200, last[0].get_json()
    assert last is not None
    return game_id, last[1], last[2]


def test_the_move_that_ends_a_game_compacts_it_in_three_more_round_trips(api, private_redis):
    # A finished game is folded into its archive by the move that ends it: a WATCH, one
    # read of everything the archive needs (record, log, last event, answers) and the
    # MULTI/EXEC that writes it; the move's own read and commit make five.
    last_move(api, private_redis, "rt-end-warm")  # the compaction's connections opened
    game_id, trips, calls = last_move(api, private_redis, "rt-end")
    assert private_redis.hexists(f"dh:{{{game_id}}}:game", "archive"), "compacted"
    assert trips <= MOVE_BUDGET + 2, f"{trips} round trips {calls}"
    assert calls.get("watch") == 1 and calls.get("exec") == 1, calls


def bot_due_move(api, private_redis) -> tuple[str, int, dict[str, int]]:
    """Play the human seat of a King of the Dice game against a bot until the bot owes;
    the game, and the round trips and commands of the move that made it owe."""
    game_id, tokens = start(api, "kingdice", [{"kind": "human"}, {"kind": "bot"}])
    counted = Counted(private_redis)
    assert owing(api, game_id) == 0, "the human seat opens this seed's game"
    url = f"/v1/games/{game_id}"
    while owing(api, game_id) == 0:
        legal = api.get(f"{url}/legal-actions", headers=auth(tokens[0])).get_json()
        stop_turn = [a["action"] for a in legal["actions"] if a["action"]["type"] == "stop"]
        action = stop_turn[0] if stop_turn else legal["actions"][0]["action"]
        moved, trips, calls = counted.during(
            lambda: api.post(f"{url}/actions", json={"action": action}, headers=auth(tokens[0]))  # noqa: B023
        )
        assert moved.status_code == 200, moved.get_json()
        assert trips <= MOVE_BUDGET, f"{trips} round trips {calls}"
    return game_id, trips, calls


def warm_rq(api) -> None:
    """A game of bots (no worker plays them) enqueues a job first: the rq client's first
    connection (HELLO, CLIENT SETINFO) and its one INFO are not a move's cost."""
    start(api, "kingdice", [{"kind": "bot"}, {"kind": "bot"}])


def test_a_move_that_makes_a_bot_seat_due_pushes_its_job_in_the_commit(api, private_redis):
    # The queue is on the game's Redis: the job rides the guarded commit's script, so the
    # move costs its read and its commit, two round trips, and the job is queued atomically
    # with the move (no crash can come between them).
    warm_rq(api)
    game_id, trips, calls = bot_due_move(api, private_redis)
    assert trips <= 2, f"the job rides the commit: {trips} round trips {calls}"
    assert calls.get("evalsha") == 1 and "multi" not in calls, calls
    job_id = private_redis.get(f"dh:{{{game_id}}}:botjob:1")
    assert job_id is not None, f"the last move enqueued the bot's job: {calls}"
    queue = "rq:queue:" + os.environ.get("DICEHALL_QUEUE", "dicehall")
    assert job_id in private_redis.lrange(queue, 0, -1)
    status, enqueued_at = private_redis.hmget(f"rq:job:{job_id}", ["status", "enqueued_at"])
    assert status == "queued" and enqueued_at, (status, enqueued_at)


def test_with_the_queue_on_another_redis_the_job_follows_the_commit(private_redis, monkeypatch):
    # DICEHALL_QUEUE_URL names another Redis (here another database): a script on the
    # game's Redis cannot push to it, so the follow-up enqueues after the commit, one more
    # round trip, within the budget (the move decides on the record its process's previous
    # move left, ``service.held``: its commit and the enqueue make two).
    from service.app import create_app
    from service.config import Settings

    monkeypatch.delenv("DICEHALL_RATE_LIMIT", raising=False)
    url = private_redis.connection_pool.connection_kwargs
    base = f"redis://{url['host']}:{url['port']}"
    settings = Settings(redis_url=f"{base}/0", queue_url=f"{base}/1")
    api = create_app({"TESTING": True, "DICEHALL": settings}).test_client()
    warm_rq(api)
    game_id, trips, calls = bot_due_move(api, private_redis)
    assert trips == 2 and calls.get("evalsha") == 1, f"{trips} round trips {calls}"
    queue_redis = redis.Redis(url["host"], url["port"], db=1, decode_responses=True)
    job_id = queue_redis.get(f"dh:{{{game_id}}}:botjob:1")
    assert job_id is not None and private_redis.get(f"dh:{{{game_id}}}:botjob:1") is None
    queue = "rq:queue:" + os.environ.get("DICEHALL_QUEUE", "dicehall")
    assert job_id in queue_redis.lrange(queue, 0, -1)


def test_a_bot_job_reads_its_game_once_for_a_turn_of_several_steps(api, private_redis, monkeypatch):
    # After its own move the job plays on from the record it committed: one HMGET for the
    # whole turn (the job would read again before each step otherwise).
    url = private_redis.connection_pool.connection_kwargs
    monkeypatch.setenv("REDIS_URL", f"redis://{url['host']}:{url['port']}/0")
    from service.jobs import play_bot

    game_id, tokens = start(
        api, "carcassonne", [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}]
    )
    summary = api.get(f"/v1/games/{game_id}").get_json()
    if "0" in summary["to_act"]:  # the human scores at once: the turn passes to the bot
        moved = api.post(
            f"/v1/games/{game_id}/actions",
            json={"action": {"type": "score"}},
            headers=auth(tokens[0]),
        )
        assert moved.status_code == 200, moved.get_json()
        summary = api.get(f"/v1/games/{game_id}").get_json()
    assert "1" in summary["to_act"], summary["to_act"]
    counted = Counted(private_redis)
    outcome, _, calls = counted.during(lambda: play_bot(game_id, 1, summary["version"]))
    steps = int(outcome.split()[2])
    assert outcome.startswith("done after") and steps >= 2, outcome
    assert calls.get("hmget") == 1, f"{steps} steps: {calls}"
    assert calls.get("evalsha") == steps, calls


@contextlib.contextmanager
def live_worker(private_redis: redis.Redis, queue_name: str) -> Iterator[tuple[Any, Any]]:
    """The service's rq worker on ``queue_name`` (without decoded replies, as rq needs),
    registered for the test and its death registered after."""
    from rq import Queue

    from service.worker import DicehallWorker

    url = private_redis.connection_pool.connection_kwargs
    raw = redis.Redis(url["host"], url["port"])
    queue = Queue(queue_name, connection=raw)
    worker = DicehallWorker([queue], connection=raw)
    worker.register_birth()
    try:
        yield worker, queue
    finally:
        worker.register_death()


@contextlib.contextmanager
def worker_on_the_games_redis(api, private_redis, monkeypatch) -> Iterator[tuple[Any, Any]]:
    """A live service worker whose queue is on the game's Redis (the worker reads ``REDIS_URL``
    for its games), rq warmed up and the queue emptied of other tests' games' jobs."""
    url = private_redis.connection_pool.connection_kwargs
    monkeypatch.setenv("REDIS_URL", f"redis://{url['host']}:{url['port']}/0")
    monkeypatch.delenv("DICEHALL_QUEUE_URL", raising=False)
    warm_rq(api)
    with live_worker(private_redis, os.environ.get("DICEHALL_QUEUE", "dicehall")) as (
        worker,
        queue,
    ):
        queue.empty()
        yield worker, queue


def test_the_workers_heartbeat_takes_one_round_trip(private_redis):
    # rq sends its heartbeat (last_heartbeat, the TTLs of the worker's key and its
    # executions' key) unpipelined, three round trips, before and after every dequeue and
    # after every job; the service's worker sends the same commands in one.
    with live_worker(private_redis, "heartbeat-test") as (worker, _):
        private_redis.persist(worker.key)
        _, trips, calls = Counted(private_redis).during(worker.heartbeat)
        assert trips == 1, f"{trips} round trips {calls}"
        assert calls == {"hset": 1, "expire": 2}, calls
        assert private_redis.hget(worker.key, "last_heartbeat")
        assert 0 < private_redis.ttl(worker.key) <= worker.worker_ttl + 60


def writes_now() -> int:
    """Redis's reply writes so far (read by a job of the test below, in the worker itself)."""
    from rq import get_current_job

    connection = get_current_job().connection  # type: ignore[union-attr]
    return int(connection.info("stats")["total_writes_processed"])


def test_the_worker_starts_a_dequeued_job_after_two_round_trips(private_redis):
    # After the dequeue (BLMOVE) rq reads the job, then sends the worker's heartbeat, the
    # execution's record and the worker's state, and the job's started state: four round
    # trips before the job starts, each of which can wait for a core while the API answers
    # the move that queued the job. The service's worker reads the job and sends the rest
    # in one transaction.
    with live_worker(private_redis, "preparation-test") as (worker, queue):
        worker.get_redis_server_version()  # read once per worker, not per job
        worker.run_maintenance_tasks()  # rq's cleaning of its registries: every few minutes
        job = queue.enqueue(writes_now)
        before = int(private_redis.info("stats")["total_writes_processed"])
        dequeued = worker.dequeue_job_and_maintain_ttl(timeout=1)
        assert dequeued is not None and dequeued[0].id == job.id
        worker.execute_job(*dequeued)
        job.refresh()
        assert job.get_status() == "finished", job.get_status()
        # the job's INFO is its own reply write, not counted; the INFO above is counted
        trips = job.return_value() - before - 1
        # before the wait: the worker's idle state and its heartbeat; the dequeue (BLMOVE);
        # after it: the job's read and the preparation (rq: 7, with the preparation in 3)
        assert trips == 5, f"{trips} round trips from the dequeue to the job's start"
        assert private_redis.hget(worker.key, "last_heartbeat")
        assert private_redis.llen(queue.intermediate_queue_key) == 0
        assert job.started_at is not None and job.worker_name == worker.name


def test_a_heartbeat_left_to_the_jobs_preparation_is_skipped_once_only(private_redis):
    # The heartbeat rq sends after a dequeue that found a job is left to the job's
    # preparation; if the job never reaches it (rq retries its dequeue loop after a Redis
    # error), the next heartbeats must be sent, or the worker's key expires while it runs.
    with live_worker(private_redis, "skip-once-test") as (worker, queue):
        worker.reorder_queues(reference_queue=queue)  # rq: a dequeue found a job
        _, skipped, _ = Counted(private_redis).during(worker.heartbeat)
        _, sent, calls = Counted(private_redis).during(worker.heartbeat)
        assert (skipped, sent) == (0, 1), f"round trips {skipped}, then {sent} {calls}"


def test_a_bot_job_reads_its_game_with_its_preparation(api, private_redis, monkeypatch):
    # The queue is on the game's Redis: the bot job's first read of its game (HMGET) rides
    # the worker's preparation of the job (one transaction), so from the job's read to the
    # bot's commit there is one round trip, not two, while the API still answers the move.
    with worker_on_the_games_redis(api, private_redis, monkeypatch) as (worker, _):
        game_id, _, _ = bot_due_move(api, private_redis)
        worker.get_redis_server_version()  # read once per worker, not per job
        worker.run_maintenance_tasks()  # rq's cleaning of its registries: every few minutes
        dequeued = worker.dequeue_job_and_maintain_ttl(timeout=1)
        assert dequeued is not None and dequeued[0].args[0] == game_id, dequeued
        job = dequeued[0]
        _, trips, calls = Counted(private_redis).during(lambda: worker.execute_job(*dequeued))
    outcome = job.return_value()
    assert outcome is not None and outcome.startswith("done after"), outcome
    steps = int(outcome.split()[2])
    assert calls.get("hmget") == 1 and calls.get("evalsha") == steps, calls
    # the preparation with the read (1), a commit a step, and the finishing (1: the result,
    # the idle state, the heartbeat and the suspension flag in one transaction; rq: 5, the
    # dependents' WATCH and SMEMBERS, the result, the idle state, the heartbeat); with the
    # read in a round trip of its own, one more
    assert trips == 1 + steps + 1, f"{steps} steps: {trips} round trips {calls}"
    assert calls.get("watch") is None and calls.get("smembers") is None, calls


def test_a_bot_job_plays_with_the_settings_its_read_ahead_was_made_with(
    api, private_redis, monkeypatch
):
    # The worker reads its environment once (Settings() costs ~30 us) and reads the job's
    # game with those settings; the job plays with the same ones, not with settings it
    # reads again (which the read-ahead carried, unused: the job read the game under the
    # worker's key prefix and committed under another).
    with worker_on_the_games_redis(api, private_redis, monkeypatch) as (worker, queue):
        no_game_bot_job(queue)
        worker.execute_job(*worker.dequeue_job_and_maintain_ttl(timeout=1))  # reads them
        game_id, _, _ = bot_due_move(api, private_redis)
        version = int(private_redis.hget(f"dh:{{{game_id}}}:game", "version"))
        monkeypatch.setenv("DICEHALL_PREFIX", "elsewhere")  # not the worker's any more
        dequeued = worker.dequeue_job_and_maintain_ttl(timeout=1)
        assert dequeued is not None and dequeued[0].args[0] == game_id, dequeued
        worker.execute_job(*dequeued)
    outcome = dequeued[0].return_value()
    assert outcome is not None and outcome.startswith("done after"), outcome
    assert int(private_redis.hget(f"dh:{{{game_id}}}:game", "version")) > version, outcome
    assert not private_redis.keys("elsewhere:*")


def test_only_a_bot_job_with_the_queue_on_its_games_redis_reads_ahead(private_redis, monkeypatch):
    # The worker reads the game on its own connection to the queue's Redis: with the queue
    # elsewhere (DICEHALL_QUEUE_URL) the job reads its game itself, as any other job does.
    from rq.job import Job

    from service.jobs import read_ahead

    url = private_redis.connection_pool.connection_kwargs
    base = f"redis://{url['host']}:{url['port']}"
    monkeypatch.setenv("REDIS_URL", f"{base}/0")
    monkeypatch.delenv("DICEHALL_QUEUE_URL", raising=False)
    raw = redis.Redis(url["host"], url["port"])
    bot = Job.create("service.jobs.play_bot", args=("g", 1, 3), connection=raw)
    tick = Job.create("service.jobs.tournament_tick", args=("t", False), connection=raw)
    ahead = read_ahead(bot)
    assert ahead is not None and ahead.game_id == "g"
    assert read_ahead(tick) is None
    monkeypatch.setenv("DICEHALL_QUEUE_URL", f"{base}/1")
    assert read_ahead(bot) is None


def test_a_read_ahead_that_failed_fails_the_job_and_a_keyword_job_reads_for_itself(
    private_redis, monkeypatch
):
    # The read rides rq's preparation with raise_on_error=False: an error reply to it (a key
    # of the wrong type) is raised inside the job, where rq fails and records it, not in the
    # worker's loop; a bot job enqueued with keyword arguments is not read ahead at all.
    from rq.job import Job

    from service.jobs import _first_read, read_ahead

    url = private_redis.connection_pool.connection_kwargs
    monkeypatch.setenv("REDIS_URL", f"redis://{url['host']}:{url['port']}/0")
    monkeypatch.delenv("DICEHALL_QUEUE_URL", raising=False)
    raw = redis.Redis(url["host"], url["port"])
    keywords = Job.create("service.jobs.play_bot", kwargs={"game_id": "g"}, connection=raw)
    assert read_ahead(keywords) is None
    ahead = read_ahead(Job.create("service.jobs.play_bot", args=("g", 1, 3), connection=raw))
    assert ahead is not None
    ahead.settle([redis.ResponseError("WRONGTYPE Operation against a key")])
    with ahead.held(), pytest.raises(redis.ResponseError, match="WRONGTYPE"):
        _first_read(ahead.store, "g")


def no_game_bot_job(queue: Any) -> Any:
    """A bot job of a game that does not exist: it succeeds at once ("game not active")."""
    from service.runtime import job_options

    options = job_options()
    return queue.enqueue("service.jobs.play_bot", "no-such-game", 1, 1, **options)


def test_after_a_bot_job_the_worker_waits_for_the_next_after_one_round_trip(
    private_redis, monkeypatch
):
    # rq finishes a job in five round trips (the job's heartbeat, the dependents' WATCH and
    # SMEMBERS, the result's transaction, the idle state), then its loop sends the worker's
    # heartbeat, the suspension check, the idle state and a heartbeat again before it waits:
    # nine, while the bot's move goes out on the game's stream. The service's worker sends
    # the same writes and the suspension flag's read in one transaction, and nothing more
    # before the next dequeue.
    from rq.worker import WorkerStatus

    from service import worker as worker_module

    url = private_redis.connection_pool.connection_kwargs
    monkeypatch.setenv("REDIS_URL", f"redis://{url['host']}:{url['port']}/0")
    monkeypatch.delenv("DICEHALL_QUEUE_URL", raising=False)
    # what the finishing sent stands for the loop's commands FRESH seconds: a loop run on a
    # loaded machine may come later than 1 s, and would then rightly send them again
    monkeypatch.setattr(worker_module, "FRESH", 3600.0)
    with live_worker(private_redis, "finish-test") as (worker, queue):
        worker.get_redis_server_version()
        worker.run_maintenance_tasks()
        job = no_game_bot_job(queue)
        dequeued = worker.dequeue_job_and_maintain_ttl(timeout=1)
        assert dequeued is not None and dequeued[0].id == job.id
        _, run, calls = Counted(private_redis).during(lambda: worker.execute_job(*dequeued))

        def the_loop_until_the_next_dequeue() -> None:
            worker.heartbeat()  # rq's loop, after the job
            worker.check_for_suspension(False)
            worker.set_state(WorkerStatus.IDLE)  # rq's dequeue, before its BLMOVE
            worker.heartbeat()

        _, loop, loop_calls = Counted(private_redis).during(the_loop_until_the_next_dequeue)
        # the preparation with the read, then the finishing
        assert (run, loop) == (2, 0), f"{run} round trips {calls}, then {loop} {loop_calls}"
        assert calls.get("exists") == 1 and "watch" not in calls, calls
        assert private_redis.hget(worker.key, "state") == WorkerStatus.IDLE
        assert private_redis.hget(worker.key, "successful_job_count") == "1"
        assert private_redis.ttl(worker.key) > 0
        # any other job (one that others may depend on) is finished by rq's own code
        queue.enqueue(writes_now)
        dequeued = worker.dequeue_job_and_maintain_ttl(timeout=1)
        _, _, calls = Counted(private_redis).during(lambda: worker.execute_job(*dequeued))
        assert calls.get("watch") == 1, calls


def test_a_suspended_worker_finishing_a_bot_job_stops_as_rqs_own(private_redis, monkeypatch):
    # The finishing reads the suspension flag with its writes: a worker suspended while it
    # played (``rq suspend``) stops taking jobs, as rq's own check would have found.
    from rq.suspension import resume, suspend

    url = private_redis.connection_pool.connection_kwargs
    monkeypatch.setenv("REDIS_URL", f"redis://{url['host']}:{url['port']}/0")
    with live_worker(private_redis, "suspend-test") as (worker, queue):
        raw = queue.connection
        no_game_bot_job(queue)
        dequeued = worker.dequeue_job_and_maintain_ttl(timeout=1)
        suspend(raw)
        try:
            worker.execute_job(*dequeued)
            with pytest.raises(StopRequested):
                worker.check_for_suspension(True)  # burst: a suspended worker stops
        finally:
            resume(raw)


def rq_state(client: redis.Redis, job_id: str, worker_name: str, queue_name: str) -> Any:
    """What Redis holds of a finished job, its queue and its worker, with the job's id, the
    worker's name and every time left out: each key's type, its hash fields or members, and
    whether it expires."""
    names = {job_id: "JOB", worker_name: "WORKER", queue_name: "QUEUE"}

    def plain(found: Any) -> str:  # the client decodes: a str
        text = str(found)
        for name, placeholder in names.items():
            text = text.replace(name, placeholder)
        return text

    held = {}
    for key in client.scan_iter(match="rq:*"):
        if not any(name in key for name in names):
            continue
        kind = client.type(key)
        if kind == "hash":
            body: Any = sorted(client.hkeys(key))
        elif kind == "zset":
            body = sorted(plain(m).split(":")[0] for m in client.zrange(key, 0, -1))
        elif kind in ("list", "set"):
            members = client.lrange(key, 0, -1) if kind == "list" else client.smembers(key)
            body = sorted(plain(m) for m in members)
        else:
            body = None
        held[plain(key)] = (kind, body, client.ttl(key) > 0)
    return held


def test_a_bot_jobs_finishing_leaves_what_rqs_own_leaves(private_redis, monkeypatch):
    # Same keys, same fields, same registries, same expiries, the result stored: rq's
    # SimpleWorker against the service's, each on a bot job of its own queue.
    from rq import Queue, SimpleWorker

    from service.worker import DicehallWorker

    url = private_redis.connection_pool.connection_kwargs
    monkeypatch.setenv("REDIS_URL", f"redis://{url['host']}:{url['port']}/0")
    monkeypatch.delenv("DICEHALL_QUEUE_URL", raising=False)
    raw = redis.Redis(url["host"], url["port"])
    states = []
    for worker_class, name in ((SimpleWorker, "finish-rq"), (DicehallWorker, "finish-dh")):
        queue = Queue(name, connection=raw)
        worker = worker_class([queue], connection=raw)
        worker.register_birth()
        job = no_game_bot_job(queue)
        dequeued = worker.dequeue_job_and_maintain_ttl(timeout=1)
        worker.execute_job(*dequeued)
        job.refresh()
        assert job.get_status() == "finished" and job.return_value().startswith("done"), job
        states.append(rq_state(private_redis, job.id, worker.name, name))
        worker.register_death()
    assert states[0] == states[1]


def test_rqs_per_job_lines_but_one_are_logged_at_debug(private_redis, monkeypatch, caplog):
    # rq logs four INFO lines a bot move (dequeued, completed, OK, result kept), one of them
    # between the move that queued the job and the bot's reply: the one that says the job
    # completed (with its description) stays at INFO, after the job (the one-trip finishing
    # logs no other); the dequeued job's goes at DEBUG; rq's other lines as rq logs them.
    import logging

    url = private_redis.connection_pool.connection_kwargs
    monkeypatch.setenv("REDIS_URL", f"redis://{url['host']}:{url['port']}/0")
    with live_worker(private_redis, "quiet-test") as (worker, queue):
        caplog.set_level(logging.DEBUG, logger="rq.worker")
        job = no_game_bot_job(queue)
        worker.execute_job(*worker.dequeue_job_and_maintain_ttl(timeout=1))
        worker.run_maintenance_tasks()
    lines = [(r.levelno, r.getMessage()) for r in caplog.records if r.name == "rq.worker"]
    about_the_job = [(level, text) for level, text in lines if job.id in text or "play_bot" in text]
    at_info = [text for level, text in about_the_job if level == logging.INFO]
    assert len(at_info) == 1, lines
    demoted = {text for level, text in about_the_job if level == logging.DEBUG}
    assert any("play_bot(" in text for text in demoted), lines  # the dequeued job's line
    assert at_info[0].startswith("Successfully completed service.jobs.play_bot("), at_info
    assert (logging.INFO, f"Worker {worker.name}: cleaning registries for queue: quiet-test") in (
        lines
    )


def test_a_debug_log_level_shows_rqs_per_job_lines(monkeypatch):
    import logging

    from service.logs import configure_logging
    from service.worker import job_lines_follow_root

    rq_worker, root = logging.getLogger("rq.worker"), logging.getLogger()
    levels, handlers = (rq_worker.level, root.level), list(root.handlers)
    try:
        monkeypatch.setenv("DICEHALL_LOG_LEVEL", "info")
        configure_logging()
        job_lines_follow_root()
        assert not rq_worker.isEnabledFor(logging.DEBUG)
        monkeypatch.setenv("DICEHALL_LOG_LEVEL", "debug")
        configure_logging()
        job_lines_follow_root()
        assert rq_worker.isEnabledFor(logging.DEBUG)
    finally:
        rq_worker.setLevel(levels[0])
        root.setLevel(levels[1])
        root.handlers[:] = handlers
