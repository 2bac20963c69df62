"""The Castles of Burgundy: The Dice Game as JSON Schema: its actions (one per round, sealed),
view, result detail and events."""

from __future__ import annotations

from engine.burgundy.duchy import BONUS_KINDS, COLOURS, DUCHIES, LAND, NUMBERS, ROW_LENGTHS
from engine.burgundy.state import COLUMN
from engine.schemas import (
    action,
    array,
    boolean,
    by_type,
    const,
    event,
    integer,
    mapping,
    nullable,
    obj,
    one_of,
    pair,
    seat,
    seat_list,
    string,
)

SEATS = 5
HEX = pair(
    integer("row (0-6), then position in the row (0-6)", 0, max(ROW_LENGTHS) - 1),
    "a hex of the duchy, [row, col]",
)
DIE = integer("which of the two dice of the roll (0 or 1)", 0, 1)
PIPS = integer("a pip value", 1, 6)
COLOUR = string("a colour (of a die face and of hexes)", COLOURS)
KIND = string("a bonus kind", BONUS_KINDS)
SELL = boolean(
    "sell every commodity first (only with the double hourglass and a commodity; else false)"
)
SEAT = seat(seats=SEATS)
POINTS = integer("points", 0)

BONUS = one_of(
    "at most one bonus for the round",
    obj(
        "a monk changes the colour die to another colour",
        {"kind": const("monk", "the bonus"), "colour": COLOUR},
    ),
    obj(
        "a worker changes the pip die to another value",
        {"kind": const("worker", "the bonus"), "value": PIPS},
    ),
    obj(
        "a silver buys a second mark with the dice as rolled (at least one other die)",
        {"kind": const("silver", "the bonus"), "pip": DIE, "colour": DIE, "hex": HEX},
    ),
    {"type": "null"},
)

ACTIONS = by_type(
    action(
        "pick_castle",
        "choose your starting castle (sealed, or in seat order for all different)",
        hex=HEX,
    ),
    action(
        "mark",
        "the round's decision (sealed): write a pip die's value in a hex of a colour die's "
        "colour, optionally with one bonus",
        sell=SELL,
        pip=DIE,
        colour=DIE,
        hex=HEX,
        bonus=BONUS,
    ),
    action(
        "take_worker",
        "the round's decision when no mark is possible with the dice as rolled",
        sell=SELL,
    ),
)

DECISION = one_of("a seat's decision (one of the actions)", *ACTIONS.values())

TRACK = obj(
    "a bonus track",
    {
        "available": integer("circled and not yet used", 0),
        "circled": integer("circles drawn", 0),
        "used": integer("circles checked off", 0),
        "limit": integer("circles the track holds", 0),
    },
)

DUCHY = obj(
    "the duchy sheet every player uses",
    {
        "name": string("the duchy", sorted(DUCHIES)),
        "title": string("its title"),
        "house_design": boolean("a house design (not the printed sheet)"),
        "rows": array(array(COLOUR, "a row's hex colours"), "the 37 hexes by row", 7, 7),
        "castles": array(obj("a castle hex", {"hex": HEX, "square": KIND}), "the castle hexes"),
        "areas": array(
            obj("an area", {"colour": COLOUR, "hexes": array(HEX, "its hexes", 1)}),
            "every area",
        ),
        "bonus_limits": mapping(integer("circles", 0), "per bonus kind", KIND),
        "colour_bonus": mapping(
            array(POINTS, "first, second", 2, 2), "colour completion points", COLOUR
        ),
        "area_points": mapping(
            array(POINTS, "in phases I, II, III", 3, 3), "area points by area size"
        ),
        "hex_rules": mapping(
            obj(
                "what a colour's hexes are and which numbers they take",
                {
                    "land": string("what the hexes are", sorted(LAND.values())),
                    "numbers": string(
                        "range: only the pips below; same: a pasture's numbers are all equal; "
                        "differ: a city's numbers all differ; neighbour: a castle needs its "
                        "number already in a hex next to it",
                        sorted(set(NUMBERS.values())),
                    ),
                    "pips": nullable(
                        array(PIPS, "lowest, highest", 2, 2), "the pips allowed (range only)"
                    ),
                    "bonus": nullable(
                        KIND, "the bonus a completed area gives (green: its castle's square)"
                    ),
                },
            ),
            "per colour",
            COLOUR,
        ),
    },
)

PLAYER = obj(
    "a seat's sheet",
    {
        "seat": SEAT,
        "decided": boolean("the seat has made its sealed decision"),
        "decision": nullable(
            DECISION, "the decision: shown to its own seat only (all different: to everyone)"
        ),
        "castle": nullable(HEX, "the starting castle"),
        "marks": array(
            array(nullable(integer("value written (0: the castle)", 0, 6)), "a row"),
            "the sheet by row (null: unmarked)",
            7,
            7,
        ),
        "bonuses": mapping(TRACK, "per bonus kind", KIND),
        "points": array(POINTS, "per phase", 3, 3),
        "total": POINTS,
        "colours_done": array(COLOUR, "colours completed"),
    },
)

VIEW = obj(
    "the game as a seat or a spectator sees it: other seats' sealed decisions show only as "
    "decided until the round resolves",
    {
        "game": const("burgundy", "the game"),
        "seats": integer("seats in the game", 1, SEATS),
        "you": nullable(SEAT, "the viewing seat; null for a spectator"),
        "scores": array(POINTS, "per seat", 1, SEATS),
        "active": nullable(SEAT, "all different: the seat picking its castle"),
        "pending": seat_list("seats owing a decision now", SEATS),
        "stage": string("castle picks, rounds, or over", ("castle", "round", "over")),
        "variant": string("the variant", ("standard", "all_different", "all_same", "solo")),
        "castle_option": nullable(KIND, "all same: the castle square chosen in the options"),
        "phase": integer("the phase (I, II, III)", 1, 3),
        "round": integer("rounds opened", 0),
        "round_in_phase": integer("rounds opened in this phase", 0),
        "time": obj(
            "the time columns",
            {
                "columns": array(integer("boxes filled", 0, COLUMN), "per phase", 3, 3),
                "size": integer("boxes per column", 1, COLUMN),
            },
        ),
        "roll": nullable(
            obj(
                "the round's dice",
                {
                    "pips": array(PIPS, "the two pip dice", 2, 2),
                    "colours": array(COLOUR, "the two colour dice", 2, 2),
                    "hourglass": integer("the hourglass die (2: double)", 1, 2),
                    "sale": boolean("commodities may be sold this round"),
                },
            ),
            "null outside rounds",
        ),
        "duchy": DUCHY,
        "players": array(PLAYER, "per seat", 1, SEATS),
        "colour_claims": mapping(
            obj(
                "who took a colour's completion points",
                {"first": seat_list("first", SEATS), "second": seat_list("second", SEATS)},
            ),
            "per colour",
            COLOUR,
        ),
        "last_round": nullable(
            obj(
                "the decisions of the last resolved round (or the castle picks)",
                {
                    "round": integer("the round (0: castle picks)", 0),
                    "decisions": array(DECISION, "per seat", 1, SEATS),
                },
            ),
            "null before anything resolved",
        ),
    },
)

RESULT_DETAIL = obj(
    "points per phase and the tie-break",
    {
        "by_phase": array(array(POINTS, "phases I, II, III", 3, 3), "per seat", 1, SEATS),
        "unused_bonuses": array(integer("bonuses not used", 0), "per seat (the tie-break)"),
        "tie_break": string("the tie-break in words"),
    },
)

AREA = {
    "seat": SEAT,
    "area": integer("the area, by index", 0),
    "size": integer("hexes in the area", 1),
    "points": POINTS,
    "bonus": nullable(KIND, "the bonus gained"),
    "bonus_lost": KIND,
}

EVENTS = by_type(
    event("decided", "a seat made its sealed decision", seat=SEAT),
    event("castle_picked", "all different: a seat picked its castle", seat=SEAT, hex=HEX),
    event(
        "castles_revealed",
        "every starting castle revealed",
        castles=array(HEX, "per seat", 1, SEATS),
    ),
    event(
        "round_opened",
        "a round's dice were rolled",
        round=integer("round", 1),
        phase=integer("phase", 1, 3),
        pips=array(PIPS, "pip dice", 2, 2),
        colours=array(COLOUR, "colour dice", 2, 2),
        hourglass=integer("hourglass", 1, 2),
        sale=boolean("double hourglass: commodities may be sold"),
    ),
    event(
        "round_resolved",
        "every decision revealed",
        round=integer("round", 1),
        decisions=array(DECISION, "per seat", 1, SEATS),
    ),
    event(
        "sold",
        "commodities sold",
        seat=SEAT,
        commodities=integer("sold", 1),
        silver=integer("silver circled", 0),
        points=POINTS,
    ),
    event(
        "took_worker",
        "a worker taken",
        seat=SEAT,
        circled=boolean("circled (false: the track was full)"),
    ),
    event("marked", "a value written", seat=SEAT, hex=HEX, value=integer("value", 1, 6)),
    event("area_completed", "an area completed", optional=("bonus_lost",), **AREA),
    event(
        "bonus_lost",
        "a bonus lost: its track was full",
        optional=("area", "size", "points", "bonus"),
        **AREA,
    ),
    event(
        "colour_completed",
        "a colour completed",
        colour=COLOUR,
        seats=seat_list("seats completing it", SEATS),
        place=string("which points", ("first", "second", "none")),
        points=POINTS,
    ),
    event("phase_ended", "a phase ended", phase=integer("phase", 1, 3)),
    event("game_over", "the game ended", scores=array(POINTS, "per seat", 1, SEATS)),
)
