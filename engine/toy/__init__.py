"""Sealed Bids: a tiny game that exercises the parts of the contract Carcassonne does not.

Not offered to players; it exists so the contract's tests cover sealed simultaneous choices
(every seat bids at once, nobody sees another bid until all have bid) and a hidden stockpile
(a shuffled prize deck whose order no view shows), plus ``sample`` for hidden information.

Rules: ``RULES.md`` beside this module.
"""

from engine.toy.rules import GAME, SealedBids
from engine.toy.state import ToyState

__all__ = ["GAME", "SealedBids", "ToyState"]
