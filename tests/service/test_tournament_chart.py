"""The tournament chart fits its text: names on the left, figures on the right, the title."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from service.pictures.tournament import render_chart, text_width

SVG = "{http://www.w3.org/2000/svg}"


def standing(rank: int, name: str, mu: float, wins: int) -> dict:
    return {
        "rank": rank,
        "name": name,
        "mu": mu,
        "sigma": 8.333,
        "interval": [mu - 16.7, mu + 16.7],
        "wins": wins,
        "games": 1000,
        "account": None,
    }


def test_every_text_of_the_chart_lies_inside_the_picture():
    tournament = {
        "id": "t" * 16,
        "game": "carcassonne",
        "format": "round_robin",
        "progress": {"finished": 1000, "total": 1000},
        "standings": [
            standing(1, "heuristic-with-a-rather-long-name", 1234.5, 999),
            standing(2, "random", -1234.5, 1),
        ],
    }
    root = ET.fromstring(render_chart(tournament))
    width = float(root.get("width"))
    texts = list(root.iter(f"{SVG}text"))
    assert any("999/1000 won" in (t.text or "") for t in texts)
    for text in texts:
        size = int(text.get("font-size", "13"))
        x, span = float(text.get("x")), text_width(text.text or "", size)
        anchor = text.get("text-anchor", "start")
        lo, hi = {"start": (x, x + span), "end": (x - span, x)}.get(
            anchor, (x - span / 2, x + span / 2)
        )
        assert lo >= 0 and hi <= width, (text.text, lo, hi, width)
