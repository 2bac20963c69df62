"""What a game's creator may do before it starts: cancel it, or remove a seat nobody took.

Both need the creator's token and a waiting game. Removing a seat deals the game again for
one seat fewer from the same seed (nothing has been played yet, so nobody loses anything):
the seats after it move down one, their tokens and invites stay theirs.
"""

from __future__ import annotations

import time
from typing import Any

from engine import dice as dice_mod
from engine.contract import InvalidOptions
from engine.games import get_game
from service import tokens
from service.errors import (
    GameNotFound,
    GameStarted,
    InvalidFork,
    InvalidGameOptions,
    NotCreator,
    Unauthorized,
)
from service.games import GameService, open_human_seat
from service.store import GameRecord, GameStatus, Pipeline


def _waiting_for_creator(record: GameRecord | None, game_id: str, token: str | None) -> GameRecord:
    if record is None:
        raise GameNotFound(f"there is no game {game_id!r}")
    if token is None:
        raise Unauthorized("send the creator's token as 'Authorization: Bearer'")
    if not tokens.matches(token, record.creator_digest):
        raise NotCreator("only the game's creator may do this")
    if record.status is not GameStatus.WAITING:
        raise GameStarted("the game has started: it can no longer be changed")
    return record


def cancel(service: GameService, game_id: str, token: str | None) -> None:
    """Delete a waiting game (creator only). Raises Unauthorized, NotCreator, GameNotFound,
    GameStarted."""
    key = service.store.key_for(game_id, "game")

    def decide(pipe: Pipeline) -> tuple[Any, GameRecord]:
        record = _waiting_for_creator(service.store.load(game_id, pipe), game_id, token)
        return (lambda p: service.store.delete(p, game_id)), record

    record = service.store.transact([key], decide)
    service.store.unlist(game_id)
    for info in record.seats:
        if info.account:
            service.accounts.drop_game(info.account, game_id)


def remove_seat(service: GameService, game_id: str, seat: int, token: str | None) -> GameRecord:
    """Remove a human seat nobody has taken from a waiting game (creator only); the game is
    dealt again for the seats left, and starts if all of them are taken. Raises Unauthorized,
    NotCreator, GameNotFound, GameStarted, InvalidGameOptions (the game cannot be played with
    one seat fewer), InvalidFork (a fork: its position is for its seats)."""
    key = service.store.key_for(game_id, "game")

    def decide(pipe: Pipeline) -> tuple[Any, GameRecord]:
        record = _waiting_for_creator(service.store.load(game_id, pipe), game_id, token)
        open_human_seat(record, seat)
        if record.forked_from is not None:  # dealt again, it would lose the forked position
            raise InvalidFork(
                f"a fork plays on its origin's position, for its {len(record.seats)} seats: "
                "cancel it and fork again"
            )
        game = get_game(record.game)
        seats = record.seats[:seat] + record.seats[seat + 1 :]
        try:
            options = game.validate_options(len(seats), record.options)
        except InvalidOptions as exc:
            raise InvalidGameOptions(exc.reason, errors=exc.errors) from None
        dice = dice_mod.Dice(record.seed)
        state = game.setup(len(seats), options, dice)
        record.seats, record.options = seats, options
        record.state, record.counter = game.dump_state(state), dice.counter
        setup_entry = {
            "n": 0,
            "version": 0,
            "seat": None,
            "action": {"type": "setup"},
            "sealed": False,
            "draws": dice.take_draws(),
            "at": time.time(),
        }
        events: list[dict[str, Any]] = [{"type": "seat_removed", "seat": seat}]
        if all(s.joined for s in seats):
            service.start(record, game, state, events)

        def writes(p: Pipeline) -> None:
            service.store.restart_log(p, game_id, setup_entry)
            service.store.write(p, record)
            for event in events:
                service.store.publish(p, game_id, event)

        return writes, record

    record = service.store.transact([key], decide)
    if record.status is GameStatus.ACTIVE:
        service.follow_up.after_commit(record, service.prompts(record), actor=None)
    return record
