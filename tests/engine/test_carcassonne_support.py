"""Helpers shared by the Carcassonne tests (no tests here): games, chosen rolls, scripted dice."""

from __future__ import annotations

from typing import Any

from engine.carcassonne import GAME
from engine.carcassonne.faces import CATAPULT, FACES
from engine.carcassonne.state import FREE, GONE, CarcassonneState, RolledDie
from engine.dice import Dice, derive


def new_game(seats: int = 2, seed: str = "carcassonne-test") -> tuple[CarcassonneState, Dice]:
    """A fresh game and its dice (the first roll has happened)."""
    dice = Dice(seed)
    return GAME.setup(seats, GAME.validate_options(seats, {}), dice), dice


def set_roll(state: CarcassonneState, faces: list[str]) -> None:
    """Make the current roll show ``faces``, as if it were the turn's only roll so far
    (its catapults already gone and counted)."""
    state.turn.roll = [RolledDie(face, GONE if face == CATAPULT else FREE) for face in faces]
    state.turn.catapults = faces.count(CATAPULT)


def dice_rolling(faces: list[str], seed: str = "scripted") -> Dice:
    """Real dice, advanced to the first point of their stream where the next draws show
    ``faces`` in order (found by search; keep ``faces`` short)."""
    wanted = [FACES.index(face) for face in faces]
    k = 0
    while not all(derive(seed, k + j, len(FACES)) == v for j, v in enumerate(wanted)):
        k += 1
    return Dice(seed, k)


def build(state: CarcassonneState, dice: Dice, *placements: tuple[str, int, int, int]) -> None:
    """Place dice (face, x, y, rotation) one by one through the checked entry point."""
    for face, x, y, rotation in placements:
        set_roll(state, [face])
        action = {"type": "place", "die": 0, "x": x, "y": y, "rotation": rotation}
        GAME.apply(state, state.turn.seat, action, dice)


def act(state: CarcassonneState, dice: Dice, action: dict[str, Any]) -> list[dict[str, Any]]:
    """Apply ``action`` for the active seat."""
    return GAME.apply(state, state.turn.seat, action, dice)


CITY_OF_THREE = (("cap", 0, 0, 2), ("band", 0, 1, 0), ("cap", 0, 2, 0))
"""A closed city of three dice in a column at x = 0 (1 point)."""

CITY_OF_FOUR_BESIDE = (
    ("corner", 1, 0, 1),
    ("corner", 2, 0, 2),
    ("corner", 1, 1, 0),
    ("corner", 2, 1, 3),
)
"""A closed 2x2 city of four corners at x = 1..2, y = 0..1, beside CITY_OF_THREE (3 points)."""
