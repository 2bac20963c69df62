"""Terminal picture of a Burgundy sheet with rich, from the view dict only.

Offset hex rows with coloured cells, each row led by its number: an unmarked hex shows its
colour letter and its column (``b2`` is the blue hex ``[row, 2]`` the menus name); a marked
hex shows its number (a check for the starting castle) on its colour. A legend explains the
letters and lists the castles' squares. Beside it: dice, time track, bonuses and every
seat's score.
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
COLOUR_OF = {letter: colour for colour, letter in LETTER.items()}
SQUARE = {"monk": "purple", "silver": "gray", "commodity": "blue", "worker": "orange"}


MEANING = {
    "b": "river 5-6",
    "g": "mine 3-4",
    "p": "monastery 1-2",
    "y": "pasture: same",
    "o": "city: differ",
    "C": "castle",
}
"""The legend: each letter, its colour and what its hexes take."""


def _sheet(view: dict[str, Any], player: dict[str, Any]) -> Text:
    rows = view["duchy"]["rows"]
    widest = max(len(r) for r in rows)
    text = Text(no_wrap=True)
    text.append("row [row, col]\n", style="dim")
    for r, colours in enumerate(rows):
        text.append(f" {r} ", style="dim")
        text.append("  " * (widest - len(colours)))
        for c, colour in enumerate(colours):
            value = player["marks"][r][c]
            if value is None:
                text.append(f" {LETTER[colour]}{c} ", style=f"{STYLE[colour]} on grey15")
            else:
                label = "\u2713" if value == 0 else str(value)
                text.append(f" {label}  ", style=f"bold black on {STYLE[colour]}")
        text.append("\n")
    legend = list(MEANING.items())
    for left, right in zip(legend[::2], legend[1::2], strict=True):
        text.append(f"{left[0]} {left[1]:<14}", style=STYLE[COLOUR_OF[left[0]]])
        text.append(f"{right[0]} {right[1]}\n", style=STYLE[COLOUR_OF[right[0]]])
    text.append("\u2713 start  5 a marked number", style="dim")
    return text


def _status(view: dict[str, Any], player: dict[str, Any]) -> Table:
    table = Table.grid(padding=(0, 1))
    table.add_column(style="bold", no_wrap=True)
    table.add_column(no_wrap=True)
    table.add_row("phase", f"{view['phase']}  round {view['round']}  ({view['stage']})")
    time = view["time"]
    track = " ".join("\u25a0" * n + "\u25a1" * (time["size"] - n) for n in time["columns"])
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
            f"{info['available']} held, {info['circled']}/{info['limit']} circled",
        )
    done = ", ".join(player["colours_done"]) or "-"
    table.add_row("colours", done)
    castles = [f"[{c['hex'][0]},{c['hex'][1]}] {c['square']}" for c in view["duchy"]["castles"]]
    table.add_row("castles", "  ".join(castles[:2]))
    table.add_row("", "  ".join(castles[2:]))
    return table


def _scores(view: dict[str, Any]) -> Group:
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
    bonuses = []
    for colour, claim in view["colour_claims"].items():
        first, second = view["duchy"]["colour_bonus"][colour]
        who = "".join(
            f" {tag}{','.join(map(str, seats))}"
            for tag, seats in (("1st:", claim["first"]), ("2nd:", claim["second"]))
            if seats
        )
        bonuses.append(f"{colour} {first}/{second}{who}")
    lines = ["a colour completed first/second scores:"]
    lines += ["  ".join(bonuses[n : n + 3]) for n in range(0, len(bonuses), 3)]
    return Group(table, Text("\n".join(lines), no_wrap=True))


def render(view: dict[str, Any], seat: int | None) -> RenderableType:
    """The sheet of ``seat`` (None: the viewer's own, else seat 0) and the table of scores."""
    if seat is None:
        seat = view.get("you") if view.get("you") is not None else 0
    player = view["players"][seat]
    grid = Table.grid(padding=(0, 2))
    grid.add_row(_sheet(view, player), _status(view, player))
    title = f"Burgundy \u2014 duchy {view['duchy']['name']} \u2014 seat {seat}"
    return Group(Panel(grid, title=title), _scores(view))
