"""SVG picture of one player's Burgundy duchy sheet, drawn from a view dict only.

The hex map shows each area in its colour, the numbers written in marked hexes (a check
for the starting castle), castles with their square's colour, and a side panel with the
score per phase, the bonuses, the time track, the dice and the colour claims.
"""

from __future__ import annotations

import math
from html import escape
from typing import Any

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
SQUARE = {"monk": "purple", "silver": "gray", "commodity": "blue", "worker": "orange"}
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


def _text(x: float, y: float, s: str, size: int = 13, **attrs: Any) -> str:
    extra = " ".join(f'{k.replace("_", "-")}="{v}"' for k, v in attrs.items())
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" font-family="sans-serif" '
        f"{extra}>{escape(s)}</text>"
    )


def _map(view: dict[str, Any], player: dict[str, Any]) -> list[str]:
    duchy = view["duchy"]
    squares = {tuple(c["hex"]): c["square"] for c in duchy["castles"]}
    out = []
    for row, colours in enumerate(duchy["rows"]):
        for col, colour in enumerate(colours):
            x, y = _centre(row, col)
            value = player["marks"][row][col]
            marked = value is not None
            fill = FILL[colour] if marked else PALE[colour]
            out.append(
                f'<polygon points="{_hex_points(x, y, SIZE - 1.5)}" fill="{fill}" '
                f'stroke="{FILL[colour]}" stroke-width="2"><title>{colour} [{row}, {col}]'
                f"</title></polygon>"
            )
            square = squares.get((row, col))
            if square:
                out.append(
                    f'<rect x="{x - 7:.1f}" y="{y - 24:.1f}" width="14" height="10" '
                    f'fill="{FILL[SQUARE[square]]}" stroke="#333" stroke-width="1"/>'
                )
                out.append(_text(x, y + 24, "castle", 8, text_anchor="middle", fill="#333"))
            if marked:
                label = "\u2713" if value == 0 else str(value)
                out.append(
                    _text(
                        x, y + 7, label, 20, text_anchor="middle", font_weight="bold", fill="#111"
                    )
                )
    return out


def _panel(view: dict[str, Any], player: dict[str, Any]) -> list[str]:
    x0, y = 520.0, 30.0
    out = [
        _text(
            x0,
            y,
            f"Seat {player['seat']} \u2014 duchy {view['duchy']['name']}",
            16,
            font_weight="bold",
        ),
    ]
    y += 24
    pts = player["points"]
    out.append(
        _text(x0, y, f"Points: I {pts[0]} + II {pts[1]} + III {pts[2]} = {player['total']}", 14)
    )
    y += 26
    out.append(_text(x0, y, "Bonuses (available / circled / limit)", 12, fill="#444"))
    for kind, info in player["bonuses"].items():
        y += 20
        colour = FILL[SQUARE[kind]]
        out.append(f'<circle cx="{x0 + 7}" cy="{y - 4}" r="7" fill="{colour}"/>')
        out.append(
            _text(
                x0 + 20, y, f"{kind}: {info['available']} / {info['circled']} / {info['limit']}", 13
            )
        )
    y += 28
    time = view["time"]
    out.append(_text(x0, y, f"Phase {view['phase']}, round {view['round']}", 13))
    for col, filled in enumerate(time["columns"]):
        for box in range(time["size"]):
            bx, by = x0 + col * 70, y + 10 + box * 13
            fill = "#555" if box < filled else "#fff"
            out.append(
                f'<rect x="{bx}" y="{by}" width="11" height="11" fill="{fill}" stroke="#555"/>'
            )
        out.append(_text(x0 + col * 70 + 16, y + 20, ["I", "II", "III"][col], 12))
    y += 24 + 13 * time["size"]
    roll = view.get("roll")
    if roll:
        dice = ", ".join(str(p) for p in roll["pips"])
        out.append(_text(x0, y, f"Dice: {dice}", 13))
        for i, colour in enumerate(roll["colours"]):
            out.append(
                f'<rect x="{x0 + 90 + 22 * i}" y="{y - 13}" width="16" height="16" '
                f'fill="{FILL[colour]}" stroke="#333"><title>{colour}</title></rect>'
            )
        for i in range(roll["hourglass"]):
            hx, colour = x0 + 146 + 14 * i, "#2f6fb5" if roll["sale"] else "#8a6d3b"
            out.append(
                f'<polygon points="{hx},{y - 13} {hx + 10},{y - 13} {hx},{y + 1} '
                f'{hx + 10},{y + 1}" fill="{colour}"><title>hourglass</title></polygon>'
            )
        if roll["sale"]:
            out.append(_text(x0 + 176, y, "double: sale", 12, fill="#2f6fb5"))
        y += 24
    out.append(_text(x0, y, "Colour bonuses (first / second)", 12, fill="#444"))
    for colour, claim in view["colour_claims"].items():
        y += 18
        first, second = view["duchy"]["colour_bonus"][colour]
        who = []
        if claim["first"]:
            who.append("1st: " + ",".join(str(s) for s in claim["first"]))
        if claim["second"]:
            who.append("2nd: " + ",".join(str(s) for s in claim["second"]))
        done = " \u2713" if colour in player["colours_done"] else ""
        out.append(f'<rect x="{x0}" y="{y - 11}" width="12" height="12" fill="{FILL[colour]}"/>')
        out.append(_text(x0 + 18, y, f"{first}/{second} {' '.join(who)}{done}", 12))
    return out


def render_svg(view: dict[str, Any], player: int | None = None) -> str:
    """A self-contained SVG of one player's sheet (``player`` None: the viewer, else seat 0)."""
    seat = player if player is not None else (view.get("you") or 0)
    me = view["players"][seat]
    body = _map(view, me) + _panel(view, me)
    if me.get("decided") and view.get("stage") != "over":
        body.append(_text(20, 20, "decided this round", 12, fill="#2a7"))
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="780" height="560" '
        'viewBox="0 0 780 560">'
        '<rect width="100%" height="100%" fill="#fffdf6"/>'
        f"<title>Burgundy: seat {seat}, {me['total']} points</title>" + "".join(body) + "</svg>"
    )
