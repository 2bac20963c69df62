"""Deciding a move: what one action does to a game record, without touching Redis.

:func:`decide_move` applies an action to a loaded state and works out everything the commit
writes (the record, the log entry, the event stream entries) and what follows it (who owes a
decision now, and since when). It also keeps each seat's decision id: a seat whose prompt and
legal actions did not change keeps the id (and the due time) it had, so another seat's move,
above all a sealed simultaneous choice, never makes its ``If-Match`` stale.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine import dice as dice_mod
from engine.contract import Action, Bot, Event, Game, Prompt
from engine.search import SearchBot
from service.announce import stream_entries
from service.store import GameRecord, GameStatus


@dataclass
class Move:
    """A decided move: the updated record (and its ``state``, decoded) and everything its
    commit writes and triggers."""

    record: GameRecord
    state: Any
    after: dict[int, Prompt]
    events: list[Event]
    entry: dict[str, Any]
    stream: list[dict[str, Any]]
    took: float


@dataclass(frozen=True)
class MoveRequest:
    """A move to make: the action, whose it is (``seat``, or the seat that ``token`` opens)
    and how safely. ``fallback`` marks a move the service makes for a seat whose deadline
    passed; ``answer_ttl`` (seconds) keeps the answer for retries shorter than the default,
    for the service's own moves; ``next_actions=False`` leaves the mover's next legal actions
    out of the answer (``[]``): the service's own moves (bots, fallbacks), whose answers no
    client reads, need not describe them. ``answer_view=False`` leaves the mover's view out
    too (``None``): a bot seat's job, the only reader of its answers (their version and
    ``to_act``; no client can act for a bot seat, so none can replay its answers), need not
    build it before its commit."""

    action: Action
    seat: int | None = None
    token: str | None = None
    if_match: int | None = None
    idempotency_key: str | None = None
    fallback: bool = False
    answer_ttl: int | None = None
    next_actions: bool = True
    answer_view: bool = True


def decide_move(
    record: GameRecord,
    game: Game,
    state: Any,
    before: Mapping[int, Prompt],
    seat: int,
    action: Action,
    fallback: bool,
    listed: Sequence[Mapping[str, Any]] | None = None,
) -> Move:
    """Apply ``action`` of ``seat`` to ``state`` (mutated) and update ``record`` to match.

    ``listed``: the seat's described legal actions at this very state (its version and
    stored bytes), if the caller holds them. An action that is exactly one of them (the
    same JSON, types included) is legal as it stands: it is performed without the engine's
    checks (``Game.perform``, as search bots play listed actions), with its listed
    sentence; any other goes through ``Game.apply``'s checks.

    Raises IllegalAction (``state`` and ``record`` are then unchanged).
    """
    others = [s for s in before if s != seat]
    sealed = seat in before and before[seat].sealed
    # An open (unsealed) move can change what the other deciding seats may do; a sealed
    # choice cannot, until the engine resolves the round (and then their prompts change).
    legal_before = {s: game.legal_actions(state, s) for s in others} if not sealed else {}
    dice = dice_mod.Dice(record.seed, record.counter)
    text = listed_text(listed, action) if listed and seat in before else None
    if text is not None:
        events = game.perform(state, seat, action, dice)
    else:
        text = _describe(game, state, seat, action)  # as it was chosen
        events = game.apply(state, seat, action, dice)
    if text is None:
        text = game.describe(game.load_state(record.state), seat, action)
    now = time.time()
    result = game.result(state)
    after = game.to_act(state) if result is None else {}
    standing = {
        s
        for s in after
        if s != seat
        and s in before
        and before[s] == after[s]
        and (s not in legal_before or legal_before[s] == game.legal_actions(state, s))
    }
    took = now - record.due.get(str(seat), now)
    decisions = {str(s): record.decision(s) for s in standing}
    record.version += 1
    record.counter = dice.counter
    record.state = game.dump_state(state)
    if result is not None:
        record.status = GameStatus.OVER
        record.result = result.to_json()
    record.due = {str(s): record.due.get(str(s), now) if s in standing else now for s in after}
    record.run_clocks(seat, took, [s for s in after if s not in standing])
    record.decisions = {str(s): decisions.get(str(s), record.version) for s in after}
    entry = {
        "n": record.version,
        "version": record.version,
        "seat": seat,
        "action": action,
        "sealed": sealed,
        "fallback": fallback,
        "draws": dice.take_draws(),
        "at": now,
    }
    stream = stream_entries(record, seat, action, sealed, events, after, text)
    return Move(record, state, after, events, entry, stream, took)


def bot_rng(record: GameRecord, decision: int, seat: int, purpose: str = "") -> random.Random:
    """The random source of a bot's decision ``decision`` for ``seat`` (``purpose`` tells a
    deadline's fallback from the seat's own bot): seeded from the game's secret seed, so
    nobody can foresee a bot's choice (a sealed one above all) while the game runs, and a
    replay recomputes it once the seed is published. (Seeded from the public commitment, an
    opponent could compute a bot's sealed pick before making their own.)"""
    return random.Random(f"{record.seed}:{decision}:{seat}{purpose}")


DEADLINE_MARGIN = 0.2
"""Seconds a bundled search bot leaves itself before its seat's deadline, to commit its move."""


THINKING_SECONDS = 60.0
"""The longest a bundled search bot thinks on one decision, whatever its ``iterations``: the
largest (``engine.search.MAX_ITERATIONS``) takes two minutes of a core in a five-seat
Burgundy game (12 ms a simulation), more on a loaded machine, and a bot job killed by its
timeout (``service.runtime.JOB_TIMEOUT``) plays no move, so a game would stall."""


def seat_bot(game: Game, record: GameRecord, seat: int, now: float) -> Bot:
    """The bundled bot that plays ``seat`` (a bot seat), with its options; a search bot
    thinks at most :data:`THINKING_SECONDS`, and stops :data:`DEADLINE_MARGIN` before the
    seat's deadline (``decision_seconds`` or its clock), which its ``budget_ms`` or
    ``iterations`` may pass."""
    info = record.seats[seat]
    assert info.bot is not None, f"seat {seat} is not a bot seat"
    bot = game.bots[info.bot](**(info.bot_options or {}))
    if isinstance(bot, SearchBot):
        deadline = record.deadline(seat)
        left = THINKING_SECONDS if deadline is None else deadline - now - DEADLINE_MARGIN
        bot.limit(min(left, THINKING_SECONDS))
    return bot


def bot_choice(bot: Bot, game: Game, state: Any, seat: int, rng: Any) -> Action:
    """What ``bot`` plays for ``seat`` in ``state``, from the seat's view and legal actions
    (an empty view for a bot that reads none, ``Bot.reads_view``: the random bot, the
    service's default, whose job need not build it)."""
    view = game.view(state, seat) if bot.reads_view else {}
    return bot.choose(view, game.legal_actions(state, seat), rng)


def listed_text(listed: Sequence[Mapping[str, Any]], action: Any) -> str | None:
    """The sentence of ``action`` if it is one of the ``listed`` described actions exactly
    (``same_json``: ``1.0`` or ``true`` is not ``1``), else None."""
    for item in listed:
        if item["action"] == action and same_json(item["action"], action):
            text: str = item["text"]
            return text
    return None


def same_json(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` are the same JSON value: equal, with the same type at every
    level (Python's ``==`` holds ``1 == 1.0 == True``)."""
    if type(a) is not type(b):
        return False
    if type(a) is dict:
        return a.keys() == b.keys() and all(same_json(v, b[k]) for k, v in a.items())
    if type(a) is list:
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _describe(game: Game, state: Any, seat: int, action: Action) -> str | None:
    """The game's sentence for ``action`` before it is applied, or None if the engine cannot
    say it yet (an action it will refuse, or whose wording fails before validation)."""
    try:
        return game.describe(state, seat, action)
    except Exception:  # apply() reports what is wrong with the action
        return None
