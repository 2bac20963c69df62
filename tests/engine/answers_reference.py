"""Views, legal actions and sentences as first written, kept as the specification their
faster versions in the engine must match byte for byte (``tests/engine/test_answers.py``).

Each function here is the engine's code before it was made cheaper (same inputs, same
outputs), with the helpers it called then; nothing in the engine imports this module.
"""

from __future__ import annotations

import json
from typing import Any

from engine.burgundy.duchy import BONUS_KINDS, CELLS, DUCHIES, Duchy
from engine.burgundy.duchy import COLOURS as BURGUNDY_COLOURS
from engine.burgundy.sheet import available
from engine.burgundy.state import UNMARKED, BurgundyState, Sheet, Stage, column_size
from engine.burgundy.view import _grid, duchy_view
from engine.carcassonne import city as geometry
from engine.carcassonne.faces import BASE_MASK, EDGE_NAMES, KNIGHT, ROTATIONS, rotate
from engine.carcassonne.rulebook import KNIGHTS_TO_HOLD, ROLLS
from engine.carcassonne.state import FREE, CarcassonneState, Turn
from engine.contract import Action, Game, View
from engine.diceland.board import COLOURS, TREASURES_TO_WIN
from engine.diceland.maps import edition_data
from engine.diceland.state import DicelandState, Phase
from engine.diceland.view import board_of, choice_json, crossed_mask

# --- Carcassonne ------------------------------------------------------------------------


def carcassonne_face_mask(face: str, rotation: int) -> int:
    return rotate(BASE_MASK[face], rotation)


def carcassonne_edge_list(mask: int) -> list[str]:
    return [name for i, name in enumerate(EDGE_NAMES) if mask >> i & 1]


def _carcassonne_grid(turn: Turn) -> geometry.Grid:
    return {(p.x, p.y): carcassonne_face_mask(p.face, p.rotation) for p in turn.placed}


def carcassonne_legal_actions(game: Game, state: CarcassonneState, seat: int) -> list[Action]:
    turn = state.turn
    if game.is_over(state) or seat != turn.seat:
        return []
    grid = _carcassonne_grid(turn)
    cells = geometry.frontier(grid)
    actions: list[Action] = []
    seen: set[str] = set()
    knight: int | None = None
    free = 0
    for index, die in enumerate(turn.roll):
        if die.status != FREE:
            continue
        free += 1
        if die.face == KNIGHT:
            knight = index if knight is None else knight
            continue
        if die.face in seen:
            continue
        seen.add(die.face)
        for x, y in cells:
            for rotation in ROTATIONS[die.face]:
                if geometry.fits(grid, (x, y), carcassonne_face_mask(die.face, rotation)):
                    actions.append(
                        {"type": "place", "die": index, "x": x, "y": y, "rotation": rotation}
                    )
    if knight is not None:
        actions.append({"type": "keep_knight", "die": knight})
    if free and turn.rolls < ROLLS:
        actions.append({"type": "reroll"})
    actions.append({"type": "score"})
    if turn.knights >= KNIGHTS_TO_HOLD:
        actions.append({"type": "hold_knight"})
    return actions


def carcassonne_describe_all(
    game: Game, state: CarcassonneState, seat: int, actions: list[Action]
) -> list[str]:
    grid = _carcassonne_grid(state.turn)
    return [
        _carcassonne_place_text(state.turn, grid, action)
        if action.get("type") == "place"
        else game.describe(state, seat, action)
        for action in actions
    ]


def _carcassonne_place_text(turn: Turn, grid: geometry.Grid, action: Action) -> str:
    face = turn.roll[action["die"]].face
    mask = carcassonne_face_mask(face, action["rotation"])
    cell = (action["x"], action["y"])
    text = (
        f"Place die {action['die']} ({face}, city on {'+'.join(carcassonne_edge_list(mask))}) "
        f"at ({cell[0]}, {cell[1]})"
    )
    if cell in grid:
        grid = {**grid, cell: mask}
        size = geometry.closed_size(grid, cell)
    else:
        grid[cell] = mask
        try:
            size = geometry.closed_size(grid, cell)
        finally:
            del grid[cell]
    if size is not None:
        text += f", closing a city of {size}"
    return text


# --- Diceland -----------------------------------------------------------------------------


def _diceland_player_view(state: DicelandState, seat: int, viewer: int | None) -> View:
    board, crossed = board_of(state, seat), crossed_mask(state, seat)
    working = {}
    for c in COLOURS:
        terr = board.working_on(crossed, c)
        if terr is not None:
            working[c] = terr.id
    out: View = {
        "map": state.maps[seat],
        "crosses": board.hexes_of(crossed),
        "treasures": board.treasures_by_colour(crossed),
        "treasure_total": board.treasure_count(crossed),
        "completed": board.completed_colours(crossed),
        "working_on": working,
    }
    if state.phase == Phase.CROSS:
        choice = state.choices[seat]
        owes = choice is None or choice.kind != "none"
        out["phase2"] = {"owes": owes, "decided": choice is not None and owes}
        if viewer == seat and choice is not None and owes:
            out["phase2"]["choice"] = choice_json(state, seat, choice)
    return out


def diceland_view(game: Game, state: DicelandState, seat: int | None) -> View:
    pending = sorted(game.to_act(state))
    active: int | None = state.active
    if state.phase == Phase.CROSS:
        active = None
    elif state.phase == Phase.TREASURE:
        active = state.treasure_queue[0]
    elif state.phase == Phase.OVER:
        active = None
    return {
        "seats": state.seats,
        "you": seat,
        "scores": [
            board_of(state, s).treasure_count(crossed_mask(state, s)) for s in range(state.seats)
        ],
        "active": active,
        "pending": pending,
        "turn": state.turn,
        "turn_player": state.active,
        "phase": state.phase,
        "goal": {"treasures": TREASURES_TO_WIN, "complete_colours": 1},
        "dice": {
            "chosen": state.chosen or None,
            "aside": state.aside,
            "last_throw": list(state.last_throw),
            "throws": state.throws,
        },
        "treasure_throw": (
            {
                "seat": state.treasure_queue[0],
                "dice": list(state.treasure_dice),
                "queue": list(state.treasure_queue[1:]),
            }
            if state.phase == Phase.TREASURE
            else None
        ),
        "players": [_diceland_player_view(state, s, seat) for s in range(state.seats)],
        "last_phase2": [choice_json(state, s, c) for s, c in enumerate(state.last_phase2)],
        "winners": list(state.winners),
        "maps": {m: edition_data(state.edition)[m] for m in sorted(set(state.maps))},
    }


# --- Burgundy -----------------------------------------------------------------------------


def burgundy_is_colour_complete(duchy: Duchy, values: list[int], colour: str) -> bool:
    return all(values[h] != UNMARKED for h in duchy.hexes_of(colour))


def _burgundy_player(
    duchy: Duchy, state: BurgundyState, s: int, sheet: Sheet, seat: int | None
) -> dict[str, Any]:
    mine = seat == s
    pending = state.pending[s]
    shown = pending and (mine or (state.stage == Stage.CASTLE and state.variant == "all_different"))
    return {
        "seat": s,
        "decided": bool(pending),
        "decision": json.loads(pending) if shown else None,
        "castle": list(CELLS[sheet.castle]) if sheet.castle >= 0 else None,
        "marks": _grid(sheet.values),
        "bonuses": {
            kind: {
                "available": available(duchy, sheet, k),
                "circled": sheet.circles[k],
                "used": sheet.used[k],
                "limit": duchy.bonus_limits[k],
            }
            for k, kind in enumerate(BONUS_KINDS)
        },
        "points": list(sheet.points),
        "total": sum(sheet.points),
        "colours_done": [
            c for c in BURGUNDY_COLOURS if burgundy_is_colour_complete(duchy, sheet.values, c)
        ],
    }


def burgundy_view(game: Game, state: BurgundyState, seat: int | None) -> View:
    duchy = DUCHIES[state.duchy]
    prompts = game.to_act(state)
    roll = state.roll
    return {
        "game": "burgundy",
        "seats": state.seats,
        "you": seat,
        "scores": [sum(sheet.points) for sheet in state.sheets],
        "active": state.picker if state.picker >= 0 and state.stage == Stage.CASTLE else None,
        "pending": sorted(prompts),
        "stage": state.stage,
        "variant": state.variant,
        "castle_option": state.castle_option or None,
        "phase": min(state.phase + 1, 3),
        "round": state.round,
        "round_in_phase": state.round_in_phase,
        "time": {"columns": list(state.time), "size": column_size(state)},
        "roll": None
        if roll is None
        else {
            "pips": list(roll.pips),
            "colours": list(roll.colours),
            "hourglass": roll.hourglass,
            "sale": roll.hourglass == 2,
        },
        "duchy": duchy_view(duchy),
        "players": [
            _burgundy_player(duchy, state, s, sheet, seat) for s, sheet in enumerate(state.sheets)
        ],
        "colour_claims": {
            claim.colour: {"first": list(claim.first), "second": list(claim.second)}
            for claim in state.claims
        },
        "last_round": {
            "round": state.revealed_round,
            "decisions": [json.loads(p) for p in state.revealed],
        }
        if state.revealed
        else None,
    }
