"""A tournament's ratings as an SVG chart: each participant's mu with its +-2 sigma interval."""

from __future__ import annotations

from html import escape
from typing import Any

ROW = 34
PLOT = 400
"""Width of the plotted ratings; the margins widen to fit the names and the figures."""
CHAR = {13: 7.8, 15: 9.6}
"""Width of a character at each font size, generously (sans-serif; bold titles)."""


def text_width(text: str, size: int = 13) -> float:
    """How wide ``text`` is drawn at ``size`` px, at most (the picture is sized by it)."""
    return len(text) * CHAR[size]


def figures(row: dict[str, Any]) -> str:
    """The right-hand text of one participant: mu, the interval and the wins."""
    return f"{row['mu']:.1f} +- {2 * row['sigma']:.1f}  ({row['wins']}/{row['games']} won)"


LEGEND = "openskill Plackett-Luce rating: dot = mu, bar = mu +- 2 sigma; ranked by mu - 3 sigma"


def render_chart(tournament: dict[str, Any]) -> str:
    """The standings of ``tournament`` (as the API describes it) drawn as an SVG document."""
    rows = tournament.get("standings") or []
    height = 90 + ROW * max(1, len(rows))
    lows = [r["interval"][0] for r in rows] or [0.0]
    highs = [r["interval"][1] for r in rows] or [50.0]
    lo, hi = min(lows), max(highs)
    span = (hi - lo) or 1.0
    names = [f"{r['rank']}. {r['name']}" for r in rows]
    left = 30 + max((text_width(n) for n in names), default=0.0)
    right = 36 + max((text_width(figures(r)) for r in rows), default=0.0)
    plot = PLOT

    def x(value: float) -> float:
        return left + (value - lo) / span * plot

    progress = tournament.get("progress", {})
    title = (
        f"{tournament.get('game', '')} tournament {tournament.get('id', '')}: "
        f"{progress.get('finished', 0)}/{progress.get('total', 0)} games, "
        f"{tournament.get('format', '')}"
    )
    width = round(max(left + plot + right, 32 + text_width(title, 15), 32 + text_width(LEGEND)))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="13">',
        f'<rect width="{width}" height="{height}" fill="#fdfcf8"/>',
        f'<text x="16" y="26" font-size="15" font-weight="bold">{escape(title)}</text>',
        f'<text x="16" y="46" fill="#555">{LEGEND}</text>',
    ]
    ticks = 5
    for i in range(ticks + 1):
        value = lo + span * i / ticks
        parts.append(
            f'<line x1="{x(value):.1f}" y1="60" x2="{x(value):.1f}" y2="{height - 20}" '
            f'stroke="#e3e0d8"/>'
            f'<text x="{x(value):.1f}" y="{height - 6}" text-anchor="middle" fill="#777">'
            f"{value:.1f}</text>"
        )
    for n, row in enumerate(rows):
        y = 78 + n * ROW
        colour = "#2b6cb0" if row.get("account") else "#2f855a"
        low, high = row["interval"]
        parts.append(
            f'<text x="{left - 14:.1f}" y="{y + 4}" text-anchor="end">'
            f"{escape(names[n])}</text>"
            f'<line x1="{x(low):.1f}" y1="{y}" x2="{x(high):.1f}" y2="{y}" '
            f'stroke="{colour}" stroke-width="6" stroke-linecap="round" opacity="0.45"/>'
            f'<circle cx="{x(row["mu"]):.1f}" cy="{y}" r="6" fill="{colour}"/>'
            f'<text x="{left + plot + 24:.1f}" y="{y + 4}" fill="#333">'
            f"{escape(figures(row))}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)
