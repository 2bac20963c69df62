"""A menu of legal actions that fits the terminal: pages, narrowing by typed words, kinds.

Long lists (Burgundy's hundred marks, King of the Dice's 63 keeps) never scroll the board
away: a page holds what fits under the board, the numbers stay those of the full list, and
typing words keeps only the actions whose text (or kind) contains them all. Nothing here
knows a game: it works on the server's ``[{"action", "text"}]`` items.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text

MENU_CHROME = 3
"""Rows a menu page adds to its items: the title, the footer and the prompt."""
MIN_ITEMS = 8
"""A page shows at least this many items (fewer only in a tiny terminal), however tall the
board: then the top of the board scrolls away, but most of it stays in sight."""


def item_text(item: Mapping[str, Any]) -> str:
    """The sentence of a legal-action item (the server's ``text``, else the action's type)."""
    text = item.get("text")
    if text:
        return str(text)
    action = item.get("action", item)
    return str(action.get("type", action)) if isinstance(action, Mapping) else str(action)


def item_kind(item: Mapping[str, Any]) -> str:
    """The action's ``type`` (its kind, for grouping)."""
    action = item.get("action", item)
    return str(action.get("type", "")) if isinstance(action, Mapping) else ""


def page_size(height: int, board_rows: int) -> int:
    """Items per page so that the board and the menu fit ``height`` rows together when they
    can, and the menu alone always does."""
    fits = height - MENU_CHROME
    under_board = fits - board_rows - 1
    return max(1, min(fits, max(MIN_ITEMS, under_board)))


@dataclass
class Menu:
    """The state of one menu: the items, the words typed to narrow it, the page shown."""

    items: Sequence[Mapping[str, Any]]
    size: int
    words: list[str] = field(default_factory=list)
    page: int = 0

    @property
    def texts(self) -> list[str]:
        return [item_text(item) for item in self.items]

    def shown(self) -> list[int]:
        """0-based indices of the items that match the typed words."""
        wanted = [w.lower() for w in self.words]
        return [
            n
            for n, item in enumerate(self.items)
            if all(w in f"{item_text(item)} {item_kind(item)}".lower() for w in wanted)
        ]

    def pages(self) -> int:
        return max(1, -(-len(self.shown()) // self.size))

    def render(self) -> Text:
        """The current page: a title line, one line per item, a footer line with the keys."""
        shown = self.shown()
        self.page = min(self.page, self.pages() - 1)
        on_page = shown[self.page * self.size : (self.page + 1) * self.size]
        width = len(str(len(self.items)))
        out = Text()
        title = f"Your move ({len(self.items)} choices"
        if self.words:
            title += f", {len(shown)} with {' '.join(self.words)!r}"
        if self.pages() > 1:
            title += f", page {self.page + 1} of {self.pages()}"
        out.append(title + ")\n", style="bold")
        for n in on_page:
            out.append(f"{n + 1:>{width}} ", style="cyan")
            out.append(self.texts[n] + "\n")
        out.append(self.footer(), style="dim")
        out.no_wrap, out.overflow = True, "ellipsis"  # one row each, whatever the width
        return out

    def footer(self) -> str:
        keys = []
        if self.pages() > 1:
            keys.append("n/p: page")
        if len(self.items) > self.size:
            kinds = Counter(item_kind(item) for item in self.items)
            sample = ", ".join(k for k, _ in kinds.most_common(2) if k)
            keys.append(f"words narrow ({sample or 'any word'})")
        if self.words:
            keys.append("* all")
        keys.append("q quits")
        return " · ".join(keys)

    def answer(self, typed: str) -> int | str | None:
        """Handle one answer: the chosen 0-based index; ``"quit"``; None when the page or the
        words changed; any other string is a message to show before asking again. An empty
        answer turns the page."""
        typed = typed.strip()
        low = typed.lower()
        if low in ("q", "quit"):
            return "quit"
        if low.isdigit():
            number = int(low)
            if 1 <= number <= len(self.items):
                return number - 1
            return f"{typed!r} is not a number between 1 and {len(self.items)}"
        if low in ("n", ""):
            self.page = (self.page + 1) % self.pages()
            return None
        if low == "p":
            self.page = (self.page - 1) % self.pages()
            return None
        if low == "*":
            self.words, self.page = [], 0
            return None
        before = self.words
        self.words, self.page = typed.split(), 0
        if not self.shown():
            self.words = before
            return f"no choice contains {typed!r}"
        return None
