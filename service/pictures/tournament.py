"""A tournament's ratings as an SVG chart: each participant's mu with its +-2 sigma interval."""

from __future__ import annotations

from html import escape
from typing import Any

ROW = 34
LEFT = 170
WIDTH = 720
RIGHT = 150


def render_chart(tournament: dict[str, Any]) -> str:
    """The standings of ``tournament`` (as the API describes it) drawn as an SVG document."""
    rows = tournament.get("standings") or []
    height = 90 + ROW * max(1, len(rows))
    lows = [r["interval"][0] for r in rows] or [0.0]
    highs = [r["interval"][1] for r in rows] or [50.0]
    lo, hi = min(lows), max(highs)
    span = (hi - lo) or 1.0
    plot = WIDTH - LEFT - RIGHT

    def x(value: float) -> float:
        return LEFT + (value - lo) / span * plot

    progress = tournament.get("progress", {})
    title = (
        f"{tournament.get('game', '')} tournament {tournament.get('id', '')}: "
        f"{progress.get('finished', 0)}/{progress.get('total', 0)} games, "
        f"{tournament.get('format', '')}"
    )
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="13">',
        f'<rect width="{WIDTH}" height="{height}" fill="#fdfcf8"/>',
        f'<text x="16" y="26" font-size="15" font-weight="bold">{escape(title)}</text>',
        '<text x="16" y="46" fill="#555">openskill Plackett-Luce rating: dot = mu, '
        "bar = mu +- 2 sigma; ranked by mu - 3 sigma</text>",
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
            f'<text x="{LEFT - 10}" y="{y + 4}" text-anchor="end">'
            f"{row['rank']}. {escape(row['name'])}</text>"
            f'<line x1="{x(low):.1f}" y1="{y}" x2="{x(high):.1f}" y2="{y}" '
            f'stroke="{colour}" stroke-width="6" stroke-linecap="round" opacity="0.45"/>'
            f'<circle cx="{x(row["mu"]):.1f}" cy="{y}" r="6" fill="{colour}"/>'
            f'<text x="{WIDTH - RIGHT + 12}" y="{y + 4}" fill="#333">'
            f"{row['mu']:.1f} +- {2 * row['sigma']:.1f}  ({row['wins']}/{row['games']} won)</text>"
        )
    parts.append("</svg>")
    return "".join(parts)
