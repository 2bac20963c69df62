"""Carcassonne: The Dice Game (Hans im Glück, 2011), for 2-5 players or one playing solo.

Players roll nine dice up to three times a turn, build the city faces edge to edge into a
grid, and score the largest closed city; three knights buy a doubled next turn, nine
catapults in one turn win at once, and the first to 42 points wins. Rules and rulings:
``RULES.md`` beside this file.
"""

from engine.carcassonne.rules import GAME, Carcassonne
from engine.carcassonne.state import CarcassonneState

__all__ = ["GAME", "Carcassonne", "CarcassonneState"]
