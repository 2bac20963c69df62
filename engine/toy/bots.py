"""The bots of Sealed Bids: the contract's random baseline is all a test game needs."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from engine.contract import Bot, RandomBot

BOTS: Mapping[str, Callable[[], Bot]] = {"random": RandomBot}
"""Bot name -> factory, the game's ``bots``."""
