"""Rebuilding a full Burgundy state from one seat's view (for search bots).

The only hidden information is the sealed decision of other seats that have decided but not
yet been revealed; ``sample_state`` draws one of their legal decisions with the dice.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from engine.burgundy.duchy import BONUS_KINDS, COLOURS, DUCHIES, INDEX
from engine.burgundy.state import BurgundyState, ColourClaim, Roll, Sheet
from engine.contract import View
from engine.dice import Dice

if TYPE_CHECKING:
    from engine.burgundy.rules import Burgundy


def _canonical(action: dict) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def sample_state(game: Burgundy, view: View, seat: int | None, dice: Dice) -> BurgundyState:
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
        stage=view["stage"],
        sheets=sheets,
        pending=[""] * view["seats"],
        claims=[
            ColourClaim(
                c, list(view["colour_claims"][c]["first"]), list(view["colour_claims"][c]["second"])
            )
            for c in COLOURS
        ],
        time=list(view["time"]["columns"]),
        phase=view["phase"] - 1 if view["stage"] != "over" else 2,
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
