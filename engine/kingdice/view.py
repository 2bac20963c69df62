"""The one redaction point of King of the Dice (``view``) and its inverse for search bots
(``sample``: a full state consistent with a view, the unseen tiles and cards re-dealt).

Hidden from every seat and spectator: the stockpile's order, the two tiles removed unseen at
set-up, the order of the cards under each stack's top card, and which cards lie face down
(shown only as super jokers). The multiset of tiles that are either in the stockpile or in
the box is public (anyone can count the tiles on the map), and so is the list of tiles that
were drawn and shuffled back (they are known to be in the stockpile).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, cast

import orjson

from engine.codec import json_copy
from engine.dice import Dice
from engine.kingdice.board import DRAGON, NOBODY
from engine.kingdice.conditions import describe
from engine.kingdice.data import CARDS, DICE, LAYOUTS
from engine.kingdice.queries import must_hire, scores
from engine.kingdice.state import THROWS, ExtraDie, KingState, Phase, Player


def _card_text(card_id: int) -> str:
    card = CARDS[card_id]
    return json.dumps(
        {
            "id": card_id,
            "stack": card["stack"],
            "name": card["name"],
            "effect": card["effect"],
            "symbol": dict(card["symbol"]),
            "conditions": card["conditions"],
            "text": " / ".join(describe(c) for c in card["conditions"]),
        }
    )


_CARD_TEXT = [_card_text(c["id"]).encode() for c in CARDS]


def card_json(card_id: int) -> dict[str, Any]:
    """A citizen card as the view shows it face up in the job market (a fresh copy, parsed
    by orjson: a view shows up to six, and the standard library's parser took a sixth of
    the view's time)."""
    return cast("dict[str, Any]", orjson.loads(_CARD_TEXT[card_id]))


def held_json(card_id: int) -> dict[str, Any]:
    """A face-up card in a player's area (its joker symbol is what matters there)."""
    card = CARDS[card_id]
    return {"id": card_id, "stack": card["stack"], "name": card["name"], **card["symbol"]}


def unseen_tiles(state: KingState) -> list[str]:
    """Tiles in the stockpile or the box, by terrain, sorted (public by counting)."""
    left = Counter(
        [
            terrain
            for terrain, tiled in zip(LAYOUTS[state.seats].terrain, state.tiled, strict=True)
            if not tiled
        ]
    )
    left.subtract(state.drawn)
    return sorted(left.elements())


def _static_spaces(players: int) -> list[dict[str, Any]]:
    layout = LAYOUTS[players]
    out = []
    for s in range(layout.size):
        x, y = layout.position(s)
        out.append(
            {
                "id": s,
                "terrain": layout.terrain[s],
                "half": "AB"[layout.half[s]],
                "q": layout.axial[s][0],
                "r": layout.axial[s][1],
                "x": round(x, 3),
                "y": round(y, 3),
                "neighbours": list(layout.neighbours[s]),
            }
        )
    return out


_STATIC = {players: _static_spaces(players) for players in LAYOUTS}

_SPACES = {
    players: [
        (d["id"], d["terrain"], d["half"], d["q"], d["r"], d["x"], d["y"], d["neighbours"])
        for d in spaces
    ]
    for players, spaces in _STATIC.items()
}
"""Each space's static fields in the order a view gives them (a view writes each space
out as one dict display, not as a copy of ``_STATIC``'s dict and five more keys)."""


def make_view(state: KingState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) may see. Every seat sees the same public data."""
    parts = scores(state)
    spaces = [
        {
            "id": s,
            "terrain": terrain,
            "half": half,
            "q": q,
            "r": r,
            "x": x,
            "y": y,
            "neighbours": [*neighbours],
            "tile": tile,
            "face_down": face_down,
            "marker": occupant if occupant >= 0 else None,
            "dragon": occupant == DRAGON,
            "gem": gem or None,
        }
        for (s, terrain, half, q, r, x, y, neighbours), tile, face_down, occupant, gem in zip(
            _SPACES[state.seats],
            state.tiled,
            state.face_down,
            state.occupant,
            state.gem,
            strict=True,
        )
    ]
    players = []
    for s, p in enumerate(state.players):
        players.append(
            {
                "seat": s,
                "cards": [held_json(c) for c in p.face_up],
                "super_jokers": len(p.face_down),
                "gold": p.gold,
                "white": p.white,
                "dragon_fires": p.fires,
                "markers_left": p.markers,
                "markers_on_map": state.occupant.count(s),
                "largest_area": parts[s]["largest_area"],
            }
        )
    roll = None
    if state.rolls:
        roll = {
            "rolls": state.rolls,
            "throws": THROWS,
            "dice": [
                {"die": i, "number": n, "colour": DICE[i][n - 1]} for i, n in enumerate(state.dice)
            ],
            "extra": [{"number": e.number, "colour": e.colour} for e in state.extra],
            "must_hire": must_hire(state) if state.phase is Phase.HIRE else None,
        }
    over = state.over
    return {
        "game": "kingdice",
        "you": seat,
        "seats": state.seats,
        "active": None if over else state.active,
        "pending": [] if over else [state.active],
        "scores": [p["total"] for p in parts],
        "score_detail": parts,
        "turn": state.turn,
        "phase": state.phase.value,
        "map": {"players": state.seats, "spaces": spaces},
        "market": [
            {
                "stack": i + 1,
                "left": len(ids),
                "card": card_json(ids[0]) if ids else None,
            }
            for i, ids in enumerate(state.stacks)
        ],
        "players": players,
        "supply": {
            "tiles": len(state.stock),
            "unseen_tiles": unseen_tiles(state),
            "known_in_stock": list(state.known_in_stock),
            "gold": state.gold_stock,
            "white": state.white_stock,
            "dragon_fires": state.fire_stock,
            "discarded_cards": len(state.box),
        },
        "roll": roll,
        "hired": card_json(state.hired) if state.hired >= 0 else None,
        "grade": state.grade,
        "drawn": list(state.drawn),
        "to_place": state.to_place,
        "dragon_alarm": state.dragon_alarm,
        "start_rolls": [list(r) for r in state.start_rolls],
        "log": json_copy(state.log),
        "winner": state.winner if state.winner >= 0 else None,
        "over": over,
    }


def _deal_tiles(
    supply: dict[str, Any], known: list[str], dice: Dice
) -> tuple[list[str], list[str]]:
    """The unseen tiles re-dealt between the box (removed) and the stockpile, which keeps
    the tiles known to be in it."""
    pool = Counter(supply["unseen_tiles"])
    pool.subtract(Counter(known))
    free = sorted(pool.elements())
    dice.shuffle(free)
    n_removed = len(free) + len(known) - supply["tiles"]
    removed, stock = free[:n_removed], free[n_removed:] + known
    dice.shuffle(stock)
    return removed, stock


def _deal_cards(
    view: dict[str, Any], dice: Dice
) -> tuple[list[list[int]], list[Player], list[int]]:
    """The unseen cards re-dealt: below each stack's top card (by stack), then each player's
    face-down cards; returns the stacks, the players and the cards left (the discard pile
    is dealt from their front)."""
    seen = {m["card"]["id"] for m in view["market"] if m["card"]}
    seen |= {c["id"] for p in view["players"] for c in p["cards"]}
    unseen = [c["id"] for c in CARDS if c["id"] not in seen]
    dice.shuffle(unseen)
    stacks: list[list[int]] = []
    for m in view["market"]:
        top = [m["card"]["id"]] if m["card"] else []
        below = [c for c in unseen if CARDS[c]["stack"] == m["stack"]][: max(0, m["left"] - 1)]
        for c in below:
            unseen.remove(c)
        stacks.append(top + below)
    players = []
    for p in view["players"]:
        down, unseen = unseen[: p["super_jokers"]], unseen[p["super_jokers"] :]
        players.append(
            Player(
                face_up=[c["id"] for c in p["cards"]],
                face_down=down,
                gold=p["gold"],
                white=p["white"],
                fires=p["dragon_fires"],
                markers=p["markers_left"],
            )
        )
    return stacks, players, unseen


def sample_state(view: dict[str, Any], dice: Dice) -> KingState:
    """A full state consistent with ``view``: the unseen tiles re-dealt between stockpile and
    box (tiles known to be in the stockpile stay there), the unseen cards re-dealt between
    the stacks (by stack), the face-down cards and the discard pile."""
    spaces = view["map"]["spaces"]
    occupant = [
        DRAGON if sp["dragon"] else sp["marker"] if sp["marker"] is not None else NOBODY
        for sp in spaces
    ]
    supply = view["supply"]
    known = list(supply["known_in_stock"])
    removed, stock = _deal_tiles(supply, known, dice)
    stacks, players, unseen = _deal_cards(view, dice)
    roll = view["roll"]
    return KingState(
        seats=view["seats"],
        occupant=occupant,
        tiled=[sp["tile"] for sp in spaces],
        face_down=[sp["face_down"] for sp in spaces],
        gem=[sp["gem"] or "" for sp in spaces],
        stock=stock,
        removed=removed,
        known_in_stock=known,
        stacks=stacks,
        players=players,
        gold_stock=supply["gold"],
        white_stock=supply["white"],
        fire_stock=supply["dragon_fires"],
        box=unseen[: supply["discarded_cards"]],
        active=view["active"] if view["active"] is not None else 0,
        turn=view["turn"],
        phase=Phase(view["phase"]),
        rolls=roll["rolls"] if roll else 0,
        dice=[d["number"] for d in roll["dice"]] if roll else [],
        extra=[ExtraDie(number=e["number"], colour=e["colour"]) for e in roll["extra"]]
        if roll
        else [],
        hired=view["hired"]["id"] if view["hired"] else -1,
        grade=view["grade"],
        drawn=list(view["drawn"]),
        to_place=view["to_place"],
        dragon_alarm=view["dragon_alarm"],
        start_rolls=[list(r) for r in view["start_rolls"]],
        log=[dict(e) for e in view["log"]],
        winner=view["winner"] if view["winner"] is not None else -1,
        over=view["over"],
    )


__all__ = ["card_json", "held_json", "make_view", "sample_state", "unseen_tiles"]
