"""SVG picture of one player's Diceland map, drawn from a view dict only (with
``engine.svg``) and the layouts of the maps' edition the view names.

Hexes are filled with their territory's colour and outlined by territory, obstacles are
black, the start hex is white, treasure spaces carry a gold gem on a white badge (it stands
out on yellow too), crossed spaces a dark X.
Below the map: the status bar (treasures per colour, completed colours) and the dice.
"""

from __future__ import annotations

import math
from typing import Any

from engine import svg
from engine.diceland.maps import edition_data

FILL = {
    "red": "#d9453d",
    "yellow": "#f2cf3c",
    "green": "#5aae4e",
    "blue": "#3f7fd0",
    "orange": "#f08c2e",
    "grey": "#9a9a9a",
}
COLOURS = tuple(FILL)
SIZE = 20.0
MARGIN = 16.0
SQ3 = math.sqrt(3)
EDGE_STEPS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
"""The axial neighbour across edge ``i`` (between corners ``i`` and ``i + 1``)."""


def _corner(x: float, y: float, i: int, size: float = SIZE) -> tuple[float, float]:
    angle = math.radians(60 * i - 30)
    return x + size * math.cos(angle), y + size * math.sin(angle)


def _points(x: float, y: float, size: float = SIZE) -> str:
    return " ".join(f"{cx:.1f},{cy:.1f}" for cx, cy in (_corner(x, y, i, size) for i in range(6)))


BADGE = {"fill": "#ffffff", "stroke": "#1a1a1a"}
"""The disc behind a treasure gem: a gold star alone is lost on a yellow territory."""
FOUND = "#1a1a1a"
"""A found treasure's dot in the status bar (dark on every colour, yellow included)."""


def _gem(parent: svg.Element, x: float, y: float, r: float = 6.0) -> None:
    svg.add(
        parent,
        "circle",
        cx=f"{x:.1f}",
        cy=f"{y:.1f}",
        r=f"{r + 2.5:.1f}",
        fill=BADGE["fill"],
        stroke=BADGE["stroke"],
        stroke_width="1.2",
        **{"class": "treasure"},
    )
    pts = []
    for i in range(10):
        rad = r if i % 2 == 0 else r * 0.45
        a = math.radians(-90 + 36 * i)
        pts.append(f"{x + rad * math.cos(a):.1f},{y + rad * math.sin(a):.1f}")
    star = {"fill": "#ffd700", "stroke": "#6b5300", "stroke_width": "1"}
    svg.add(parent, "polygon", points=" ".join(pts), **star)


def _die(
    parent: svg.Element, x: float, y: float, colour: str, size: float = 16.0, dim: bool = False
) -> None:
    die = svg.rect(
        parent,
        x,
        y,
        size,
        size,
        rx="3",
        fill=FILL.get(colour, "#ccc"),
        stroke="#222",
    )
    if dim:
        die.set("opacity", "0.45")


def _map_layer(
    root: svg.Element, data: dict[str, Any], crosses: set[tuple[int, int]], ox: float, oy: float
) -> None:
    owner: dict[tuple[int, int], int] = {}
    colour_of: dict[tuple[int, int], str] = {}
    treasures: set[tuple[int, int]] = set()
    for tid, terr in enumerate(data["territories"]):
        for q, r in terr["hexes"]:
            owner[(q, r)] = tid
            colour_of[(q, r)] = terr["colour"]
        treasures.update((q, r) for q, r in terr["treasures"])
    obstacles = {(q, r) for q, r in data["obstacles"]}
    start = (data["start"][0], data["start"][1])

    def centre(h: tuple[int, int]) -> tuple[float, float]:
        return ox + SIZE * SQ3 * (h[0] + h[1] / 2), oy + SIZE * 1.5 * h[1]

    cells = [*owner, *obstacles, start]
    for h in cells:
        x, y = centre(h)
        fill = "#111" if h in obstacles else "#ffffff" if h == start else FILL[colour_of[h]]
        outline = {"stroke": "#ffffff", "stroke_width": "1"}
        svg.add(root, "polygon", points=_points(x, y), fill=fill, **outline)
    for h in cells:
        x, y = centre(h)
        mine = owner.get(h, -1 if h != start else -2)
        for i, (dq, dr) in enumerate(EDGE_STEPS):
            n = (h[0] + dq, h[1] + dr)
            theirs = owner.get(n, -2 if n == start else -1 if n in obstacles else -3)
            if mine >= 0 and theirs != mine:
                (x1, y1), (x2, y2) = _corner(x, y, i), _corner(x, y, i + 1)
                svg.line(
                    root,
                    x1,
                    y1,
                    x2,
                    y2,
                    stroke="#222",
                    stroke_width="2.2",
                    stroke_linecap="round",
                )
    for h in treasures:
        x, y = centre(h)
        _gem(root, x, y)
    for h in crosses:
        x, y = centre(h)
        d = SIZE * 0.5
        svg.add(
            root,
            "path",
            d=f"M{x - d:.1f},{y - d:.1f} L{x + d:.1f},{y + d:.1f} "
            f"M{x + d:.1f},{y - d:.1f} L{x - d:.1f},{y + d:.1f}",
            stroke="#d9453d" if h == start else "#1a1a1a",
            stroke_width="3.2",
            stroke_linecap="round",
        )


def _status_bar(root: svg.Element, view: dict[str, Any], me: dict[str, Any], y: float) -> None:
    """Two treasure slots and a completed mark per colour, and the count of treasures."""
    svg.text(root, MARGIN, y + 4, "Treasures", 12, font_weight="bold")
    complete = set(me["completed"])
    for k, colour in enumerate(COLOURS):
        x = MARGIN + 74 + k * 62
        found = me["treasures"].get(colour, 0)
        svg.rect(
            root,
            x,
            y - 10,
            "56",
            "22",
            rx="4",
            fill=FILL[colour],
            stroke="#222",
        )
        for slot in range(2):
            svg.add(
                root,
                "circle",
                cx=f"{x + 12 + slot * 16:.1f}",
                cy=f"{y + 1:.1f}",
                r="5.5",
                fill=FOUND if slot < found else "#ffffff",
                stroke="#222",
                **{"class": "slot"},
            )
        svg.text(
            root, x + 42, y + 6, "\u2714" if colour in complete else "", 13, font_weight="bold"
        )
    svg.text(
        root,
        MARGIN,
        y + 32,
        f"{me['treasure_total']} of {view['goal']['treasures']} treasures; "
        f"complete colours: {', '.join(me['completed']) or 'none'}",
        12,
    )


def _dice_and_status(root: svg.Element, view: dict[str, Any], y: float) -> None:
    """The dice set aside, the last throw, a treasure throw, who is awaited and the scores."""
    dice = view["dice"]
    svg.text(root, MARGIN, y + 12, "Aside", 12, font_weight="bold")
    for k in range(dice["aside"]):
        _die(root, MARGIN + 56 + k * 20, y, dice["chosen"] or "grey")
    svg.text(root, MARGIN + 200, y + 12, "Last throw", 12, font_weight="bold")
    for k, colour in enumerate(dice["last_throw"]):
        _die(root, MARGIN + 280 + k * 20, y, colour, dim=colour == dice["chosen"])
    y += 26
    tt = view.get("treasure_throw")
    if tt:
        label = f"Treasure throw (seat {tt['seat']})"
        svg.text(root, MARGIN, y + 12, label, 12, font_weight="bold")
        for k, colour in enumerate(tt["dice"]):
            _die(root, MARGIN + 190 + k * 20, y, colour)
        y += 26
    if view.get("winners"):
        status = "Winner: " + ", ".join(f"seat {w}" for w in view["winners"])
    else:
        status = "Waiting for: " + (", ".join(f"seat {s}" for s in view["pending"]) or "nobody")
    scores = "   ".join(f"seat {s}: {t}" for s, t in enumerate(view["scores"]))
    svg.text(root, MARGIN, y + 12, status, 12, font_weight="bold")
    svg.text(root, MARGIN, y + 30, f"Treasures \u2014 {scores}", 12)


def render_svg(view: dict[str, Any], player: int | None = None) -> str:
    """A self-contained SVG of ``player``'s map (None: the viewing seat, else seat 0)."""
    seat = player if player is not None else view.get("you") or 0
    me = view["players"][seat]
    data = edition_data(view["edition"])[me["map"]]
    coords = [
        *(tuple(h) for t in data["territories"] for h in t["hexes"]),
        *(tuple(h) for h in data["obstacles"]),
        tuple(data["start"]),
    ]
    xs = [SQ3 * (q + r / 2) for q, r in coords]
    ys = [1.5 * r for _, r in coords]
    ox = MARGIN + SIZE - SIZE * min(xs)
    oy = 54.0 + SIZE - SIZE * min(ys)
    map_w = SIZE * (max(xs) - min(xs)) + 2 * SIZE
    map_h = SIZE * (max(ys) - min(ys)) + 2 * SIZE
    width = max(map_w + 2 * MARGIN, 480.0)
    bar_y = 54.0 + map_h + 14
    height = bar_y + 150

    root = svg.document(f"{width:.0f}", f"{height:.0f}")
    svg.add(root, "rect", width=f"{width:.0f}", height=f"{height:.0f}", fill="#f4efe4")
    svg.text(root, MARGIN, 24, f"Diceland \u2014 seat {seat}", 18, font_weight="bold")
    first = view["turn_player"]
    who = "sides being picked" if first is None else f"seat {first} active"
    svg.text(
        root,
        MARGIN,
        44,
        f"Map {data['name']}: {data.get('title', '')}   \u2022   turn {view['turn']}, "
        f"{who}   \u2022   phase {view['phase']}",
        12,
    )
    _map_layer(root, data, {(q, r) for q, r in me["crosses"]}, ox, oy)
    _status_bar(root, view, me, bar_y)
    _dice_and_status(root, view, bar_y + 48)
    return svg.to_string(root)
