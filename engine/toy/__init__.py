"""Sealed Bids: a tiny game that exercises the parts of the contract Carcassonne does not.

Not offered to players; it exists so the contract's tests cover sealed simultaneous choices
(every seat bids at once, nobody sees another bid until all have bid) and a hidden stockpile
(a shuffled prize deck whose order no view shows), plus ``sample`` for hidden information.

Rules: a deck of prize cards 1..8 is shuffled from the dice. Each round the top card is
turned face up; every seat secretly bids one of its unused bid cards 1..4 (or, once its bid
cards are gone, the round still needs a bid of 0). The highest bid that nobody else matched
wins the prize; if every bid is matched nobody wins it. After four rounds the most prize
points wins; ties share.
"""

from engine.toy.rules import GAME, SealedBids, ToyState

__all__ = ["GAME", "SealedBids", "ToyState"]
