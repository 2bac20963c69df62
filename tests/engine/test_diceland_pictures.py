"""Diceland pictures: the SVG map and the terminal board, drawn from JSON views only."""

from __future__ import annotations

import io
import json
import random
import xml.etree.ElementTree as ET

from rich.console import Console

from clients.boards.diceland import render
from engine.dice import Dice
from engine.diceland import GAME
from engine.diceland.maps import edition_data
from engine.diceland.picture import BADGE, FILL, FOUND, render_svg
from engine.simulate import make_bots

SVG = "{http://www.w3.org/2000/svg}"


def mid_game_view(seat: int | None = 0) -> dict:
    dice = Dice("pictures")
    state = GAME.setup(3, GAME.validate_options(3, {"maps": ["C", "A", "H"]}), dice)
    bots = make_bots(GAME, ["heuristic"] * 3)
    rng = random.Random(3)
    for _ in range(50):
        s = min(GAME.to_act(state))
        GAME.apply(
            state, s, bots[s].choose(GAME.view(state, s), GAME.legal_actions(state, s), rng), dice
        )
    return json.loads(json.dumps(GAME.view(state, seat)))


def test_svg_draws_every_hex_obstacles_black_start_white_and_marks():
    view = mid_game_view()
    for seat in range(3):
        player = view["players"][seat]
        data = edition_data(view["edition"])[player["map"]]
        root = ET.fromstring(render_svg(view, seat))
        polygons = root.findall(f"{SVG}polygon")
        hexes = [p for p in polygons if p.get("stroke") == "#ffffff"]
        cells = sum(len(t["hexes"]) for t in data["territories"]) + len(data["obstacles"]) + 1
        assert len(hexes) == cells
        assert sum(p.get("fill") == "#111" for p in hexes) == len(data["obstacles"])
        assert sum(p.get("fill") == "#ffffff" for p in hexes) == 1
        gems = [p for p in polygons if p.get("fill") == "#ffd700"]
        assert len(gems) == 12
        crosses = root.findall(f"{SVG}path")
        assert len(crosses) == len(player["crosses"])
        text = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
        assert f"Map {data['name']}" in text and f"seat {seat}" in text
        found = [c for c in root.findall(f"{SVG}circle") if c.get("fill") == FOUND]
        assert len(found) == player["treasure_total"], "the status bar shows treasures found"


def luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_treasures_stand_out_on_every_territory_colour_yellow_included():
    view = mid_game_view()
    root = ET.fromstring(render_svg(view, 0))
    badges = [c for c in root.iter(f"{SVG}circle") if c.get("class") == "treasure"]
    assert len(badges) == 12, "every treasure gem sits on a badge"
    for colour, fill in FILL.items():
        assert contrast(BADGE["stroke"], fill) >= 3 or contrast(BADGE["fill"], fill) >= 3, colour
        assert contrast(FOUND, fill) >= 3, f"a found treasure's dot is hard to see on {colour}"
    assert contrast("#ffd700", FILL["yellow"]) < 3, "why the badge: gold alone on yellow"


def test_svg_default_player_is_the_viewer():
    view = mid_game_view(seat=2)
    assert render_svg(view) == render_svg(view, 2)


def test_terminal_board_shows_the_map_status_bar_and_dice():
    view = mid_game_view()
    for seat in range(3):
        console = Console(width=120, record=True, color_system=None, file=io.StringIO())
        console.print(render(view, seat, GAME.edition_data(view["edition"])))
        text = console.export_text()
        player = view["players"][seat]
        assert f"map {player['map']}" in text
        map_part = text.split("(q,r):")[0]  # the map, above its legend line
        assert map_part.count(" S ") == 1
        assert map_part.count("X") == len(player["crosses"]) - 1
        assert map_part.count("\u2666") == 12
        assert "Last throw" in text
