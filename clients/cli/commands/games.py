"""``dicehall games``: the server's game catalogue as a table."""

from __future__ import annotations

import click
from rich.table import Table

from clients.cli.console import console
from clients.cli.options import pass_client
from clients.cli.render import compact
from clients.sdk import Client


@click.command()
@pass_client
def games(client: Client) -> None:
    """List the games the server offers."""
    table = Table(title="dicehall games", header_style="bold")
    table.add_column("name", style="cyan")
    table.add_column("title")
    table.add_column("seats", justify="center")
    table.add_column("bots")
    table.add_column("options example")
    for game in client.catalogue():
        table.add_row(
            str(game.get("name")),
            str(game.get("title", "")),
            f"{game.get('min_seats', '?')}-{game.get('max_seats', '?')}",
            ", ".join(game.get("bots") or []),
            compact(game.get("options_example") or {}),
        )
    console.print(table)
