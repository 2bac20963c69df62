"""Playing whole games in memory with bots: for tests, benchmarks and bots-only runs.

Bots see only ``view(state, seat)`` and ``legal_actions(state, seat)``, exactly as they do
through the service.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.contract import Action, Bot, Game, Result, State
from engine.dice import Dice


class GameTooLong(RuntimeError):
    """A simulated game did not end within its step limit (a rules bug, or a stuck bot)."""


@dataclass
class Played:
    """A finished simulated game: its seed, options, moves, final state and result."""

    seed: str
    seats: int
    options: dict[str, Any]
    moves: list[tuple[int, Action]]
    state: State
    result: Result
    events: list[dict[str, Any]] = field(default_factory=list)
    illegal: int = 0
    """Illegal choices the bots made (only counted when not ``strict``)."""


StepHook = Callable[[Game, State, int, Action], None]


def play(
    game: Game,
    bots: Sequence[Bot],
    seed: str,
    options: Mapping[str, Any] | None = None,
    max_steps: int = 100_000,
    on_step: StepHook | None = None,
    bot_seed: int | str | None = None,
    strict: bool = True,
) -> Played:
    """Play one game to the end with one bot per seat; deterministic for a seed.

    Seats owing a decision at the same time act in seat order. ``on_step`` is called before
    each move (for invariant checks). A bot's illegal choice raises IllegalAction when
    ``strict``; otherwise it is counted and the first legal action is played instead (for
    long reports that should tally errors, not stop at the first). Raises GameTooLong.
    """
    seats = len(bots)
    opts = game.validate_options(seats, options or {})
    dice = Dice(seed)
    state = game.setup(seats, opts, dice)
    rng = random.Random(seed if bot_seed is None else bot_seed)
    moves: list[tuple[int, Action]] = []
    events: list[dict[str, Any]] = []
    illegal = 0
    for _ in range(max_steps):
        result = game.result(state)
        if result is not None:
            return Played(seed, seats, opts, moves, state, result, events, illegal)
        prompts = game.to_act(state)
        if not prompts:
            raise GameTooLong(f"{game.name}: nobody to act but no result (seed {seed})")
        seat = min(prompts)
        legal = game.legal_actions(state, seat)
        action = bots[seat].choose(game.view(state, seat), legal, rng)
        if not strict and action not in legal:
            illegal += 1
            action = legal[0]
        if on_step is not None:
            on_step(game, state, seat, action)
        events.extend(game.apply(state, seat, action, dice))
        moves.append((seat, action))
    raise GameTooLong(f"{game.name}: no result after {max_steps} steps (seed {seed})")


def make_bots(game: Game, names: Sequence[str]) -> list[Bot]:
    """One bot per seat, by the names in ``game.bots``."""
    return [game.bots[name]() for name in names]
