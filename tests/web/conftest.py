"""A real headless browser for the page tests: Debian's chromium driven by playwright.

``.ci/run`` installs chromium (``/usr/bin/chromium``, or ``DICEHALL_CHROMIUM``); playwright
never downloads a browser of its own. Each test saves a screenshot of its page under
``tests/artifacts/`` (or ``DICEHALL_ARTIFACTS``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("DICEHALL_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(os.environ.get("DICEHALL_ARTIFACTS", ROOT / "tests" / "artifacts"))


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture()
def page(browser) -> Iterator[object]:
    """A fresh tab; fails the test if the page's script throws."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.set_default_timeout(60_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert errors == [], errors


def screenshot(page, name: str) -> Path:
    """Save the whole page as ``<name>.png`` among the test artifacts."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
