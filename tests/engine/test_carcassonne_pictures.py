"""Carcassonne pictures: the SVG turn and the terminal board, drawn from JSON views only."""

from __future__ import annotations

import io
import json
import random
import xml.etree.ElementTree as ET

from rich.console import Console

from clients.boards.carcassonne import block
from clients.boards.carcassonne import render as render_board
from engine.carcassonne import GAME
from engine.carcassonne.picture import render_svg
from engine.dice import Dice
from engine.simulate import make_bots
from tests.engine.test_carcassonne_support import CITY_OF_THREE, act, build, new_game, set_roll

SVG = "{http://www.w3.org/2000/svg}"


def views_along_a_game(seats: int = 3, seed: str = "pictures", steps: int = 300) -> list[dict]:
    """JSON copies of the view after every step of a seeded heuristic game."""
    dice = Dice(seed)
    state = GAME.setup(seats, GAME.validate_options(seats, {}), dice)
    bots = make_bots(GAME, ["heuristic"] * seats)
    rng = random.Random(5)
    views = [json.loads(json.dumps(GAME.view(state, 0)))]
    for _ in range(steps):
        if GAME.result(state) is not None:
            break
        seat = state.turn.seat
        action = bots[seat].choose(GAME.view(state, seat), GAME.legal_actions(state, seat), rng)
        GAME.apply(state, seat, action, dice)
        views.append(json.loads(json.dumps(GAME.view(state, 0))))
    return views


def board_text(view: dict) -> str:
    out = io.StringIO()
    Console(file=out, width=120, color_system=None).print(render_board(view, 0))
    return out.getvalue()


def test_svg_draws_every_built_die_turned_as_built():
    for view in views_along_a_game()[::7]:
        root = ET.fromstring(render_svg(view))
        turn = view["turn"]
        tiles = [
            g for g in root.iter(f"{SVG}g") if (g.get("transform") or "").startswith("translate")
        ]
        assert len(tiles) == len(turn["grid"]) + sum(
            1 for d in turn["roll"] if d["face"] not in ("knight", "catapult")
        )
        titles = [t.text for t in root.iter(f"{SVG}title") if t.text and " at (" in t.text]
        assert len(titles) == len(turn["grid"])
        for die, title in zip(turn["grid"], titles, strict=True):
            assert title.startswith(f"{die['face']} at ({die['x']}, {die['y']}), rotation ")
            assert title.endswith("city on " + "+".join(die["edges"]))


def test_svg_rotates_city_segments_by_the_built_rotation():
    state, dice = new_game()
    build(state, dice, ("corner", 0, 0, 3))
    root = ET.fromstring(render_svg(GAME.view(state, 0)))
    rotations = [p.get("transform") for p in root.iter(f"{SVG}path") if p.get("transform")]
    assert rotations[0].startswith("rotate(270 ")


def test_svg_outlines_the_scoring_city_in_gold_and_marks_open_edges():
    state, dice = new_game()
    build(state, dice, *CITY_OF_THREE, ("cap", 1, 0, 1))
    view = GAME.view(state, 0)
    root = ET.fromstring(render_svg(view))
    gold = [r for r in root.iter(f"{SVG}rect") if r.get("stroke") == "#e0a800"]
    assert len(gold) == 3
    open_marks = [ln for ln in root.iter(f"{SVG}line") if ln.get("stroke") == "#c0392b"]
    assert len(open_marks) == 1, "the lone cap's east edge is the only open city edge"
    text = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert "score now: 1 point (closed city of 3)" in text
    assert "Carcassonne: seat 0 to play" in text


def test_svg_shows_the_roll_and_its_statuses():
    state, dice = new_game()
    set_roll(state, ["cap", "knight", "catapult", "band"])
    act(state, dice, {"type": "keep_knight", "die": 1})
    act(state, dice, {"type": "place", "die": 0, "x": 0, "y": 0, "rotation": 0})
    root = ET.fromstring(render_svg(GAME.view(state, 0)))
    labels = [t.text for t in root.iter(f"{SVG}text") if t.text and t.text[0].isdigit()]
    assert [x for x in labels if " " in x][:4] == ["0 placed", "1 aside", "2 gone", "3 free"]


def test_svg_shows_the_winner():
    state, dice = new_game()
    state.scores = [45, 0]
    build(state, dice, *CITY_OF_THREE)
    act(state, dice, {"type": "score"})
    svg = render_svg(GAME.view(state, 1))
    assert state.scores[0] > 42, "the winner passed the target: the title gives the real score"
    assert f"seat 0 wins ({state.scores[0]} points)" in svg
    assert render_svg(GAME.view(state, 1), 1) == svg


def test_terminal_title_gives_the_winners_real_score():
    state, dice = new_game()
    state.scores = [45, 0]
    build(state, dice, *CITY_OF_THREE)
    act(state, dice, {"type": "score"})
    console = Console(width=100, record=True, color_system=None)
    console.print(render_board(GAME.view(state, 0), 0))
    assert f"seat 0 wins ({state.scores[0]} points)" in console.export_text()


def test_terminal_block_draws_city_edges():
    assert block(["N"]) == [[False, True, False], [False, False, False], [False] * 3]
    assert block(["N", "E"]) == [[False, True, True], [False, True, True], [False] * 3]
    assert block(["E", "W"]) == [[False] * 3, [True, True, True], [False] * 3]


def test_terminal_board_draws_the_grid_roll_and_players():
    state, dice = new_game(3)
    build(state, dice, *CITY_OF_THREE)
    set_roll(state, ["knight", "corner"])
    text = board_text(GAME.view(state, 0))
    assert "Carcassonne: seat 0 to play" in text
    assert "0: knight" in text and "1: corner" in text and "on table" in text
    assert "score now: 1 (closed city of 3)" in text
    assert text.count("██") >= 3 + 3 + 3, "three dice of the column and the corner in the roll"
    assert "▶ 0" in text


def test_terminal_board_renders_every_view_of_a_game():
    for view in views_along_a_game(seats=2, seed="terminal"):
        assert "Carcassonne" in board_text(view)


def test_the_board_draws_rolled_dice_from_the_edges_the_view_publishes():
    state, _ = new_game()
    set_roll(state, ["cap", "band", "knight", "catapult"])
    view = json.loads(json.dumps(GAME.view(state, 0)))
    assert [die["edges"] for die in view["turn"]["roll"]] == [["N"], ["N", "S"], [], []]
    turned = json.loads(json.dumps(view))
    turned["turn"]["roll"][0]["edges"] = ["S"]
    assert board_text(turned) != board_text(view), "the board restates the faces' edges"
