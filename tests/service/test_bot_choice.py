"""A bot job's choice (``service.moves.bot_choice``): the same action as the bot choosing from
the seat's view, with the view left unbuilt for a bot that reads none (the random bot)."""

from __future__ import annotations

import random

import pytest

from engine.contract import RandomBot
from engine.dice import Dice
from engine.games import get_game
from engine.search import DEFAULT_BUDGET_MS, MAX_BUDGET_MS, MAX_ITERATIONS, SearchBot
from service.moves import DEADLINE_MARGIN, THINKING_SECONDS, bot_choice, seat_bot
from service.store import GameRecord, SeatRecord

GAMES = ("carcassonne", "burgundy", "diceland", "kingdice")


@pytest.mark.parametrize("name", GAMES)
def test_a_bot_chooses_as_it_would_from_the_seats_view(name: str) -> None:
    game = get_game(name)
    state = game.setup(2, game.validate_options(2, {}), Dice(f"choice-{name}"))
    dice, moves = Dice(f"choice-dice-{name}"), random.Random(name)
    for step in range(40):
        prompts = game.to_act(state)
        if not prompts:
            break
        for seat in prompts:
            for kind, bot in game.bots.items():
                if kind not in ("random", "heuristic"):
                    continue
                made = bot()
                seed = f"{name}:{step}:{seat}:{kind}"
                chosen = bot_choice(made, game, state, seat, random.Random(seed))
                legal = game.legal_actions(state, seat)
                direct = made.choose(game.view(state, seat), legal, random.Random(seed))
                assert chosen == direct, (kind, step, seat)
        seat = min(prompts)
        game.apply(state, seat, moves.choice(game.legal_actions(state, seat)), dice)


def test_only_the_random_bot_goes_without_its_view() -> None:
    assert RandomBot.reads_view is False
    for name in GAMES:
        for kind, bot in get_game(name).bots.items():
            assert getattr(bot, "reads_view", True) is (kind != "random"), (name, kind)


def search_seat_record(
    options: dict[str, float],
    decision_seconds: float | None = None,
    time_bank: list[float] | None = None,
) -> GameRecord:
    """A King of the Dice game whose seat 0 is a search bot with ``options`` and seat 1 the
    heuristic, both owing a decision since t=100 s."""
    seats = [
        SeatRecord("bot", bot="search", joined=True, bot_options=options),
        SeatRecord("bot", bot="heuristic", joined=True),
    ]
    record = GameRecord("g", "kingdice", seats, {}, "seed", "c", "d", 0.0)
    record.decision_seconds, record.time_bank = decision_seconds, time_bank
    record.due = {"0": 100.0, "1": 100.0}
    return record


def search_bot(record: GameRecord, now: float) -> SearchBot:
    """The search bot a job makes for seat 0 of ``record`` at ``now``."""
    bot = seat_bot(get_game(record.game), record, 0, now)
    assert isinstance(bot, SearchBot)
    return bot


def test_a_search_seat_thinks_no_longer_than_its_deadline_leaves() -> None:
    # a search bot's budget passed its seat's deadline, which the service never enforces on a
    # bot seat: budget_ms 6000 in a game of decision_seconds 1 took 6 s a move
    left = 1000 * (1.0 - DEADLINE_MARGIN)
    timed = search_seat_record({"budget_ms": 6000}, decision_seconds=1.0)
    assert search_bot(timed, 100.0).budget_ms == pytest.approx(left)
    assert search_bot(timed, 100.5).budget_ms == pytest.approx(left - 500)
    assert search_bot(timed, 105.0).budget_ms == 1.0, "late: one simulation at least"
    counted = search_bot(search_seat_record({"iterations": 10_000}, decision_seconds=1.0), 100.0)
    assert (counted.iterations, counted.budget_ms) == (10_000, pytest.approx(left))
    banked = search_seat_record({}, time_bank=[0.5, 0.25])  # first decision: 0.75 s on its clock
    assert search_bot(banked, 100.0).budget_ms == pytest.approx(750 - 1000 * DEADLINE_MARGIN)
    short = search_seat_record({"budget_ms": 300}, decision_seconds=1.0)
    assert search_bot(short, 100.0).budget_ms == 300, "a budget inside its deadline"
    assert search_bot(search_seat_record({"budget_ms": 6000}), 100.0).budget_ms == 6000
    heuristic = seat_bot(get_game("kingdice"), timed, 1, 100.0)
    assert not isinstance(heuristic, SearchBot), "the heuristic has no budget to cut"


def test_a_search_seat_thinks_a_minute_at_most_whatever_its_iterations() -> None:
    counted = search_bot(search_seat_record({"iterations": MAX_ITERATIONS}), 100.0)
    assert (counted.iterations, counted.budget_ms) == (MAX_ITERATIONS, 1000 * THINKING_SECONDS)
    timed = search_bot(search_seat_record({"budget_ms": MAX_BUDGET_MS}), 100.0)
    assert timed.budget_ms == MAX_BUDGET_MS < 1000 * THINKING_SECONDS
    late = search_seat_record({}, decision_seconds=3600.0)
    assert search_bot(late, 100.0).budget_ms == DEFAULT_BUDGET_MS
