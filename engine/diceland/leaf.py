"""A fitted value of a Diceland position: each seat's chance of winning from here.

``features`` reads a few numbers off one seat's map at the start of a turn (treasures past
the fifth, spaces left in its nearest colour, those again once treasures are done, crosses,
how soon the seat is active); :func:`win_chances` weighs them
with weights fitted (``bench/diceland_leaf.py fit``, a conditional logit: the winner of a
position is drawn among the seats in proportion to ``exp(weights . features)``) to who went
on to win seeded games of heuristics, and gives every seat its chance of winning. The search
values its leaves by the seat's chance instead of a hand-weighed progress margin.
"""

from __future__ import annotations

import math

from engine.diceland.board import COLOURS, TREASURES_TO_WIN
from engine.diceland.state import DicelandState
from engine.diceland.view import board_of, crossed_mask

NAMES = (
    "found_past_five",
    "left",
    "left_under_six",
    "left_when_done",
    "crosses",
    "order",
)
"""Feature names, in the order of :func:`features` and :data:`WEIGHTS`."""

WEIGHTS = (0.10677, -0.05689, 0.09739, -0.12575, 0.08092, -0.16167)
"""Fitted by ``bench/diceland_leaf.py fit`` (see RULES.md, Bots, for the games and date)."""


def features(state: DicelandState, seat: int) -> list[float]:
    """The features of ``seat`` in ``state`` (see :data:`NAMES`): its treasures past the
    fifth (up to nine), the spaces left in its nearest colour, how far that is under six,
    those spaces again once no treasure is wanted, its crosses (treasures included), and
    how many turns until it is active (0: now) as a share of the seats."""
    board = board_of(state, seat)
    crossed = crossed_mask(state, seat)
    need = max(0, TREASURES_TO_WIN - board.treasure_count(crossed))
    left = min((board.colour_mask[c] & ~crossed).bit_count() for c in COLOURS)
    order = (seat - state.active) % state.seats / state.seats
    return [
        max(0, TREASURES_TO_WIN - need - 5),
        left,
        max(0, 6 - left),
        0 if need else left,
        crossed.bit_count(),
        order,
    ]


def win_chances(state: DicelandState, weights: tuple[float, ...] = WEIGHTS) -> list[float]:
    """Every seat's chance of winning from ``state`` under the fitted model."""
    scores = [
        sum(w * x for w, x in zip(weights, features(state, s), strict=True))
        for s in range(state.seats)
    ]
    top = max(scores)
    exps = [math.exp(v - top) for v in scores]
    total = sum(exps)
    return [e / total for e in exps]
