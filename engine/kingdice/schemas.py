"""King of the Dice as JSON Schema: its actions, view, result detail and events."""

from __future__ import annotations

from engine.kingdice.conditions import COLOURS
from engine.kingdice.data import CARDS, EFFECTS, LAYOUTS, MARKERS, STACKS
from engine.kingdice.legal import ALL_TYPES
from engine.kingdice.state import THROWS, Phase
from engine.schemas import (
    action,
    array,
    boolean,
    by_type,
    const,
    event,
    integer,
    nullable,
    number,
    obj,
    one_of,
    seat,
    seat_list,
    string,
)

SEATS = 4
SPACES = max(layout.size for layout in LAYOUTS.values())
TERRAINS = sorted({t for layout in LAYOUTS.values() for t in layout.terrain})

SEAT = seat(seats=SEATS)
SPACE = integer("a map space, by id", 0, SPACES - 1)
STACK = integer("a citizen-card stack of the job market", min(STACKS), max(STACKS))
CARD = integer("a citizen card, by id", 0, len(CARDS) - 1)
COLOUR = string("a die colour", COLOURS)
PIPS = integer("a die's number", 1, 6)
GEM = string("a gemstone", ("gold", "white"))
TERRAIN = string("a castle tile's terrain", TERRAINS)
PAIR = string(
    "the joker pair discarded: twin (two face-up cards with that symbol), super (one such "
    "card and a face-down card), supers (two face-down cards, any colour and number)",
    ("twin", "super", "supers"),
)
COUNT = integer("a count", 0)
POINTS = integer("points", 0)

ACTIONS = by_type(
    action("roll", "phase 1: throw all six dice"),
    action(
        "reroll",
        "phase 1: keep these dice and throw the others again (at most three throws)",
        keep=array(
            integer("a die, by position", 0, 5),
            "the dice kept, in increasing order (all six kept is stop)",
            0,
            5,
            unique=True,
        ),
    ),
    action("stop", "phase 1: keep every die and stop throwing"),
    action(
        "joker",
        "phase 2: discard a joker pair for a pretend die of that colour and number",
        pair=PAIR,
        colour=COLOUR,
        number=PIPS,
    ),
    action(
        "hire", "phase 2: hire the top card of a stack (face up): your dice meet it", stack=STACK
    ),
    action("take", "phase 2: take the top card of a stack face down (dragon alarm)", stack=STACK),
    action("place", "phase 3: place a drawn castle tile with one of your markers", space=SPACE),
    action("steal_card", "steal another player's face-up citizen card", card=CARD),
    action("steal_gem", "steal a gemstone from another player", victim=SEAT, gem=GEM),
    action("no_steal", "do not steal"),
    action("free_dragon", "replace a dragon fire on the map with your marker", space=SPACE),
    action("raid", "replace the closest marker of another player with yours", space=SPACE),
    {
        **action(
            "place_dragon",
            "dragon alarm: place the drawn tile with a dragon fire (from the stock, your area, "
            "or, when both are empty, another player's area named by source)",
            space=SPACE,
            source=seat("the player whose dragon fire is used (only when asked)", SEATS),
        ),
        "required": ["type", "space"],
    },
)
assert set(ACTIONS) == ALL_TYPES, "an action type without a schema"

CONDITION = one_of(
    "one condition of a citizen card",
    obj(
        "that many dice of each colour",
        {
            "kind": const("colours", "condition kind"),
            "need": array(
                {
                    "type": "array",
                    "prefixItems": [COLOUR, integer("dice", 1, 6)],
                    "minItems": 2,
                    "maxItems": 2,
                    "description": "[colour, count]",
                },
                "per colour",
                1,
            ),
        },
    ),
    obj(
        "that many dice showing each number",
        {
            "kind": const("numbers", "condition kind"),
            "need": array(
                {
                    "type": "array",
                    "prefixItems": [PIPS, integer("dice", 1, 6)],
                    "minItems": 2,
                    "maxItems": 2,
                    "description": "[number, count]",
                },
                "per number",
                1,
            ),
        },
    ),
    obj(
        "groups of dice showing one number each, different numbers",
        {
            "kind": const("groups", "condition kind"),
            "sizes": array(integer("dice in the group", 1, 6), "group sizes", 1),
        },
    ),
    obj(
        "the total of all dice is at least at_least",
        {
            "kind": const("sum", "condition kind"),
            "at_least": integer("total", 0),
        },
    ),
    obj(
        "the total of the red dice is at least at_least",
        {
            "kind": const("red_sum", "condition kind"),
            "at_least": integer("total", 0),
        },
    ),
    obj("red total > blue total > green total", {"kind": const("ladder", "condition kind")}),
    obj(
        "length dice show consecutive numbers",
        {
            "kind": const("run", "condition kind"),
            "length": integer("run length", 2, 6),
        },
    ),
)

SYMBOL = obj("the card's joker symbol", {"colour": COLOUR, "number": PIPS})
EFFECT = string("what hiring the card does", sorted({e for es in EFFECTS.values() for e in es}))
CARD_FACE = obj(
    "a citizen card face up",
    {
        "id": CARD,
        "stack": STACK,
        "name": string("the card's name"),
        "effect": EFFECT,
        "symbol": SYMBOL,
        "conditions": array(CONDITION, "conditions; the grade is how many are met", 1),
        "text": string("the conditions in words"),
    },
)

BREAKDOWN = obj(
    "a seat's points by the end scoring",
    {
        "largest_area": integer("spaces in the seat's largest connected area", 0, SPACES),
        "area_points": POINTS,
        "other_points": POINTS,
        "dragon_points": POINTS,
        "gold_points": POINTS,
        "white_points": POINTS,
        "total": POINTS,
    },
)

EVENTS = by_type(
    event(
        "rolled",
        "dice were thrown",
        seat=SEAT,
        roll=integer("throw number", 1, 3),
        dice=array(PIPS, "the six dice's numbers", 6, 6),
    ),
    event(
        "result",
        "phase 1 ended",
        seat=SEAT,
        must_hire=boolean("the dice alone meet a card in the job market"),
    ),
    event(
        "joker",
        "a joker pair was discarded for a pretend die",
        seat=SEAT,
        pair=PAIR,
        discarded=array(CARD, "face-up cards discarded", 0, 2),
        super_jokers=integer("face-down cards discarded", 0, 2),
        die=obj("the pretend die", {"number": PIPS, "colour": COLOUR}),
    ),
    event(
        "hired",
        "a citizen was hired face up",
        seat=SEAT,
        card=CARD,
        grade=integer("conditions met", 1, 3),
    ),
    event("no_effect", "the hired card had nothing to act on", seat=SEAT, reason=string("why")),
    event("took_face_down", "a card was taken face down", seat=SEAT, stack=STACK),
    event(
        "drew",
        "castle tiles were drawn",
        tiles=array(TERRAIN, "the tiles drawn", 1),
        tiles_left=COUNT,
    ),
    event("won", "a player wins at once", seat=SEAT, reason=string("why")),
    event(
        "returned",
        "drawn tiles that could not be placed were shuffled back",
        tiles=array(TERRAIN, "the tiles", 1),
    ),
    event(
        "bonus_gem",
        "a merchant met every condition: a bonus gemstone",
        seat=SEAT,
        gem=nullable(GEM, "null: the supply is empty"),
    ),
    event("gem_taken", "a gemstone on a space was taken", seat=SEAT, space=SPACE, gem=GEM),
    event(
        "placed", "a castle tile was placed with a marker", seat=SEAT, space=SPACE, terrain=TERRAIN
    ),
    event(
        "dragon_placed",
        "a tile was placed with a dragon fire",
        seat=SEAT,
        space=SPACE,
        **{
            "from": one_of(
                "where the dragon fire came from: the stock, a seat's area, or "
                "nowhere (null: none left)",
                # an enum, not a const: a generated Python client's union parser raises on a
                # const that does not match instead of trying the union's other members
                string("the stock", ("stock",)),
                SEAT,
                {"type": "null"},
            )
        },
    ),
    event("dragon_freed", "a dragon fire was replaced by a marker", seat=SEAT, space=SPACE),
    event("raided", "another player's marker was replaced", seat=SEAT, space=SPACE, victim=SEAT),
    event("stole_card", "a face-up card was stolen", seat=SEAT, victim=SEAT, card=CARD),
    event("stole_gem", "a gemstone was stolen", seat=SEAT, victim=SEAT, gem=GEM),
    event("no_steal", "the thief stole nothing", seat=SEAT),
    event("game_over", "the game ended", reason=string("why")),
    event("turn", "the next turn began", seat=SEAT, turn=integer("turn number", 1)),
)

VIEW = obj(
    "the game as a seat or a spectator sees it: the stockpile's order, the removed tiles, "
    "the cards under each stack's top and face-down cards are hidden",
    {
        "game": const("kingdice", "the game"),
        "you": nullable(SEAT, "the viewing seat; null for a spectator"),
        "seats": integer("seats in the game", 2, SEATS),
        "active": nullable(SEAT, "the seat whose turn it is; null once over"),
        "pending": seat_list("seats owing a decision now", SEATS),
        "scores": array(POINTS, "running totals per seat", 2, SEATS),
        "score_detail": array(BREAKDOWN, "per seat", 2, SEATS),
        "turn": integer("turn number", 1),
        "phase": string("what the active player decides now", [p.value for p in Phase]),
        "map": obj(
            "the map for this player count",
            {
                "players": integer("the player count the map is for", 2, SEATS),
                "spaces": array(
                    obj(
                        "a map space",
                        {
                            "id": SPACE,
                            "terrain": TERRAIN,
                            "half": string("the map half", ("A", "B")),
                            "q": integer("axial column"),
                            "r": integer("axial row"),
                            "x": number("drawing position"),
                            "y": number("drawing position"),
                            "neighbours": array(SPACE, "adjacent spaces"),
                            "tile": boolean("a castle tile lies there"),
                            "face_down": boolean("a set-up tile lying castle side up"),
                            "marker": nullable(SEAT, "the seat whose marker is there"),
                            "dragon": boolean("a dragon fire is there"),
                            "gem": nullable(GEM, "a gemstone lying there"),
                        },
                    ),
                    "every space, by id",
                ),
            },
        ),
        "market": array(
            obj(
                "a stack of the job market",
                {
                    "stack": STACK,
                    "left": COUNT,
                    "card": nullable(CARD_FACE, "the top card; null when the stack is empty"),
                },
            ),
            "the five stacks",
            len(STACKS),
            len(STACKS),
        ),
        "players": array(
            obj(
                "a player's area",
                {
                    "seat": SEAT,
                    "cards": array(
                        obj(
                            "a face-up card (its joker symbol)",
                            {
                                "id": CARD,
                                "stack": STACK,
                                "name": string("the card's name"),
                                "colour": COLOUR,
                                "number": PIPS,
                            },
                        ),
                        "face-up cards",
                    ),
                    "super_jokers": COUNT,
                    "gold": COUNT,
                    "white": COUNT,
                    "dragon_fires": COUNT,
                    "markers_left": integer("markers not yet placed", 0, MARKERS),
                    "markers_on_map": integer("markers on the map", 0, SPACES),
                    "largest_area": integer("spaces in the largest area", 0, SPACES),
                },
            ),
            "per seat",
            2,
            SEATS,
        ),
        "supply": obj(
            "what is left in the box",
            {
                "tiles": integer("castle tiles in the stockpile", 0),
                "unseen_tiles": array(TERRAIN, "tiles in the stockpile or removed (sorted)"),
                "known_in_stock": array(TERRAIN, "tiles shuffled back, known to be there"),
                "gold": COUNT,
                "white": COUNT,
                "dragon_fires": COUNT,
                "discarded_cards": COUNT,
            },
        ),
        "roll": nullable(
            obj(
                "the dice of this turn",
                {
                    "rolls": integer("throws made", 1, THROWS),
                    "throws": integer("throws allowed a turn", THROWS, THROWS),
                    "dice": array(
                        obj(
                            "a die",
                            {"die": integer("position", 0, 5), "number": PIPS, "colour": COLOUR},
                        ),
                        "the six dice",
                        6,
                        6,
                    ),
                    "extra": array(
                        obj("a pretend die", {"number": PIPS, "colour": COLOUR}),
                        "pretend dice from jokers",
                    ),
                    "must_hire": nullable(boolean("phase 2: the dice alone meet a card")),
                },
            ),
            "null before the first throw of a turn",
        ),
        "hired": nullable(CARD_FACE, "the card hired this turn"),
        "grade": integer("conditions met on the hired card", 0, 3),
        "drawn": array(TERRAIN, "tiles drawn, to place"),
        "to_place": COUNT,
        "dragon_alarm": boolean("a card was taken face down this turn"),
        "start_rolls": array(
            array(integer("sixes thrown (-1: not rolling)", -1, 6), "per seat", 2, SEATS),
            "the rolls for the starting player",
        ),
        "log": array(
            one_of("an event", *(s for k, s in EVENTS.items() if k != "turn")),
            "the latest events of the game",
        ),
        "winner": nullable(SEAT, "a seat that won at once (a 17th marker)"),
        "over": boolean("the game is over"),
    },
)

RESULT_DETAIL = obj(
    "the end scoring",
    {
        "breakdown": array(BREAKDOWN, "per seat", 2, SEATS),
        "immediate_winner": nullable(SEAT, "a seat that won at once (a 17th marker)"),
        "turns": integer("turns played", 1),
        "ended_by": string(
            "what ended the game: a 17th marker, the stockpile or the turn limit (ruling 17)",
            ("17th_marker", "stockpile", "turn_limit"),
        ),
        "removed_tiles": array(TERRAIN, "the two tiles removed unseen at set-up", 2, 2),
    },
)
