"""The sweep finds what no job will do: lost bot jobs and passed deadlines (service.sweep).

These tests run one pass at a chosen moment against the session Redis, with a key prefix and
a queue of their own (no worker sweeps those games or listens to that queue), so they see
exactly what the pass enqueues and plays.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from rq.job import JobStatus

from service.config import Settings
from service.moves import MoveRequest
from service.runtime import game_service, queue_for
from service.store import GameRecord, GameStatus
from service.sweep import (
    BOT_GRACE,
    MAX_REPLAYS,
    REVIVE_AFTER,
    STALLED_AFTER,
    Sweep,
    heartbeat_key,
)
from service.tournaments import TournamentRunner

QUEUE = "dicehall-sweep-test"


@pytest.fixture()
def settings(redis_client: Any) -> Settings:
    settings = Settings(queue_name=QUEUE, key_prefix="sweeptest")
    queue_for(settings).empty()
    return settings


def bot_game(settings: Settings) -> str:
    record, _, _ = game_service(settings).create("toy", [{"kind": "bot"}] * 2, {}, seed="sweep")
    return record.id


def two_random_bots(games: int) -> dict[str, Any]:
    """A toy tournament between two random bots."""
    return {
        "game": "toy",
        "participants": [{"name": "a", "bot": "random"}, {"name": "b", "bot": "random"}],
        "games": games,
    }


def test_sweep_enqueues_the_bot_jobs_of_a_follow_up_lost_after_its_commit(settings) -> None:
    service = game_service(settings)
    ids = [bot_game(settings) for _ in range(3)]
    queue = queue_for(settings)
    queue.empty()  # the API process died between the commit and the enqueue
    sweep = Sweep(service, settings)

    early = sweep.run(now=time.time())
    assert early.enqueued == [] and early.live == 3

    report = sweep.run(now=time.time() + BOT_GRACE + 1)
    assert sorted(report.enqueued) == sorted((gid, seat) for gid in ids for seat in (0, 1))
    assert queue.count == 6
    assert {job.args[2] for job in queue.jobs} == {0}  # made for the version it saw

    again = sweep.run(now=time.time() + BOT_GRACE + 1)
    assert again.enqueued == []  # the jobs wait in the queue: nothing is enqueued twice
    assert queue.count == 6


def test_sweep_replaces_a_job_whose_worker_died_and_keeps_one_whose_worker_lives(
    settings, redis_client
) -> None:
    service = game_service(settings)
    game_id = bot_game(settings)
    queue = queue_for(settings)
    job = queue.jobs[0]
    queue.remove(job)
    job.set_status(JobStatus.STARTED)
    job.worker_name = "w-alive"
    job.save()  # a worker took the job (seat 0's); seat 1's job is lost the same way
    queue.empty()
    redis_client.set(heartbeat_key(settings.key_prefix, "w-alive"), "1", ex=30)
    sweep = Sweep(service, settings)
    later = time.time() + BOT_GRACE + 1

    assert sweep.run(now=later).enqueued == [(game_id, 1)]

    redis_client.delete(heartbeat_key(settings.key_prefix, "w-alive"))  # that worker was killed
    assert sweep.run(now=later).enqueued == [(game_id, 0)]


def test_sweep_plays_passed_deadlines_and_counts_one_miss_each(settings) -> None:
    service = game_service(settings)
    record, _, _ = service.create("toy", [{"kind": "human"}] * 2, {}, seed="d", decision_seconds=30)
    for seat in (0, 1):
        service.join(record.id, seat, None)
    record = service.record(record.id)
    due = max(record.due.values())
    sweep = Sweep(service, settings)

    assert sweep.run(now=due + 29).fallbacks == []
    report = sweep.run(now=due + 30.5)
    assert sorted(report.fallbacks) == [(record.id, 0), (record.id, 1)]
    renewed = min(service.record(record.id).due.values())
    assert renewed > due
    assert sweep.run(now=renewed + 29).fallbacks == []  # the new round's deadlines are ahead

    entries = service.store.log(record.id)
    assert [e["fallback"] for e in entries[1:]] == [True, True]
    stats = service.store.stats(record.id, 2)
    assert [s["missed"] for s in stats] == [1, 1]


def test_a_deadline_plays_its_fallback_whatever_idempotency_keys_the_seat_sent(settings) -> None:
    """A client's Idempotency-Key never names a fallback's answer: a seat that sent the key
    its future fallback would use (``fallback-<decision>``, a decision id is a version, so
    foreseeable) did not stall its own deadline (the fallback found that answer and gave up,
    every pass, for the key's day)."""
    service = game_service(settings)
    record, _, _ = service.create("toy", [{"kind": "human"}] * 2, {}, seed="k", decision_seconds=30)
    tokens = [service.join(record.id, seat, None)[1] for seat in (0, 1)]
    for seat, card in ((0, 4), (1, 1)):  # both bids of round 1: round 2 falls due at version 2
        bid = {"type": "bid", "card": card}
        service.act(record.id, MoveRequest(bid, token=tokens[seat], idempotency_key="fallback-2"))
    record = service.record(record.id)
    assert record.decisions == {"0": 2, "1": 2}

    report = Sweep(service, settings).run(now=max(record.due.values()) + 30.5)
    assert sorted(report.fallbacks) == [(record.id, 0), (record.id, 1)]
    assert [e["fallback"] for e in service.store.log(record.id)[3:]] == [True, True]


def seconds_left(record: GameRecord, seat: int) -> float:
    """How long ``seat`` had for its current decision when it fell due."""
    deadline = record.deadline(seat)
    assert deadline is not None, f"seat {seat} has no deadline"
    return deadline - record.due[str(seat)]


def test_time_bank_deadlines_follow_each_seats_clock(settings) -> None:
    """A seat's deadline is when its clock runs out: the start plus an increment for each
    decision falling due, minus the time its moves took (never below zero)."""
    service = game_service(settings)
    record, _, _ = service.create("toy", [{"kind": "human"}] * 2, {}, seed="b", time_bank=[10, 2])
    for seat in (0, 1):
        service.join(record.id, seat, None)
    record = service.record(record.id)
    due = max(record.due.values())
    assert [seconds_left(record, s) for s in (0, 1)] == [12, 12]
    sweep = Sweep(service, settings)

    assert sweep.run(now=due + 11.5).fallbacks == []  # 10 s, the decision_seconds reading
    assert sorted(sweep.run(now=due + 12.5).fallbacks) == [(record.id, 0), (record.id, 1)]
    after = service.record(record.id)
    for seat in (0, 1):  # the move took (almost) nothing; the new decision added 2 s
        assert 13 < seconds_left(after, seat) <= 14
    assert [s["missed"] for s in service.store.stats(record.id, 2)] == [1, 1]

    after.run_clocks(0, 60.0, [0])  # a move slower than the clock: nothing left but 2 s
    assert after.deadline(0) == after.due["0"] + 2


def test_sweep_forgets_games_that_are_over_or_gone_and_ticks_their_tournament(
    settings, redis_client
) -> None:
    service = game_service(settings)
    record, _, _ = service.create("toy", [{"kind": "bot"}] * 2, {}, seed="t", tournament="t-1")
    gone = bot_game(settings)
    key = service.store.key_for(record.id, "game")
    service.store.redis.hset(key, "status", GameStatus.OVER.value)
    redis_client.delete(service.store.key_for(gone, "game"))
    queue = queue_for(settings)
    queue.empty()
    report = Sweep(service, settings).run()
    assert report.dropped == 2
    assert service.store.live_ids() == []
    assert [(job.func_name, job.args) for job in queue.jobs] == [
        ("service.jobs.tournament_tick", ("t-1", False))
    ]


def test_backfill_indexes_the_games_of_a_database_older_than_the_index(
    settings, redis_client
) -> None:
    service = game_service(settings)
    ids = {bot_game(settings) for _ in range(2)}
    redis_client.delete(*service.store.live.keys, service.store.keys.live_filled)
    sweep = Sweep(service, settings)
    assert sweep.backfill() == 2
    assert set(service.store.live_ids()) == ids
    assert sweep.backfill() == 0  # once per database


def test_sweep_ticks_a_tournament_whose_ticks_were_lost_once_per_revive_interval(
    settings,
) -> None:
    service = game_service(settings)
    runner = TournamentRunner(settings, service)
    tournament = runner.create(two_random_bots(games=2))
    queue = queue_for(settings)
    queue.empty()  # its first ticks were lost (a crash after it was stored)
    sweep = Sweep(service, settings)
    assert sweep.run(now=time.time()).revived == []  # not silent long enough yet
    later = time.time() + REVIVE_AFTER + 1
    assert sweep.run(now=later).revived == [tournament.id]
    assert [(job.func_name, job.args) for job in queue.jobs] == [
        ("service.jobs.tournament_tick", (tournament.id, False))
    ]
    assert sweep.run(now=later).revived == []  # one tick per interval, not one per pass
    finished = runner.load(tournament.id)
    finished.status = "finished"
    runner.save(finished)
    assert runner.tick(tournament.id, False) == "finished"
    assert tournament.id not in runner.running.members()


def test_a_sweeper_moves_indexes_kept_on_one_key_into_their_shards(settings, redis_client) -> None:
    service = game_service(settings)
    keys = service.store.keys
    redis_client.zadd(keys.legacy_index("games"), {"old-1": 1.0, "old-2": 2.0})
    redis_client.zadd(keys.legacy_index("live"), {"old-2": 2.0})
    redis_client.zadd(keys.legacy_index("tournaments"), {"t-old": 3.0})
    sweep = Sweep(service, settings)
    sweep.backfill()
    assert service.store.game_ids() == ["old-2", "old-1"]
    assert "old-2" in service.store.live_ids()
    assert sweep.tournaments.members() == ["t-old"]
    legacy = [keys.legacy_index(name) for name in ("games", "live", "tournaments")]
    assert redis_client.exists(*legacy) == 0


def test_a_decision_whose_bot_jobs_keep_failing_gets_the_fallback_and_the_game_goes_on(
    settings,
) -> None:
    """A bot that fails every time on a decision stalled its game for good once the sweep
    had made ``MAX_REPLAYS`` jobs for it; the seat now gets its fallback move, counted as a
    missed deadline is, and the game goes on."""
    service = game_service(settings)
    game_id = bot_game(settings)
    version = service.record(game_id).version
    queue = queue_for(settings)
    sweep = Sweep(service, settings)
    later = time.time() + BOT_GRACE + 1
    made = 0
    for _ in range(MAX_REPLAYS):
        queue.empty()  # every job it makes fails
        report = sweep.run(now=later)
        made += len(report.enqueued)
        assert report.fallbacks == []
    assert made == 2 * MAX_REPLAYS  # both bot seats
    assert sweep.run(now=time.time() + STALLED_AFTER + 1).stalled == {game_id}
    queue.empty()

    report = sweep.run(now=later)
    assert report.enqueued == [] and sorted(report.fallbacks) == [(game_id, 0), (game_id, 1)]
    record = service.record(game_id)
    assert record.version > version
    assert [e["fallback"] for e in service.store.log(game_id)[1:]] == [True, True]
    assert [s["missed"] for s in service.store.stats(game_id, 2)] == [1, 1]


def test_a_tick_finishes_the_work_of_a_tick_that_died_after_writing_a_game(settings) -> None:
    """A tick killed between a tournament game's write and what follows it (its accounts
    told, its first decisions followed up), before it saved its count: the next tick finds
    the game written (Conflict) and does that work, else the game's external seat's account
    never hears of it and the game waits for it for good (no deadlines by default)."""
    service = game_service(settings)
    account, _ = service.accounts.register("outsider", "tests")
    runner = TournamentRunner(settings, service)
    spec = {
        "game": "toy",
        "participants": [{"name": "out", "account": account.id}, {"name": "b", "bot": "random"}],
        "games": 1,
    }
    tournament = runner.create(spec)
    runner.tick(tournament.id, False)
    game_id = tournament.game_id(0)
    assert service.accounts.games(account.id) == [game_id]
    service.accounts.drop_game(account.id, game_id)  # the dead tick's lost work
    dead = runner.load(tournament.id)
    dead.created = 0  # nor did it save its count
    runner.save(dead)

    runner.tick(tournament.id, False)
    assert service.accounts.games(account.id) == [game_id]
    assert [n["game_id"] for n in service.pending_for(account.id)] == [game_id]
    assert runner.load(tournament.id).created == 1


def test_a_mirrored_table_dropped_unfinished_ends_its_tournament_and_frees_its_seed(
    settings,
) -> None:
    """A table whose game expired unfinished (an external seat that never moved, no
    deadlines, a week without a move): the tournament waited for it for good (ticking every
    few seconds, never finished), and the seed of the tables dealt the same dice stayed
    secret for their whole retention. It now counts as over without a result; the tables
    beside it show their seed (nobody can play the dropped one any more)."""
    service = game_service(settings)
    account, _ = service.accounts.register("silent", "tests")
    runner = TournamentRunner(settings, service)
    spec = {
        "game": "toy",
        "format": "mirrored",
        "participants": [{"name": "out", "account": account.id}, {"name": "b", "bot": "random"}],
        "games": 2,
    }
    tournament = runner.create(spec)
    runner.tick(tournament.id, False)
    first, second = tournament.game_id(0), tournament.game_id(1)
    assert service.record(second).siblings == [first]
    store = service.store
    store.redis.hset(store.key_for(second, "game"), "status", GameStatus.OVER.value)
    assert runner.tick(tournament.id, False) == "1/2 over, 2 started"
    assert not service.record(second).seed_public  # its sibling is still played

    store.redis.delete(*store.redis.keys(store.key_for(first, "*")))  # expired unfinished
    assert runner.tick(tournament.id, False) == "finished"
    assert service.record(second).seed_public
    assert service.summary(service.record(second))["seed"] is not None
    assert runner.load(tournament.id).status == "finished"


def test_sweep_compacts_a_finished_game_whose_follow_up_was_lost(settings) -> None:
    """An API process killed between a game's last move and its compaction: the sweep that
    finds the game over compacts it (its log, events and answers go; the archive stays),
    else it keeps its full form for its whole retention."""
    service = game_service(settings)
    game_id = bot_game(settings)
    store = service.store
    store.redis.hset(store.key_for(game_id, "game"), "status", GameStatus.OVER.value)
    assert store.redis.exists(store.key_for(game_id, "log"))

    report = Sweep(service, settings).run()
    assert report.dropped == 1
    assert store.redis.hexists(store.key_for(game_id, "game"), "archive")
    assert not store.redis.exists(store.key_for(game_id, "log"))
    assert 0 < store.redis.ttl(store.key_for(game_id, "game")) <= store.retention.finished


def test_a_tournament_whose_listing_was_lost_is_listed_by_its_revived_tick(settings) -> None:
    """A crash between a tournament's record and its listing (and its first ticks): the
    tick the sweep revives lists it, else GET /v1/tournaments never shows it."""
    service = game_service(settings)
    runner = TournamentRunner(settings, service)
    tournament = runner.create(two_random_bots(games=1))
    runner.index.remove([tournament.id])  # the crash's lost work
    queue_for(settings).empty()
    later = time.time() + REVIVE_AFTER + 1
    assert Sweep(service, settings).run(now=later).revived == [tournament.id]
    runner.tick(tournament.id, False)  # the revived tick
    assert tournament.id in [t.id for t in runner.recent(0, 50)]
