"""The one observer of Carcassonne: the view every seat, spectator, client and bot sees.

Nothing in this game is hidden (all dice are rolled in the open and the seed never sits in
the state), so every seat sees the same view; it holds everything needed to rebuild the
state (:func:`state_from_view`, used by ``sample``). Its shape, field by field, is the JSON
Schema ``VIEW`` in ``schemas.py`` (``tests/engine/test_schemas.py`` keeps the two in step).
"""

from __future__ import annotations

from typing import Any

from engine.carcassonne import city as geometry
from engine.carcassonne.faces import edge_list, face_mask
from engine.carcassonne.rulebook import ROLLS, TARGET
from engine.carcassonne.state import (
    CarcassonneState,
    PlacedDie,
    RolledDie,
    Status,
    Turn,
    TurnRecord,
)


def _turn_view(turn: Turn) -> dict[str, Any]:
    grid = {(p.x, p.y): face_mask(p.face, p.rotation) for p in turn.placed}
    found = geometry.cities(grid)
    city_of = {cell: number for number, c in enumerate(found) for cell in c.cells}
    cells = list(grid)
    best = geometry.scoring_city(found)
    factor = 2 if turn.doubled else 1
    return {
        "seat": turn.seat,
        "dice": turn.dice,
        "doubled": turn.doubled,
        "rolls_made": turn.rolls,
        "rolls_left": ROLLS - turn.rolls,
        "knights": turn.knights,
        "catapults": turn.catapults,
        "roll": [
            {
                "die": index,
                "face": die.face,
                "status": die.status,
                "edges": edge_list(face_mask(die.face, 0)),
            }
            for index, die in enumerate(turn.roll)
        ],
        "grid": [
            {
                "x": p.x,
                "y": p.y,
                "face": p.face,
                "rotation": p.rotation,
                "edges": edge_list(grid[(p.x, p.y)]),
                "city": city_of[(p.x, p.y)],
            }
            for p in turn.placed
        ],
        "cities": [
            {
                "dice": [cells.index(cell) for cell in c.cells],
                "size": c.size,
                "open_edges": c.open_edges,
                "closed": c.is_closed,
                "points": c.points * factor,
            }
            for c in found
        ],
        "scoring": {
            "city": found.index(best) if best else None,
            "size": best.size if best else 0,
            "points": best.points * factor if best else 0,
            "doubled": turn.doubled,
        },
    }


def build_view(state: CarcassonneState, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (None: a spectator); the same for everybody in this game."""
    over = state.winner is not None
    last = state.last
    return {
        "game": "carcassonne",
        "seats": state.seats,
        "scores": list(state.scores),
        "active": None if over else state.turn.seat,
        "pending": [] if over else [state.turn.seat],
        "over": over,
        "winner": state.winner,
        "won_by": state.won_by or None,
        "target": TARGET,
        "players": [
            {
                "seat": s,
                "score": state.scores[s],
                "holds_knight": state.held[s],
                "turns": state.turns[s],
            }
            for s in range(state.seats)
        ],
        "turn": _turn_view(state.turn),
        "last_turn": None
        if last is None
        else {
            "seat": last.seat,
            "ending": last.ending,
            "city": last.city,
            "points": last.points,
            "doubled": last.doubled,
        },
    }


def state_from_view(view: dict[str, Any]) -> CarcassonneState:
    """Rebuild the full state from a view (nothing is hidden, so this is exact)."""
    turn = view["turn"]
    last = view["last_turn"]
    return CarcassonneState(
        seats=view["seats"],
        scores=[p["score"] for p in view["players"]],
        held=[p["holds_knight"] for p in view["players"]],
        turns=[p["turns"] for p in view["players"]],
        turn=Turn(
            seat=turn["seat"],
            dice=turn["dice"],
            doubled=turn["doubled"],
            rolls=turn["rolls_made"],
            roll=[RolledDie(d["face"], Status(d["status"])) for d in turn["roll"]],
            placed=[PlacedDie(p["x"], p["y"], p["face"], p["rotation"]) for p in turn["grid"]],
            knights=turn["knights"],
            catapults=turn["catapults"],
        ),
        last=None
        if last is None
        else TurnRecord(
            last["seat"], last["ending"], last["city"], last["points"], last["doubled"]
        ),
        winner=view["winner"],
        won_by=view["won_by"] or "",
    )
