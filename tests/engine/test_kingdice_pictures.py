"""The King of the Dice pictures: the SVG map and the rich terminal board, from views only."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest
from rich.console import Console

from clients.boards.kingdice import render
from engine.dice import Dice
from engine.kingdice import GAME
from engine.kingdice.data import TERRAINS
from engine.kingdice.picture import LABEL_SIZE, MARKER_R, PLAYER, render_svg

SVG = "{http://www.w3.org/2000/svg}"


def played_view(seats: int, steps: int = 80, seat: int | None = 0) -> dict:
    dice = Dice(f"pictures-{seats}")
    state = GAME.setup(seats, {}, dice)
    rng = random.Random(seats)
    for _ in range(steps):
        if GAME.result(state) is not None:
            break
        GAME.apply(state, state.active, rng.choice(GAME.legal_actions(state, state.active)), dice)
    return GAME.view(state, seat)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_svg_draws_every_space_with_terrain_markers_fires_and_gems(seats):
    view = played_view(seats)
    svg = render_svg(view, 0)
    root = ET.fromstring(svg)
    texts = [t.text for t in root.iter(f"{SVG}text")]
    joined = " ".join(t or "" for t in texts)
    for sp in view["map"]["spaces"]:
        assert f"#{sp['id']}" in texts
    for terrain in TERRAINS:
        assert all(word in joined for word in terrain.split(" "))
    markers = sum(1 for sp in view["map"]["spaces"] if sp["marker"] is not None)
    discs = [
        c
        for c in root.iter(f"{SVG}circle")
        if c.get("r") == str(MARKER_R) and c.get("fill") in PLAYER
    ]
    assert len(discs) == markers
    fires = sum(1 for sp in view["map"]["spaces"] if sp["dragon"])
    assert len([p for p in root.iter(f"{SVG}path") if p.get("fill") == "#e8421f"]) == fires
    for m in view["market"]:
        assert m["card"]["name"] in joined


def test_svg_terrain_names_never_overlap_markers_gems_or_fires():
    view = played_view(4, steps=400)
    root = ET.fromstring(render_svg(view, 0))
    names = [t for t in root.iter(f"{SVG}text") if float(t.get("font-size", 0)) == LABEL_SIZE]
    assert len(names) >= len(view["map"]["spaces"])
    pieces = []
    for disc in root.iter(f"{SVG}circle"):
        x, y, r = (float(disc.get(k)) for k in ("cx", "cy", "r"))
        pieces.append((x - r, y - r, x + r, y + r))
    for shape in [*root.iter(f"{SVG}polygon"), *root.iter(f"{SVG}path")]:
        numbers = [
            float(n)
            for n in re.findall(r"-?\d+\.?\d*", shape.get("points") or shape.get("d") or "")
        ]
        xs, ys = numbers[0::2], numbers[1::2]
        if xs and max(xs) - min(xs) < 30:  # gems and fires, not the hexes
            pieces.append((min(xs), min(ys), max(xs), max(ys)))
    assert len(pieces) > 10
    for name in names:
        x, y = float(name.get("x")), float(name.get("y"))
        half = len(name.text) * LABEL_SIZE * 0.3
        box = (x - half, y - LABEL_SIZE * 0.8, x + half, y + 2)
        for piece in pieces:
            apart = (
                box[2] <= piece[0] or piece[2] <= box[0] or box[3] <= piece[1] or piece[3] <= box[1]
            )
            assert apart, (name.text, box, piece)


def test_svg_of_a_finished_game_says_it_is_over():
    view = played_view(2, steps=2000)
    assert view["over"]
    assert "Game over" in render_svg(view)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_terminal_board_shows_map_market_and_players(seats):
    view = played_view(seats, seat=1)
    console = Console(record=True, width=120, color_system=None)
    console.print(render(view, 1))
    text = console.export_text()
    for sp in view["map"]["spaces"]:
        assert f"{sp['id']:>3}" in text
    for m in view["market"]:
        assert m["card"]["name"] in text
    assert "(you)" in text
    assert f"Turn {view['turn']}" in text
    for p in view["players"]:
        assert f"{p['markers_left']} left" in text


def test_terminal_board_renders_for_a_spectator():
    view = played_view(3, seat=None)
    console = Console(record=True, width=120, color_system=None)
    console.print(render(view, None))
    assert "(you)" not in console.export_text()
