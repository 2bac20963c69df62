"""The dice draw exactly what ``engine/dice.py`` publishes: anybody recomputes each draw
from the revealed seed with HMAC-SHA256, whatever the engine does to make draws cheaper."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from engine.dice import Dice, derive, verify_draws


def published(seed: str, k: int, n: int) -> int:
    """The formula of the module's docstring, written out again."""
    digest = hmac.new(seed.encode(), str(k).encode(), hashlib.sha256).digest()
    return int.from_bytes(digest, "big") % n


def test_every_draw_is_the_published_formula_and_counts():
    seed = "a seed"
    dice = Dice(seed)
    values = [dice.randbelow(n) for n in range(1, 200)]
    assert values == [published(seed, k, k + 1) for k in range(199)]
    assert values == [derive(seed, k, k + 1) for k in range(199)]
    assert dice.counter == 199
    draws = dice.take_draws()
    assert draws == [(k, k + 1, values[k]) for k in range(199)]
    assert verify_draws(seed, draws) == []


def test_dice_continue_the_stream_from_a_counter():
    first = Dice("seed-2")
    [first.roll() for _ in range(5)]
    later = Dice("seed-2", counter=5)
    assert [later.roll() for _ in range(4)] == [first.roll() for _ in range(4)]


def test_a_draw_needs_an_outcome():
    with pytest.raises(ValueError):
        Dice("seed").randbelow(0)
    with pytest.raises(ValueError):
        derive("seed", 0, 0)
