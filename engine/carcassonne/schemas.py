"""Carcassonne: The Dice Game as JSON Schema: its actions, view, result detail and events."""

from __future__ import annotations

from engine.carcassonne.faces import CITY_FACES, DICE, EDGE_NAMES, FACES
from engine.carcassonne.rulebook import ROLLS, TARGET
from engine.carcassonne.state import STATUSES
from engine.schemas import (
    action,
    array,
    boolean,
    by_type,
    const,
    event,
    integer,
    nullable,
    obj,
    seat,
    seat_list,
    string,
)

SEATS = 5
REACH = DICE - 1
"""How far from (0, 0) a turn's city can reach: nine dice in a line."""

DIE = integer("a die of the current roll, by its position in the roll", 0, DICE - 1)
X = integer("grid column, 0 at the turn's first die, growing east", -REACH, REACH)
Y = integer("grid row, 0 at the turn's first die, growing south", -REACH, REACH)
ROTATION = integer("quarter turns clockwise (a band has only 0 and 1, see the legal actions)", 0, 3)
FACE = string("a die face", FACES)
CITY_FACE = string("a city face", CITY_FACES)
EDGES = array(string("an edge", EDGE_NAMES), "the city edges after rotation", 1, 4)
POINTS = integer("points", 0)
SEAT = seat(seats=SEATS)
WON_BY = string(
    "how the game was won: 42 points, nine catapults in one turn, or the best score once "
    "every seat has played the house limit of 50 turns (RULES.md ruling 11)",
    ("points", "catapults", "turn_limit"),
)
ENDING = string("how the turn ended", ("scored", "held_knight", "nine_catapults"))

ACTIONS = by_type(
    action(
        "place",
        "build a city die of the roll into the turn's grid (the first die goes at (0, 0))",
        die=DIE,
        x=X,
        y=Y,
        rotation=ROTATION,
    ),
    action("keep_knight", "set a knight of the roll aside", die=DIE),
    action("reroll", f"re-roll every die still on the table (at most {ROLLS} rolls a turn)"),
    action("score", "end the turn and score the largest closed city"),
    action(
        "hold_knight",
        "end the turn without scoring and hold a knight: the next turn scores double",
    ),
)

TURN = obj(
    "the turn in play",
    {
        "seat": SEAT,
        "dice": integer("dice this turn (nine minus the knights other seats hold)", 1, DICE),
        "doubled": boolean("this turn's score counts double (a held knight)"),
        "rolls_made": integer("rolls so far", 0, ROLLS),
        "rolls_left": integer("rolls still allowed", 0, ROLLS),
        "knights": integer("knights set aside this turn", 0, DICE),
        "catapults": integer("catapults rolled this turn", 0, DICE),
        "roll": array(
            obj(
                "one die of the current roll",
                {
                    "die": DIE,
                    "face": FACE,
                    "status": string(
                        "free: on the table; placed: in the grid; aside: a knight kept; "
                        "gone: a catapult",
                        STATUSES,
                    ),
                    "edges": array(
                        string("an edge", EDGE_NAMES),
                        "the city edges of the face as rolled (rotation 0); none for a knight "
                        "or a catapult",
                        0,
                        4,
                    ),
                },
            ),
            "the current roll",
            max_items=DICE,
        ),
        "grid": array(
            obj(
                "a die built into the grid",
                {
                    "x": X,
                    "y": Y,
                    "face": CITY_FACE,
                    "rotation": ROTATION,
                    "edges": EDGES,
                    "city": integer("index into cities", 0),
                },
            ),
            "the turn's city grid, in placement order",
            max_items=DICE,
        ),
        "cities": array(
            obj(
                "a connected city in the grid",
                {
                    "dice": array(integer("index into grid", 0, DICE - 1), "its dice", 1),
                    "size": integer("dice in the city", 1, DICE),
                    "open_edges": integer("city edges not yet closed by a neighbour", 0),
                    "closed": boolean("no open edge: it scores"),
                    "points": integer("points it would score now (doubling included)", 0),
                },
            ),
            "the cities of the grid",
        ),
        "scoring": obj(
            "what a score action would give now",
            {
                "city": nullable(integer("index into cities", 0), "null: no closed city"),
                "size": integer("dice in that city (0: none)", 0, DICE),
                "points": POINTS,
                "doubled": boolean("doubled by a held knight"),
            },
        ),
    },
)

VIEW = obj(
    "the whole game: nothing is hidden, every seat and spectator sees the same view",
    {
        "game": const("carcassonne", "the game"),
        "seats": integer("seats in the game", 1, SEATS),
        "scores": array(POINTS, "per seat", 1, SEATS),
        "active": nullable(SEAT, "the seat whose turn it is; null once over"),
        "pending": seat_list("seats owing a decision now", SEATS),
        "over": boolean("the game is over"),
        "winner": nullable(SEAT, "the winning seat once over"),
        "won_by": nullable(WON_BY),
        "target": integer("points that end the game", TARGET, TARGET),
        "players": array(
            obj(
                "one seat",
                {
                    "seat": SEAT,
                    "score": POINTS,
                    "holds_knight": boolean("holds a knight for a doubled next turn"),
                    "turns": integer("turns finished", 0),
                },
            ),
            "per seat",
            1,
            SEATS,
        ),
        "turn": TURN,
        "last_turn": nullable(
            obj(
                "how the previous turn ended",
                {
                    "seat": SEAT,
                    "ending": ENDING,
                    "city": integer("dice in the city scored (0: none)", 0, DICE),
                    "points": POINTS,
                    "doubled": boolean("the score was doubled"),
                },
            ),
            "null before any turn ended",
        ),
    },
)

RESULT_DETAIL = obj(
    "who won and how",
    {
        "winner": SEAT,
        "won_by": WON_BY,
        "turns": array(integer("turns finished", 0), "per seat", 1, SEATS),
        "solo_turns": integer("solo: turns taken to reach 42", 1),
    },
    optional=("solo_turns",),
)

EVENTS = by_type(
    event(
        "turn_started",
        "a turn began",
        seat=SEAT,
        dice=integer("dice", 1, DICE),
        doubled=boolean("this turn counts double"),
    ),
    event(
        "rolled",
        "dice were rolled",
        seat=SEAT,
        roll=integer("roll number", 1, ROLLS),
        faces=array(FACE, "the faces, in die order", 1, DICE),
    ),
    event(
        "catapults_passed",
        "catapults left the turn",
        seat=SEAT,
        dice=array(DIE, "the catapult dice", 1, DICE),
        this_turn=integer("catapults this turn", 1, DICE),
    ),
    event(
        "placed",
        "a city die was built",
        seat=SEAT,
        die=DIE,
        face=CITY_FACE,
        x=X,
        y=Y,
        rotation=ROTATION,
        edges=EDGES,
    ),
    event(
        "city_closed",
        "the die closed a city",
        seat=SEAT,
        size=integer("dice", 1, DICE),
        points=POINTS,
    ),
    event(
        "knight_aside",
        "a knight was set aside",
        seat=SEAT,
        die=DIE,
        knights=integer("knights aside this turn", 1, DICE),
    ),
    event("knight_held", "the turn ended holding a knight", seat=SEAT),
    event(
        "scored",
        "the turn ended with a score",
        seat=SEAT,
        city=integer("dice in the city scored (0: none)", 0, DICE),
        points=POINTS,
        doubled=boolean("doubled by a held knight"),
        score=POINTS,
    ),
    event("game_won", "the game is over", seat=SEAT, by=WON_BY, score=POINTS),
)
