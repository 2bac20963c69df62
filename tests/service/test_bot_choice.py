"""A bot job's choice (``service.moves.bot_choice``): the same action as the bot choosing from
the seat's view, with the view left unbuilt for a bot that reads none (the random bot)."""

from __future__ import annotations

import random

import pytest

from engine.contract import RandomBot
from engine.dice import Dice
from engine.games import get_game
from service.moves import bot_choice

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
