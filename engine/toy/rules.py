"""Rules of Sealed Bids, the contract's test game (see the package docstring)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from marshmallow import Schema, fields, validate

from engine.contract import (
    Action,
    Event,
    Game,
    IllegalAction,
    Prompt,
    Result,
    View,
    ranks_from_keys,
)
from engine.dice import Dice
from engine.toy import schemas
from engine.toy.bots import BOTS
from engine.toy.state import BID_CARDS, PRIZES, ROUNDS, ToyState
from engine.toy.view import build_view, sample_state


class ToyOptions(Schema):
    """Options of Sealed Bids."""

    rounds = fields.Integer(load_default=ROUNDS, validate=validate.Range(1, ROUNDS))


class SealedBids(Game):
    """Sealed Bids (test game)."""

    name = "toy"
    title = "Sealed Bids (contract test game)"
    min_seats = 2
    max_seats = 4
    options_schema = ToyOptions
    state_class = ToyState
    action_schemas = schemas.ACTIONS
    view_schema = schemas.VIEW
    result_detail_schema = schemas.RESULT_DETAIL
    event_schemas = schemas.EVENTS
    bots = BOTS
    rules_page = "engine/toy/RULES.md"

    def setup(self, seats: int, options: dict[str, Any], dice: Dice) -> ToyState:
        deck = list(PRIZES)
        dice.shuffle(deck)
        prize = deck.pop()
        return ToyState(
            seats=seats,
            rounds=options["rounds"],
            deck=deck,
            prize=prize,
            bids=[None] * seats,
            hands=[list(BID_CARDS) for _ in range(seats)],
            won=[[] for _ in range(seats)],
        )

    def to_act(self, state: ToyState) -> dict[int, Prompt]:
        if self.is_over(state):
            return {}
        return {
            seat: Prompt("bid", sealed=True, text=f"bid for prize {state.prize}")
            for seat in range(state.seats)
            if state.bids[seat] is None
        }

    def legal_actions(self, state: ToyState, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        return [{"type": "bid", "card": card} for card in state.hands[seat]]

    def check_rules(self, state: ToyState, seat: int, action: Action) -> None:
        card = action["card"]
        if card not in state.hands[seat]:
            raise IllegalAction("card_not_in_hand", f"bid card {card} is not in your hand")

    def perform(self, state: ToyState, seat: int, action: Action, dice: Dice) -> list[Event]:
        state.hands[seat].remove(action["card"])
        state.bids[seat] = action["card"]
        events: list[Event] = [{"type": "bid_sealed", "seat": seat}]
        if all(bid is not None for bid in state.bids):
            events.append(self._resolve(state))
        return events

    def _resolve(self, state: ToyState) -> Event:
        bids = [bid or 0 for bid in state.bids]
        counts = Counter(bids)
        unique = [bid for bid in bids if counts[bid] == 1]
        winner = bids.index(max(unique)) if unique else None
        if winner is not None:
            state.won[winner].append(state.prize)
        record = {"round": state.round, "prize": state.prize, "bids": bids, "winner": winner}
        state.history.append(record)
        if state.round == state.rounds:
            state.over = True
        else:
            state.round += 1
            state.prize = state.deck.pop()
            state.bids = [None] * state.seats
        return {"type": "round_resolved", **record}

    def view(self, state: ToyState, seat: int | None) -> View:
        return build_view(state, seat)

    def is_over(self, state: ToyState) -> bool:
        return state.over

    def result(self, state: ToyState) -> Result | None:
        if not self.is_over(state):
            return None
        scores = [sum(won) for won in state.won]
        return Result(scores=scores, ranks=ranks_from_keys(scores))

    def sample(self, view: View, seat: int | None, dice: Dice) -> ToyState:
        return sample_state(view, dice)


GAME = SealedBids()
