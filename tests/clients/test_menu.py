"""The terminal menu: pages that fit the terminal, narrowing by words, stable numbers."""

from __future__ import annotations

from clients.cli.menu import Menu, page_size

KEEPS = [
    {"action": {"type": "reroll", "keep": [n]}, "text": f"Keep die {n} ({colour})"}
    for n, colour in enumerate(["red", "blue", "green"] * 20)
]
ITEMS = [{"action": {"type": "stop"}, "text": "Stop rolling"}, *KEEPS]


def rows(menu: Menu) -> int:
    return len(menu.render().plain.splitlines()) + 1  # and the prompt line


def test_a_long_menu_pages_to_fit_a_24_row_terminal_under_the_board():
    size = page_size(24, board_rows=10)
    menu = Menu(ITEMS, size)
    assert 10 + rows(menu) <= 24
    assert "page 1 of" in menu.render().plain
    assert menu.answer("n") is None
    assert "page 2 of" in menu.render().plain


def test_a_menu_alone_fits_the_terminal_even_under_a_tall_board():
    for height in (12, 24, 40):
        menu = Menu(ITEMS, page_size(height, board_rows=100))
        assert rows(menu) <= height
        assert len(menu.render().plain.splitlines()) >= 4, "a few choices stay visible"


def test_a_short_menu_is_one_page_without_paging_keys():
    menu = Menu(ITEMS[:3], page_size(24, board_rows=5))
    text = menu.render().plain
    assert "page" not in text and "n/p" not in text
    assert text.splitlines()[1:4] == ["1 Stop rolling", "2 Keep die 0 (red)", "3 Keep die 1 (blue)"]


def test_typed_words_narrow_the_menu_and_numbers_stay_those_of_the_full_list():
    menu = Menu(ITEMS, 5)
    assert menu.answer("green") is None
    lines = menu.render().plain.splitlines()
    assert "20 with 'green'" in lines[0]
    assert lines[1] == " 4 Keep die 2 (green)"
    assert menu.answer("4") == 3
    assert menu.answer("purple") == "no choice contains 'purple'"
    assert "with 'green'" in menu.render().plain, "a word matching nothing keeps the old ones"
    assert menu.answer("*") is None and "with" not in menu.render().plain.splitlines()[0]
    assert menu.answer("reroll") is None and "60 with 'reroll'" in menu.render().plain


def test_numbers_outside_the_list_and_quit():
    menu = Menu(ITEMS, 5)
    assert menu.answer("0") == "'0' is not a number between 1 and 61"
    assert menu.answer("61") == 60
    assert menu.answer("Q") == "quit"
