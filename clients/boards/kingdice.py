"""Terminal picture of a King of the Dice game with rich, from the view dict only.

The map: hex rows offset by half a cell, each space six characters on its terrain's colour:
a three-letter terrain code, then what lies there (a digit for a player's marker, ``F`` for
a dragon fire, ``#`` for an empty castle tile) and a diamond for a gemstone (yellow gold,
white white). Beside it: the job market, the players, the throw and the supply.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

TERRAIN_STYLE = {
    "swamp": ("Swp", "dark_olive_green3"),
    "farmland": ("Frm", "light_goldenrod3"),
    "mushroom forest": ("Msh", "orange4"),
    "floodplain": ("Fld", "dark_sea_green3"),
    "coastline": ("Cst", "sky_blue2"),
    "volcano": ("Vol", "dark_red"),
    "pine forest": ("Pin", "dark_green"),
    "caves": ("Cav", "grey42"),
    "lava": ("Lav", "orange_red1"),
    "flower meadow": ("Flw", "plum2"),
    "gemstone quarry": ("Gem", "light_slate_blue"),
    "hills": ("Hil", "dark_khaki"),
    "lake": ("Lak", "dodger_blue3"),
    "desert": ("Des", "wheat1"),
    "glacier": ("Gla", "light_cyan1"),
}
LIGHT = {"farmland", "floodplain", "coastline", "flower meadow", "desert", "glacier", "hills"}
PLAYER_STYLE = ["bold magenta", "bold yellow", "bold cyan", "bold white on grey11"]
PLAYER_NAME = ["purple", "yellow", "turquoise", "black"]
DIE_STYLE = {
    "red": "bold white on red3",
    "blue": "bold white on blue3",
    "green": "bold white on green4",
}
GEM = "\u25c6"
CELL = 6


def _die(number: int, colour: str) -> Text:
    """A die face: colour initial and pips (R6 = red six), on the die's colour."""
    return Text(f"{colour[:1].upper()}{number}", style=DIE_STYLE.get(colour, "bold"))


def _cell(sp: dict[str, Any]) -> Text:
    code, colour = TERRAIN_STYLE.get(sp["terrain"], (sp["terrain"][:3].title(), "grey50"))
    ink = "black" if sp["terrain"] in LIGHT else "white"
    text = Text(code, style=f"{ink} on {colour}")
    if sp["marker"] is not None:
        seat = sp["marker"]
        text.append(str(seat), style=f"{PLAYER_STYLE[seat % 4]} on {colour}")
    elif sp["dragon"]:
        text.append("F", style=f"bold red on {colour}")
    elif sp["tile"]:
        text.append("#", style=f"{ink} on {colour}")
    else:
        text.append(" ", style=f"on {colour}")
    if sp["gem"]:
        gem_style = "bold gold1" if sp["gem"] == "gold" else "bold white"
        text.append(GEM, style=f"{gem_style} on {colour}")
    else:
        text.append(" ", style=f"on {colour}")
    text.append(" ")
    return text


def _map(view: dict[str, Any]) -> Text:
    spaces = view["map"]["spaces"]
    unit = min(abs(a["x"] - b["x"]) for a in spaces for b in spaces if a["x"] != b["x"])
    xmin = min(sp["x"] for sp in spaces)
    rows: dict[int, list[dict[str, Any]]] = {}
    for sp in spaces:
        rows.setdefault(sp["r"], []).append(sp)
    out = Text()
    for r in sorted(rows):
        line = Text()
        col = 0
        for sp in sorted(rows[r], key=lambda s: s["x"]):
            target = round((sp["x"] - xmin) / unit) * CELL // 2
            if target > col:
                line.append(" " * (target - col))
                col = target
            line.append_text(_cell(sp))
            col += CELL
        ids = Text()
        out.append_text(line)
        out.append("\n")
        col = 0
        for sp in sorted(rows[r], key=lambda s: s["x"]):
            target = round((sp["x"] - xmin) / unit) * CELL // 2
            if target > col:
                ids.append(" " * (target - col))
                col = target
            ids.append(f"{sp['id']:>3}   ", style="dim")
            col += CELL
        out.append_text(ids)
        out.append("\n")
    out.append(f"F dragon fire  # castle tile  {GEM} gemstone  digits: players' markers", "dim")
    return out


def _market(view: dict[str, Any]) -> Table:
    table = Table(title="Job market", expand=False, show_lines=True)
    table.add_column("Stack", justify="center")
    table.add_column("Citizen")
    table.add_column("Dice condition")
    table.add_column("Joker", justify="center")
    for m in view["market"]:
        card = m["card"]
        if card is None:
            table.add_row(str(m["stack"]), "(empty)", "", "")
            continue
        sym = card["symbol"]
        table.add_row(
            f"{m['stack']}\n({m['left']} left)",
            card["name"],
            card["text"].replace(" / ", "\n"),
            _die(sym["number"], sym["colour"]),
        )
    return table


def _players(view: dict[str, Any], seat: int | None) -> Table:
    table = Table(title="Players")
    for col in ("Player", "Score", "Markers", "Area", "Gold", "White", "Fires", "Jokers"):
        table.add_column(col)
    for p in view["players"]:
        s = p["seat"]
        name = Text(f"{s} {PLAYER_NAME[s % 4]}", style=PLAYER_STYLE[s % 4])
        if s == view["active"]:
            name.append(" <", style="bold")
        if s == seat:
            name.append(" (you)")
        jokers = Text()
        for c in p["cards"]:
            jokers.append_text(_die(c["number"], c["colour"]))
            jokers.append(" ")
        if p["super_jokers"]:
            jokers.append(f"+{p['super_jokers']} super", style="bold")
        table.add_row(
            name,
            str(view["scores"][s]),
            f"{p['markers_left']} left",
            str(p["largest_area"]),
            str(p["gold"]),
            str(p["white"]),
            str(p["dragon_fires"]),
            jokers,
        )
    return table


def _status(view: dict[str, Any]) -> Text:
    text = Text()
    if view["over"]:
        text.append("Game over", style="bold")
        if view["winner"] is not None:
            text.append(f": player {view['winner']} had to place a marker with none left and wins")
        text.append("\n")
    else:
        text.append(f"Turn {view['turn']}, player {view['active']}: ", style="bold")
        text.append(view["phase"].replace("_", " ") + "\n")
    roll = view["roll"]
    if roll:
        text.append(f"Throw {roll['rolls']}/{roll['throws']}: ")
        for d in roll["dice"]:
            text.append_text(_die(d["number"], d["colour"]))
            text.append(" ")
        for d in roll["extra"]:
            text.append("+")
            text.append_text(_die(d["number"], d["colour"]))
            text.append(" ")
        if roll["must_hire"]:
            text.append(" must hire", style="bold")
        text.append("\n")
    if view["drawn"]:
        text.append(f"Drawn tiles ({view['to_place']} to place): {', '.join(view['drawn'])}\n")
    sup = view["supply"]
    text.append(
        f"Stockpile: {sup['tiles']} tiles, {sup['dragon_fires']} dragon fires, "
        f"{sup['gold']} gold and {sup['white']} white gemstones",
        style="dim",
    )
    return text


def render(view: dict[str, Any], seat: int | None) -> RenderableType:
    """The map, the market, the players and the throw, as one rich renderable."""
    title = f"King of the Dice - {view['seats']} players"
    return Group(
        Panel(_map(view), title=title, expand=False),
        _market(view),
        _players(view, seat),
        _status(view),
    )
