"""Terminal picture of a Diceland map with rich, from the view dict and the designed data of
the edition it names (its maps' layouts: ``GET /v1/catalogue/diceland/editions/{edition}``).

Hex rows are offset by half a cell and led by their ``r``; each hex is three characters on
its territory's colour and shows its ``q`` until crossed (the menus write hexes ``(q,r)``):
``X`` crossed, a diamond for a treasure space, ``S`` the start, black blocks for obstacles.
Neighbouring territories never share a colour, so colours show the territories. A legend
line, then the status bar, the dice and every seat's treasures.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

STYLE = {
    "red": "red3",
    "yellow": "gold1",
    "green": "green3",
    "blue": "dodger_blue2",
    "orange": "dark_orange",
    "grey": "grey58",
}
COLOURS = tuple(STYLE)
TREASURE = "\u2666"


SHORT = {"red": "Rd", "yellow": "Yl", "green": "Gn", "blue": "Bl", "orange": "Or", "grey": "Gy"}


def _die(colour: str) -> Text:
    text = Text(f" {SHORT.get(colour, '??')} ", style=f"bold black on {STYLE.get(colour, 'white')}")
    text.append(" ")
    return text


def _map(data: dict[str, Any], crosses: set[tuple[int, int]]) -> Text:
    colour_of: dict[tuple[int, int], str] = {}
    treasures: set[tuple[int, int]] = set()
    for terr in data["territories"]:
        for q, r in terr["hexes"]:
            colour_of[(q, r)] = terr["colour"]
        treasures.update((q, r) for q, r in terr["treasures"])
    obstacles = {(q, r) for q, r in data["obstacles"]}
    start = (data["start"][0], data["start"][1])
    cells = [*colour_of, *obstacles, start]
    columns = {h: 2 * h[0] + h[1] for h in cells}
    left = min(columns.values())
    text = Text(no_wrap=True)
    for r in sorted({h[1] for h in cells}):
        row = sorted((columns[h] - left, h) for h in cells if h[1] == r)
        text.append(f"r{r:<2} ", style="dim")
        at = 0
        for col, h in row:
            text.append(" " * (2 * col - at))
            at = 2 * col + 4
            if h in obstacles:
                text.append("\u2588\u2588\u2588", style="grey11")
            elif h == start:
                text.append(" S ", style="bold red on white")
            else:
                crossed = h in crosses
                if h in treasures:
                    label = f"X{TREASURE} " if crossed else f"{h[0]:>2}{TREASURE}"
                else:
                    label = " X " if crossed else f"{h[0]:>2} "
                text.append(label, style=f"bold black on {STYLE[colour_of[h]]}")
            text.append(" ")
        text.append("\n")
    text.append(
        f"(q,r): q in hex, r by row \u00b7 {TREASURE} treasure \u00b7 X crossed \u00b7 S start "
        "\u00b7 \u2588 obstacle",
        style="dim",
    )
    return text


def _status(data: dict[str, Any], player: dict[str, Any]) -> Table:
    """Per colour: treasures crossed (filled) of the map's treasures (the map data's count)."""
    hidden = {c: 0 for c in COLOURS}
    for terr in data["territories"]:
        hidden[terr["colour"]] = hidden.get(terr["colour"], 0) + len(terr["treasures"])
    bar = Table(show_header=True, box=None, padding=(0, 1))
    for colour in COLOURS:
        bar.add_column(Text(colour, style=STYLE[colour]), justify="center")
    bar.add_row(
        *(
            "\u25cf" * player["treasures"].get(c, 0)
            + "\u25cb" * (hidden[c] - player["treasures"].get(c, 0))
            for c in COLOURS
        )
    )
    bar.add_row(*("\u2714 done" if c in player["completed"] else "" for c in COLOURS))
    return bar


def _dice(view: dict[str, Any]) -> Text:
    dice = view["dice"]
    text = Text()
    text.append("Aside: ")
    for _ in range(dice["aside"]):
        text.append_text(_die(dice["chosen"]))
    if not dice["aside"]:
        text.append("-")
    text.append("   Last throw: ")
    for colour in dice["last_throw"]:
        text.append_text(_die(colour))
    tt = view.get("treasure_throw")
    if tt:
        text.append(f"\nTreasure throw (seat {tt['seat']}): ")
        for colour in tt["dice"]:
            text.append_text(_die(colour))
        if tt["queue"]:
            text.append(f"  then seats {', '.join(str(s) for s in tt['queue'])}")
    return text


def render(
    view: dict[str, Any], seat: int | None, edition: Mapping[str, Any] | None = None
) -> RenderableType:
    """``seat``'s map (None: the viewing seat, else seat 0) with status bar, dice and scores,
    drawn from ``edition``: the designed data of the edition the view names (its ``maps``)."""
    if edition is None or edition.get("edition", view["edition"]) != view["edition"]:
        raise ValueError(f"the view's maps are edition {view['edition']}'s: pass its data")
    layouts = edition["maps"]
    shown = seat if seat is not None else view.get("you") or 0
    player = view["players"][shown]
    data = layouts[player["map"]]
    crosses = {(q, r) for q, r in player["crosses"]}
    scores = Table(box=None, padding=(0, 1), show_header=True)
    for column in ("seat", "map", "treasures", "complete", "phase 2"):
        scores.add_column(column)
    for s, p in enumerate(view["players"]):
        phase2 = p.get("phase2")
        state = ""
        if phase2 is not None:
            state = "decided" if phase2["decided"] else "deciding" if phase2["owes"] else "-"
        mark = "\u25b6 " if s == view["turn_player"] else "  "
        scores.add_row(
            f"{mark}{s}",
            p["map"],
            f"{p['treasure_total']}/{view['goal']['treasures']}",
            ", ".join(p["completed"]) or "-",
            state,
        )
    if view.get("winners"):
        status = Text(
            "Winner: " + ", ".join(f"seat {w}" for w in view["winners"]), style="bold green"
        )
    else:
        pending = ", ".join(str(s) for s in view["pending"]) or "nobody"
        first = view["turn_player"]
        who = "sides being picked" if first is None else f"seat {first} active"
        status = Text(
            f"Turn {view['turn']}, {who}, phase {view['phase']}; waiting for seat {pending}"
        )
    if view["phase"] == "side":
        sides = [layouts[m] for m in player["board"]]
        pictures = [
            part
            for side in sides
            for part in (Text(f"Side {side['name']}: {side.get('title', '')}"), _map(side, set()))
        ]
        body = Group(*pictures, status, scores)
        title = f"Diceland \u2014 seat {shown}, board {'/'.join(player['board'])}: pick a side"
        return Panel(body, title=title, expand=False)
    body = Group(_map(data, crosses), Text(""), _status(data, player), _dice(view), status, scores)
    title = f"Diceland \u2014 seat {shown}, map {data['name']} ({data.get('title', '')})"
    return Panel(body, title=title, expand=False)
