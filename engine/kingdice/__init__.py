"""King of the Dice: The Board Game (HABA 2021) for dicehall.

Players roll six colour dice up to three times to hire citizens from a job market of five
card stacks; citizens claim territory spaces, steal, drive out dragon fires or evict other
players' markers. Largest connected area, dragon fires and gemstones score. The map, dice
and cards are house designs (see ``RULES.md``).
"""

from engine.kingdice.rules import GAME, KingOfTheDice
from engine.kingdice.state import KingState

__all__ = ["GAME", "KingOfTheDice", "KingState"]
