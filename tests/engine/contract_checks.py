"""Generic checks of the engine contract, shared by every game's tests.

``random_sim`` plays many seeded games through the public contract and checks invariants at
each step (OpenSpiel's random_sim_test): every seat that owes a decision has legal actions,
every legal action passes ``check`` and ``describe_all`` says of the legal actions what
``describe`` says of each, every view is JSON, shares no list or dict with the state (the
service keeps a view while the next move changes the state in place) and observing changes
nothing, the
state round-trips through JSON exactly, ``is_over`` is false and there is no result until
the end (and then both hold), and replaying the log reproduces the
final state byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from engine.codec import canonical_json
from engine.contract import Game
from engine.replay import replay
from engine.simulate import Played, make_bots, play


def check_step(game: Game, state: Any, seats: int, seat: int, action: dict[str, Any]) -> None:
    """Invariants that hold before every move."""
    data = game.dump_state(state)
    assert game.load_state(json.loads(json.dumps(data))) == state, "state JSON round trip"
    assert not game.is_over(state) and game.result(state) is None, "over, yet a seat acts"
    prompts = game.to_act(state)
    assert seat in prompts
    for s in prompts:
        legal = game.legal_actions(state, s)
        assert legal, f"seat {s} owes a decision but has no legal action"
        for act in legal:
            json.dumps(act)
            game.check(state, s, act)
        described = [game.describe(state, s, act) for act in legal]
        assert game.describe_all(state, s, legal) == described, "describe_all says otherwise"
    assert action in game.legal_actions(state, seat)
    held = _containers(state)
    for viewer in [None, *range(seats)]:
        view = game.view(state, viewer)
        json.dumps(view)
        assert not held & _containers(view), f"seat {viewer}'s view shares data with the state"
    assert game.dump_state(state) == data, "observing the state changed it"


def _containers(value: Any) -> set[int]:
    """The ids of every list, dict and set in ``value`` (an engine's state or view), however
    deep: through lists, tuples, sets, dicts and the attributes of objects (slots too)."""
    found: set[int] = set()
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, (list, dict, set)):
            if id(item) in found:
                continue
            found.add(id(item))
        if isinstance(item, dict):
            todo.extend(item.values())
        elif isinstance(item, (list, tuple, set, frozenset)):
            todo.extend(item)
        elif not isinstance(item, type):
            if hasattr(item, "__dict__"):
                todo.extend(vars(item).values())
            for klass in type(item).__mro__:  # and the attributes an object keeps in slots
                slots = getattr(klass, "__slots__", ())
                for name in (slots,) if isinstance(slots, str) else slots:
                    if name not in ("__dict__", "__weakref__") and hasattr(item, name):
                        todo.append(getattr(item, name))
    return found


def random_sim(
    game: Game,
    seats: int,
    games: int,
    options: Mapping[str, Any] | None = None,
    bots: list[str] | None = None,
    check_every_step: bool = True,
    on_step: Callable[[Game, Any, int, dict[str, Any]], None] | None = None,
) -> list[Played]:
    """Play ``games`` seeded games with invariant checks; replay each and compare."""
    played = []
    for n in range(games):
        seed = f"random-sim-{game.name}-{seats}-{n}"

        def step(g: Game, state: Any, seat: int, action: dict[str, Any]) -> None:
            if check_every_step:
                check_step(g, state, seats, seat, action)
            if on_step is not None:
                on_step(g, state, seat, action)

        result = play(
            game, make_bots(game, bots or ["random"] * seats), seed, options, on_step=step
        )
        assert game.to_act(result.state) == {}, "a finished game still asks for decisions"
        assert game.is_over(result.state), "a game with a result is not over"
        again = replay(game, seats, result.options, seed, result.moves)
        assert canonical_json(game.dump_state(again.state)) == canonical_json(
            game.dump_state(result.state)
        ), "replay did not reproduce the final state"
        played.append(result)
    return played
