"""A real headless browser for the page tests: Debian's chromium driven by playwright.

``.ci/run`` installs chromium (``/usr/bin/chromium``, or ``DICEHALL_CHROMIUM``); playwright
never downloads a browser of its own. Each test saves a screenshot of its page under
``tests/artifacts/`` (or ``DICEHALL_ARTIFACTS``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

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
    """A fresh tab; fails the test if the page's script throws or the page asks anything of
    another host (the pages load nothing from outside)."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.set_default_timeout(60_000)
    errors: list[str] = []
    elsewhere: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "request",
        lambda request: (
            None
            if urlsplit(request.url).hostname == "127.0.0.1" or request.url.startswith("data:")
            else elsewhere.append(request.url)
        ),
    )
    yield page
    context.close()
    assert errors == [], errors
    assert elsewhere == [], elsewhere


def fits_a_phone(page) -> bool:
    """Whether the page needs no sideways scrolling 390 px wide (a phone held upright)."""
    page.set_viewport_size({"width": 390, "height": 844})
    return page.evaluate("document.documentElement.scrollWidth") <= 390


def screenshot(page, name: str) -> Path:
    """Save the whole page as ``<name>.png`` among the test artifacts."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
