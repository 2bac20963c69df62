"""Terminal boards match the moves: the coordinates the menus use are on the board, every
symbol has a legend, and nothing wraps in the middle of a word in an 80-column terminal."""

from __future__ import annotations

import copy
import json
import re

from rich.console import Console

from clients.boards import diceland
from clients.cli.render import board
from clients.sdk import Client, RetryPolicy
from clients.sdk.client import EDITIONS
from engine.burgundy import GAME as BURGUNDY
from engine.burgundy.duchy import CELLS
from engine.dice import Dice
from engine.diceland import GAME as DICELAND
from engine.diceland.maps import edition_data
from engine.games import get_game
from engine.simulate import make_bots, play


def drawn(game: str, view: dict, seat: int, client: Client | None = None) -> str:
    console = Console(width=80, record=True, color_system=None)
    console.print(board(game, view, seat, client))
    return console.export_text()


def rendered(view: dict, edition: dict) -> str:
    """Diceland's board of seat 0 drawn from ``edition``'s designed data."""
    console = Console(width=80, record=True, color_system=None)
    console.print(diceland.render(view, 0, edition))
    return console.export_text()


def burgundy_view() -> dict:
    dice = Dice("boards")
    state = BURGUNDY.setup(2, BURGUNDY.validate_options(2, {}), dice)
    for seat in (0, 1):
        BURGUNDY.apply(state, seat, BURGUNDY.legal_actions(state, seat)[0], dice)
    return BURGUNDY.view(state, 0)


def test_burgundy_sheet_shows_the_row_and_column_of_every_hex_the_menus_name():
    text = drawn("burgundy", burgundy_view(), 0)
    lines = text.splitlines()
    for row in range(7):
        line = next(li for li in lines if re.match(rf"│  {row}  ", li))
        cols = [c for r, c in CELLS if r == row]
        shown = [int(m) for m in re.findall(r"[bgpyoC](\d)", line.split("│")[1][:36])]
        marked = line.count("\u2713")
        assert len(shown) + marked == len(cols), line
        assert set(shown) <= set(cols)
    assert "row [row, col]" in text


def test_burgundy_legend_explains_every_letter_and_nothing_wraps_mid_word():
    text = drawn("burgundy", burgundy_view(), 0)
    for letter, word in (
        ("b", "river"),
        ("g", "mine"),
        ("p", "monastery"),
        ("y", "pasture"),
        ("o", "city"),
        ("C", "castle"),
    ):
        assert f"{letter} {word}" in text
    for word in ("commodity", "pasture: same", "silver", "completed first/second"):
        assert word in text
    assert all(len(line) <= 80 for line in text.splitlines())
    assert "\u2026" not in text, "a cell was cut short"


def test_diceland_map_shows_q_in_each_hex_and_r_on_each_row(live_server: str):
    """The board is drawn from the layouts of the edition the view names, read through the
    SDK once per process: a client of a server that is not there draws it from the cache."""
    dice = Dice("boards")
    state = DICELAND.setup(2, DICELAND.validate_options(2, {"maps": ["A", "B"]}), dice)
    view = json.loads(json.dumps(DICELAND.view(state, 0)))
    assert "maps" not in view
    assert "board picture failed" in drawn("diceland", view, 0), "no layouts without a client"
    EDITIONS.pop(("diceland", view["edition"]), None)
    text = drawn("diceland", view, 0, Client(live_server))
    read = EDITIONS[("diceland", view["edition"])]
    assert read["maps"] == edition_data(view["edition"])
    gone = Client("http://127.0.0.1:9", retry=RetryPolicy(attempts=1))
    assert drawn("diceland", view, 0, gone) == text, "the edition is not read again"
    data = read["maps"][view["players"][0]["map"]]
    hexes = {(q, r) for t in data["territories"] for q, r in t["hexes"]}
    for r in sorted({r for _, r in hexes}):
        line = next(li for li in text.splitlines() if li.startswith(f"│ r{r} "))
        numbers = [int(n) for n in re.findall(r"-?\d+", line[5:])]
        assert sorted(q for q, rr in hexes if rr == r) == sorted(
            n for n in numbers if (n, r) in hexes
        )
    assert "(q,r)" in text and "treasure" in text and "obstacle" in text


def test_every_board_of_a_finished_game_fits_80_columns_without_cut_words(live_server: str):
    hall = Client(live_server)
    for name, seats in (("carcassonne", 2), ("kingdice", 2), ("diceland", 2), ("burgundy", 1)):
        game = get_game(name)
        done = play(game, make_bots(game, ["heuristic"] * seats), f"boards-{name}")
        text = drawn(name, game.view(done.state, 0), 0, hall)
        assert all(len(line) <= 80 for line in text.splitlines()), name
        assert "board picture failed" not in text, name


def test_burgundy_legend_and_bonus_colours_come_from_the_rules_the_view_publishes():
    view = burgundy_view()
    rules = view["duchy"]["hex_rules"]
    assert rules["blue"] == {
        "land": "river",
        "numbers": "range",
        "pips": [5, 6],
        "bonus": "commodity",
    }
    text = drawn("burgundy", view, 0)
    assert "b river 5-6" in text and "y pasture: same" in text
    changed = copy.deepcopy(view)
    changed["duchy"]["hex_rules"]["blue"]["pips"] = [4, 6]
    changed["duchy"]["hex_rules"]["orange"]["land"] = "town"
    text = drawn("burgundy", changed, 0)
    assert "b river 4-6" in text and "o town: differ" in text, "the board restates the pips"
    styled = Console(width=80, record=True, color_system="truecolor")
    styled.print(board("burgundy", view, 0))
    swapped = copy.deepcopy(view)
    rules = swapped["duchy"]["hex_rules"]
    rules["purple"]["bonus"], rules["gray"]["bonus"] = rules["gray"]["bonus"], "monk"
    again = Console(width=80, record=True, color_system="truecolor")
    again.print(board("burgundy", swapped, 0))
    assert again.export_html() != styled.export_html(), "the board restates the bonus colours"


def test_diceland_treasure_boxes_come_from_the_map_the_view_publishes():
    dice = Dice("boards")
    state = DICELAND.setup(2, DICELAND.validate_options(2, {}), dice)
    for seat in range(2):  # each seat picks its board's side first
        DICELAND.apply(state, seat, DICELAND.legal_actions(state, seat)[0], dice)
    view = DICELAND.view(state, 0)
    edition = DICELAND.edition_data(view["edition"])
    data = edition["maps"][view["players"][0]["map"]]
    boxes = sum(len(t["treasures"]) for t in data["territories"])
    assert rendered(view, edition).count("\u25cb") == boxes
    changed = copy.deepcopy(edition)
    territory = next(t for t in changed["maps"][data["name"]]["territories"] if t["treasures"])
    territory["treasures"] = []
    assert rendered(view, changed).count("\u25cb") < boxes, "the board restates 2"


def test_king_of_the_dice_throw_count_comes_from_the_view():
    game = get_game("kingdice")
    dice = Dice("boards")
    state = game.setup(2, game.validate_options(2, {}), dice)
    while not game.view(state, None)["roll"]:
        seat = next(iter(game.to_act(state)))
        game.apply(state, seat, game.legal_actions(state, seat)[0], dice)
    view = game.view(state, 0)
    assert view["roll"]["throws"] == 3
    assert "Throw 1/3" in drawn("kingdice", view, 0)
    view["roll"]["throws"] = 4
    assert "Throw 1/4" in drawn("kingdice", view, 0), "the board restates the three throws"


def test_carcassonne_title_counts_the_rolls_from_the_view():
    game = get_game("carcassonne")
    view = game.view(game.setup(2, game.validate_options(2, {}), Dice("boards")), 0)
    made = view["turn"]["rolls_made"]
    assert f"roll {made} of 3" in drawn("carcassonne", view, 0)
    view["turn"]["rolls_left"] += 1
    assert f"roll {made} of 4" in drawn("carcassonne", view, 0), "the board restates ROLLS"


def test_diceland_board_shows_both_sides_while_the_side_is_picked():
    """Before the first turn the menu offers the two sides of the seat's board, so the board
    shows both, with their titles and coordinates."""
    state = DICELAND.setup(2, DICELAND.validate_options(2, {"boards": ["B/H", "A/C"]}), Dice("x"))
    view = DICELAND.view(state, 0)
    shown = rendered(view, DICELAND.edition_data(view["edition"]))
    assert "board B/H: pick a side" in shown
    assert "Side B: The Ridges" in shown and "Side H: The Rim" in shown
    assert "sides being picked" in shown and "active" not in shown, "the first player is unknown"
