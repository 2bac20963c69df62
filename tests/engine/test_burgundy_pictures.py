"""The Burgundy pictures: the SVG sheet and the rich terminal board, from views only."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from rich.console import Console

from clients.boards.burgundy import render
from engine.burgundy import GAME
from engine.burgundy.picture import render_svg
from engine.simulate import make_bots, play

SVG = "{http://www.w3.org/2000/svg}"


def finished_view(seat: int | None = 0):
    played = play(GAME, make_bots(GAME, ["heuristic", "random"]), "pictures", {})
    return GAME.view(played.state, seat)


def test_svg_sheet_shows_every_hex_marked_numbers_castles_and_the_score():
    view = finished_view()
    svg = render_svg(view, 1)
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    polygons = root.findall(f"{SVG}polygon")
    assert len(polygons) == 37
    texts = [t.text for t in root.iter(f"{SVG}text")]
    me = view["players"][1]
    numbers = [str(v) for row in me["marks"] for v in row if v]
    assert sorted(t for t in texts if t and t.isdigit() and len(t) == 1) == sorted(numbers)
    assert texts.count("castle") == 4
    assert any(f"= {me['total']}" in (t or "") for t in texts)
    assert "\u2713" in texts  # the starting castle
    assert render_svg(view) != svg  # None draws the viewer (seat 0), not seat 1


def test_svg_unmarked_hexes_are_pale_and_marked_hexes_full_colour():
    view = GAME.view(GAME.setup(1, GAME.validate_options(1, {}), _dice()), None)
    root = ET.fromstring(render_svg(view))
    fills = {p.get("fill") for p in root.findall(f"{SVG}polygon")}
    assert "#5b9bd5" not in fills and "#d6e6f5" in fills


def _dice():
    from engine.dice import Dice

    return Dice("pictures-blank")


def test_terminal_board_draws_offset_rows_with_numbers_and_scores():
    view = finished_view(None)
    console = Console(width=120, record=True, color_system="truecolor")
    console.print(render(view, 0))
    text = console.export_text()
    rows = view["duchy"]["rows"]
    lines = [line for line in text.splitlines() if "\u2713" in line or "castles" in line]
    assert lines, text
    for p in view["players"]:
        assert str(p["total"]) in text
    marked = [v for row in view["players"][0]["marks"] for v in row if v]
    assert all(str(v) in text for v in marked)
    assert len(rows) == 7
    styled = console.export_html()
    assert "background-color" in styled


def test_terminal_board_offsets_the_short_rows():
    view = GAME.view(GAME.setup(1, GAME.validate_options(1, {}), _dice()), None)
    console = Console(width=120, record=True)
    console.print(render(view, None))
    lines = console.export_text().splitlines()
    top = next(line for line in lines if " b0  b1  g2  g3 " in line)
    middle = next(line for line in lines if " o0  b1  b2  p3  o4  o5  o6 " in line)
    assert top.index("b0") - middle.index("o0") == 6  # half a cell (2 columns) per hex fewer
