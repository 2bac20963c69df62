"""The Castles of Burgundy: The Dice Game: 1-5 players fill the same duchy sheet.

Rules and rulings: ``RULES.md`` beside this module. Duchy A is as printed; B, C and D are
house designs (``data/duchy_*.json``).
"""

from engine.burgundy.rules import GAME, Burgundy
from engine.burgundy.state import BurgundyState

__all__ = ["GAME", "Burgundy", "BurgundyState"]
