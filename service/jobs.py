"""rq jobs: plain importable functions with small arguments (ids and versions, not states).

``play_bot`` plays one bot seat from that seat's view and legal actions only. A job carries
the version it was enqueued for; if the game has moved on it does nothing, so a job run
twice (rq's retry, or the sweep replacing a job it took for lost) plays once. While the same
seat keeps owing decisions (a Carcassonne turn is many steps) the job plays on itself instead
of enqueueing a job per step. ``deadline_passed`` plays the fallback for a seat whose
decision timed out (the sweep, ``service.sweep``, now fires deadlines itself; the job stays
for jobs enqueued before it did); ``tournament_tick`` moves a tournament along.

A bot job's first read of its game can ride the worker's preparation of the job
(:func:`read_ahead`, used by ``service.worker``): one round trip fewer between the move that
queued the job and the bot's reply.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from typing import Any

from rq.exceptions import DeserializationError
from rq.job import Job

from engine.games import get_game
from service.config import Settings
from service.errors import GameOver, KeyReused, VersionConflict
from service.games import SERVICE_ANSWER_TTL, GameService
from service.moves import Move, MoveRequest, bot_choice, bot_rng, seat_bot
from service.runtime import game_service, queue_shares_store
from service.store import GameRecord, GameStatus, GameStore, Pipeline

JOB_SECONDS = 120.0
"""A bot job hands its seat on to a new job after this long (search bots think for up to
seconds a move; the queue's job timeout is 300 s)."""


def play_bot(game_id: str, seat: int, version: int) -> str:
    """Play ``seat`` of ``game_id`` if the decision it owes fell due at or before ``version``
    (the version the job was enqueued for); returns what happened. A job whose seat has a
    newer decision does nothing: that decision got its own job."""
    settings = _job_settings(game_id)
    service = _service(settings)
    moves = 0
    started = time.monotonic()
    played: Move | None = None
    while moves < settings.bot_moves_per_job and time.monotonic() - started < JOB_SECONDS:
        # After its own move the job plays on from the record it committed (no read, no
        # decoding); if another seat moved meanwhile, the commit finds the game changed
        # and reads it again.
        record = played.record if played is not None else _first_read(service.store, game_id)
        if record is None or record.status is not GameStatus.ACTIVE:
            return f"done after {moves} moves: game not active"
        info = record.seats[seat]
        if info.kind != "bot" or info.bot is None:
            return "not a bot seat"
        game = get_game(record.game)
        state = played.state if played is not None else game.load_state(record.state)
        if seat not in game.to_act(state):
            return f"done after {moves} moves: nothing owed"
        decision = record.decision(seat)
        if decision > version:
            return f"done after {moves} moves: stale (decision {decision}, job for {version})"
        bot = seat_bot(game, record, seat, time.time())
        rng = bot_rng(record, decision, seat)
        action = bot_choice(bot, game, state, seat, rng)
        try:
            move = MoveRequest(
                action,
                seat,
                if_match=decision,
                idempotency_key=f"bot-{decision}",
                answer_ttl=SERVICE_ANSWER_TTL,
                next_actions=False,
                answer_view=False,
            )
            answer, played = service.play(
                game_id, move, known=record, skip_bot_seat=seat, known_state=state
            )
        except (VersionConflict, KeyReused, GameOver):
            return f"done after {moves} moves: raced at decision {decision}"
        moves += 1
        version = answer["version"]
        if str(seat) not in answer["to_act"]:
            return f"done after {moves} moves"
    service.jobs.bots(game_id, version, [seat])
    return f"handed on after {moves} moves"


@lru_cache(maxsize=4)
def _service(settings: Settings) -> GameService:
    """The process's game service for ``settings``, built once, not per job (its Redis
    clients are the process's anyway)."""
    return game_service(settings)


_AHEAD: ContextVar[tuple[str, Any, Settings] | None] = ContextVar("read_ahead", default=None)
"""The game and its record's fields that the job being performed was handed
(:meth:`ReadAhead.held`), decoded by the job (a record it cannot decode fails the job, as its
own read would), and the settings the read was made with."""


class ReadAhead:
    """A bot job's first read of its game, queued on the worker's preparation of the job
    (a :class:`service.store.Rider` of that transaction) instead of sent by the job in a round
    trip of its own: between the move that queued the job and the bot's reply, while the API
    still answers that move on the same cores, each round trip can wait for a core."""

    def __init__(self, settings: Settings, game_id: str) -> None:
        self.settings = settings
        self.store = _service(settings).store
        self.game_id = game_id
        self.values: Any = None

    def queue(self, pipe: Pipeline) -> int:
        self.store.read_fields(pipe, self.game_id)
        return 1

    def settle(self, replies: list[Any]) -> None:
        self.values = replies[0]

    @contextmanager
    def held(self) -> Iterator[None]:
        """While the job runs, its first read of the game is this one's (once)."""
        token = _AHEAD.set((self.game_id, self.values, self.settings))
        try:
            yield
        finally:
            _AHEAD.reset(token)


def read_ahead(job: Job, settings: Settings | None = None) -> ReadAhead | None:
    """The read that ``job`` starts with, to ride its preparation: a bot job's game, when
    the queue is on the game's own Redis (``service.runtime.queue_shares_store``: the
    worker's connection reads the game there); None for any other job. ``settings``: the
    worker's (read from the environment when not given)."""
    try:
        name, args = job.func_name, job.args
    except DeserializationError:  # rq fails the job when it comes to perform it
        return None
    if name != f"{__name__}.{play_bot.__name__}" or not args or not isinstance(args[0], str):
        return None  # not a bot job, or one whose game is not its first positional argument
    settings = settings or Settings()
    if not queue_shares_store(settings):
        return None
    return ReadAhead(settings, args[0])


_USED = object()
"""A read-ahead's values once the job has taken them (its settings stay for the job)."""


def finishes_alone(job: Job) -> bool:
    """Whether ``job`` is a bot job (that no other job depends on: the service enqueues none
    with ``depends_on``) and repeats no more, whose finishing the worker sends in one round
    trip (``service.worker.OneTripFinishMixin``)."""
    try:
        name = job.func_name
    except DeserializationError:
        return False
    return name == f"{__name__}.{play_bot.__name__}" and not job.repeats_left


def _job_settings(game_id: str) -> Settings:
    """The settings the job's read of ``game_id`` was made with, if it was handed one (the
    worker's, read once), else the environment's."""
    ahead = _AHEAD.get()
    return ahead[2] if ahead is not None and ahead[0] == game_id else Settings()


def _first_read(store: GameStore, game_id: str) -> GameRecord | None:
    """The game's record: the one read with the job's preparation if it was handed one for
    this game and has not used it yet, else read now."""
    ahead = _AHEAD.get()
    if ahead is not None and ahead[0] == game_id and ahead[1] is not _USED:
        _AHEAD.set((game_id, _USED, ahead[2]))
        if isinstance(ahead[1], Exception):  # the read failed (a WRONGTYPE key): the job fails
            raise ahead[1]
        return store.record_of(ahead[1])
    return store.load(game_id)


def deadline_passed(game_id: str, seat: int, due: float) -> str:
    """The decision of ``seat`` that fell due at ``due`` has timed out: play the fallback."""
    return _service(Settings()).play_fallback(game_id, seat, due)


def tournament_tick(tournament_id: str, scheduled: bool | str) -> str:
    """Start the tournament's next games, revive stalled ones, finish it when all are over.
    ``scheduled``: the tick chain of a scheduled tick (True: one enqueued before chains had
    names), False for a tick enqueued at once."""
    from service.tournaments import TournamentRunner

    return TournamentRunner(Settings()).tick(tournament_id, scheduled)
