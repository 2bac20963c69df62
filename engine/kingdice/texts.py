"""Readable sentences for King of the Dice's actions (menus in thin clients and the CLI)."""

from __future__ import annotations

from typing import Any

from engine.contract import Action
from engine.kingdice.data import CARDS, DICE
from engine.kingdice.queries import layout
from engine.kingdice.state import KingState


def describe_actions(state: KingState, actions: list[Action]) -> list[str]:
    """:func:`describe_action`'s sentence of each of ``actions``, the dice named once for
    all the rerolls (a roll's legal actions are mostly rerolls: one per set of dice kept)."""
    labels: list[str] | None = None
    out = []
    for action in actions:
        if action.get("type") == "reroll":
            if labels is None:
                labels = _dice_labels(state)
            out.append(_reroll_text(labels, action))
        else:
            out.append(describe_action(state, action))
    return out


def _dice_labels(state: KingState) -> list[str]:
    """Each thrown die as a sentence names it (``"3 red"``)."""
    return [f"{n} {DICE[i][n - 1]}" for i, n in enumerate(state.dice)]


def _reroll_text(labels: list[str], action: Action) -> str:
    keep = action.get("keep", [])
    if not keep:
        return "Reroll everything"
    shown = [label for i, label in enumerate(labels) if i in keep]
    return f"Keep {', '.join(shown)}; reroll the rest"


def describe_action(state: KingState, action: Action) -> str:
    """A short sentence for a person choosing ``action`` (menus, logs)."""
    kind = action.get("type")
    terrain = layout(state).terrain
    if kind == "roll":
        return "Roll all six dice"
    if kind == "stop":
        return "Stop rolling and use this result"
    if kind == "reroll":
        return _reroll_text(_dice_labels(state), action)
    if kind == "hire":
        stack: Any = action.get("stack")
        valid = isinstance(stack, int) and 1 <= stack <= 5 and state.stacks[stack - 1]
        card = state.stacks[stack - 1][0] if valid else -1
        name = CARDS[card]["name"] if card >= 0 else "?"
        return f"Hire the {name} from stack {stack}"
    if kind == "take":
        return f"Take stack {action.get('stack')}'s card face down (dragon alarm)"
    if kind == "joker":
        pair = {"twin": "two matching jokers", "super": "a joker and a super joker"}.get(
            action.get("pair", ""), "two super jokers"
        )
        return f"Discard {pair} for a {action.get('colour')} {action.get('number')}"
    space: Any = action.get("space")
    on_map = isinstance(space, int) and 0 <= space < len(terrain)
    where = f"{terrain[space]} (space {space})" if on_map else "?"
    if kind == "place":
        return f"Place the tile on {where} with a marker"
    if kind == "place_dragon":
        src = action.get("source")
        tail = f" (dragon fire from player {src})" if src is not None else ""
        return f"Place the tile on {where} with a dragon fire{tail}"
    if kind == "free_dragon":
        return f"Drive out the dragon fire on {where}"
    if kind == "raid":
        owner = state.occupant[space] if on_map else "?"
        return f"Replace player {owner}'s marker on {where}"
    if kind == "steal_card":
        card = action.get("card", 0)
        sym = CARDS[card]["symbol"] if isinstance(card, int) and 0 <= card < 60 else {}
        return f"Steal card {card} (a {sym.get('colour')} {sym.get('number')} joker)"
    if kind == "steal_gem":
        return f"Steal a {action.get('gem')} gemstone from player {action.get('victim')}"
    if kind == "no_steal":
        return "Steal nothing"
    args = ", ".join(f"{k}={v}" for k, v in action.items() if k != "type")
    return f"{kind} {args}".strip()
