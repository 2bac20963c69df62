"""The one observer: what a seat (or a spectator) sees of a Burgundy game, and back.

Sealed decisions (castle picks and round decisions) of other seats show only as
``"decided": true`` until the round resolves; everything else on the sheets is public.
:func:`sample_state` rebuilds a full state from one seat's view (for search bots): the only
hidden information is the sealed decision of other seats that have decided but not yet been
revealed, drawn from their legal decisions with the dice.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

from engine.burgundy.duchy import (
    AREA_BONUS,
    BONUS_KINDS,
    CELLS,
    COLOURS,
    DUCHIES,
    INDEX,
    LAND,
    NUMBERS,
    PIP_RANGE,
    ROW_LENGTHS,
    Duchy,
)
from engine.burgundy.sheet import available, complete_colours
from engine.burgundy.state import (
    AREA_POINTS,
    BurgundyState,
    ColourClaim,
    Roll,
    Sheet,
    Stage,
    column_size,
)
from engine.contract import Game, View
from engine.dice import Dice

_ROWS = tuple((sum(ROW_LENGTHS[:r]), sum(ROW_LENGTHS[: r + 1])) for r in range(len(ROW_LENGTHS)))
"""Each row's first and past-the-last hex index."""


def _grid(values: list[int]) -> list[list[int | None]]:
    return [[None if v < 0 else v for v in values[start:end]] for start, end in _ROWS]


HEX_RULES = {
    colour: {
        "land": LAND[colour],
        "numbers": NUMBERS[colour],
        "pips": list(PIP_RANGE[colour]) if colour in PIP_RANGE else None,
        "bonus": AREA_BONUS.get(colour),
    }
    for colour in COLOURS
}
"""What each colour's hexes are, the numbers they take and the bonus a completed area gives:
published in the view, so a client draws its legend from the engine's data."""


_SHEETS: dict[int, tuple[Duchy, dict[str, Any]]] = {}
"""Per duchy (by identity, held beside its sheet), the static sheet as views show it: built
once and shared by every view of the duchy, as Diceland's views share their maps' data. It
is no part of a state, and a view's readers only read it."""


def duchy_view(duchy: Duchy) -> dict[str, Any]:
    """The static sheet: colours by row, castles, areas and the printed numbers (one value
    per duchy, shared: see ``_SHEETS``)."""
    held = _SHEETS.get(id(duchy))
    if held is None or held[0] is not duchy:
        held = _SHEETS[id(duchy)] = (duchy, _sheet(duchy))
    return held[1]


def _sheet(duchy: Duchy) -> dict[str, Any]:
    rows: list[list[str]] = []
    i = 0
    for n in ROW_LENGTHS:
        rows.append(list(duchy.colours[i : i + n]))
        i += n
    return {
        "name": duchy.name,
        "title": duchy.title,
        "house_design": duchy.house_design,
        "rows": rows,
        "castles": [
            {"hex": list(CELLS[h]), "square": duchy.castle_square[h]} for h in duchy.castles
        ],
        "areas": [
            {"colour": colour, "hexes": [list(CELLS[h]) for h in area]}
            for colour, area in zip(duchy.area_colours, duchy.areas, strict=True)
        ],
        "bonus_limits": dict(zip(BONUS_KINDS, duchy.bonus_limits, strict=True)),
        "colour_bonus": {c: list(duchy.colour_bonus[c]) for c in COLOURS},
        "area_points": {str(k): list(v) for k, v in AREA_POINTS.items()},
        "hex_rules": {c: dict(rule) for c, rule in HEX_RULES.items()},
    }


def parsed(decision: str) -> Any:
    """A sealed decision's canonical JSON, parsed (by orjson: the standard library's parser,
    the same values, took a tenth of a view's time; it still reads what orjson refuses)."""
    try:
        return orjson.loads(decision)
    except orjson.JSONDecodeError:
        return json.loads(decision)


def _player(duchy: Duchy, state: BurgundyState, s: int, sheet: Sheet, seat: int | None) -> dict:
    mine = seat == s
    pending = state.pending[s]
    shown = pending and (mine or (state.stage == Stage.CASTLE and state.variant == "all_different"))
    return {
        "seat": s,
        "decided": bool(pending),
        "decision": parsed(pending) if shown else None,
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
        "colours_done": complete_colours(duchy, sheet.values),
    }


def build_view(game: Game, state: BurgundyState, seat: int | None) -> View:
    """Build the view of ``state`` for ``seat`` (None: a spectator)."""
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
        "players": [_player(duchy, state, s, sheet, seat) for s, sheet in enumerate(state.sheets)],
        "colour_claims": {
            claim.colour: {"first": list(claim.first), "second": list(claim.second)}
            for claim in state.claims
        },
        "last_round": {
            "round": state.revealed_round,
            "decisions": [parsed(p) for p in state.revealed],
        }
        if state.revealed
        else None,
    }


def _canonical(action: dict) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def sample_state(game: Game, view: View, seat: int | None, dice: Dice) -> BurgundyState:
    """A state whose view for ``seat`` equals ``view``; hidden decisions drawn from ``dice``."""
    duchy = DUCHIES[view["duchy"]["name"]]
    sheets = []
    for p in view["players"]:
        values = [-1 if v is None else v for row in p["marks"] for v in row]
        sheets.append(
            Sheet(
                values=values,
                circles=[p["bonuses"][k]["circled"] for k in BONUS_KINDS],
                used=[p["bonuses"][k]["used"] for k in BONUS_KINDS],
                points=list(p["points"]),
                castle=INDEX[tuple(p["castle"])] if p["castle"] else -1,
            )
        )
    roll = view["roll"]
    last = view["last_round"]
    state = BurgundyState(
        seats=view["seats"],
        duchy=duchy.name,
        variant=view["variant"],
        castle_option=view["castle_option"] or "",
        stage=Stage(view["stage"]),
        sheets=sheets,
        pending=[""] * view["seats"],
        claims=[
            ColourClaim(
                c, list(view["colour_claims"][c]["first"]), list(view["colour_claims"][c]["second"])
            )
            for c in COLOURS
        ],
        time=list(view["time"]["columns"]),
        phase=view["phase"] - 1 if view["stage"] != Stage.OVER else 2,
        round=view["round"],
        round_in_phase=view["round_in_phase"],
        roll=None
        if roll is None
        else Roll(
            pips=list(roll["pips"]), colours=list(roll["colours"]), hourglass=roll["hourglass"]
        ),
        picker=view["active"] if view["active"] is not None else -1,
        revealed=[_canonical(a) for a in last["decisions"]] if last else [],
        revealed_round=last["round"] if last else 0,
    )
    hidden = []
    for p in view["players"]:
        if p["decision"] is not None:
            state.pending[p["seat"]] = _canonical(p["decision"])
        elif p["decided"]:
            hidden.append(p["seat"])
    for s in hidden:
        state.pending[s] = "?"  # keeps the seat out of to_act while others are drawn
    for s in hidden:
        state.pending[s] = ""
        legal = game.legal_actions(state, s)
        state.pending[s] = _canonical(legal[dice.randbelow(len(legal))])
    return state
