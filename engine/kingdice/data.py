"""King of the Dice's designed data (dice, map, citizen cards), loaded and validated at import.

All three files are house designs (the printed components are not published); each file
says so in its ``house_design`` and ``note`` fields, and ``RULES.md`` lists the rationale.
Validation raises ``ValueError`` at import if a file breaks a rule of the game's components.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.kingdice.conditions import COLOURS, KINDS

_HERE = Path(__file__).parent

STACKS = (1, 2, 3, 4, 5)
EFFECTS = {
    1: ("merchant",),
    2: ("thief_card", "thief_gem"),
    3: ("dragon_trainer",),
    4: ("ruffian",),
    5: ("land_developer",),
}
MARKERS = 16
DRAGON_FIRES = 15
GOLD_GEMS = 6
WHITE_GEMS = 18
"""Gemstones in the box. Gold (6) is printed; the white count is house design."""


def _load(name: str) -> dict[str, Any]:
    return json.loads((_HERE / name).read_text())


def _check(ok: bool, message: str) -> None:
    if not ok:
        raise ValueError(f"kingdice data: {message}")


# --- dice ---------------------------------------------------------------------------------
def load_dice(doc: dict[str, Any]) -> list[list[str]]:
    """Each die's colour for pips 1..6, validated."""
    dice = doc["dice"]
    _check(doc.get("house_design") is True, "dice.json must be marked house_design")
    _check(len(dice) == 6, "six dice")
    for die in dice:
        _check(len(die) == 6, "six faces a die")
        _check(Counter(die) == dict.fromkeys(COLOURS, 2), "two faces of each colour a die")
    _check(len({tuple(d) for d in dice}) == 6, "a different pattern on every die")
    return [list(d) for d in dice]


# --- map ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Layout:
    """The map for one player count: spaces, adjacency, positions and the set-up."""

    players: int
    terrain: tuple[str, ...]
    half: tuple[int, ...]
    axial: tuple[tuple[int, int], ...]
    neighbours: tuple[tuple[int, ...], ...]
    edges: tuple[tuple[int, int], ...]
    dragon_fires: tuple[int, ...]
    gold: tuple[int, ...]
    white: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.terrain)

    def position(self, space: int) -> tuple[float, float]:
        """Centre of a space's hex (pointy-top, unit size) for drawing."""
        q, r = self.axial[space]
        return (3**0.5 * (q + r / 2), 1.5 * r)


def _segments_cross(p1: Any, p2: Any, p3: Any, p4: Any) -> bool:
    def orient(a: Any, b: Any, c: Any) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    d1, d2 = orient(p3, p4, p1), orient(p3, p4, p2)
    d3, d4 = orient(p1, p2, p3), orient(p1, p2, p4)
    return d1 * d2 < -1e-9 and d3 * d4 < -1e-9


def is_plane_drawing(layout: Layout) -> bool:
    """Whether the straight-line drawing of the adjacency between hex centres has no crossing
    edges (so the graph is planar)."""
    pos = [layout.position(s) for s in range(layout.size)]
    edges = layout.edges
    for i, (a, b) in enumerate(edges):
        for c, d in edges[i + 1 :]:
            if len({a, b, c, d}) == 4 and _segments_cross(pos[a], pos[b], pos[c], pos[d]):
                return False
    return True


def is_connected(layout: Layout) -> bool:
    seen = {0}
    todo = [0]
    while todo:
        for n in layout.neighbours[todo.pop()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == layout.size


def load_map(doc: dict[str, Any]) -> tuple[list[str], dict[int, Layout]]:
    """The terrain names and one validated layout per player count (2, 3, 4)."""
    _check(doc.get("house_design") is True, "map.json must be marked house_design")
    terrains = list(doc["terrains"])
    _check(len(terrains) == 15 == len(set(terrains)), "fifteen terrain types")
    _check(set(doc["rulebook_terrains"]) <= set(terrains), "the rulebook's terrains are used")
    halves = doc["halves"]
    _check(len(halves) == 2, "two halves")
    spaces: list[dict[str, Any]] = []
    for h, half in enumerate(halves):
        _check(len(half["spaces"]) == 15, "fifteen spaces a half")
        for sp in half["spaces"]:
            spaces.append({**sp, "half": h})
    _check([sp["id"] for sp in spaces] == list(range(30)), "space ids 0..29 in order")
    _check(Counter(sp["terrain"] for sp in spaces) == dict.fromkeys(terrains, 2), "terrains x2")
    inner = [tuple(e) for half in halves for e in half["edges"]]
    for a, b in inner:
        _check(spaces[a]["half"] == spaces[b]["half"], "half edges stay inside their half")
    layouts: dict[int, Layout] = {}
    for key, lay in doc["layouts"].items():
        players = int(key)
        dq, dr = lay["half_b_offset"]
        axial = tuple(
            (sp["q"] + (dq if sp["half"] else 0), sp["r"] + (dr if sp["half"] else 0))
            for sp in spaces
        )
        _check(len(set(axial)) == 30, f"layout {key}: halves overlap")
        seams = [tuple(e) for e in lay["seams"]]
        for a, b in seams:
            _check(spaces[a]["half"] != spaces[b]["half"], f"layout {key}: seams join halves")
        edges = tuple(sorted({(min(a, b), max(a, b)) for a, b in inner + seams}))
        _check(all(a != b for a, b in edges), "no loops")
        nbrs: list[list[int]] = [[] for _ in range(30)]
        for a, b in edges:
            nbrs[a].append(b)
            nbrs[b].append(a)
        fires = tuple(lay["dragon_fires"])
        gold, white = tuple(lay["gold"]), tuple(lay["white"])
        _check(len(gold) == 4 and len(white) == 6, f"layout {key}: 4 gold and 6 white")
        _check(len(set(gold + white)) == 10, f"layout {key}: one gemstone a space")
        _check(len(set(fires)) == len(fires) <= DRAGON_FIRES, f"layout {key}: dragon fires")
        layout = Layout(
            players=players,
            terrain=tuple(sp["terrain"] for sp in spaces),
            half=tuple(sp["half"] for sp in spaces),
            axial=axial,
            neighbours=tuple(tuple(sorted(n)) for n in nbrs),
            edges=edges,
            dragon_fires=fires,
            gold=gold,
            white=white,
        )
        _check(is_connected(layout), f"layout {key}: the map is connected")
        _check(is_plane_drawing(layout), f"layout {key}: the map is planar")
        layouts[players] = layout
    _check(sorted(layouts) == [2, 3, 4], "a layout for 2, 3 and 4 players")
    return terrains, layouts


# --- cards --------------------------------------------------------------------------------
def _check_condition(cond: dict[str, Any]) -> None:
    kind = cond.get("kind")
    _check(kind in KINDS, f"unknown condition kind {kind!r}")
    if kind == "colours":
        _check(all(c in COLOURS and 1 <= k <= 6 for c, k in cond["need"]), "colours")
        _check(sum(k for _, k in cond["need"]) <= 6, "at most six dice")
    elif kind == "numbers":
        _check(all(1 <= n <= 6 and 1 <= k <= 6 for n, k in cond["need"]), "numbers")
        _check(sum(k for _, k in cond["need"]) <= 6, "at most six dice")
    elif kind == "groups":
        _check(sum(cond["sizes"]) <= 6 and min(cond["sizes"]) >= 2, "groups")
    elif kind in ("sum", "red_sum"):
        _check(isinstance(cond["at_least"], int), "a total needs at_least")
    elif kind == "run":
        _check(2 <= cond["length"] <= 6, "runs of 2..6")


def load_cards(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """The 60 citizen cards, validated; index = card id."""
    _check(doc.get("house_design") is True, "cards.json must be marked house_design")
    cards = doc["cards"]
    _check([c["id"] for c in cards] == list(range(60)), "card ids 0..59 in order")
    _check(Counter(c["stack"] for c in cards) == dict.fromkeys(STACKS, 12), "5 stacks of 12")
    for card in cards:
        _check(card["effect"] in EFFECTS[card["stack"]], f"card {card['id']}: effect")
        sym = card["symbol"]
        _check(sym["colour"] in COLOURS and 1 <= sym["number"] <= 6, "joker symbol")
        conds = card["conditions"]
        _check(len(conds) == (3 if card["stack"] == 1 else 1), f"card {card['id']}: grades")
        for cond in conds:
            _check_condition(cond)
    thieves = Counter(c["effect"] for c in cards if c["stack"] == 2)
    _check(thieves["thief_card"] > 0 and thieves["thief_gem"] > 0, "stack 2 split")
    return cards


DICE: list[list[str]] = load_dice(_load("dice.json"))
TERRAINS, LAYOUTS = load_map(_load("map.json"))
CARDS: list[dict[str, Any]] = load_cards(_load("cards.json"))
