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
"""The board's letter for each colour (castles in capitals)."""
NUMBERS = {"same": "same", "differ": "differ", "neighbour": ""}
"""How the legend says the number rules the view publishes (``range``: the pips)."""


def legend(duchy: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(letter, colour, meaning) for each colour, from the rules the view publishes:
    ``river 5-6``, ``pasture: same``, ``castle``."""
    out = []
    for colour, rule in duchy["hex_rules"].items():
        if rule["pips"] is not None:
            low, high = rule["pips"]
            meaning = f"{rule['land']} {low}-{high}"
        else:
            says = NUMBERS.get(rule["numbers"], rule["numbers"])
            meaning = f"{rule['land']}: {says}" if says else rule["land"]
        out.append((LETTER.get(colour, colour[:1]), colour, meaning))
    return sorted(out, key=lambda entry: "bgpyoC".find(entry[0]))


def bonus_colours(duchy: dict[str, Any]) -> dict[str, str]:
    """Bonus kind -> the colour of the areas that give it (the castle squares' colours)."""
    return {rule["bonus"]: c for c, rule in duchy["hex_rules"].items() if rule["bonus"]}


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
    entries = legend(view["duchy"])
    for n, (letter, colour, meaning) in enumerate(entries):
        last = n % 2 == 1 or n == len(entries) - 1
        text.append(
            f"{letter} {meaning}\n" if last else f"{letter} {meaning:<14}",
            style=STYLE.get(colour, ""),
        )
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
    colour_of = bonus_colours(view["duchy"])
    for kind, info in player["bonuses"].items():
        table.add_row(
            Text(kind, style=STYLE.get(colour_of.get(kind, ""), "")),
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
