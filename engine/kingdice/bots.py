"""Bots for King of the Dice. They see only a seat's view and legal actions.

``HeuristicBot`` rolls toward the market card with the best value for its chance, stops
when what it holds is worth more than what it could still reach, uses a joker pair only
when it lets it hire a better card, and places markers to grow its largest connected area
(gemstones break ties); it raids and frees dragons the same way and steals from the leader.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.contract import Action, Bot, RandomBot, View
from engine.kingdice.conditions import Die, best_level, keep_toward, shortfall
from engine.kingdice.legal import canonical_keep
from engine.search import lazy_bot

STACK_VALUE = {1: 2.0, 2: 3.0, 3: 3.5, 4: 4.0, 5: 5.0}
"""Rough worth of hiring a card of each stack (markers placed, gems, harm to others)."""
CHANCE = {
    2: {1: 0.6, 2: 0.35, 3: 0.15, 4: 0.05},
    1: {1: 0.35, 2: 0.12, 3: 0.04, 4: 0.01},
}
"""Rough chance to close a shortfall of k dice with rolls left."""
GEM_VALUE = {"gold": 3.0, "white": 2.0, None: 0.0}


def card_value(card: dict[str, Any], dice: list[Die]) -> float:
    """Worth of hiring ``card`` with ``dice`` (the six thrown dice first, then pretend dice;
    0 when its condition is not met)."""
    met = best_level(card["conditions"], dice[:6], dice[6:])
    if met == 0:
        return 0.0
    value = STACK_VALUE[card["stack"]]
    if card["stack"] == 1:
        value += 0.5 * (met - 1) + (2.0 if met == len(card["conditions"]) else 0.0)
    return value


def view_dice(view: View) -> list[Die]:
    roll = view["roll"] or {"dice": [], "extra": []}
    return [(d["number"], d["colour"]) for d in roll["dice"]] + [
        (e["number"], e["colour"]) for e in roll["extra"]
    ]


def market_cards(view: View) -> list[dict[str, Any]]:
    return [m["card"] for m in view["market"] if m["card"]]


def area_after(view: View, seat: int, space: int) -> int:
    """Size of ``seat``'s connected area that would contain ``space`` with a marker there."""
    spaces = view["map"]["spaces"]
    seen = {space}
    todo = [space]
    while todo:
        for n in spaces[todo.pop()]["neighbours"]:
            if n not in seen and spaces[n]["marker"] == seat:
                seen.add(n)
                todo.append(n)
    return len(seen)


def leader(view: View, seat: int) -> int:
    """The other seat with the highest running score."""
    others = [s for s in range(view["seats"]) if s != seat]
    return max(others, key=lambda s: (view["scores"][s], -s))


class HeuristicBot(Bot):
    """Rolls toward the best reachable card and builds one large connected area."""

    name = "heuristic"

    def choose(self, view: View, legal: list[Action], rng: Any) -> Action:
        kind = view["phase"]
        seat = view["active"]
        if len(legal) == 1:
            return legal[0]
        if kind == "keep":
            return self._keep(view, legal)
        if kind == "hire":
            return self._hire(view, legal, seat)
        rated = self.rate(view, legal)
        if rated is not None:
            return max(rated, key=lambda pair: pair[0])[1]
        if kind == "steal_card":
            return self._steal_card(view, legal, seat)
        if kind == "steal_gem":
            gems = [a for a in legal if a["type"] == "steal_gem"]
            top = leader(view, seat)
            return max(
                gems,
                key=lambda a: (GEM_VALUE[a["gem"]], a["victim"] == top, -a["victim"]),
            )
        return legal[0]

    # phase 1
    def _keep(self, view: View, legal: list[Action]) -> Action:
        dice = view_dice(view)
        rolled = dice[:6]
        left = 3 - view["roll"]["rolls"]
        cards = market_cards(view)
        held = max((card_value(c, dice) for c in cards), default=0.0)
        best, target = 0.0, None
        for card in cards:
            if card_value(card, dice) > 0 and card["stack"] != 1:
                continue
            cond = card["conditions"][-1] if card["stack"] == 1 else card["conditions"][0]
            short = shortfall(cond, rolled)
            if short == 0:
                continue
            full = STACK_VALUE[card["stack"]] + (3.0 if card["stack"] == 1 else 0.0)
            est = full * CHANCE[left].get(short, 0.0)
            if est > best:
                best, target = est, cond
        if target is None or held >= best:
            return {"type": "stop"}
        keep = keep_toward(target, rolled)
        if len(keep) >= 6:
            keep = sorted(keep, key=lambda i: rolled[i][0])[1:]
        action = {"type": "reroll", "keep": canonical_keep(rolled, sorted(keep))}
        return action if action in legal else {"type": "stop"}

    # phase 2
    def _hire(self, view: View, legal: list[Action], seat: int) -> Action:
        dice = view_dice(view)
        cards = {c["stack"]: c for c in market_cards(view)}
        hires = [a for a in legal if a["type"] == "hire"]
        now = max((card_value(cards[a["stack"]], dice) for a in hires), default=0.0)
        best_joker, gain = None, 0.0
        for act in legal:
            if act["type"] != "joker":
                continue
            more = [*dice, (act["number"], act["colour"])]
            value = max(card_value(c, more) for c in cards.values())
            cost = 0.5 if act["pair"] == "twin" else 1.0
            if value - cost > now + gain and value > now:
                best_joker, gain = act, value - cost - now
        if best_joker is not None:
            return best_joker
        if hires:
            return max(hires, key=lambda a: card_value(cards[a["stack"]], dice))
        takes = [a for a in legal if a["type"] == "take"]
        mine = Counter((c["colour"], c["number"]) for c in view["players"][seat]["cards"])

        def take_value(a: Action) -> tuple[int, int]:
            sym = cards[a["stack"]]["symbol"]
            return (mine[(sym["colour"], sym["number"])], a["stack"])

        return max(takes, key=take_value) if takes else legal[0]

    # phase 3
    @classmethod
    def rate(cls, view: View, legal: list[Action]) -> list[tuple[float, Action]] | None:
        """The heuristic's value of each action of a phase that places on the map (a
        knight, a free dragon, a raid, a dragon), in ``legal``'s order; None in any other
        phase."""
        kind, seat = view["phase"], view["active"]
        if kind in ("place", "free_dragon"):
            return [(cls._space_value(view, seat, a["space"]), a) for a in legal]
        if kind == "raid":
            return [(cls._raid_value(view, seat, a["space"]), a) for a in legal]
        if kind == "place_dragon":
            return [(cls._dragon_value(view, seat, a), a) for a in legal]
        return None

    @staticmethod
    def _space_value(view: View, seat: int, space: int) -> float:
        sp = view["map"]["spaces"][space]
        return area_after(view, seat, space) * 3.0 + GEM_VALUE[sp["gem"]] - space * 1e-3

    @staticmethod
    def _raid_value(view: View, seat: int, space: int) -> float:
        victim = view["map"]["spaces"][space]["marker"]
        lead = 1.0 if victim == leader(view, seat) else 0.0
        return area_after(view, seat, space) * 3.0 + lead - space * 1e-3

    @staticmethod
    def _dragon_value(view: View, seat: int, action: Action) -> float:
        spaces = view["map"]["spaces"]
        sp = spaces[action["space"]]
        mine = sum(1 for n in sp["neighbours"] if spaces[n]["marker"] == seat)
        theirs = sum(1 for n in sp["neighbours"] if spaces[n]["marker"] not in (None, seat))
        src = action.get("source")
        steal = 1.0 if src is not None and src == leader(view, seat) else 0.0
        return theirs * 2.0 - mine * 3.0 + steal - action["space"] * 1e-3

    @staticmethod
    def _steal_card(view: View, legal: list[Action], seat: int) -> Action:
        mine = Counter((c["colour"], c["number"]) for c in view["players"][seat]["cards"])
        owner = {
            c["id"]: (p["seat"], (c["colour"], c["number"]))
            for p in view["players"]
            for c in p["cards"]
        }
        steals = [a for a in legal if a["type"] == "steal_card"]
        top = leader(view, seat)
        return max(
            steals,
            key=lambda a: (mine[owner[a["card"]][1]], owner[a["card"]][0] == top, -a["card"]),
        )


__all__ = ["HeuristicBot", "RandomBot"]


BOTS = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "search": lazy_bot("engine.kingdice.search:KingdiceSearchBot"),
}
"""The bots a King of the Dice seat may be given, by name."""
