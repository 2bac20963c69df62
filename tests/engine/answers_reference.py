"""Views, legal actions and sentences as first written, kept as the specification their
faster versions in the engine must match byte for byte (``tests/engine/test_answers.py``).

Each function here is the engine's code before it was made cheaper (same inputs, same
outputs), with the helpers it called then; nothing in the engine imports this module.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from engine.burgundy.duchy import BONUS_KINDS, CELLS, DUCHIES, NEIGHBOURS, PIP_RANGE, Duchy
from engine.burgundy.duchy import COLOURS as BURGUNDY_COLOURS
from engine.burgundy.legal import COMMODITY, MONK, SILVER, WORKER, Mark
from engine.burgundy.sheet import frontier
from engine.burgundy.state import UNMARKED, BurgundyState, Roll, Sheet, Stage, column_size
from engine.burgundy.view import _grid, duchy_view
from engine.carcassonne import city as geometry
from engine.carcassonne.faces import BASE_MASK, EDGE_NAMES, KNIGHT, ROTATIONS, rotate
from engine.carcassonne.rulebook import KNIGHTS_TO_HOLD, ROLLS
from engine.carcassonne.state import FREE, CarcassonneState, Turn
from engine.codec import json_copy
from engine.contract import Action, Game, View
from engine.diceland.board import COLOURS, TREASURES_TO_WIN
from engine.diceland.rules import PHASE1_DICE
from engine.diceland.state import DicelandState, Phase
from engine.diceland.view import board_of, choice_json, crossed_mask
from engine.kingdice.board import DRAGON, areas
from engine.kingdice.data import CARDS, DICE, LAYOUTS, Layout
from engine.kingdice.legal import _KEEP_MASKS, thrown_faces
from engine.kingdice.queries import layout, must_hire
from engine.kingdice.state import THROWS, KingState
from engine.kingdice.state import Phase as KingPhase
from engine.kingdice.view import _STATIC, card_json, held_json

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
        # the layouts by reference since issue 15: the edition names them
        "edition": state.edition,
    }


def _diceland_usable(game: Any, state: DicelandState, seat: int, colour: str, n: int) -> bool:
    return bool(game.board(state, seat).placements(game.crossed(state, seat), colour, n))


def diceland_describe(game: Any, state: DicelandState, seat: int, action: Action) -> str:
    kind = action.get("type")
    if kind == "choose":
        colour = str(action.get("colour", ""))
        n = state.last_throw.count(colour)
        text = f"Set aside the {n} {colour} {'die' if n == 1 else 'dice'}"
        if not _diceland_usable(game, state, seat, colour, n):
            text += f" ({n} {colour} would cross nothing now)"
        return text
    if kind == "throw":
        return f"Throw the other {PHASE1_DICE - state.aside} dice again"
    if kind == "stop":
        if not _diceland_usable(game, state, seat, state.chosen, state.aside):
            return (
                f"Stop: {state.aside} {state.chosen} have nowhere to go (no {state.chosen} "
                "territory next to your crosses, or the excess rule), so you cross nothing"
            )
        return f"Stop and cross off {state.aside} {state.chosen}"
    if kind == "pass":
        return "Pass (cross off nothing)"
    if kind == "cross":
        board = game.board(state, seat)
        hexes = action.get("hexes", [])
        marks = []
        for q, r in hexes:
            i = board.index.get((q, r))
            star = "*" if i is not None and (board.treasure_mask >> i) & 1 else ""
            marks.append(f"({q},{r}){star}")
        return f"Cross {len(hexes)} {action.get('colour')}: {' '.join(marks)}"
    return Game.describe(game, state, seat, action)


# --- Burgundy -----------------------------------------------------------------------------


def _hexlist(h: int) -> list[int]:
    return [CELLS[h][0], CELLS[h][1]]


def value_error(duchy: Duchy, values: list[int], h: int, value: int) -> tuple[str, str] | None:
    """Why ``value`` may not go in the unmarked hex ``h`` (next to a mark, with a die of its
    colour), or None: the number rules of its colour."""
    hex_colour = duchy.colours[h]
    if hex_colour in PIP_RANGE:
        low, high = PIP_RANGE[hex_colour]
        if not low <= value <= high:
            return "value_not_allowed", f"a {hex_colour} hex takes only {low} or {high}"
    elif hex_colour == "orange":
        area = duchy.areas[duchy.area_of[h]]
        if any(values[o] == value for o in area):
            return "city_repeats_number", f"this city already has a {value}: numbers must differ"
    elif hex_colour == "yellow":
        area = duchy.areas[duchy.area_of[h]]
        if any(values[o] not in (UNMARKED, value) for o in area):
            return "pasture_numbers_differ", "every number in a pasture must be the same"
    elif hex_colour == "green" and not any(values[n] == value for n in NEIGHBOURS[h]):
        return "castle_number_not_adjacent", f"a castle needs a {value} already in a hex next to it"
    return None


def available(duchy: Duchy, sheet: Sheet, kind: int) -> int:
    """Unspent bonuses of ``kind``: colour circles plus castle circles of marked castles,
    minus those checked off."""
    square = BONUS_KINDS[kind]
    castles = sum(
        1 for h in duchy.castles if duchy.castle_square[h] == square and sheet.values[h] != UNMARKED
    )
    return sheet.circles[kind] + castles - sheet.used[kind]


def can_sell(duchy: Duchy, sheet: Sheet, roll: Roll) -> bool:
    """The double hourglass was rolled and the seat holds a commodity to sell."""
    return roll.hourglass == 2 and available(duchy, sheet, COMMODITY) > 0


def silver_from_sale(duchy: Duchy, sheet: Sheet) -> int:
    """Silver a sale of every commodity would circle now (capped by the silver track)."""
    room = max(0, duchy.bonus_limits[SILVER] - sheet.circles[SILVER])
    return min(room, available(duchy, sheet, COMMODITY))


def _targets(
    duchy: Duchy, values: list[int], front: dict[str, list[int]], colour: str, value: int
) -> list[int]:
    """The hexes of ``front`` (the frontier by colour) where a ``colour`` die may write
    ``value``."""
    return [h for h in front.get(colour, ()) if value_error(duchy, values, h, value) is None]


def frontier_by_colour(duchy: Duchy, hexes: list[int]) -> dict[str, list[int]]:
    """The frontier's hexes ``hexes`` (in index order) by their colour."""
    front: dict[str, list[int]] = {}
    for h in hexes:
        front.setdefault(duchy.colours[h], []).append(h)
    return front


def plain_marks(
    duchy: Duchy, values: list[int], roll: Roll, front: dict[str, list[int]]
) -> list[Mark]:
    """Every mark possible with the dice as rolled (no bonus), in a stable order."""
    return [
        (p, c, h)
        for p in (0, 1)
        for c in (0, 1)
        for h in _targets(duchy, values, front, roll.colours[c], roll.pips[p])
    ]


def burgundy_round_actions(duchy: Duchy, sheet: Sheet, roll: Roll) -> list[Action]:
    """Every legal decision of a seat this round, in a stable order."""
    values = sheet.values
    hexes = frontier(values)
    front = frontier_by_colour(duchy, hexes)
    plain = plain_marks(duchy, values, roll, front)
    targets: dict[tuple[str, int], list[int]] = {}

    def to(colour: str, value: int) -> list[int]:
        """``_targets`` on this sheet's frontier, each (colour, value) worked out once."""
        found = targets.get((colour, value))
        if found is None:
            found = targets[colour, value] = _targets(duchy, values, front, colour, value)
        return found

    monk: list[tuple[int, int, str, int]] = []
    if available(duchy, sheet, MONK) > 0:
        for p in (0, 1):
            for c in (0, 1):
                for colour in BURGUNDY_COLOURS:
                    if colour != roll.colours[c]:
                        for h in to(colour, roll.pips[p]):
                            monk.append((p, c, colour, h))
    worker: list[tuple[int, int, int, int]] = []
    if available(duchy, sheet, WORKER) > 0:
        for p in (0, 1):
            for c in (0, 1):
                for value in range(1, 7):
                    if value != roll.pips[p]:
                        for h in to(roll.colours[c], value):
                            worker.append((p, c, value, h))
    silver: list[tuple[Mark, Mark]] = []
    own_silver = available(duchy, sheet, SILVER)
    sale_silver = silver_from_sale(duchy, sheet) if can_sell(duchy, sheet, roll) else 0
    if own_silver + sale_silver > 0:
        silver = _burgundy_silver_pairs(duchy, values, hexes, plain, roll, to)
    # Each decision once: two equal pip (or colour) dice make one choice, not two, and a
    # monk (a worker) makes the colour (pip) die it changes irrelevant. The dice named vary
    # slowest within each kind of bonus, so the first of each effect (what the mark writes
    # where, and the bonus) names the lowest dice: the one ``canonical_dice`` writes.
    # With two different pips and two different colours, the dice a plain or silver mark
    # names are its effect: no two of those lists' items share one (the usual roll).
    pips, colours = roll.pips, roll.colours
    monk = _burgundy_first_of_each(monk, lambda m: (pips[m[0]], m[2], m[3]))
    worker = _burgundy_first_of_each(worker, lambda m: (m[2], colours[m[1]], m[3]))
    unique_plain = plain
    if pips[0] == pips[1] or colours[0] == colours[1]:
        unique_plain = _burgundy_first_of_each(plain, lambda m: (pips[m[0]], colours[m[1]], m[2]))
        silver = _burgundy_first_of_each(
            silver,
            lambda m: (
                pips[m[0][0]],
                colours[m[0][1]],
                m[0][2],
                pips[m[1][0]],
                colours[m[1][1]],
                m[1][2],
            ),
        )
    out: list[Action] = []
    for sell in (False, True) if can_sell(duchy, sheet, roll) else (False,):

        def mark(p: int, c: int, h: int, bonus: dict[str, Any] | None, sell: bool = sell) -> Action:
            return {
                "type": "mark",
                "sell": sell,
                "pip": p,
                "colour": c,
                "hex": _hexlist(h),
                "bonus": bonus,
            }

        out.extend(mark(p, c, h, None) for p, c, h in unique_plain)
        out.extend(mark(p, c, h, {"kind": "monk", "colour": col}) for p, c, col, h in monk)
        out.extend(mark(p, c, h, {"kind": "worker", "value": v}) for p, c, v, h in worker)
        if own_silver + (sale_silver if sell else 0) > 0:
            out.extend(
                mark(p1, c1, h1, {"kind": "silver", "pip": p2, "colour": c2, "hex": _hexlist(h2)})
                for (p1, c1, h1), (p2, c2, h2) in silver
            )
        if not plain:
            out.append({"type": "take_worker", "sell": sell})
    return out


def _burgundy_silver_pairs(
    duchy: Duchy,
    values: list[int],
    hexes: list[int],
    plain: list[Mark],
    roll: Roll,
    to: Callable[[str, int], list[int]],
) -> list[tuple[Mark, Mark]]:
    """Every plain mark followed by a second one with other dice (a silver's two marks), in
    a stable order; ``hexes``: the frontier of ``values``; ``to``: the frontier's targets by
    colour and value."""
    on_front = set(hexes)
    seconds: dict[tuple[int, int, str, int], list[int]] = {}

    def second(h1: int, v1: int, colour: str, value: int) -> list[int]:
        """``_targets`` of a second mark once ``h1`` holds ``v1``, each worked out once: the
        first mark changes what may go only in its own area and next to it (all that
        :func:`value_error` reads) and opens its unmarked neighbours, so every other hex
        keeps its answer from ``to``."""
        found = seconds.get((h1, v1, colour, value))
        if found is None:
            after = list(values)
            after[h1] = v1
            touched = set(duchy.areas[duchy.area_of[h1]]).union(NEIGHBOURS[h1])
            found = seconds[h1, v1, colour, value] = sorted(
                [h for h in to(colour, value) if h not in touched]
                + [
                    h
                    for h in touched
                    if after[h] == UNMARKED
                    and (h in on_front or h in NEIGHBOURS[h1])
                    and duchy.colours[h] == colour
                    and value_error(duchy, after, h, value) is None
                ]
            )
        return found

    silver: list[tuple[Mark, Mark]] = []
    for p1, c1, h1 in plain:
        for p2 in (0, 1):
            for c2 in (0, 1):
                if (p2, c2) != (p1, c1):
                    for h2 in second(h1, roll.pips[p1], roll.colours[c2], roll.pips[p2]):
                        silver.append(((p1, c1, h1), (p2, c2, h2)))
    return silver


def _burgundy_first_of_each(items: list[Any], key: Callable[[Any], Hashable]) -> list[Any]:
    """The items whose ``key`` no earlier item had, in order."""
    seen: set[Hashable] = set()
    out: list[Any] = []
    for item in items:
        k = key(item)
        if k not in seen:
            seen.add(k)
            out.append(item)
    return out


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


# --- King of the Dice ---------------------------------------------------------------------


def kingdice_unseen_tiles(state: KingState) -> list[str]:
    """Tiles in the stockpile or the box, by terrain, sorted (public by counting)."""
    left = Counter(LAYOUTS[state.seats].terrain)
    for space, tiled in enumerate(state.tiled):
        if tiled:
            left[LAYOUTS[state.seats].terrain[space]] -= 1
    for tile in state.drawn:
        left[tile] -= 1
    return sorted(left.elements())


def _kingdice_largest_area(layout: Layout, occupant: Sequence[int], seat: int) -> int:
    """Size of ``seat``'s largest connected area of markers (0 without markers)."""
    found = areas(layout, occupant, seat)
    return len(found[0]) if found else 0


def _kingdice_score_breakdown(
    layout: Layout,
    occupant: Sequence[int],
    fires: Sequence[int],
    gold: Sequence[int],
    white: Sequence[int],
) -> list[dict[str, int]]:
    """Each seat's points by the rulebook's end scoring.

    3 a space in the largest connected area, 1 a space outside it, 4 to every player with
    the most dragon fires (nobody when the most is 0), 3 a gold and 2 a white gemstone.
    """
    most = max(fires) if fires else 0
    out = []
    for seat in range(len(fires)):
        placed = sum(1 for o in occupant if o == seat)
        big = _kingdice_largest_area(layout, occupant, seat)
        parts = {
            "largest_area": big,
            "area_points": 3 * big,
            "other_points": placed - big,
            "dragon_points": 4 if most > 0 and fires[seat] == most else 0,
            "gold_points": 3 * gold[seat],
            "white_points": 2 * white[seat],
        }
        parts["total"] = (
            parts["area_points"]
            + parts["other_points"]
            + parts["dragon_points"]
            + parts["gold_points"]
            + parts["white_points"]
        )
        out.append(parts)
    return out


def _kingdice_scores(state: KingState) -> list[dict[str, int]]:
    return _kingdice_score_breakdown(
        layout(state),
        state.occupant,
        [p.fires for p in state.players],
        [p.gold for p in state.players],
        [p.white for p in state.players],
    )


def kingdice_view(state: KingState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) may see. Every seat sees the same public data."""
    parts = _kingdice_scores(state)
    spaces = [
        {
            **static,
            "neighbours": list(static["neighbours"]),
            "tile": state.tiled[s],
            "face_down": state.face_down[s],
            "marker": state.occupant[s] if state.occupant[s] >= 0 else None,
            "dragon": state.occupant[s] == DRAGON,
            "gem": state.gem[s] or None,
        }
        for s, static in enumerate(_STATIC[state.seats])
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
                "markers_on_map": sum(1 for o in state.occupant if o == s),
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
            "must_hire": must_hire(state) if state.phase is KingPhase.HIRE else None,
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
            "unseen_tiles": kingdice_unseen_tiles(state),
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


def kingdice_describe_action(state: KingState, action: Action) -> str:
    """A short sentence for a person choosing ``action`` (menus, logs)."""
    kind = action.get("type")
    terrain = layout(state).terrain
    if kind == "roll":
        return "Roll all six dice"
    if kind == "stop":
        return "Stop rolling and use this result"
    if kind == "reroll":
        keep = action.get("keep", [])
        shown = [f"{n} {DICE[i][n - 1]}" for i, n in enumerate(state.dice) if i in keep]
        return "Reroll everything" if not keep else f"Keep {', '.join(shown)}; reroll the rest"
    if kind == "hire":
        stack: Any = action.get("stack")
        valid = isinstance(stack, int) and 1 <= stack <= 5 and state.stacks[stack - 1]
        card = state.stacks[stack - 1][0] if valid else -1
        name = CARDS[card]["name"] if card >= 0 else "?"
        return f"Hire the {name} from stack {stack}"
    if kind == "take":
        return f"Take stack {action.get('stack')}'s card face down (dragon alarm)"
    if kind == "joker":
        pair = {"twin": "two matching jokers", "super": "a joker and a super joker"}.get(
            action.get("pair", ""), "two super jokers"
        )
        return f"Discard {pair} for a {action.get('colour')} {action.get('number')}"
    space: Any = action.get("space")
    on_map = isinstance(space, int) and 0 <= space < len(terrain)
    where = f"{terrain[space]} (space {space})" if on_map else "?"
    if kind == "place":
        return f"Place the tile on {where} with a marker"
    if kind == "place_dragon":
        src = action.get("source")
        tail = f" (dragon fire from player {src})" if src is not None else ""
        return f"Place the tile on {where} with a dragon fire{tail}"
    if kind == "free_dragon":
        return f"Drive out the dragon fire on {where}"
    if kind == "raid":
        owner = state.occupant[space] if on_map else "?"
        return f"Replace player {owner}'s marker on {where}"
    if kind == "steal_card":
        card = action.get("card", 0)
        sym = CARDS[card]["symbol"] if isinstance(card, int) and 0 <= card < 60 else {}
        return f"Steal card {card} (a {sym.get('colour')} {sym.get('number')} joker)"
    if kind == "steal_gem":
        return f"Steal a {action.get('gem')} gemstone from player {action.get('victim')}"
    if kind == "no_steal":
        return "Steal nothing"
    args = ", ".join(f"{k}={v}" for k, v in action.items() if k != "type")
    return f"{kind} {args}".strip()


def kingdice_distinct_keeps(state: KingState) -> list[list[int]]:
    faces = thrown_faces(state)
    lower = [sum(1 << j for j in range(i) if faces[j] == faces[i]) for i in range(6)]
    return [[*keep] for keep, mask in _KEEP_MASKS if all(lower[i] & ~mask == 0 for i in keep)]
