"""The one observer of Sealed Bids, and back: the view of a seat, and a state sampled from it
(the deck order and other seats' sealed bids are hidden)."""

from __future__ import annotations

from engine.codec import json_copy
from engine.contract import View
from engine.dice import Dice
from engine.toy.state import PRIZES, ToyState


def build_view(state: ToyState, seat: int | None) -> View:
    """The view of ``seat`` (None: a spectator): others' bids only as ``decided``."""
    return {
        "round": state.round,
        "rounds": state.rounds,
        "prize": state.prize,
        "deck_size": len(state.deck),
        "bids": [
            {"decided": bid is not None, "card": bid if seat == s else None}
            for s, bid in enumerate(state.bids)
        ],
        "hands": [
            sorted([*hand, bid]) if bid is not None and s != seat else list(hand)
            for s, (hand, bid) in enumerate(zip(state.hands, state.bids, strict=True))
        ],
        "won": json_copy(state.won),
        "history": json_copy(state.history),
        "over": state.over,
    }


def sample_state(view: View, dice: Dice) -> ToyState:
    """A state consistent with ``view``: the unseen prizes and the sealed bids drawn."""
    seen = {view["prize"], *(p for won in view["won"] for p in won)}
    unseen = [p for p in PRIZES if p not in seen]
    dice.shuffle(unseen)
    bids: list[int | None] = []
    for s, bid in enumerate(view["bids"]):
        if not bid["decided"]:
            bids.append(None)
        elif bid["card"] is not None:
            bids.append(bid["card"])
        else:
            bids.append(view["hands"][s][dice.randbelow(len(view["hands"][s]))])
    hands = [list(hand) for hand in view["hands"]]
    for s, bid in enumerate(view["bids"]):
        if bid["decided"] and bid["card"] is None and bids[s] is not None:
            hands[s].remove(bids[s])
    return ToyState(
        seats=len(view["bids"]),
        rounds=view["rounds"],
        deck=unseen[: view["deck_size"]],
        prize=view["prize"],
        round=view["round"],
        bids=bids,
        hands=hands,
        won=[list(w) for w in view["won"]],
        history=list(view["history"]),
        over=view["over"],
    )
