"""SVG picture of a Carcassonne turn, drawn from a view dict only (with ``engine.svg``).

The city grid of the turn in play: each built die is a light field square with its dark city
segments, turned as it was built; the city that would score now is outlined in gold and
open city edges are marked red; dashed squares are the free cells next to the grid. Above:
whose turn, the roll count and the players' scores (a knight sign for a held knight).
Below: the current roll (built dice faded, knights set aside framed, catapults crossed out)
and what scoring now would give.
"""

from __future__ import annotations

from typing import Any

from engine import svg
from engine.carcassonne.faces import EDGE_NAMES
from engine.carcassonne.faces import STEPS as GRID_STEPS

CELL = 56.0
DIE = 34.0
FIELD = "#cfe0a4"
CITY = "#6b4a2b"
GOLD = "#e0a800"
OPEN = "#c0392b"
INK = "#222"
STEPS = dict(zip(EDGE_NAMES, GRID_STEPS, strict=True))


def _city_shape(face: str, s: float) -> str:
    """The city segment of ``face`` at rotation 0 in an ``s`` x ``s`` box (SVG path data).

    Rotation 0: cap on N; corner on N and E; band from N to S; three on W, N and E."""
    if face == "cap":
        return f"M0,0 L{s},0 Q{s / 2},{s * 0.62} 0,0 Z"
    if face == "corner":
        return f"M0,0 L{s},0 L{s},{s} Q{s * 0.3},{s * 0.7} 0,0 Z"
    if face == "band":
        return f"M0,0 L{s},0 Q{s * 0.62},{s / 2} {s},{s} L0,{s} Q{s * 0.38},{s / 2} 0,0 Z"
    if face == "three":
        return f"M0,0 L{s},0 L{s},{s} Q{s / 2},{s * 0.35} 0,{s} Z"
    return ""


def _tile(
    parent: svg.Element, x: float, y: float, face: str, rotation: int, s: float, fill: str = CITY
) -> None:
    """A die face as a tile: field square plus the rotated city segment."""
    c = s / 2
    group = svg.add(parent, "g", transform=f"translate({x:.1f},{y:.1f})")
    svg.add(
        group, "rect", width=f"{s:.1f}", height=f"{s:.1f}", fill=FIELD, stroke=INK, stroke_width="1"
    )
    svg.add(
        group,
        "path",
        d=_city_shape(face, s),
        fill=fill,
        transform=f"rotate({90 * rotation} {c:.1f} {c:.1f})",
    )


def _token(parent: svg.Element, x: float, y: float, face: str, s: float) -> None:
    """A knight or catapult face as a die with a sign."""
    sign = "\u265e" if face == "knight" else "\u2604"
    colour = "#2f4f8f" if face == "knight" else "#8f2f2f"
    svg.rect(
        parent,
        x,
        y,
        s,
        s,
        rx="4",
        fill="#f8f4ea",
        stroke=INK,
    )
    svg.text(parent, x + s / 2, y + s * 0.72, sign, int(s * 0.6), text_anchor="middle", fill=colour)


TITLE_CHAR = 10.5
"""Width of a character of the 17 px bold title, generously (the picture widens to fit)."""


def _title(view: dict[str, Any]) -> str:
    turn = view["turn"]
    if view.get("over"):
        points = view["scores"][view["winner"]]
        how = "nine catapults, " if view.get("won_by") == "catapults" else ""
        return f"Carcassonne: seat {view['winner']} wins ({how}{points:g} points)"
    doubled = " \u00b7 doubled" if turn["doubled"] else ""
    return (
        f"Carcassonne: seat {turn['seat']} to play \u00b7 roll {turn['rolls_made']} of 3 "
        f"\u00b7 {turn['dice']} dice{doubled}"
    )


def _header(root: svg.Element, view: dict[str, Any], width: float) -> None:
    svg.text(root, 16, 26, _title(view), 17, font_weight="bold", fill=INK)
    x = 16.0
    for player in view["players"]:
        knight = " \u265e" if player["holds_knight"] else ""
        label = f"Seat {player['seat']}: {player['score']}{knight}"
        bold = "bold" if player["seat"] == view.get("active") else "normal"
        svg.text(root, x, 48, label, 13, font_weight=bold, fill=INK)
        x += 12 + 7.5 * len(label)
    svg.text(root, width - 16, 48, f"first to {view['target']}", 12, text_anchor="end", fill="#666")


OPEN_EDGE = {
    "N": (0.25, 0, 0.75, 0),
    "S": (0.25, 1, 0.75, 1),
    "E": (1, 0.25, 1, 0.75),
    "W": (0, 0.25, 0, 0.75),
}
"""Where the red mark of an open city edge runs along a cell, as fractions of the cell."""


def _grid(
    root: svg.Element, view: dict[str, Any], ox: float, oy: float, xs: list[int], ys: list[int]
) -> None:
    turn = view["turn"]
    grid = turn["grid"]
    cells = {(d["x"], d["y"]): d for d in grid}
    scoring = turn["scoring"]["city"]

    def corner(x: int, y: int) -> tuple[float, float]:
        return ox + (x - min(xs)) * CELL, oy + (y - min(ys)) * CELL

    free = {(x + dx, y + dy) for (x, y) in cells for dx, dy in STEPS.values()} - set(cells)
    if not cells:
        free = {(0, 0)}
    for x, y in sorted(free):
        px, py = corner(x, y)
        svg.rect(
            root,
            px + 3,
            py + 3,
            CELL - 6,
            CELL - 6,
            fill="none",
            stroke="#9a9a9a",
            stroke_dasharray="4 3",
        )
    for (x, y), die in cells.items():
        px, py = corner(x, y)
        edges = "+".join(die["edges"])
        title = f"{die['face']} at ({x}, {y}), rotation {die['rotation']}, city on {edges}"
        _tile(svg.titled(root, title), px, py, die["face"], die["rotation"], CELL)
        for edge in die["edges"]:
            dx, dy = STEPS[edge]
            if (x + dx, y + dy) in cells:
                continue
            x1, y1, x2, y2 = OPEN_EDGE[edge]
            svg.line(
                root,
                px + x1 * CELL,
                py + y1 * CELL,
                px + x2 * CELL,
                py + y2 * CELL,
                stroke=OPEN,
                stroke_width="4",
                stroke_linecap="round",
            )
    for x, y in cells:
        px, py = corner(x, y)
        svg.text(
            root,
            px + CELL - 3,
            py + CELL - 4,
            f"{x},{y}",
            9,
            text_anchor="end",
            fill="#222",
            stroke="#fff",
            stroke_width="2.5",
            paint_order="stroke",
        )
    if scoring is not None:
        for index in turn["cities"][scoring]["dice"]:
            px, py = corner(grid[index]["x"], grid[index]["y"])
            svg.rect(
                root,
                px + 1.5,
                py + 1.5,
                CELL - 3,
                CELL - 3,
                fill="none",
                stroke=GOLD,
                stroke_width="3",
            )


def _roll(root: svg.Element, view: dict[str, Any], y: float) -> None:
    turn = view["turn"]
    svg.text(root, 16, y + 14, "Roll", 13, font_weight="bold", fill=INK)
    x = 60.0
    for die in turn["roll"]:
        face, status = die["face"], die["status"]
        opacity = "0.35" if status in ("placed", "gone") else "1"
        group = svg.titled(root, f"die {die['die']}: {face}, {status}", opacity=opacity)
        if face in ("knight", "catapult"):
            _token(group, x, y, face, DIE)
        else:
            _tile(group, x, y, face, 0, DIE)
        if status == "aside":
            svg.rect(
                root,
                x - 2,
                y - 2,
                DIE + 4,
                DIE + 4,
                fill="none",
                stroke=GOLD,
                stroke_width="2.5",
                rx="5",
            )
        if status == "gone":
            svg.add(
                root,
                "path",
                d=f"M{x:.1f},{y:.1f} L{x + DIE:.1f},{y + DIE:.1f} M{x + DIE:.1f},{y:.1f} "
                f"L{x:.1f},{y + DIE:.1f}",
                stroke=OPEN,
                stroke_width="3",
            )
        svg.text(
            root,
            x + DIE / 2,
            y + DIE + 13,
            f"{die['die']} {status}",
            9,
            text_anchor="middle",
            fill="#444",
        )
        x += DIE + 14


def _status(root: svg.Element, view: dict[str, Any], y: float) -> None:
    turn = view["turn"]
    scoring = turn["scoring"]
    now = (
        f"score now: {scoring['points']} point{'' if scoring['points'] == 1 else 's'} "
        f"(closed city of {scoring['size']})"
        if scoring["city"] is not None
        else "score now: nothing (no closed city)"
    )
    line = (
        f"Knights aside: {turn['knights']} \u00b7 catapults passed: {turn['catapults']} "
        f"\u00b7 rolls left: {turn['rolls_left']} \u00b7 {now}"
    )
    svg.text(root, 16, y, line, 12, fill=INK)
    last = view.get("last_turn")
    if last:
        ending = {
            "scored": f"scored {last['points']}"
            + (f" (city of {last['city']})" if last["city"] else ""),
            "held_knight": "held a knight instead of scoring",
            "nine_catapults": "rolled nine catapults",
        }.get(last["ending"], last["ending"])
        svg.text(root, 16, y + 18, f"Last turn: seat {last['seat']} {ending}", 12, fill="#555")


def render_svg(view: dict[str, Any], player: int | None = None) -> str:
    """A self-contained SVG of the turn in play. The grid belongs to the turn, not to a
    player, so ``player`` changes nothing (every seat sees the same picture)."""
    turn = view["turn"]
    cells = [(d["x"], d["y"]) for d in turn["grid"]] or [(0, 0)]
    xs = [x for x, _ in cells] + [x + dx for x, _ in cells for dx in (-1, 1)]
    ys = [y for _, y in cells] + [y + dy for _, y in cells for dy in (-1, 1)]
    grid_w = (max(xs) - min(xs) + 1) * CELL
    grid_h = (max(ys) - min(ys) + 1) * CELL
    roll_w = 60 + len(turn["roll"]) * (DIE + 14)
    width = max(grid_w + 32, roll_w + 16, 560.0, 32 + TITLE_CHAR * len(_title(view)))
    grid_y = 64.0
    roll_y = grid_y + grid_h + 16
    height = roll_y + DIE + 70
    ox = (width - grid_w) / 2
    root = svg.document(f"{width:.0f}", f"{height:.0f}")
    svg.add(root, "rect", width=f"{width:.0f}", height=f"{height:.0f}", fill="#f6f1e3")
    _header(root, view, width)
    _grid(root, view, ox, grid_y, xs, ys)
    _roll(root, view, roll_y)
    _status(root, view, roll_y + DIE + 34)
    return svg.to_string(root)
