"""Burgundy's seeded games replay to the very same bytes: every seat's legal actions (in
order, their keys in order) and their sentences, every view, every state and every event.

The digests below were taken from the engine of main e11ab0b, before its legal actions,
rounds and views were made faster: a change meant to be only faster must keep them. A
change of the rules or of the view's contract changes them on purpose, and says so.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from engine.burgundy import GAME
from engine.codec import dump
from engine.simulate import make_bots, play

GAMES: list[tuple[str, int, dict[str, Any], list[str]]] = [
    ("solo", 1, {"variant": "solo"}, ["random"]),
    ("standard", 2, {}, ["random", "random"]),
    ("heuristic", 2, {"duchy": "B"}, ["heuristic", "random"]),
    ("different", 3, {"duchy": "C", "variant": "all_different"}, ["random"] * 3),
    ("same", 4, {"duchy": "D", "variant": "all_same", "castle": "monk"}, ["random"] * 4),
    ("five", 5, {"duchy": "A"}, ["random"] * 5),
]

DIGESTS = {
    "solo": "67757e28416751957ed401bc880a08f098a8de06161871c4d6ff40574d42a8e8",
    "standard": "b0286f30b6e8913b85535abe482ad7d97b05a64ea44884babe5821c54932e1e9",
    "heuristic": "93305d4b038e1656111c528b5cb6e68068c5c82e27f5ebd6765f6bcf15f53204",
    "different": "8c4c617e5313fb64fb52ee8f850a40c2b09aa52911b7590b076511291749415e",
    "same": "cfb13d08e3429627f82674667d004e510dcedb33e9c39e2b9d66ecb6dc5e317d",
    "five": "b194b0beb703a3dbdd8bf22f5374c2da7777c96085e20cf65dfbaa078771427d",
}


SEEDS = 5
"""Games of each kind, seeds ``replay-<kind>-<n>``."""


def trace_digest(name: str, seats: int, options: dict[str, Any], bots: list[str]) -> str:
    """The SHA-256 of everything the seeded games of one kind show, step by step: before
    each move, every seat's legal actions with their sentences and every seat's and a
    spectator's view, then the state; at the end the events and the result."""
    digest = hashlib.sha256()

    def add(data: Any) -> None:  # keys in their order: a client reads them so
        digest.update(json.dumps(data, separators=(",", ":")).encode())

    def step(game: Any, state: Any, seat: int, action: Any) -> None:
        for s in range(state.seats):
            legal = game.legal_actions(state, s)
            add([s, legal, game.describe_all(state, s, legal) if legal else []])
            add(game.view(state, s))
        add(game.view(state, None))
        add(dump(state))

    for n in range(SEEDS):
        played = play(GAME, make_bots(GAME, bots), f"replay-{name}-{n}", options, on_step=step)
        add(played.events)
        add(dump(played.state))
        add(GAME.view(played.state, 0))
        add([played.result.scores, played.result.ranks, played.result.detail])
    return digest.hexdigest()


@pytest.mark.parametrize(("name", "seats", "options", "bots"), GAMES, ids=[g[0] for g in GAMES])
def test_seeded_games_replay_to_the_same_actions_views_states_and_events(
    name, seats, options, bots
):
    assert trace_digest(name, seats, options, bots) == DIGESTS[name]
