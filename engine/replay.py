"""Replaying a game from its seed and action log: the audit trail and the main engine test."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.contract import Action, Game, State
from engine.dice import Dice


@dataclass
class Replayed:
    """The outcome of a replay: the final state, the dice (with their counter) and the draws
    each step consumed (index 0 is set-up)."""

    state: State
    dice: Dice
    draws: list[list[tuple[int, int, int]]]


def replay(
    game: Game,
    seats: int,
    options: Mapping[str, Any],
    seed: str,
    moves: Iterable[tuple[int, Action]],
) -> Replayed:
    """Set the game up from ``seed`` and apply every ``(seat, action)`` in order.

    Raises IllegalAction if the log holds a move the rules refuse.
    """
    dice = Dice(seed)
    state = game.setup(seats, dict(options), dice)
    return replay_from(game, state, dice, moves)


def replay_from(
    game: Game, state: State, dice: Dice, moves: Iterable[tuple[int, Action]]
) -> Replayed:
    """Apply every ``(seat, action)`` to ``state`` (changed in place) with ``dice``: the replay
    of a game that did not start from its own set-up (a fork). Index 0 of ``draws`` holds
    whatever ``dice`` had drawn before.

    Raises IllegalAction if the log holds a move the rules refuse.
    """
    draws = [dice.take_draws()]
    for seat, action in moves:
        game.apply(state, seat, action, dice)
        draws.append(dice.take_draws())
    return Replayed(state, dice, draws)
