"""Game operations shared by the HTTP API and the bot jobs: create, join, act, observe.

Nothing here knows Flask: callers pass the store and the bot scheduler. Every state change
goes through :meth:`GameStore.transact` (compare-and-set on the game's version) and, once
committed, asks the scheduler to play whatever bot seats now owe a decision.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine import dice as dice_mod
from engine.contract import Game, IllegalAction, InvalidOptions
from engine.games import UnknownGame, get_game
from service import tokens
from service.problems import Problem
from service.store import GameRecord, GameStatus, GameStore, Pipeline, SeatRecord

BotScheduler = Callable[[str, int, list[int]], None]
"""Called after a commit with (game id, version, bot seats that owe a decision)."""


def no_bots(game_id: str, version: int, seats: list[int]) -> None:
    """A scheduler that plays nothing (for tools that only read)."""


@dataclass
class Caller:
    """Who is asking: a seat (by its token), the creator, or a spectator (neither)."""

    seat: int | None = None
    creator: bool = False


def lookup_game(name: str) -> Game:
    """The registered game. Raises Problem 404 unknown_game."""
    try:
        return get_game(name)
    except UnknownGame:
        raise Problem(404, "unknown_game", f"there is no game called {name!r}") from None


class GameService:
    """The operations of the API on games, over a store and a bot scheduler."""

    def __init__(self, store: GameStore, schedule_bots: BotScheduler, idempotency_ttl: int) -> None:
        self.store = store
        self.schedule_bots = schedule_bots
        self.idempotency_ttl = idempotency_ttl

    # --- reading ---------------------------------------------------------------------------
    def record(self, game_id: str) -> GameRecord:
        """The game's record. Raises Problem 404 game_not_found."""
        record = self.store.load(game_id)
        if record is None:
            raise Problem(404, "game_not_found", f"there is no game {game_id!r}")
        return record

    @staticmethod
    def identify(record: GameRecord, token: str | None) -> Caller:
        """Who ``token`` is in this game. Raises Problem 401 for a token that opens nothing."""
        if token is None:
            return Caller()
        if tokens.matches(token, record.creator_digest):
            return Caller(creator=True)
        for seat, info in enumerate(record.seats):
            if tokens.matches(token, info.token_digest):
                return Caller(seat=seat)
        raise Problem(401, "unauthorized", "this token opens no seat of this game")

    @staticmethod
    def require_seat(caller: Caller) -> int:
        if caller.seat is None:
            raise Problem(401, "unauthorized", "send the seat's token as 'Authorization: Bearer'")
        return caller.seat

    def to_act(self, record: GameRecord) -> dict[int, Any]:
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
            "to_act": {str(s): p.to_json() for s, p in self.to_act(record).items()},
            "result": record.result,
            "commitment": record.commitment,
            "seed": record.seed if record.status is GameStatus.OVER else None,
            "created_at": record.created_at,
        }

    def observe(self, record: GameRecord, seat: int | None) -> dict[str, Any]:
        """The caller's view of the game, as every endpoint returns it."""
        game = get_game(record.game)
        state = game.load_state(record.state)
        to_act = game.to_act(state) if record.status is GameStatus.ACTIVE else {}
        return {
            "game_id": record.id,
            "version": record.version,
            "seat": seat,
            "status": record.status.value,
            "view": game.view(state, seat),
            "to_act": {str(s): p.to_json() for s, p in to_act.items()},
            "result": record.result,
        }

    def legal_actions(self, record: GameRecord, seat: int) -> dict[str, Any]:
        game = get_game(record.game)
        state = game.load_state(record.state)
        owes = record.status is GameStatus.ACTIVE and seat in game.to_act(state)
        actions = game.legal_actions(state, seat) if owes else []
        return {
            "game_id": record.id,
            "version": record.version,
            "seat": seat,
            "actions": [{"action": a, "text": game.describe(state, seat, a)} for a in actions],
        }

    def log(self, record: GameRecord, caller: Caller) -> dict[str, Any]:
        """The action log; sealed actions of other seats and all draws stay hidden until the
        game is over."""
        over = record.status is GameStatus.OVER
        entries = []
        for entry in self.store.log(record.id):
            shown = dict(entry)
            if not over:
                shown.pop("draws", None)
                if entry.get("sealed") and entry["seat"] != caller.seat:
                    shown["action"] = None
            entries.append(shown)
        return {
            "game_id": record.id,
            "game": record.game,
            "seats": len(record.seats),
            "options": record.options,
            "status": record.status.value,
            "version": record.version,
            "commitment": record.commitment,
            "seed": record.seed if over else None,
            "entries": entries,
        }

    # --- creating and joining ----------------------------------------------------------
    def create(
        self,
        game_name: str,
        seats: list[Mapping[str, Any]],
        options: Mapping[str, Any] | None,
        seed: str | None,
    ) -> tuple[GameRecord, str]:
        """Create a game; returns the record and the creator's token (shown once)."""
        game = lookup_game(game_name)
        try:
            loaded = game.validate_options(len(seats), options or {})
        except InvalidOptions as exc:
            raise Problem(422, "invalid_options", exc.reason, errors=exc.errors) from None
        seat_records = []
        for n, seat in enumerate(seats):
            if seat["kind"] == "bot":
                bot = seat.get("bot") or "random"
                if bot not in game.bots:
                    known = ", ".join(sorted(game.bots))
                    raise Problem(
                        422, "unknown_bot", f"seat {n}: {game.title} has no bot {bot!r} ({known})"
                    )
                seat_records.append(
                    SeatRecord("bot", seat.get("name") or f"{bot}-{n}", bot, None, True)
                )
            else:
                seat_records.append(SeatRecord("human", seat.get("name") or f"seat-{n}"))
        secret = seed if seed is not None else dice_mod.new_seed()
        dice = dice_mod.Dice(secret)
        state = game.setup(len(seats), loaded, dice)
        creator_token = tokens.new_token("creator")
        record = GameRecord(
            id=uuid.uuid4().hex[:16],
            game=game.name,
            seats=seat_records,
            options=loaded,
            seed=secret,
            commitment=dice_mod.commitment(secret),
            creator_digest=tokens.digest(creator_token),
            created_at=time.time(),
            counter=dice.counter,
            state=game.dump_state(state),
        )
        setup_draws = dice.take_draws()
        events: list[dict[str, Any]] = [
            {"type": "game_created", "game": game.name, "commitment": record.commitment}
        ]
        if all(seat.joined for seat in seat_records):
            record.status = GameStatus.ACTIVE
            events.append(self._started_event(game, state))
        setup_entry = {
            "n": 0,
            "version": 0,
            "seat": None,
            "action": {"type": "setup"},
            "sealed": False,
            "draws": setup_draws,
            "at": record.created_at,
        }
        self.store.create(record, events, [setup_entry])
        if record.status is GameStatus.ACTIVE:
            self._schedule(record, game.to_act(state))
        return record, creator_token

    @staticmethod
    def _started_event(game: Game, state: Any) -> dict[str, Any]:
        return {
            "type": "game_started",
            "to_act": {str(s): p.to_json() for s, p in game.to_act(state).items()},
        }

    def join(self, game_id: str, seat: int, name: str | None) -> tuple[GameRecord, str]:
        """Take a human seat; returns the record and the seat's token (shown once)."""
        token = tokens.new_token("seat")
        key = self.store.key_for(game_id, "game")

        def decide(pipe: Pipeline) -> tuple[Callable[[Pipeline], None], GameRecord]:
            record = self.store.load(game_id, pipe)
            if record is None:
                raise Problem(404, "game_not_found", f"there is no game {game_id!r}")
            if not 0 <= seat < len(record.seats):
                raise Problem(
                    404, "seat_not_found", f"game {game_id} has seats 0 to {len(record.seats) - 1}"
                )
            info = record.seats[seat]
            if info.kind != "human":
                raise Problem(409, "seat_not_human", f"seat {seat} is played by the {info.bot} bot")
            if info.joined:
                raise Problem(409, "seat_taken", f"seat {seat} is already taken")
            info.joined, info.token_digest = True, tokens.digest(token)
            if name:
                info.name = name
            events: list[dict[str, Any]] = [
                {"type": "seat_joined", "seat": seat, "name": info.name}
            ]
            if all(s.joined for s in record.seats):
                record.status = GameStatus.ACTIVE
                game = get_game(record.game)
                events.append(self._started_event(game, game.load_state(record.state)))

            def writes(p: Pipeline) -> None:
                self.store.write(p, record)
                for event in events:
                    self.store.publish(p, game_id, event)

            return writes, record

        record = self.store.transact([key], decide)
        if record.status is GameStatus.ACTIVE:
            self._schedule(record, self.to_act(record))
        return record, token

    # --- acting --------------------------------------------------------------------------
    def act(
        self,
        game_id: str,
        seat: int,
        action: Any,
        if_match: int | None = None,
        idempotency_key: str | None = None,
        skip_bot_seat: int | None = None,
    ) -> dict[str, Any]:
        """Apply ``action`` for ``seat`` with compare-and-set on the game's version.

        Returns the answer of the move (version, the caller's events and view). The same
        ``idempotency_key`` returns the stored first answer. Raises Problem: 404, 409
        game_not_started / game_over, 412 version_mismatch (with the current view), 422
        illegal_action (the game is unchanged).
        """
        game_key = self.store.key_for(game_id, "game")
        idem_key = (
            self.store.idempotency_key(game_id, seat, idempotency_key) if idempotency_key else None
        )
        watched = [game_key] + ([idem_key] if idem_key else [])
        committed: dict[str, Any] = {}

        def decide(pipe: Pipeline) -> tuple[Callable[[Pipeline], None] | None, dict[str, Any]]:
            if idem_key:
                earlier = self.store.recall(pipe, idem_key)
                if earlier is not None:
                    return None, earlier
            record = self.store.load(game_id, pipe)
            if record is None:
                raise Problem(404, "game_not_found", f"there is no game {game_id!r}")
            if record.status is GameStatus.WAITING:
                raise Problem(
                    409, "game_not_started", "the game starts when every human seat has joined"
                )
            if record.status is GameStatus.OVER:
                raise Problem(409, "game_over", "the game is over")
            if if_match is not None and if_match != record.version:
                raise Problem(
                    412,
                    "version_mismatch",
                    f"the game is at version {record.version}, not {if_match}",
                    current=self.observe(record, seat),
                )
            game = get_game(record.game)
            state = game.load_state(record.state)
            prompts_before = game.to_act(state)
            dice = dice_mod.Dice(record.seed, record.counter)
            try:
                events = game.apply(state, seat, action, dice)
            except IllegalAction as exc:
                raise Problem(422, "illegal_action", exc.reason, rule=exc.code) from None
            record.version += 1
            record.counter = dice.counter
            record.state = game.dump_state(state)
            result = game.result(state)
            if result is not None:
                record.status = GameStatus.OVER
                record.result = result.to_json()
            sealed = prompts_before[seat].sealed
            entry = {
                "n": record.version,
                "version": record.version,
                "seat": seat,
                "action": action,
                "sealed": sealed,
                "draws": dice.take_draws(),
                "at": time.time(),
            }
            stream = self._stream_entries(record, seat, action, sealed, events, game, state)
            answer = {
                "game_id": game_id,
                "version": record.version,
                "seat": seat,
                "events": [e for e in events if visible(e, seat)],
                **{
                    k: v
                    for k, v in self.observe(record, seat).items()
                    if k not in ("version", "seat", "game_id")
                },
            }
            committed["record"] = record
            committed["to_act"] = game.to_act(state) if result is None else {}

            def writes(p: Pipeline) -> None:
                self.store.write(p, record)
                self.store.append_log(p, game_id, entry)
                for item in stream:
                    self.store.publish(p, game_id, item)
                if idem_key:
                    self.store.remember(p, idem_key, answer, self.idempotency_ttl)

            return writes, answer

        answer = self.store.transact(watched, decide)
        if "record" in committed:
            to_act = committed["to_act"]
            if skip_bot_seat is not None:
                to_act = {s: p for s, p in to_act.items() if s != skip_bot_seat}
            self._schedule(committed["record"], to_act)
        return answer

    @staticmethod
    def _stream_entries(
        record: GameRecord,
        seat: int,
        action: Any,
        sealed: bool,
        events: list[dict[str, Any]],
        game: Game,
        state: Any,
    ) -> list[dict[str, Any]]:
        entries: list[dict[str, Any]] = [
            {
                "type": "action",
                "version": record.version,
                "seat": seat,
                "action": None if sealed else action,
                "sealed": sealed,
            }
        ]
        for event in events:
            item = {"type": "game_event", "version": record.version, "event": event}
            if "to" in event:
                item["to"] = event["to"]
            entries.append(item)
        if record.status is GameStatus.OVER:
            entries.append(
                {
                    "type": "game_over",
                    "version": record.version,
                    "result": record.result,
                    "seed": record.seed,
                }
            )
        else:
            entries.append(
                {
                    "type": "to_act",
                    "version": record.version,
                    "to_act": {str(s): p.to_json() for s, p in game.to_act(state).items()},
                }
            )
        return entries

    def _schedule(self, record: GameRecord, to_act: Mapping[int, Any]) -> None:
        bot_seats = [s for s in sorted(to_act) if record.seats[s].kind == "bot"]
        if bot_seats and record.status is GameStatus.ACTIVE:
            self.schedule_bots(record.id, record.version, bot_seats)


def visible(event: Mapping[str, Any], seat: int | None) -> bool:
    """Whether a game event (or stream entry) may be shown to ``seat`` (None: spectator)."""
    to = event.get("to")
    return to is None or (seat is not None and seat in to)
