"""Sealed Bids as JSON Schema: its one action, its view, its result detail and its events."""

from __future__ import annotations

from engine.schemas import (
    action,
    array,
    boolean,
    by_type,
    event,
    integer,
    nullable,
    obj,
    seat,
)

SEATS = 4
CARD = integer("a bid card", 1, 4)
PRIZE = integer("a prize card", 1, 8)
WINNER = nullable(seat("the seat that won the prize", SEATS), "null: every bid was matched")

ACTIONS = by_type(
    action("bid", "bid one of your unused bid cards for the face-up prize (sealed)", card=CARD),
)

ROUND = {
    "round": integer("the round resolved", 1, 4),
    "prize": PRIZE,
    "bids": array(integer("the bid of each seat (0: none)", 0, 4), "per seat", 2, SEATS),
    "winner": WINNER,
}

VIEW = obj(
    "Sealed Bids as a seat (or a spectator) sees it: other seats' bids only as decided",
    {
        "round": integer("the round being played", 1, 4),
        "rounds": integer("rounds in this game", 1, 4),
        "prize": PRIZE,
        "deck_size": integer("prize cards left face down", 0, 7),
        "bids": array(
            obj(
                "one seat's bid this round",
                {
                    "decided": boolean("the seat has bid"),
                    "card": nullable(CARD, "the card bid: shown only to its own seat"),
                },
            ),
            "per seat",
            2,
            SEATS,
        ),
        "hands": array(
            array(CARD, "bid cards not yet spent (a sealed bid still counts as in hand)"),
            "per seat",
            2,
            SEATS,
        ),
        "won": array(array(PRIZE, "prizes won"), "per seat", 2, SEATS),
        "history": array(obj("a resolved round", ROUND), "rounds resolved so far"),
        "over": boolean("the game is over"),
    },
)

RESULT_DETAIL = obj("Sealed Bids adds nothing to scores and ranks", {})

EVENTS = by_type(
    event("bid_sealed", "a seat bid (the card stays hidden)", seat=seat(seats=SEATS)),
    event("round_resolved", "every seat bid: the bids revealed and the prize awarded", **ROUND),
)
