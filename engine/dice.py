"""Deterministic, verifiable dice for every game.

Each game has a secret seed (a string). Draw number ``k`` (counting from 0 over the whole
game) with ``n`` possible outcomes is::

    int.from_bytes(HMAC-SHA256(key=seed.encode(), msg=str(k).encode()).digest(), "big") % n

The game publishes ``sha256(seed.encode()).hexdigest()`` when it is created and reveals the
seed when it ends, so anybody can recompute every draw with a few lines of code in any
language. The bias of the modulo over 256 bits is below 2**-240 and is ignored.

The engine never owns a random generator: the caller passes a :class:`Dice` to ``setup`` and
``apply``, and the dice count their draws, so replaying the same actions from the same seed
reproduces the game exactly.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

Draw = tuple[int, int, int]
"""One recorded draw: (k, number of outcomes n, value in 0..n-1)."""


def new_seed() -> str:
    """Return a fresh secret seed (64 hex characters)."""
    return secrets.token_hex(32)


def commitment(seed: str) -> str:
    """The public commitment to a seed: its SHA-256 in hex."""
    return hashlib.sha256(seed.encode()).hexdigest()


def derive(seed: str, k: int, n: int) -> int:
    """Draw number ``k`` with ``n`` outcomes from ``seed``: a value in ``0..n-1``."""
    return _draw(_keyed(seed), k, n)


def _keyed(seed: str) -> hmac.HMAC:
    """HMAC-SHA256 keyed with ``seed``, fed nothing yet: each draw feeds a copy."""
    return hmac.new(seed.encode(), digestmod=hashlib.sha256)


def _draw(keyed: hmac.HMAC, k: int, n: int) -> int:
    """Draw number ``k`` with ``n`` outcomes from the seed ``keyed`` holds."""
    if n < 1:
        raise ValueError("a draw needs at least one outcome")
    mac = keyed.copy()
    mac.update(str(k).encode())
    return int.from_bytes(mac.digest(), "big") % n


class Dice:
    """A counted stream of draws from one seed; the only source of chance in the engine.

    ``counter`` is the number of draws made so far; persist it with the game and pass it back
    to continue the same stream. Every draw is recorded until :meth:`take_draws` collects it,
    so the service can log exactly which draws an action consumed.
    """

    __slots__ = ("_draws", "_keyed", "_seed", "counter")

    def __init__(self, seed: str, counter: int = 0) -> None:
        self._seed = seed
        self.counter = counter
        self._draws: list[Draw] = []
        self._keyed: hmac.HMAC | None = None

    def randbelow(self, n: int) -> int:
        """Return a value in ``0..n-1`` and count the draw (the HMAC is keyed with the seed
        once: the key's set-up was half of each draw's time)."""
        if self._keyed is None:
            self._keyed = _keyed(self._seed)
        value = _draw(self._keyed, self.counter, n)
        self._draws.append((self.counter, n, value))
        self.counter += 1
        return value

    def roll(self, sides: int = 6) -> int:
        """Roll one die with faces ``1..sides``."""
        return self.randbelow(sides) + 1

    def face(self, faces: Sequence[T]) -> T:
        """Roll a die whose faces are ``faces`` (one draw) and return the face shown."""
        return faces[self.randbelow(len(faces))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates, one draw per position from the end)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def take_draws(self) -> list[Draw]:
        """Return the draws made since the last call, and forget them."""
        draws, self._draws = self._draws, []
        return draws


def verify_draws(seed: str, draws: Sequence[Sequence[int]]) -> list[int]:
    """Return the ``k`` of every recorded draw that does not match the seed (empty: all good)."""
    return [k for k, n, value in draws if derive(seed, k, n) != value]
