"""SVG picture of a King of the Dice game, drawn from a view dict only
(with ``engine.svg``).

Left: the map, 30 hex territory spaces filled with their terrain's colour, named and
numbered (half A is 0-14, half B 15-29); castle tiles as a white inner ring (dashed when the
tile lies face down), markers as discs in the player's colour with the seat number,
dragon fires as flames, gemstones as gold or white diamonds. Right: the job market (top card
of each stack, its dice condition and joker symbol), the players (score, markers left,
gemstones, dragon fires, joker cards) and the dice of the current throw.
"""

from __future__ import annotations

import math
from typing import Any

from engine import svg

SIZE = 40.0
LABEL_SIZE = 8.5
LABEL_BASE = -13.0
"""Baseline of a terrain name's last line, from the hex centre (lines stack upwards)."""
LABEL_STEP = 9.0
PIECE = 11.0
"""Centre of the tile ring, marker, dragon fire and gem, below the hex centre."""
MARKER_R = 9
SQ3 = math.sqrt(3)
TERRAIN = {
    "swamp": "#6f7f4a",
    "farmland": "#e2c35f",
    "mushroom forest": "#b36b3f",
    "floodplain": "#93c7a4",
    "coastline": "#86c1dd",
    "volcano": "#7b3328",
    "pine forest": "#2e6a3b",
    "caves": "#7a6d62",
    "lava": "#e2592c",
    "flower meadow": "#e9a6cb",
    "gemstone quarry": "#a9a9cf",
    "hills": "#a8bd63",
    "lake": "#3f86cf",
    "desert": "#ead7a3",
    "glacier": "#e3f3f8",
}
DARK_TERRAIN = {"volcano", "pine forest", "lake", "caves", "swamp", "mushroom forest"}
PLAYER = ["#7b3fa0", "#f2c21b", "#21b5b0", "#222222"]
"""Marker colours of seats 0-3: purple, yellow, turquoise, black (as in the box)."""
PLAYER_NAME = ["purple", "yellow", "turquoise", "black"]
CARD_H = 62


def _wrap(text: str, width: int) -> list[str]:
    lines: list[str] = []
    for part in text.split(" / "):
        words = part.split(" ")
        line = ""
        for word in words:
            if line and len(line) + 1 + len(word) > width:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}".strip()
        lines.append(line)
    return lines


DIE = {"red": "#d33a32", "blue": "#2f6fd0", "green": "#3b9a45"}


def _hex(parent: svg.Element, x: float, y: float, size: float, **values: Any) -> None:
    pts = " ".join(
        f"{x + size * math.cos(math.radians(60 * i - 30)):.1f},"
        f"{y + size * math.sin(math.radians(60 * i - 30)):.1f}"
        for i in range(6)
    )
    svg.add(parent, "polygon", points=pts, **values)


def _diamond(parent: svg.Element, x: float, y: float, gem: str, r: float = 6.0) -> None:
    fill = "#ffcf1a" if gem == "gold" else "#ffffff"
    w = r * 0.8
    pts = f"{x:.1f},{y - r:.1f} {x + w:.1f},{y:.1f} {x:.1f},{y + r:.1f} {x - w:.1f},{y:.1f}"
    svg.add(parent, "polygon", points=pts, fill=fill, stroke="#444", stroke_width="1")


def _flame(parent: svg.Element, x: float, y: float, s: float = 9.0) -> None:
    outer = (
        f"M{x:.1f},{y + s:.1f} C{x - s:.1f},{y + s:.1f} {x - s:.1f},{y - s * 0.2:.1f} "
        f"{x:.1f},{y - s * 1.3:.1f} C{x + s:.1f},{y - s * 0.2:.1f} {x + s:.1f},{y + s:.1f} "
        f"{x:.1f},{y + s:.1f} Z"
    )
    inner = (
        f"M{x:.1f},{y + s:.1f} C{x - s * 0.5:.1f},{y + s:.1f} {x - s * 0.4:.1f},{y:.1f} "
        f"{x:.1f},{y - s * 0.5:.1f} C{x + s * 0.4:.1f},{y:.1f} {x + s * 0.5:.1f},{y + s:.1f} "
        f"{x:.1f},{y + s:.1f} Z"
    )
    svg.add(parent, "path", d=outer, fill="#e8421f", stroke="#7a1a05", stroke_width="1")
    svg.add(parent, "path", d=inner, fill="#ffd23a")


def _die_face(
    parent: svg.Element, x: float, y: float, number: int, colour: str, size: float = 22.0
) -> None:
    svg.rect(
        parent,
        x,
        y,
        size,
        size,
        rx="4",
        fill="#fff",
        stroke="#333",
    )
    svg.text(
        parent,
        x + size / 2,
        y + size * 0.72,
        number,
        size * 0.7,
        text_anchor="middle",
        fill=DIE.get(colour, "#000"),
        font_weight="bold",
    )


def _space(root: svg.Element, sp: dict[str, Any], cx: float, cy: float) -> None:
    """One territory space: its terrain and name, then the pieces on it."""
    fill = TERRAIN.get(sp["terrain"], "#ccc")
    _hex(root, cx, cy, SIZE - 1, fill=fill, stroke="#333", stroke_width=1.5)
    ink = "#fff" if sp["terrain"] in DARK_TERRAIN else "#222"
    words = sp["terrain"].split(" ")
    for i, word in enumerate(words):
        line_y = cy + LABEL_BASE - LABEL_STEP * (len(words) - 1 - i)
        svg.text(root, cx, line_y, word, LABEL_SIZE, text_anchor="middle", fill=ink)
    svg.text(root, cx - 22, cy + PIECE + 3, f"#{sp['id']}", 8, text_anchor="middle", fill=ink)
    py = cy + PIECE  # the tile, marker, fire and gem sit below the label, never on it
    if sp["tile"]:
        ring = {"fill": "none", "stroke": "#fff", "stroke_width": 2}
        if sp["face_down"]:
            ring["stroke_dasharray"] = "3,2"
        _hex(root, cx, py, SIZE * 0.4, **ring)
    if sp["marker"] is not None:
        seat = sp["marker"]
        svg.add(
            root,
            "circle",
            cx=f"{cx:.1f}",
            cy=f"{py:.1f}",
            r=MARKER_R,
            fill=PLAYER[seat % 4],
            stroke="#fff",
            stroke_width="2",
        )
        svg.text(root, cx, py + 4, seat, 11, text_anchor="middle", fill="#fff", font_weight="bold")
    if sp["dragon"]:
        _flame(root, cx, py)
    if sp["gem"]:
        _diamond(root, cx + 22, py, sp["gem"])


def _map(root: svg.Element, view: dict[str, Any]) -> tuple[float, float]:
    spaces = view["map"]["spaces"]
    xs = [sp["x"] * SIZE for sp in spaces]
    ys = [sp["y"] * SIZE for sp in spaces]
    ox, oy = SIZE * 1.2 - min(xs), SIZE * 1.3 - min(ys) + 36
    svg.text(root, 14, 22, f"Map for {view['map']['players']} players", 15, font_weight="bold")
    for sp, x, y in zip(spaces, xs, ys, strict=True):
        _space(root, sp, x + ox, y + oy)
    return max(xs) + ox + SIZE * 1.2, max(ys) + oy + SIZE * 1.2


def _market(root: svg.Element, view: dict[str, Any], x: float, y: float) -> float:
    svg.text(root, x, y, "Job market", 15, font_weight="bold")
    y += 10
    for m in view["market"]:
        card = m["card"]
        svg.rect(
            root,
            x,
            y,
            "330",
            str(CARD_H),
            rx="5",
            fill="#f7f1e1",
            stroke="#8a7a55",
        )
        if card is None:
            svg.text(root, x + 8, y + 24, f"Stack {m['stack']}: empty", 11)
        else:
            sym = card["symbol"]
            name = f"{m['stack']}. {card['name']} ({m['left']} left)"
            svg.text(root, x + 8, y + 16, name, 11, font_weight="bold")
            for i, line in enumerate(_wrap(card["text"], 52)[:3]):
                svg.text(root, x + 8, y + 30 + 12 * i, line, 10.5)
            _die_face(root, x + 300, y + 9, sym["number"], sym["colour"])
        y += CARD_H + 6
    return y


def _players(root: svg.Element, view: dict[str, Any], x: float, y: float) -> float:
    svg.text(root, x, y + 14, "Players", 15, font_weight="bold")
    y += 22
    for p in view["players"]:
        seat = p["seat"]
        mark = " *" if seat == view["active"] else ""
        svg.add(root, "circle", cx=f"{x + 8:.1f}", cy=f"{y + 8:.1f}", r="7", fill=PLAYER[seat % 4])
        svg.text(
            root,
            x + 22,
            y + 12,
            f"P{seat} {PLAYER_NAME[seat % 4]}{mark}: {view['scores'][seat]} pts, "
            f"{p['markers_left']} markers left, area {p['largest_area']}",
            11,
            font_weight="bold" if mark else "normal",
        )
        jokers = ", ".join(f"{c['colour']} {c['number']}" for c in p["cards"]) or "none"
        svg.text(
            root,
            x + 22,
            y + 26,
            f"gold {p['gold']}  white {p['white']}  dragon fires {p['dragon_fires']}  "
            f"super jokers {p['super_jokers']}",
            10,
        )
        svg.text(root, x + 22, y + 39, f"jokers: {jokers}", 10)
        y += 46
    return y


def _roll(root: svg.Element, view: dict[str, Any], x: float, y: float) -> float:
    roll = view["roll"]
    title = f"Turn {view['turn']}: {view['phase'].replace('_', ' ')}"
    if view["over"]:
        title = "Game over" + (
            f": player {view['winner']} placed all 16 markers" if view["winner"] is not None else ""
        )
    svg.text(root, x, y + 14, title, 13, font_weight="bold")
    y += 22
    if roll:
        dice = roll["dice"] + roll["extra"]
        for i, d in enumerate(dice):
            _die_face(root, x + i * 28, y, d["number"], d["colour"])
        svg.text(
            root, x + len(dice) * 28 + 6, y + 16, f"throw {roll['rolls']} of {roll['throws']}", 10
        )
        y += 30
    if view["drawn"]:
        svg.text(root, x, y + 12, "Drawn tiles: " + ", ".join(view["drawn"]), 11)
        y += 18
    sup = view["supply"]
    svg.text(
        root,
        x,
        y + 12,
        f"Stockpile: {sup['tiles']} tiles, {sup['dragon_fires']} dragon fires, "
        f"{sup['gold']} gold, {sup['white']} white",
        10,
    )
    return y + 20


def render_svg(view: dict[str, Any], player: int | None = None) -> str:
    """A self-contained SVG of the shared map, the market, the players and the dice.

    ``player`` highlights that seat's markers in the legend (the map is shared).
    """
    root = svg.document("0", "0")
    svg.add(root, "rect", width="100%", height="100%", fill="#fbf8f0")
    width, height = _map(root, view)
    if player is not None and 0 <= player < len(view["players"]):
        seen = f"Seen by player {player} ({PLAYER_NAME[player % 4]})"
        svg.text(root, 14, 40, seen, 11)
    x = width + 10
    y1 = _market(root, view, x, 22)
    y2 = _players(root, view, x, y1 + 6)
    y3 = _roll(root, view, x, y2 + 4)
    total_w = f"{x + 345:.0f}"
    total_h = f"{max(height, y3 + 10):.0f}"
    root.attrib.update(width=total_w, height=total_h, viewBox=f"0 0 {total_w} {total_h}")
    return svg.to_string(root)
