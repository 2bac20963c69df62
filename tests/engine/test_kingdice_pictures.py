"""The King of the Dice pictures: the SVG map and the rich terminal board, from views only."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest
from rich.console import Console

from clients.boards.kingdice import render
from engine.dice import Dice
from engine.kingdice import GAME
from engine.kingdice.data import TERRAINS
from service.pictures.kingdice import PLAYER, render_svg

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
    discs = [c for c in root.iter(f"{SVG}circle") if c.get("r") == "10" and c.get("fill") in PLAYER]
    assert len(discs) == markers
    fires = sum(1 for sp in view["map"]["spaces"] if sp["dragon"])
    assert len([p for p in root.iter(f"{SVG}path") if p.get("fill") == "#e8421f"]) == fires
    for m in view["market"]:
        assert m["card"]["name"] in joined


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
