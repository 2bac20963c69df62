"""The one observer of Diceland: what a seat (or a spectator) sees, and back.

Every map is public (both sides of every board). A view names the maps in play (each
player's ``map``, and its ``board`` while sides are picked) and the maps' ``edition``, not
their layouts: an edition never changes once published, so its layouts
(:func:`engine.diceland.maps.edition_data`, served by ``GET
/v1/catalogue/diceland/editions/{edition}``) are read once, not with every view. The only
hidden data are other seats' sealed choices (a board's side before the first turn, a phase-2
choice), shown as ``decided`` until they are revealed. :func:`sample_state` rebuilds a state
from a view for search bots, giving each seat that has decided a random legal choice.
"""

from __future__ import annotations

import functools
from typing import Any

import orjson

from engine.contract import Action, Game, View
from engine.dice import Dice
from engine.diceland.board import COLOURS, TREASURES_TO_WIN, Board, bits
from engine.diceland.maps import edition_boards
from engine.diceland.state import Choice, DicelandState, Phase


def board_of(state: DicelandState, seat: int) -> Board:
    """The map ``seat`` plays on (in the game's edition)."""
    return edition_boards(state.edition)[state.maps[seat]]


def crossed_mask(state: DicelandState, seat: int) -> int:
    """The hexes ``seat`` has crossed off, as a bit mask."""
    mask = 0
    for i in state.crosses[seat]:
        mask |= 1 << i
    return mask


def choice_of(state: DicelandState, seat: int, action: Action) -> Choice:
    if action["type"] == "pass":
        return Choice("pass")
    board = board_of(state, seat)
    hexes = sorted(board.index[(q, r)] for q, r in action["hexes"])
    return Choice("cross", action["colour"], hexes)


def choice_json(state: DicelandState, seat: int, choice: Choice) -> dict[str, Any]:
    board = board_of(state, seat)
    out: dict[str, Any] = {"seat": seat, "kind": choice.kind}
    if choice.kind == "cross":
        out["colour"] = choice.colour
        out["hexes"] = board.hexes_of(board.mask_of(choice.hexes))
    return out


@functools.lru_cache(maxsize=4096)
def _crossed_part(edition: int, name: str, crossed: int) -> bytes:
    """What a player's view says of the crosses ``crossed`` on the map ``name`` (its
    hexes, treasures and territories), as JSON: a view parses a fresh copy. The same crosses
    stand over many moves (every choose, throw and stop, and the other seats' turns), so the
    4,096 (map, crosses) pairs used last are kept (values only; a few hundred bytes each)."""
    board = edition_boards(edition)[name]
    working = {}
    for c in COLOURS:
        terr = board.working_on(crossed, c)
        if terr is not None:
            working[c] = terr.id
    return orjson.dumps(
        {
            "crosses": [board.coords[i] for i in bits(crossed)],
            "treasures": board.treasures_by_colour(crossed),
            "treasure_total": board.treasure_count(crossed),
            "completed": board.completed_colours(crossed),
            "working_on": working,
        }
    )


def _player_view(state: DicelandState, seat: int, viewer: int | None) -> View:
    name = state.maps[seat]
    out: View = {
        "map": name,
        **orjson.loads(_crossed_part(state.edition, name, crossed_mask(state, seat))),
    }
    if state.boards:
        out["board"] = list(state.boards[seat])
    if state.phase == Phase.SIDE:
        out["side"] = {"decided": bool(state.sides[seat])}
        if viewer == seat and state.sides[seat]:
            out["side"]["choice"] = state.sides[seat]
    if state.phase == Phase.CROSS:
        choice = state.choices[seat]
        owes = choice is None or choice.kind != "none"
        out["phase2"] = {"owes": owes, "decided": choice is not None and owes}
        if viewer == seat and choice is not None and owes:
            out["phase2"]["choice"] = choice_json(state, seat, choice)
    return out


def build_view(game: Game, state: DicelandState, seat: int | None) -> View:
    """The view of ``state`` for ``seat`` (None: a spectator)."""
    pending = sorted(game.to_act(state))
    active: int | None = state.active
    if state.phase in (Phase.SIDE, Phase.CROSS):
        active = None
    elif state.phase == Phase.TREASURE:
        active = state.treasure_queue[0]
    elif state.phase == Phase.OVER:
        active = None
    players = [_player_view(state, s, seat) for s in range(state.seats)]
    return {
        "seats": state.seats,
        "you": seat,
        "scores": [p["treasure_total"] for p in players],
        "active": active,
        "pending": pending,
        "turn": state.turn,
        # the rulebook draws lots for the first player after the sides are picked
        "turn_player": None if state.phase == Phase.SIDE else state.active,
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
        "players": players,
        "last_phase2": [choice_json(state, s, c) for s, c in enumerate(state.last_phase2)],
        "winners": list(state.winners),
        "edition": state.edition,
    }


def sample_state(game: Game, view: View, seat: int | None, dice: Dice) -> DicelandState:
    """Rebuild the state from a view. The only hidden data are other seats' sealed
    choices: a seat that has decided is given a random legal choice (a side of its board, a
    phase-2 choice). The maps' edition is the one the view names."""
    edition = view["edition"]
    boards = edition_boards(edition)
    state = DicelandState(
        seats=view["seats"],
        maps=[p["map"] for p in view["players"]],
        crosses=[
            sorted(boards[p["map"]].index[(q, r)] for q, r in p["crosses"]) for p in view["players"]
        ],
        active=view["turn_player"] or 0,
        turn=view["turn"],
        phase=Phase(view["phase"]),
        last_throw=list(view["dice"]["last_throw"]),
        throws=view["dice"]["throws"],
        chosen=view["dice"]["chosen"] or "",
        aside=view["dice"]["aside"],
        choices=[None] * view["seats"],
        winners=list(view["winners"]),
        boards=[list(p["board"]) for p in view["players"] if "board" in p],
        edition=edition,
    )
    if state.phase == Phase.SIDE:
        sides = [p["side"] for p in view["players"]]
        state.sides = [
            s.get("choice") or (board[dice.randbelow(2)] if s["decided"] else "")
            for s, board in zip(sides, state.boards, strict=True)
        ]
        state.active = dice.randbelow(state.seats)  # the first player, not shown yet
    tt = view["treasure_throw"]
    if tt is not None:
        state.treasure_queue = [tt["seat"], *tt["queue"]]
        state.treasure_dice = list(tt["dice"])
    state.last_phase2 = [
        Choice(
            c["kind"],
            c.get("colour", ""),
            sorted(boards[state.maps[c["seat"]]].index[(q, r)] for q, r in c.get("hexes", [])),
        )
        for c in view["last_phase2"]
    ]
    if state.phase == Phase.CROSS:
        for s, p in enumerate(view["players"]):
            info = p["phase2"]
            if not info["owes"]:
                state.choices[s] = Choice("none")
            elif "choice" in info:
                c = info["choice"]
                state.choices[s] = choice_of(
                    state, s, {"type": c["kind"], **{k: v for k, v in c.items() if k != "kind"}}
                )
            elif info["decided"]:
                legal = game.legal_actions(state, s)
                state.choices[s] = choice_of(state, s, legal[dice.randbelow(len(legal))])
    return state
