"""The numbers the rulebook fixes, in one place for the rules, the view and the bots."""

from __future__ import annotations

TARGET = 42
"""The game ends as soon as a player has 42 points or more."""
ROLLS = 3
"""Rolls a turn may have."""
KNIGHTS_TO_HOLD = 3
"""Knights set aside in one turn that allow holding one instead of scoring."""
TURN_LIMIT = 50
"""House safeguard (not in the rulebook): the game ends once every seat has played this many
turns (RULES.md ruling 11)."""
