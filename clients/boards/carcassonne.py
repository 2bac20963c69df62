"""Terminal picture of a Carcassonne turn with rich, from the view dict only.

Each die is a 3x3 block (every character drawn twice so the block looks square): ``██`` is
city, ``░░`` is field; the middle row and column carry the north, east, south and west edges.
Gold marks the city that would score now, red an open city edge; column and row numbers are
the grid coordinates that ``place`` actions use. Below the grid: the roll (die numbers,
faces and what became of each) and what scoring now would give; above it the players.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

CITY = "██"
FIELD = "░░"
CITY_STYLE = "rgb(120,80,45)"
SCORING_STYLE = "bold rgb(224,168,0)"
OPEN_STYLE = "bold red3"
FIELD_STYLE = "green4"
STEPS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
EDGE_AT = {"N": (0, 1), "E": (1, 2), "S": (2, 1), "W": (1, 0)}
"""Row and column of each edge's character in the 3x3 block."""
SIGN = {"knight": "\u265e knight", "catapult": "\u2604 catapult"}


def block(edges: list[str]) -> list[list[bool]]:
    """The 3x3 city pattern of a die with these city edges (True = city)."""
    cells = [[False] * 3 for _ in range(3)]
    for edge in edges:
        row, col = EDGE_AT[edge]
        cells[row][col] = True
    if len(edges) >= 2:
        cells[1][1] = True
    for row, col, pair in ((0, 0, "NW"), (0, 2, "NE"), (2, 0, "SW"), (2, 2, "SE")):
        if pair[0] in edges and pair[1] in edges:
            cells[row][col] = True
    return cells


def _grid(turn: dict[str, Any]) -> Text:
    dice = {(d["x"], d["y"]): d for d in turn["grid"]}
    text = Text()
    if not dice:
        text.append("(nothing built yet: the first die goes at 0,0)", style="dim")
        return text
    scoring = turn["scoring"]["city"]
    xs = [x for x, _ in dice]
    ys = [y for _, y in dice]
    text.append("     ")
    for x in range(min(xs), max(xs) + 1):
        text.append(f"{x:^6}", style="dim")
    text.append("\n")
    for y in range(min(ys), max(ys) + 1):
        for row in range(3):
            text.append(f"{y:>4} " if row == 1 else "     ", style="dim")
            for x in range(min(xs), max(xs) + 1):
                die = dice.get((x, y))
                if die is None:
                    text.append("      ")
                    continue
                pattern = block(die["edges"])
                city_style = SCORING_STYLE if die["city"] == scoring else CITY_STYLE
                for col in range(3):
                    if not pattern[row][col]:
                        text.append(FIELD, style=FIELD_STYLE)
                        continue
                    style = city_style
                    for edge, (r, c) in EDGE_AT.items():
                        dx, dy = STEPS[edge]
                        if (r, c) == (row, col) and (x + dx, y + dy) not in dice:
                            style = OPEN_STYLE
                    text.append(CITY, style=style)
            text.append("\n")
    text.rstrip()
    return text


def _roll(turn: dict[str, Any]) -> Table:
    table = Table(box=None, padding=(0, 1), show_header=False)
    dice = turn["roll"]
    if not dice:
        return table
    for _ in dice:
        table.add_column(justify="center")
    rows: list[list[Text]] = [[], [], [], [], []]
    for die in dice:
        face, status = die["face"], die["status"]
        faded = status in ("placed", "gone")
        if face in SIGN:
            sign = SIGN[face].split()
            style = "dim" if faded else ("bold blue" if face == "knight" else "bold red")
            rows[0].append(Text(""))
            rows[1].append(Text(sign[0] * 3, style=style))
            rows[2].append(Text(""))
        else:
            pattern = block(die["edges"])
            for r in range(3):
                line = Text()
                for c in range(3):
                    if pattern[r][c]:
                        line.append(CITY, style="dim" if faded else CITY_STYLE)
                    else:
                        line.append(FIELD, style="dim" if faded else FIELD_STYLE)
                rows[r].append(line)
        rows[3].append(Text(f"{die['die']}: {face}", style="dim" if faded else "bold"))
        label = {"free": "on table", "placed": "built", "aside": "set aside", "gone": "gone"}
        rows[4].append(Text(label.get(status, status), style="italic dim"))
    for row in rows:
        table.add_row(*row)
    return table


def _players(view: dict[str, Any]) -> Table:
    table = Table(box=None, padding=(0, 2), show_header=True, header_style="bold")
    for column in ("seat", "score", "knight", "turns"):
        table.add_column(column, justify="right" if column != "knight" else "center")
    for player in view["players"]:
        active = player["seat"] == view.get("active")
        table.add_row(
            ("\u25b6 " if active else "") + str(player["seat"]),
            str(player["score"]),
            "\u265e held" if player["holds_knight"] else "",
            str(player["turns"]),
            style="bold" if active else None,
        )
    return table


def _status(view: dict[str, Any]) -> Text:
    turn = view["turn"]
    scoring = turn["scoring"]
    text = Text()
    text.append(f"knights aside {turn['knights']}   catapults passed {turn['catapults']}   ")
    text.append(f"rolls left {turn['rolls_left']}   ")
    if scoring["city"] is None:
        text.append("score now: nothing (no closed city)", style="dim")
    else:
        doubled = ", doubled" if scoring["doubled"] else ""
        text.append(
            f"score now: {scoring['points']} (closed city of {scoring['size']}{doubled})",
            style=SCORING_STYLE,
        )
    last = view.get("last_turn")
    if last:
        ending = {
            "scored": f"scored {last['points']}",
            "held_knight": "held a knight instead of scoring",
            "nine_catapults": "rolled nine catapults",
        }.get(last["ending"], last["ending"])
        text.append(f"\nlast turn: seat {last['seat']} {ending}", style="dim")
    return text


def render(view: dict[str, Any], seat: int | None) -> RenderableType:
    """A rich picture of the turn in play (the same for every seat; ``seat`` is unused)."""
    turn = view["turn"]
    if view.get("over"):
        points = view["scores"][view["winner"]]
        how = "nine catapults, " if view.get("won_by") == "catapults" else ""
        title = f"Carcassonne: seat {view['winner']} wins ({how}{points:g} points)"
    else:
        doubled = ", doubled" if turn["doubled"] else ""
        rolls = turn["rolls_made"] + turn["rolls_left"]
        title = (
            f"Carcassonne: seat {turn['seat']} to play, roll {turn['rolls_made']} of {rolls}, "
            f"{turn['dice']} dice{doubled}"
        )
    body = Group(
        _players(view),
        Text(""),
        _grid(turn),
        Text(""),
        _roll(turn),
        _status(view),
    )
    return Panel(body, title=title, title_align="left", expand=False)
