"""Game operations shared by the HTTP API and the jobs: create, join, act, observe.

Nothing here knows Flask: callers pass the store, the accounts and the background jobs.
Every state change goes through :meth:`GameStore.transact` (compare-and-set on the game's
version); what follows a commit (bot jobs, deadlines, feeds, tournaments) is
:class:`service.announce.FollowUp`'s.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from engine import dice as dice_mod
from engine import search
from engine.contract import Game, IllegalAction, InvalidOptions, MalformedAction, Prompt, RandomBot
from engine.games import UnknownGame, get_game
from service import tokens
from service.accounts import AccountStore
from service.announce import (
    FollowUp,
    Jobs,
    prompts_json,
    visible,
)
from service.briefing import Briefing, Detail
from service.decoded import DecodedStates
from service.described import DescribedActions
from service.errors import (
    Contention,
    GameNotFound,
    GameNotOver,
    GameNotStarted,
    GameOver,
    IllegalMove,
    InvalidBotOptions,
    InvalidFork,
    InvalidGameOptions,
    InvalidSeats,
    MalformedMove,
    PrivateGame,
    SeatNotFound,
    SeatNotHuman,
    SeatTaken,
    Unauthorized,
    UnknownAccount,
    UnknownBot,
    UnknownGameName,
    VersionConflict,
)
from service.held import HeldRecords
from service.history import History
from service.moves import Move, MoveRequest, bot_choice, bot_rng, decide_move
from service.store import (
    Counter,
    GameRecord,
    GameStatus,
    GameStore,
    Pipeline,
    SeatRecord,
    pending_riders,
    take_riders,
)
from service.views import Views

REFUSED = (GameNotStarted, GameOver, VersionConflict, MalformedMove, IllegalMove)
"""What a move is refused with once its game is read (a stored answer to its
Idempotency-Key comes first: the move was made)."""

FALLBACK_KEY = "fallback"
"""A fallback's Idempotency-Key: ``fallback <decision>``, with a space, which no client's key
holds (``MoveHeadersSchema``: printable ASCII without spaces). A key a client could send
would let a seat that sent it first, for the decision it will owe, keep its own deadline from
ever being played (the fallback finds the client's answer, or ``KeyReused``)."""

SERVICE_ANSWER_TTL = 300
"""Seconds the service keeps the answers of its own moves (bots, fallbacks) for retries: a
job retried after a crash comes back within minutes, not a day."""


@dataclass
class Caller:
    """Who is asking: a seat (by its token), the creator, or a spectator (neither)."""

    seat: int | None = None
    creator: bool = False


def open_human_seat(record: GameRecord, seat: int) -> SeatRecord:
    """``seat`` of ``record`` if it is a human seat nobody has taken. Raises SeatNotFound,
    SeatNotHuman, SeatTaken."""
    if not 0 <= seat < len(record.seats):
        last = len(record.seats) - 1
        raise SeatNotFound(f"game {record.id} has seats 0 to {last}")
    info = record.seats[seat]
    if info.kind != "human":
        raise SeatNotHuman(f"seat {seat} is played by a bot")
    if info.joined:
        raise SeatTaken(f"seat {seat} is already taken")
    return info


def lookup_game(name: str) -> Game:
    """The registered game. Raises UnknownGameName."""
    try:
        return get_game(name)
    except UnknownGame:
        raise UnknownGameName(f"there is no game called {name!r}") from None


class GameService:
    """The operations of the API on games."""

    def __init__(
        self,
        store: GameStore,
        accounts: AccountStore,
        jobs: Jobs,
        idempotency_ttl: int,
    ) -> None:
        self.store = store
        self.accounts = accounts
        self.jobs = jobs
        self.follow_up = FollowUp(accounts, jobs)
        self.described = DescribedActions()
        self.views = Views()
        self.states = DecodedStates()
        self.held = HeldRecords()
        self.briefing = Briefing(store, self.described, self.states, self.views)
        self.idempotency_ttl = idempotency_ttl

    # --- reading ---------------------------------------------------------------------------
    def record(self, game_id: str) -> GameRecord:
        """The game's record. Raises GameNotFound."""
        record = self.store.load(game_id)
        if record is None:
            raise GameNotFound(f"there is no game {game_id!r}")
        return record

    def identify(self, record: GameRecord, token: str | None) -> Caller:
        """Who ``token`` is in this game. Raises Unauthorized for a token that opens nothing."""
        if token is None:
            return Caller()
        token_digest = tokens.digest(token)  # once, for every digest it is compared with
        caller = self._caller(record, token, token_digest)
        if caller is None:
            raise Unauthorized("this token opens no seat of this game")
        tokens.vouch(token, token_digest)
        return caller

    def _caller(self, record: GameRecord, token: str, token_digest: str) -> Caller | None:
        if tokens.digest_matches(token_digest, record.creator_digest):
            return Caller(creator=True)
        for seat, info in enumerate(record.seats):
            if tokens.digest_matches(token_digest, info.token_digest):
                return Caller(seat=seat)
        if token.startswith("bot_"):
            account = self.accounts.by_token(token)
            if account is not None:
                for seat, info in enumerate(record.seats):
                    if info.account == account.id:
                        return Caller(seat=seat)
        return None

    @staticmethod
    def require_seat(caller: Caller) -> int:
        if caller.seat is None:
            raise Unauthorized("send the seat's token as 'Authorization: Bearer'")
        return caller.seat

    @staticmethod
    def prompts(record: GameRecord) -> dict[int, Prompt]:
        """Who owes a decision now (nobody unless the game is active)."""
        if record.status is not GameStatus.ACTIVE:
            return {}
        game = get_game(record.game)
        return game.to_act(game.load_state(record.state))

    def summary(self, record: GameRecord) -> dict[str, Any]:
        """The public description of a game (no secrets until it is over)."""
        return {
            "id": record.id,
            "game": record.game,
            "status": record.status.value,
            "version": record.version,
            "seats": [seat.public(n) for n, seat in enumerate(record.seats)],
            "options": record.options,
            "to_act": prompts_json(record, self.prompts(record)),
            "result": record.result,
            "commitment": record.commitment,
            "seed": record.seed if record.seed_public else None,
            "created_at": record.created_at,
            "visibility": record.visibility,
            "decision_seconds": record.decision_seconds,
            "time_bank": (
                None
                if record.time_bank is None
                else dict(zip(("start", "increment"), record.time_bank, strict=True))
            ),
            "tournament": record.tournament,
            "forked_from": _public_fork(record),
        }

    def observe(
        self, record: GameRecord, seat: int | None, state: Any = None, view: bool = True
    ) -> dict[str, Any]:
        """The caller's view of the game, as every endpoint returns it (``state``: the
        record's state already decoded; ``view=False``: all but the view itself, None)."""
        game = get_game(record.game)
        keep = state is None
        if state is None:
            state = self._decoded(game, record)
        to_act = game.to_act(state) if record.status is GameStatus.ACTIVE else {}
        observed = {
            "game_id": record.id,
            "game": record.game,
            "version": record.version,
            "seat": seat,
            "status": record.status.value,
            "view": self.views.get(game, record, state, seat) if view else None,
            "to_act": prompts_json(record, to_act),
            "result": record.result,
        }
        if keep:
            self.states.keep(record, state)
        return observed

    def _decoded(self, game: Game, record: GameRecord) -> Any:
        """``record``'s state decoded: the one this process holds for it (see
        ``service.decoded``), else decoded now; the caller's own until it keeps it again."""
        return self.states.decoded(game, record)

    def legal_actions(self, record: GameRecord, seat: int) -> dict[str, Any]:
        """The seat's legal actions now, each with its sentence (empty when it owes nothing)."""
        game = get_game(record.game)
        state = self._decoded(game, record)
        owes = record.status is GameStatus.ACTIVE and seat in game.to_act(state)
        legal = {
            "game_id": record.id,
            "game": record.game,
            "version": record.version,
            "seat": seat,
            "deadline": record.deadline(seat) if owes else None,
            "decision": record.decision(seat) if owes else None,
            "actions": self.described.get(game, record, state, seat) if owes else [],
        }
        self.states.keep(record, state)
        return legal

    def log(
        self, record: GameRecord, caller: Caller, after: int = -1, limit: int = 500
    ) -> dict[str, Any]:
        """A page of the action log: the entries numbered after ``after``, at most ``limit``.
        Sealed actions of other seats stay hidden until the game is over, and the draws with
        the seed until no game dealt the same seed is still played."""
        over = record.status is GameStatus.OVER
        public = record.seed_public
        entries = []
        page = self.store.log(record.id, after, limit + 1)
        for entry, text in zip(page[:limit], self._texts(record, page[:limit]), strict=True):
            shown = {**entry, "text": text}
            if not public:
                shown.pop("draws", None)
            if not over and entry.get("sealed") and entry["seat"] != caller.seat:
                shown["action"] = shown["text"] = None
            entries.append(shown)
        return {
            "game_id": record.id,
            "game": record.game,
            "seats": len(record.seats),
            "options": record.options,
            "status": record.status.value,
            "version": record.version,
            "commitment": record.commitment,
            "seed": record.seed if public else None,
            "forked_from": _public_fork(record),
            "entries": entries,
            "next": entries[-1]["n"] if len(page) > limit else None,
        }

    def _texts(self, record: GameRecord, page: list[dict[str, Any]]) -> list[str]:
        """The sentences of a page of the log (replayed from the set-up to its last entry)."""
        if not page:
            return []
        upto = self.store.log(record.id, -1, int(page[-1]["n"]) + 1)
        return History(self.store).texts(record, upto)[-len(page) :]

    # --- creating and joining ----------------------------------------------------------
    def _seat_records(self, game: Game, seats: list[Mapping[str, Any]]) -> list[SeatRecord]:
        records = []
        for n, seat in enumerate(seats):
            kind = seat["kind"]
            if kind == "bot":
                bot = seat.get("bot") or "random"
                if bot not in game.bots:
                    known = ", ".join(sorted(game.bots))
                    raise UnknownBot(f"seat {n}: {game.title} has no bot {bot!r} ({known})")
                options = self.bot_options(game, n, bot, seat)
                name = seat.get("name") or f"{bot}-{n}"
                records.append(SeatRecord("bot", name, bot, None, True, bot_options=options))
            elif kind == "external":
                account = self.accounts.get(seat.get("account") or "")
                if account is None:
                    raise UnknownAccount(f"seat {n}: no bot account {seat.get('account')!r}")
                taken = [s for s, r in enumerate(records) if r.account == account.id]
                if taken:  # its token opens one seat of a game (``identify``): one would stall
                    raise InvalidSeats(
                        f"seat {n}: bot account {account.id!r} already plays seat {taken[0]}; "
                        "an account plays one seat of a game"
                    )
                name = seat.get("name") or account.name
                records.append(SeatRecord("external", name, None, None, True, account.id))
            else:
                records.append(SeatRecord("human", seat.get("name") or f"seat-{n}"))
        return records

    @staticmethod
    def bot_options(game: Game, n: int, bot: str, seat: Mapping[str, Any]) -> dict[str, Any] | None:
        """A bot seat's options (``budget_ms``, ``iterations``), if its bot takes them."""
        try:
            options = search.bot_options(seat)
            if options:
                game.bots[bot](**options)
        except (TypeError, ValueError) as exc:
            reason = str(exc) if isinstance(exc, ValueError) else "it takes no options"
            raise InvalidBotOptions(f"seat {n}: bot {bot!r}: {reason}") from None
        return options or None

    def create(
        self,
        game_name: str,
        seats: list[Mapping[str, Any]],
        options: Mapping[str, Any] | None,
        seed: str | None,
        decision_seconds: float | None = None,
        tournament: str | None = None,
        game_id: str | None = None,
        siblings: list[str] | None = None,
        visibility: str = "public",
        time_bank: list[float] | None = None,
    ) -> tuple[GameRecord, str, dict[str, str]]:
        """Create a game; returns the record, the creator's token and, for a private game,
        an invite token per open human seat (tokens are shown once).
        ``siblings`` are the other games dealt the same seed: the seed stays secret until
        every one of them is over too. ``time_bank``: ``[start, increment]`` seconds of each
        seat's clock (see :attr:`GameRecord.time_bank`).

        Raises UnknownGameName, UnknownBot, UnknownAccount, InvalidSeats (an account in two
        seats), InvalidGameOptions, and Conflict when ``game_id`` is given and taken.
        """
        game = lookup_game(game_name)
        try:
            loaded = game.validate_options(len(seats), options or {})
        except InvalidOptions as exc:
            raise InvalidGameOptions(exc.reason, errors=exc.errors) from None
        seat_records = self._seat_records(game, seats)
        secret = seed if seed is not None else dice_mod.new_seed()
        dice = dice_mod.Dice(secret)
        state = game.setup(len(seats), loaded, dice)
        creator_token = tokens.new_token("creator")
        tokens.vouch(creator_token)
        now = time.time()
        record = GameRecord(
            id=game_id or uuid.uuid4().hex[:16],
            game=game.name,
            seats=seat_records,
            options=loaded,
            seed=secret,
            commitment=dice_mod.commitment(secret),
            creator_digest=tokens.digest(creator_token),
            created_at=now,
            counter=dice.counter,
            state=game.dump_state(state),
            decision_seconds=decision_seconds,
            tournament=tournament,
            siblings=[s for s in siblings or [] if s != game_id],
            visibility=visibility,
            time_bank=list(time_bank) if time_bank is not None else None,
        )
        invites = self._invite(record)
        self._launch(record, game, state, {"type": "setup"}, dice.take_draws())
        return record, creator_token, invites

    def fork(
        self,
        origin_id: str,
        version: int,
        seats: list[Mapping[str, Any]],
        dice: str = "fresh",
        seed: str | None = None,
        decision_seconds: float | None = None,
        game_name: str | None = None,
        visibility: str = "private",
    ) -> tuple[GameRecord, str, dict[str, str]]:
        """A new game from a finished game's state after ``version`` moves, with ``seats``;
        its dice are fresh (``seed`` or a new one, committed) or, with ``dice="original"``,
        the origin's from that point on. ``visibility`` as for :meth:`create`. Returns the
        record, the creator's token and, for a private game, an invite token per open human
        seat.

        Raises GameNotFound, GameNotOver, InvalidFork (a version
        out of range or at the end, seats or ``game_name`` that do not match the origin, a
        seed with the original dice, a game whose seed is still secret: a mirrored table whose
        round is played. Its position holds what that seed dealt hidden (King of the Dice's
        stockpile order, removed tiles and card stacks), the same as the tables still played:
        forks played out with fresh dice would show it, and the original dice would publish
        the seed at the fork's end).
        """
        origin = self.record(origin_id)
        if origin.status is not GameStatus.OVER:
            raise GameNotOver(f"game {origin_id} is still being played")
        if not 0 <= version < origin.version:
            last = origin.version - 1
            raise InvalidFork(f"fork game {origin_id} at a move from 0 to {last}")
        if len(seats) != len(origin.seats):
            have, asked = len(origin.seats), len(seats)
            raise InvalidFork(f"game {origin_id} has {have} seats, not {asked}")
        if game_name and game_name != origin.game:
            kind = origin.game
            raise InvalidFork(f"game {origin_id} is {kind}, not {game_name}")
        if dice == "original" and seed is not None:
            raise InvalidFork("a seed goes with fresh dice, not the original ones")
        if not origin.seed_public:
            raise InvalidFork(
                f"game {origin_id} was dealt a seed another game still plays with: fork it once "
                "every game dealt that seed is over (its hidden cards and tiles are that "
                "game's too)"
            )
        game = lookup_game(origin.game)
        seat_records = self._seat_records(game, seats)
        replayed = History(self.store).replay(origin, version)
        if game.is_over(replayed.state):
            raise InvalidFork(f"game {origin_id} is over after move {version}")
        if dice == "original":
            secret, counter = origin.seed, replayed.dice.counter
        else:
            secret, counter = (seed if seed is not None else dice_mod.new_seed()), 0
        creator_token = tokens.new_token("creator")
        tokens.vouch(creator_token)
        record = GameRecord(
            id=uuid.uuid4().hex[:16],
            game=game.name,
            seats=seat_records,
            options=origin.options,
            seed=secret,
            commitment=dice_mod.commitment(secret),
            creator_digest=tokens.digest(creator_token),
            created_at=time.time(),
            counter=counter,
            state=game.dump_state(replayed.state),
            decision_seconds=decision_seconds,
            forked_from={
                "game": origin.id,
                "version": version,
                "dice": dice,
                "counter": counter,
                "state": game.dump_state(replayed.state),
            },
            visibility=visibility,
        )
        invites = self._invite(record)
        setup = {"type": "fork", "game": origin.id, "version": version, "dice": dice}
        self._launch(record, game, replayed.state, setup, [])
        return record, creator_token, invites

    def _launch(
        self,
        record: GameRecord,
        game: Game,
        state: Any,
        setup: dict[str, Any],
        draws: list[tuple[int, int, int]],
    ) -> None:
        """Store a new game with its set-up log entry (``setup`` as its action), start it if
        every seat is taken, and hand it to the follow-up."""
        setup_entry = {
            "n": 0,
            "version": 0,
            "seat": None,
            "action": setup,
            "sealed": False,
            "draws": draws,
            "at": record.created_at,
        }
        events: list[dict[str, Any]] = [
            {"type": "game_created", "game": game.name, "commitment": record.commitment}
        ]
        if all(seat.joined for seat in record.seats):
            self.start(record, game, state, events)
        self.store.create(record, events, [setup_entry])
        self.announce(record, game.to_act(state))

    def announce(self, record: GameRecord, prompts: Mapping[int, Prompt] | None = None) -> None:
        """What follows a new game's write: its bot accounts hold it (their feeds' ``pending``
        reads their games) and, once it is active, its first decisions are followed up
        (``prompts``: who owes one, if the caller knows). Harmless again (a set's add; a
        notice or a job twice)."""
        for seat in record.seats:
            if seat.account:
                self.accounts.add_game(seat.account, record.id)
        if record.status is GameStatus.ACTIVE:
            after = self.prompts(record) if prompts is None else prompts
            self.follow_up.after_commit(record, after, actor=None)

    @staticmethod
    def _invite(record: GameRecord) -> dict[str, str]:
        """A private game's invite tokens, one per open human seat (their digests kept)."""
        if record.visibility != "private":
            return {}
        invites = {}
        for seat, info in enumerate(record.seats):
            if info.kind == "human" and not info.joined:
                invites[str(seat)] = tokens.new_token("invite")
                info.invite_digest = tokens.digest(invites[str(seat)])
        return invites

    @staticmethod
    def start(record: GameRecord, game: Game, state: Any, events: list[dict[str, Any]]) -> None:
        """Mark a game whose seats are all taken active (its first decisions fall due now)."""
        record.status = GameStatus.ACTIVE
        now = time.time()
        prompts = game.to_act(state)
        record.due = {str(seat): now for seat in prompts}
        record.decisions = {str(seat): record.version for seat in prompts}
        record.run_clocks(None, 0.0, prompts)
        events.append({"type": "game_started", "to_act": prompts_json(record, prompts)})

    def join(
        self, game_id: str, seat: int, name: str | None, credential: str | None = None
    ) -> tuple[GameRecord, str]:
        """Take a human seat; returns the record and the seat's token (shown once). A
        private game's seat needs ``credential``: the seat's invite token (used up by the
        join) or the creator's token. Raises PrivateGame otherwise."""
        token = tokens.new_token("seat")
        tokens.vouch(token)
        key = self.store.key_for(game_id, "game")

        def decide(pipe: Pipeline) -> tuple[Any, GameRecord]:
            record = self.store.load(game_id, pipe)
            if record is None:
                raise GameNotFound(f"there is no game {game_id!r}")
            info = open_human_seat(record, seat)
            if record.visibility == "private" and not (
                tokens.matches(credential, record.creator_digest)
                or tokens.matches(credential, info.invite_digest)
            ):
                raise PrivateGame(
                    "this game is private: join with the seat's invite token or the "
                    "creator's token as 'Authorization: Bearer'",
                )
            info.joined, info.token_digest = True, tokens.digest(token)
            info.invite_digest = None
            if name:
                info.name = name
            events: list[dict[str, Any]] = [
                {"type": "seat_joined", "seat": seat, "name": info.name}
            ]
            if all(s.joined for s in record.seats):
                game = get_game(record.game)
                self.start(record, game, game.load_state(record.state), events)

            def writes(p: Pipeline) -> None:
                self.store.write(p, record)
                for event in events:
                    self.store.publish(p, game_id, event)

            return writes, record

        record = self.store.transact([key], decide)
        if record.status is GameStatus.ACTIVE:
            self.follow_up.after_commit(record, self.prompts(record), actor=None)
        return record, token

    # --- acting --------------------------------------------------------------------------
    def act(self, game_id: str, move: MoveRequest, **options: Any) -> dict[str, Any]:
        """The answer of ``move`` (see :meth:`play`, which takes the same ``options``). The
        state the move left is kept for the game's next request (``service.decoded``)."""
        answer, decided = self.play(game_id, move, **options)
        if decided is not None:
            self.states.keep(decided.record, decided.state)
            record = decided.record
            if (
                move.seat is None
                and record.status is GameStatus.ACTIVE
                and all(record.seats[s].kind != "bot" for s in decided.after)
            ):  # the game's next move is likely a client's again, here (``service.held``)
                self.held.keep(record)
        return answer

    def play(
        self,
        game_id: str,
        move: MoveRequest,
        known: GameRecord | None = None,
        skip_bot_seat: int | None = None,
        known_state: Any = None,
    ) -> tuple[dict[str, Any], Move | None]:
        """Make ``move`` in the game: one read of the record (none when the caller passes the
        record it ``known``s, just read, nor a decoding of its state when it passes that too as
        ``known_state``, which the move then changes; none either for a client's move when
        this process holds the record its own last move of the game left, ``service.held``:
        a refusal decided on it, or a commit that finds the game moved on, reads it then), a
        decision, and one guarded commit that writes only if the game's version (and its
        record's stamp) is still the one read (else read again, with backoff).

        Returns the answer of the move (version, the caller's events and view) and the move
        as committed (its record and state, which a bot playing on reads no more), or None
        when the answer is a stored one (a retry of a move made before).

        ``move.if_match`` is the seat's concurrency token: any version from the one at which
        the seat's current decision fell due (its ``decision`` id) up to the current version
        succeeds, so other seats' sealed choices never make it stale. The same
        ``idempotency_key`` with the same action returns the stored first answer, whatever
        the interleaving: the commit refuses to write over a stored answer, and a refused move
        looks for one first. ``skip_bot_seat`` is a bot seat whose job plays on by itself (no
        new job for it).

        Raises Unauthorized (a token that opens no seat), GameNotFound, GameNotStarted,
        GameOver, VersionConflict (the seat's own decision changed; with the current view),
        MalformedMove (not counted), IllegalMove (the game is unchanged; the attempt is
        counted against the seat), KeyReused, Contention.
        """
        body = {"action": move.action}
        held = self._held(game_id, move) if known is None else None
        for attempt in range(self.store.backoff.attempts):
            if held is not None:
                record, state = held
            else:
                record = known if known is not None else self.record(game_id)
                state = known_state if known is not None else None
            from_held = held is not None
            # the stamp read or written with the record: a commit on a record lost and
            # replaced at its version (a failover) is refused, held, known or just read
            stamp = record.stamp
            held = known = known_state = None
            seat = move.seat
            read_at = record.version
            idem_key = None
            try:
                if seat is None:
                    seat = self.require_seat(self.identify(record, move.token))
                if move.idempotency_key:
                    idem_key = self.store.idempotency_key(game_id, seat, move.idempotency_key)
                decided = self._decide(record, seat, move, state)
            except (Unauthorized, *REFUSED) as refused:
                if from_held:  # decided on the held record, maybe behind: read it
                    continue
                if seat is None:
                    raise
                earlier = self.store.recall(self.store.redis, idem_key, body) if idem_key else None
                if earlier is not None:  # a retry of a move that was made
                    return earlier, None
                if isinstance(refused, IllegalMove):
                    self.store.count(self.store.redis, game_id, "illegal", seat)
                raise
            # An answer kept for retries is written with the move; any other is made once
            # the move is committed and followed up, so a bot's job is enqueued sooner.
            answer = self._answer(decided, seat, move) if idem_key else None
            after = dict(decided.after)
            if skip_bot_seat is not None:
                after.pop(skip_bot_seat, None)
            bots = self.follow_up.bot_seats(decided.record, after)
            riding = bots if self.jobs.rides_commits else []
            writes = self._writes(decided, seat, move, answer, idem_key, riding)
            counters = cast("tuple[Counter, ...]", take_riders() if from_held else ())
            committed = self.store.commit_if(game_id, read_at, writes, idem_key, stamp, counters)
            if committed.status == "done":
                self._follow(decided, seat, after, bots_queued=bool(riding))
                return answer or self._answer(decided, seat, move), decided
            if committed.status == "answered" and idem_key and committed.earlier is not None:
                return self.store.answer_of(idem_key, committed.earlier, body), None
            if not from_held:  # a held record behind the game is read at once
                self.store.pause(attempt)
        attempts = self.store.backoff.attempts
        raise Contention(
            attempts,
            f"too many simultaneous writes to game {game_id} ({attempts} attempts); nothing "
            "was changed, retry shortly",
        )

    def _held(self, game_id: str, move: MoveRequest) -> tuple[GameRecord, Any] | None:
        """The record this process's last move of the game left and its state, decoded, for a
        move that may decide on them without reading the game (``service.held``): a client's
        move (by its token), whose request waits to be counted by nothing but counters that
        its commit can count, on a store whose scripts reach those counters (one Redis)."""
        if move.seat is not None or not self.store.counts_in_commits:
            return None
        if not all(hasattr(rider, "counters") for rider in pending_riders()):
            return None
        record = self.held.take(game_id)
        state = None if record is None else self.states.take(record)
        return None if record is None or state is None else (record, state)

    def _decide(self, record: GameRecord, seat: int, move: MoveRequest, state: Any = None) -> Move:
        """The move decided on ``record`` (updated to match); ``state``: the record's state
        already decoded (it is changed). Raises one of ``REFUSED``."""
        self._check_active(record)
        game = get_game(record.game)
        if state is None:
            state = self._decoded(game, record)
        before = game.to_act(state)
        self._check_if_match(record, game, state, seat, before, move.if_match)
        listed = self.described.held(record, seat)
        try:
            decided = decide_move(
                record, game, state, before, seat, move.action, move.fallback, listed
            )
        except MalformedAction as exc:  # a wrong shape, not an attempt: not counted
            errors = {exc.field: [exc.reason]}
            raise MalformedMove(exc.reason, field=exc.field, errors=errors) from None
        except IllegalAction as exc:
            raise IllegalMove(exc.reason, rule=exc.code) from None
        return decided

    def _answer(self, decided: Move, seat: int, move: MoveRequest) -> dict[str, Any]:
        """The answer of the decided move: the mover's view (unless ``move.answer_view`` is
        off), its events and next actions."""
        state = decided.state
        observed = self.observe(decided.record, seat, state, view=move.answer_view)
        return {
            **observed,
            "events": [e for e in decided.events if visible(e, seat)],
            # The mover's next decision, if it owes one at once: a client needs no second
            # request to choose its next move (another seat's legal actions are not its to see).
            "actions": (
                self.described.get(get_game(decided.record.game), decided.record, state, seat)
                if move.next_actions and seat in decided.after
                else []
            ),
        }

    def _writes(
        self,
        decided: Move,
        seat: int,
        move: MoveRequest,
        answer: dict[str, Any] | None,
        idem_key: str | None,
        bots: list[int],
    ) -> Callable[[Pipeline], None]:
        """What the commit of ``decided`` writes: the record, the log entry, the seat's time,
        the events, the answer under its idempotency key and the jobs of the ``bots`` seats
        that newly owe a decision (those riding the commit: see ``Jobs.rides_commits``)."""
        game_id = decided.record.id

        def writes(p: Pipeline) -> None:
            self.store.write(p, decided.record, meta=False)
            self.store.append_log(p, game_id, decided.entry)
            self.store.record_time(p, game_id, seat, decided.took)
            if move.fallback:
                self.store.count(p, game_id, "missed", seat)
            for item in decided.stream:
                self.store.publish(p, game_id, item)
            if idem_key and answer is not None:
                ttl = move.answer_ttl or self.idempotency_ttl
                self.store.remember(p, idem_key, {"action": move.action}, answer, ttl)
            if bots:
                self.jobs.bots_in_commit(p, game_id, decided.record.version, bots)

        return writes

    def _follow(
        self, decided: Move, seat: int, after: Mapping[int, Prompt], bots_queued: bool
    ) -> None:
        """What follows a committed move: bot jobs (unless the commit ``bots_queued`` them),
        deadlines, feeds, and the end of the game. ``after``: who owes a decision now, less
        a bot seat whose job plays on by itself."""
        self.follow_up.after_commit(decided.record, after, actor=seat, bots_queued=bots_queued)
        if decided.record.status is GameStatus.OVER:
            self.ended(decided.record)

    @staticmethod
    def _check_active(record: GameRecord) -> None:
        """Raise GameNotStarted or GameOver unless the game is being played."""
        if record.status is GameStatus.WAITING:
            raise GameNotStarted("the game starts when every human seat has joined")
        if record.status is GameStatus.OVER:
            raise GameOver("the game is over")

    def _check_if_match(
        self,
        record: GameRecord,
        game: Game,
        state: Any,
        seat: int,
        prompts: Mapping[int, Prompt],
        if_match: int | None,
    ) -> None:
        """Raise VersionConflict unless ``if_match`` is a version at which ``seat``'s current
        decision already stood (or, for a seat that owes nothing, the current version)."""
        if if_match is None:
            return
        if seat in prompts:
            decision = record.decision(seat)
            if decision <= if_match <= record.version:
                return
            if if_match > record.version:
                detail = f"the game is only at version {record.version}, not {if_match}"
            else:
                detail = (
                    f"seat {seat}'s decision changed at version {decision} (after the version "
                    f"{if_match} you sent): read the current view and choose again"
                )
        else:
            if if_match == record.version:
                return
            detail = (
                f"the game is at version {record.version}, not {if_match}, and seat {seat} owes "
                "no decision now"
            )
        raise VersionConflict(
            detail,
            current=self.observe(record, seat, state),
            version=record.version,
            decision=record.decision(seat) if seat in prompts else None,
        )

    def ended(self, record: GameRecord) -> None:
        """What follows the end of a game, once (again harmlessly): publish the seed if no
        game dealt the same seed is still played, and compact the game to its archive."""
        self.store.reveal_if_all_over(record)
        self.store.compact(record.id)

    def play_fallback(self, game_id: str, seat: int, due: float) -> str:
        """Play the random bot for ``seat`` if its decision that fell due at ``due`` is still
        owed (its deadline passed); the miss is counted against the seat (with the move)."""
        record = self.store.load(game_id)
        if record is None or record.status is not GameStatus.ACTIVE:
            return "game not active"
        if record.due.get(str(seat)) != due:
            return "decision already made"
        game = get_game(record.game)
        state = game.load_state(record.state)
        if seat not in game.to_act(state):
            return "nothing owed"
        decision = record.decision(seat)
        rng = bot_rng(record, decision, seat, ":fallback")
        action = bot_choice(RandomBot(), game, state, seat, rng)
        move = MoveRequest(
            action,
            seat,
            if_match=decision,
            idempotency_key=f"{FALLBACK_KEY} {decision}",
            fallback=True,
            answer_ttl=SERVICE_ANSWER_TTL,
            next_actions=False,
        )
        try:
            self.act(game_id, move, known=record)
        except (VersionConflict, GameOver):
            return "raced"
        return "fallback played"

    def owed(
        self, record: GameRecord, seat: int | None, detail: Detail = "full"
    ) -> list[dict[str, Any]]:
        """The decision ``seat`` owes now, completed (view, legal actions, decision id), as a
        one-item list (empty for spectators and seats that owe nothing): what every feed says
        first."""
        if seat is None:
            return []
        notice = self.briefing.owed(record, seat, detail)
        return [] if notice is None else [notice]

    def pending_for(self, account_id: str, detail: Detail = "full") -> list[dict[str, Any]]:
        """Every decision the account owes now, across its games (what its feed says first).
        A game gone (expired, or cancelled) or over leaves the account's games here, when its
        own follow-up did not take it out (it never ended, or a crash came first): the set
        holds only games that may still owe something."""
        pending = []
        for game_id in self.accounts.games(account_id):
            record = self.store.load(game_id)
            if record is None or record.status is GameStatus.OVER:
                self.accounts.drop_game(account_id, game_id)
                continue
            for seat, info in enumerate(record.seats):
                if info.account == account_id:
                    pending.extend(self.owed(record, seat, detail))
        return pending


def _public_fork(record: GameRecord) -> dict[str, Any] | None:
    """Where a forked game came from (origin, version, dice), as the API shows it."""
    fork = record.forked_from
    return None if fork is None else {k: fork[k] for k in ("game", "version", "dice")}
