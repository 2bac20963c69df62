"""The play data of Sealed Bids: a dataclass that round-trips through ``engine.codec``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

ROUNDS = 4
BID_CARDS = (1, 2, 3, 4)
PRIZES = tuple(range(1, 9))


@dataclass
class ToyState:
    """Play data: the hidden deck, the face-up prize, sealed bids and what each seat holds."""

    seats: int
    rounds: int
    deck: list[int]
    prize: int
    round: int = 1
    bids: list[int | None] = field(default_factory=list)
    hands: list[list[int]] = field(default_factory=list)
    won: list[list[int]] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)
    over: bool = False
