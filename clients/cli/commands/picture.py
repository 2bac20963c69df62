"""``dicehall picture``: save a game's board as SVG (the server draws it)."""

from __future__ import annotations

from pathlib import Path

import click

from clients.cli.console import console
from clients.cli.options import pass_client, writable_output, write_output
from clients.sdk import Client


@click.command()
@click.argument("game_id")
@click.option(
    "--player",
    type=click.IntRange(0),
    default=None,
    help="Whose sheet or map, where each player has their own.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="File to write (default: <GAME_ID>.svg; '-' prints to stdout).",
)
@pass_client
def picture(client: Client, game_id: str, player: int | None, output: Path | None) -> None:
    """Save GAME_ID's board picture as an SVG file."""
    to_stdout = output is not None and str(output) == "-"
    target = output or Path(f"{game_id}.svg")
    if not to_stdout:
        writable_output(target, "'-o' / '--output'")
    svg = client.picture_svg(game_id, player)
    if to_stdout:
        click.echo(svg)
        return
    write_output(target, svg)
    console.print(f"wrote {target} ({len(svg):,} bytes)")
