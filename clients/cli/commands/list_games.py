"""``dicehall list``: the server's most recent games, newest first."""

from __future__ import annotations

import click
from rich.table import Table

from clients.cli.console import console
from clients.cli.options import pass_client
from clients.cli.render import compact, seat_names, seats_to_act
from clients.sdk import Client


@click.command("list")
@click.option("--limit", default=20, show_default=True, type=click.IntRange(1, 100))
@click.option("--offset", default=0, show_default=True, type=click.IntRange(0))
@pass_client
def list_games(client: Client, limit: int, offset: int) -> None:
    """List recent games (to watch, replay or verify them)."""
    table = Table(title="recent games", header_style="bold")
    for column in ("id", "game", "status", "version", "seats", "to act", "scores"):
        table.add_column(column, justify="right" if column == "version" else "left")
    for summary in client.games(limit=limit, offset=offset):
        result = summary.get("result") or {}
        table.add_row(
            str(summary.get("id")),
            str(summary.get("game")),
            str(summary.get("status")),
            str(summary.get("version")),
            ", ".join(seat_names(summary)),
            ", ".join(str(s) for s in seats_to_act(summary.get("to_act"))),
            compact(result.get("scores")) if result else "",
        )
    console.print(table)
