"""A game's past: its state at any version and a sentence for every logged action.

The store keeps only the current state; earlier ones are replayed from the seed and the
action log (``engine.replay``). A forked game starts from the state recorded at the fork
(its origin's, replayed when the fork was made), with its own dice from the counter
recorded there.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from engine.contract import Game, IllegalAction
from engine.dice import Dice
from engine.games import get_game
from engine.replay import Replayed, replay_from
from service.errors import VersionNotFound
from service.store import GameRecord, GameStore

Move = tuple[int, Any]


class History:
    """Replays of stored games."""

    def __init__(self, store: GameStore) -> None:
        self.store = store

    @staticmethod
    def moves(entries: list[dict[str, Any]]) -> list[Move]:
        """The ``(seat, action)`` of every logged move, set-up excluded."""
        return [(int(e["seat"]), e["action"]) for e in entries if e.get("seat") is not None]

    def start(self, record: GameRecord) -> tuple[Any, Dice]:
        """The state at version 0 and the dice positioned where the game's draws begin."""
        game = get_game(record.game)
        if record.forked_from is None:
            dice = Dice(record.seed)
            return game.setup(len(record.seats), dict(record.options), dice), dice
        fork = record.forked_from
        state = game.load_state(json.loads(json.dumps(fork["state"])))
        return state, Dice(record.seed, int(fork["counter"]))

    def replay(self, record: GameRecord, version: int | None = None) -> Replayed:
        """The game replayed to ``version`` (default: every logged move)."""
        moves = self.moves(self.store.log(record.id))
        if version is not None:
            moves = moves[:version]
        state, dice = self.start(record)
        try:
            return replay_from(get_game(record.game), state, dice, moves)
        except IllegalAction as refused:  # the stored log breaks the rules: a corrupt store
            raise RuntimeError(f"game {record.id} does not re-play: {refused.reason}") from None

    def state_at(self, record: GameRecord, version: int) -> Any:
        """The state after the first ``version`` moves. Raises VersionNotFound."""
        if not 0 <= version <= record.version:
            raise VersionNotFound(f"game {record.id} has versions 0 to {record.version}")
        return self.replay(record, version).state

    def texts(self, record: GameRecord, entries: list[dict[str, Any]]) -> list[str]:
        """A sentence for every log entry (the game's ``describe`` of each move, taken on the
        state before it)."""
        game = get_game(record.game)
        state, dice = self.start(record)
        return list(_sentences(game, record, entries, state, dice))


def _sentences(
    game: Game, record: GameRecord, entries: list[dict[str, Any]], state: Any, dice: Dice
) -> Iterator[str]:
    for entry in entries:
        seat = entry.get("seat")
        if seat is None:
            yield _setup_sentence(record)
            continue
        who = record.seats[seat].name if seat < len(record.seats) else f"seat {seat}"
        yield f"{who}: {game.describe(state, seat, entry['action'])}"
        game.apply(state, seat, entry["action"], dice)


def _setup_sentence(record: GameRecord) -> str:
    fork = record.forked_from
    if fork is None:
        return "The game is set up."
    dice = "the original dice" if fork["dice"] == "original" else "fresh dice"
    return f"Forked from game {fork['game']} after move {fork['version']}, with {dice}."
