"""Strategies an external bot can run with ``dicehall bot run``: plain functions over what the
API gives a seat (its view and its legal actions), never over the rules.

A strategy is ``choose(view, actions) -> int | dict``: ``view`` is the seat's ``view`` dict,
``actions`` the server's legal actions (``[{"action": {...}, "text": "..."}]``); it returns
an index into ``actions`` or one of the action dicts. Built in: ``first`` and ``random``; any
other is loaded from ``module:function`` (e.g. ``mybots.greedy:choose``) or from
``module:Class`` (a module in the current directory counts, as with ``python -m``), a bot
class whose instances have ``choose(view, legal, rng)`` with
``legal`` the list of action dicts (the interface of the bundled bots, so
``engine.carcassonne.bots:HeuristicBot`` runs our heuristic as an external bot; the module
is imported by name at run time, the clients do not depend on the engine).
"""

from __future__ import annotations

import importlib
import os
import random
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

Strategy = Callable[[Mapping[str, Any], Sequence[Mapping[str, Any]]], Any]


def first(view: Mapping[str, Any], actions: Sequence[Mapping[str, Any]]) -> int:
    """The first legal action (the server's stable order)."""
    return 0


def seeded_random(seed: int | str | None = None) -> Strategy:
    """A uniformly random legal action from a generator seeded with ``seed``."""
    rng = random.Random(seed)

    def choose(view: Mapping[str, Any], actions: Sequence[Mapping[str, Any]]) -> int:
        return rng.randrange(len(actions))

    return choose


def load_strategy(spec: str, seed: int | str | None = None) -> Strategy:
    """``first``, ``random`` or ``module:function``. Raises ValueError for a bad spec."""
    if spec == "first":
        return first
    if spec == "random":
        return seeded_random(seed)
    module_name, sep, attribute = spec.partition(":")
    if not sep or not module_name or not attribute:
        raise ValueError(f"{spec!r} is not first, random or module:function")
    try:
        found = getattr(import_here(module_name), attribute)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"cannot load strategy {spec!r}: {exc}") from exc
    if isinstance(found, type):
        return from_bot(found(), seed)
    if not callable(found):
        raise ValueError(f"{spec!r} is not callable")
    return found


def import_here(module_name: str) -> Any:
    """Import ``module_name`` the way ``python -m`` would: modules in the current directory
    count (``mybot.py`` beside you needs no ``PYTHONPATH=.``)."""
    here = os.getcwd()
    added = here not in sys.path
    if added:
        sys.path.insert(0, here)
    try:
        return importlib.import_module(module_name)
    finally:
        if added:
            sys.path.remove(here)


def from_bot(bot: Any, seed: int | str | None = None) -> Strategy:
    """A strategy from a bot object with ``choose(view, legal, rng)``. Raises ValueError."""
    if not callable(getattr(bot, "choose", None)):
        raise ValueError(f"{type(bot).__name__} has no choose(view, legal, rng) method")
    rng = random.Random(seed)

    def choose(view: Mapping[str, Any], actions: Sequence[Mapping[str, Any]]) -> Any:
        return bot.choose(view, [dict(item["action"]) for item in actions], rng)

    return choose


def pick(choice: Any, actions: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The action a strategy chose (by index or as an action dict). Raises ValueError."""
    if isinstance(choice, int) and not isinstance(choice, bool):
        if not 0 <= choice < len(actions):
            raise ValueError(f"index {choice} is outside the {len(actions)} legal actions")
        return dict(actions[choice]["action"])
    if isinstance(choice, Mapping):
        inner = choice.get("action", choice)
        if isinstance(inner, Mapping) and "type" in inner:
            return dict(inner)
    raise ValueError(f"a strategy returns an index or an action, not {choice!r}")
