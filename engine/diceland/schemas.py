"""Diceland as JSON Schema: its actions, view, result detail, events and an edition's maps."""

from __future__ import annotations

from engine.diceland.board import COLOURS, TREASURES_TO_WIN
from engine.diceland.maps import BOARDS, EDITIONS, MAP_NAMES
from engine.diceland.state import Phase
from engine.schemas import (
    action,
    array,
    boolean,
    by_type,
    event,
    integer,
    mapping,
    nullable,
    obj,
    pair,
    seat,
    seat_list,
    string,
)

SEATS = 4
DICE = 6
_COORDS = [n for board in BOARDS.values() for q, r in board.coords for n in (q, r)]
HEX = pair(
    integer("a coordinate", min(_COORDS), max(_COORDS)),
    "a hex of a map, [q, r] (axial coordinates)",
)
HEXES = array(HEX, "hexes in reading order (by r, then by q)", 1, DICE)
COLOUR = string("a die colour (and the colour of a territory)", COLOURS)
SEAT = seat(seats=SEATS)
MAP = string("a map, by letter", MAP_NAMES)
PHASES = tuple(phase.value for phase in Phase)
THROW = array(COLOUR, "the colours thrown", 1, DICE)

ACTIONS = by_type(
    action("side", "before the first turn: play on this side of your board", map=MAP),
    action("choose", "phase 1: set aside every die of this colour of the throw", colour=COLOUR),
    action("throw", "phase 1: throw the other dice again"),
    action("stop", "phase 1: stop and cross off the dice set aside"),
    action(
        "cross",
        "phase 2 or a treasure throw: cross off one hex per die of this colour, in one "
        "territory, next to crosses already made",
        colour=COLOUR,
        hexes=HEXES,
    ),
    action("pass", "cross off nothing (not for the active player in phase 2)"),
)

CHOICE = obj(
    "a seat's phase-2 choice: cross (with colour and hexes), pass, or none (owed nothing)",
    {
        "seat": SEAT,
        "kind": string("what the seat did", ("cross", "pass", "none")),
        "colour": COLOUR,
        "hexes": HEXES,
    },
    optional=("colour", "hexes"),
)

MAP_DATA = obj(
    "a map's layout (the same for every game of its edition)",
    {
        "name": MAP,
        "title": string("the map's title"),
        "character": string("the map in a sentence"),
        "house_design": boolean("a house design (not the printed board)"),
        "note": string("where the layout comes from"),
        "generator": string("how the layout was made"),
        "link_cost": integer(
            "the crosses that must link nine treasures to the start (engine/diceland/fairness.py)",
            0,
        ),
        "start": HEX,
        "obstacles": array(HEX, "hexes nobody can cross"),
        "territories": array(
            obj(
                "a territory",
                {
                    "colour": COLOUR,
                    "hexes": array(HEX, "its hexes", 1),
                    "treasures": array(HEX, "its treasure hexes"),
                },
            ),
            "the map's territories",
        ),
    },
)

EDITION = integer(
    "the maps' edition: the layouts of the maps named in `players` are that edition's "
    "(`GET /v1/catalogue/diceland/editions/{edition}`, never changed once published)",
    min(EDITIONS),
    max(EDITIONS),
)

PLAYER = obj(
    "a seat's map and crosses",
    {
        "map": MAP,
        "crosses": array(HEX, "crossed hexes (the start included)", 1),
        "treasures": mapping(integer("treasures", 0), "treasures crossed, by colour", COLOUR),
        "treasure_total": integer("treasures crossed", 0),
        "completed": array(COLOUR, "colours whose every territory is crossed"),
        "working_on": mapping(
            integer("territory id", 0), "the unfinished territory of each colour", COLOUR
        ),
        "board": array(MAP, "the seat's board as its two sides, front first", 2, 2),
        "side": obj(
            "before the first turn only: whether the seat has picked its board's side",
            {"decided": boolean("the seat has picked"), "choice": MAP},
            optional=("choice",),
        ),
        "phase2": obj(
            "phase 2 only: whether the seat owes a choice and has made it",
            {
                "owes": boolean("the seat has a placement, so it decides"),
                "decided": boolean("the seat has decided"),
                "choice": CHOICE,
            },
            optional=("choice",),
        ),
    },
    optional=("board", "side", "phase2"),
)

VIEW = obj(
    "the game as a seat or a spectator sees it: only other seats' sealed phase-2 choices "
    "are hidden (each seat sees its own)",
    {
        "seats": integer("seats in the game", 2, SEATS),
        "you": nullable(SEAT, "the viewing seat; null for a spectator"),
        "scores": array(integer("treasures crossed", 0), "per seat", 2, SEATS),
        "active": nullable(
            SEAT, "the seat deciding alone; null while sides are picked, in phase 2 and once over"
        ),
        "pending": seat_list("seats owing a decision now", SEATS),
        "turn": integer("turn number", 1),
        "turn_player": nullable(
            SEAT, "whose turn it is; null while sides are picked (the first player unknown)"
        ),
        "phase": string("the step of the turn", PHASES),
        "goal": obj(
            "what wins",
            {
                "treasures": integer("treasures to find", TREASURES_TO_WIN, TREASURES_TO_WIN),
                "complete_colours": integer("colours to complete", 1),
            },
        ),
        "dice": obj(
            "phase 1's dice",
            {
                "chosen": nullable(COLOUR, "the colour set aside"),
                "aside": integer("dice set aside", 0, DICE),
                "last_throw": array(
                    COLOUR, "the colours thrown (none before the first turn)", 0, DICE
                ),
                "throws": integer("throws this turn", 0),
            },
        ),
        "treasure_throw": nullable(
            obj(
                "the treasure throw being used",
                {
                    "seat": SEAT,
                    "dice": array(COLOUR, "the throw", 5, 5),
                    "queue": array(SEAT, "treasure throws still to come, by seat, in order"),
                },
            ),
            "null outside treasure throws",
        ),
        "players": array(PLAYER, "per seat", 2, SEATS),
        "last_phase2": array(CHOICE, "everyone's choice in the last phase 2", 0, SEATS),
        "winners": seat_list("the winners once over", SEATS),
        "edition": EDITION,
    },
)

EDITION_DATA = obj(
    "an edition's designed data: every map's layout and the double-sided boards (never "
    "changed once the edition is published)",
    {
        "maps": mapping(MAP_DATA, "the layout of every map of the edition, by letter", MAP),
        "boards": array(
            array(MAP, "a board as its two sides, front first", 2, 2),
            "the edition's double-sided boards; empty: the edition deals each seat a map "
            "(editions 1-5)",
        ),
    },
)

RESULT_DETAIL = obj(
    "who won",
    {
        "winners": seat_list("the winning seats", SEATS),
        "turns": integer("turns played", 1),
        "treasures": array(integer("treasures crossed", 0), "per seat", 2, SEATS),
        "ended_by": string("what ended the game: a win or the turn limit", ("win", "turn_limit")),
    },
)

EVENTS = by_type(
    event("side_decided", "a seat picked its board's side (sealed)", seat=SEAT),
    event(
        "sides_revealed",
        "every seat's side revealed: the map each plays",
        maps=array(MAP, "per seat", 2, SEATS),
    ),
    event(
        "turn_started",
        "a turn began with a throw of six dice",
        turn=integer("turn", 1),
        seat=SEAT,
        dice=array(COLOUR, "the throw", DICE, DICE),
    ),
    event(
        "colour_chosen",
        "a colour was set aside",
        seat=SEAT,
        colour=COLOUR,
        aside=integer("dice aside", 1, DICE),
    ),
    event(
        "thrown",
        "the other dice were thrown again",
        seat=SEAT,
        dice=THROW,
        kept=integer("dice of the chosen colour", 0, DICE),
    ),
    event("stopped", "phase 1 stopped", seat=SEAT, aside=integer("dice aside", 1, DICE)),
    event(
        "phase2_started",
        "phase 2 began",
        colour=COLOUR,
        aside=integer("dice", 0, DICE),
        last_throw=THROW,
        deciding=seat_list("seats that decide", SEATS),
    ),
    event("decided", "a seat made its sealed phase-2 choice", seat=SEAT),
    event(
        "phase2_resolved",
        "everyone's choice revealed and crossed off",
        choices=array(CHOICE, "per seat", 2, SEATS),
        treasures_found=array(integer("treasures", 0), "per seat", 2, SEATS),
    ),
    event("treasure_throw", "a treasure throw", seat=SEAT, dice=array(COLOUR, "the throw", 5, 5)),
    event("treasure_throw_unusable", "nobody can use the treasure throw", seat=SEAT),
    event(
        "treasure_used",
        "a treasure throw was used (or passed)",
        seat=SEAT,
        kind=string("what the seat did", ("cross", "pass")),
        colour=COLOUR,
        hexes=HEXES,
        found=integer("treasures found", 0),
        optional=("colour", "hexes"),
    ),
    event(
        "game_over",
        "the game ended",
        winners=seat_list("the winners", SEATS),
        turn=integer("the last turn", 1),
    ),
)
