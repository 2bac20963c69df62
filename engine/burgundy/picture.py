"""SVG picture of one player's Burgundy duchy sheet, drawn from a view dict only
(with ``engine.svg``).

The hex map shows each area in its colour, the numbers written in marked hexes (a check
for the starting castle), castles with their square's colour, and a side panel with the
score per phase, the bonuses, the time track, the dice and the colour claims.
"""

from __future__ import annotations

import math
from typing import Any

from engine import svg
from engine.burgundy.duchy import AREA_BONUS

FILL = {
    "blue": "#5b9bd5",
    "purple": "#9b6bb5",
    "yellow": "#e8d35a",
    "gray": "#a6a6a6",
    "green": "#6bb36b",
    "orange": "#f0a04b",
}
PALE = {
    "blue": "#d6e6f5",
    "purple": "#e7dcef",
    "yellow": "#f8f1c8",
    "gray": "#e3e3e3",
    "green": "#d8edd8",
    "orange": "#fbe3c8",
}
SQUARE = {kind: colour for colour, kind in AREA_BONUS.items()}
"""Bonus kind -> the colour of the areas that give it (castle squares are drawn in it)."""
Q_START = (0, -1, -2, -3, -3, -3, -3)
SIZE = 34.0
ORIGIN = (250.0, 215.0)


def _centre(row: int, col: int) -> tuple[float, float]:
    q, r = Q_START[row] + col, row - 3
    x = ORIGIN[0] + SIZE * math.sqrt(3) * (q + r / 2)
    y = ORIGIN[1] + SIZE * 1.5 * r
    return x, y


def _hex_points(x: float, y: float, size: float) -> str:
    pts = []
    for i in range(6):
        angle = math.radians(60 * i - 30)
        pts.append(f"{x + size * math.cos(angle):.1f},{y + size * math.sin(angle):.1f}")
    return " ".join(pts)


def _map(root: svg.Element, view: dict[str, Any], player: dict[str, Any]) -> None:
    duchy = view["duchy"]
    squares = {tuple(c["hex"]): c["square"] for c in duchy["castles"]}
    for row, colours in enumerate(duchy["rows"]):
        for col, colour in enumerate(colours):
            x, y = _centre(row, col)
            value = player["marks"][row][col]
            marked = value is not None
            fill = FILL[colour] if marked else PALE[colour]
            hexagon = svg.add(
                root,
                "polygon",
                points=_hex_points(x, y, SIZE - 1.5),
                fill=fill,
                stroke=FILL[colour],
                stroke_width="2",
            )
            svg.add(hexagon, "title", f"{colour} [{row}, {col}]")
            square = squares.get((row, col))
            if square:
                svg.add(
                    root,
                    "rect",
                    x=f"{x - 7:.1f}",
                    y=f"{y - 24:.1f}",
                    width="14",
                    height="10",
                    fill=FILL[SQUARE[square]],
                    stroke="#333",
                    stroke_width="1",
                )
                svg.text(root, x, y + 24, "castle", 8, text_anchor="middle", fill="#333")
            if marked:
                label = "\u2713" if value == 0 else str(value)
                svg.text(
                    root, x, y + 7, label, 20, text_anchor="middle", font_weight="bold", fill="#111"
                )


def _bonuses(root: svg.Element, player: dict[str, Any], x0: float, y: float) -> float:
    svg.text(root, x0, y, "Bonuses (available / circled / limit)", 12, fill="#444")
    for kind, info in player["bonuses"].items():
        y += 20
        svg.add(root, "circle", cx=f"{x0 + 7}", cy=f"{y - 4}", r="7", fill=FILL[SQUARE[kind]])
        label = f"{kind}: {info['available']} / {info['circled']} / {info['limit']}"
        svg.text(root, x0 + 20, y, label, 13)
    return y


def _time(root: svg.Element, view: dict[str, Any], x0: float, y: float) -> float:
    time = view["time"]
    svg.text(root, x0, y, f"Phase {view['phase']}, round {view['round']}", 13)
    for col, filled in enumerate(time["columns"]):
        for box in range(time["size"]):
            bx, by = x0 + col * 70, y + 10 + box * 13
            fill = "#555" if box < filled else "#fff"
            svg.add(
                root,
                "rect",
                x=f"{bx}",
                y=f"{by}",
                width="11",
                height="11",
                fill=fill,
                stroke="#555",
            )
        svg.text(root, x0 + col * 70 + 16, y + 20, ["I", "II", "III"][col], 12)
    return y + 24 + 13 * time["size"]


def _dice(root: svg.Element, roll: dict[str, Any], x0: float, y: float) -> float:
    dice = ", ".join(str(p) for p in roll["pips"])
    svg.text(root, x0, y, f"Dice: {dice}", 13)
    for i, colour in enumerate(roll["colours"]):
        die = svg.add(
            root,
            "rect",
            x=f"{x0 + 90 + 22 * i}",
            y=f"{y - 13}",
            width="16",
            height="16",
            fill=FILL[colour],
            stroke="#333",
        )
        svg.add(die, "title", colour)
    for i in range(roll["hourglass"]):
        hx, colour = x0 + 146 + 14 * i, "#2f6fb5" if roll["sale"] else "#8a6d3b"
        glass = svg.add(
            root,
            "polygon",
            points=f"{hx},{y - 13} {hx + 10},{y - 13} {hx},{y + 1} {hx + 10},{y + 1}",
            fill=colour,
        )
        svg.add(glass, "title", "hourglass")
    if roll["sale"]:
        svg.text(root, x0 + 176, y, "double: sale", 12, fill="#2f6fb5")
    return y + 24


def _claims(
    root: svg.Element, view: dict[str, Any], player: dict[str, Any], x0: float, y: float
) -> None:
    svg.text(root, x0, y, "Colour bonuses (first / second)", 12, fill="#444")
    for colour, claim in view["colour_claims"].items():
        y += 18
        first, second = view["duchy"]["colour_bonus"][colour]
        who = []
        if claim["first"]:
            who.append("1st: " + ",".join(str(s) for s in claim["first"]))
        if claim["second"]:
            who.append("2nd: " + ",".join(str(s) for s in claim["second"]))
        done = " \u2713" if colour in player["colours_done"] else ""
        svg.add(root, "rect", x=f"{x0}", y=f"{y - 11}", width="12", height="12", fill=FILL[colour])
        svg.text(root, x0 + 18, y, f"{first}/{second} {' '.join(who)}{done}", 12)


def _panel(root: svg.Element, view: dict[str, Any], player: dict[str, Any]) -> None:
    x0, y = 520.0, 30.0
    title = f"Seat {player['seat']} \u2014 duchy {view['duchy']['name']}"
    svg.text(root, x0, y, title, 16, font_weight="bold")
    y += 24
    pts = player["points"]
    total = f"Points: I {pts[0]} + II {pts[1]} + III {pts[2]} = {player['total']}"
    svg.text(root, x0, y, total, 14)
    y = _bonuses(root, player, x0, y + 26) + 28
    y = _time(root, view, x0, y)
    roll = view.get("roll")
    if roll:
        y = _dice(root, roll, x0, y)
    _claims(root, view, player, x0, y)


def render_svg(view: dict[str, Any], player: int | None = None) -> str:
    """A self-contained SVG of one player's sheet (``player`` None: the viewer, else seat 0)."""
    seat = player if player is not None else (view.get("you") or 0)
    me = view["players"][seat]
    root = svg.document("780", "560")
    svg.add(root, "rect", width="100%", height="100%", fill="#fffdf6")
    svg.add(root, "title", f"Burgundy: seat {seat}, {me['total']} points")
    _map(root, view, me)
    _panel(root, view, me)
    if me.get("decided") and view.get("stage") != "over":
        svg.text(root, 20, 20, "decided this round", 12, fill="#2a7")
    return svg.to_string(root)
