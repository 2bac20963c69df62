"""Terminal picture of a Burgundy sheet with rich, from the view dict only.

Offset hex rows with coloured cells: a marked hex shows its number (a check for the starting
castle) on its colour; an unmarked hex shows its colour letter (castles ``C``, with the
square's bonus below the map). Beside it: dice, time track, bonuses and every seat's score.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

STYLE = {
    "blue": "dodger_blue2",
    "purple": "medium_purple3",
    "yellow": "gold3",
    "gray": "grey58",
    "green": "green3",
    "orange": "dark_orange",
}
LETTER = {"blue": "b", "purple": "p", "yellow": "y", "gray": "g", "green": "C", "orange": "o"}
SQUARE = {"monk": "purple", "silver": "gray", "commodity": "blue", "worker": "orange"}


def _sheet(view: dict[str, Any], player: dict[str, Any]) -> Text:
    rows = view["duchy"]["rows"]
    widest = max(len(r) for r in rows)
    text = Text()
    for r, colours in enumerate(rows):
        text.append("  " * (widest - len(colours)))
        for c, colour in enumerate(colours):
            value = player["marks"][r][c]
            if value is None:
                text.append(f" {LETTER[colour]}  ", style=f"{STYLE[colour]} on grey15")
            else:
                label = "\u2713" if value == 0 else str(value)
                text.append(f" {label}  ", style=f"bold black on {STYLE[colour]}")
        text.append("\n")
    castles = ", ".join(f"{c['hex']}={c['square']}" for c in view["duchy"]["castles"])
    text.append(f"castles: {castles}", style="dim")
    return text


def _status(view: dict[str, Any], player: dict[str, Any]) -> Table:
    table = Table.grid(padding=(0, 1))
    table.add_column(style="bold")
    table.add_column()
    table.add_row("phase", f"{view['phase']}  round {view['round']}  ({view['stage']})")
    time = view["time"]
    track = "  ".join("\u25a0" * n + "\u25a1" * (time["size"] - n) for n in time["columns"])
    table.add_row("time", track)
    roll = view.get("roll")
    if roll:
        dice = Text(f"{roll['pips'][0]} {roll['pips'][1]}  ")
        for colour in roll["colours"]:
            dice.append(f" {colour} ", style=f"black on {STYLE[colour]}")
            dice.append(" ")
        dice.append("\u231b" * roll["hourglass"] + ("  sale!" if roll["sale"] else ""))
        table.add_row("dice", dice)
    pts = player["points"]
    table.add_row("points", f"I {pts[0]}  II {pts[1]}  III {pts[2]}  = {player['total']}")
    for kind, info in player["bonuses"].items():
        table.add_row(
            Text(kind, style=STYLE[SQUARE[kind]]),
            f"{info['available']} held  ({info['circled']}/{info['limit']} circled, "
            f"{info['used']} used)",
        )
    done = ", ".join(player["colours_done"]) or "-"
    table.add_row("colours", done)
    return table


def _scores(view: dict[str, Any]) -> Table:
    table = Table(title="seats", show_edge=False)
    for name in ("seat", "I", "II", "III", "total", "decided"):
        table.add_column(name, justify="right")
    for p in view["players"]:
        you = " (you)" if p["seat"] == view.get("you") else ""
        table.add_row(
            f"{p['seat']}{you}",
            *(str(x) for x in p["points"]),
            str(p["total"]),
            "yes" if p["decided"] else "",
        )
    claims = Text("colour bonuses: ")
    for colour, claim in view["colour_claims"].items():
        first, second = view["duchy"]["colour_bonus"][colour]
        who = "".join(
            f" {tag}{','.join(map(str, seats))}"
            for tag, seats in (("1st:", claim["first"]), ("2nd:", claim["second"]))
            if seats
        )
        claims.append(f"{colour} {first}/{second}{who}  ", style=STYLE[colour])
    table.caption = claims.plain
    return table


def render(view: dict[str, Any], seat: int | None) -> RenderableType:
    """The sheet of ``seat`` (None: the viewer's own, else seat 0) and the table of scores."""
    if seat is None:
        seat = view.get("you") if view.get("you") is not None else 0
    player = view["players"][seat]
    grid = Table.grid(padding=(0, 3))
    grid.add_row(_sheet(view, player), _status(view, player))
    title = f"Burgundy \u2014 duchy {view['duchy']['name']} \u2014 seat {seat}"
    return Group(Panel(grid, title=title), _scores(view))
