"""``dicehall replay``: print a game's action log, turn by turn.

Only what the server publishes is shown: other seats' sealed choices stay hidden and the
draws appear once the game is over (with the seed that produced them).
"""

from __future__ import annotations

import click
from rich.table import Table

from clients.cli.console import console, shown
from clients.cli.options import pass_client
from clients.cli.render import compact, seat_names
from clients.sdk import Client


@click.command()
@click.argument("game_id")
@click.option(
    "--draws/--no-draws",
    default=True,
    show_default=True,
    help="Show the dice draws of each turn (once the game is over).",
)
@pass_client
def replay(client: Client, game_id: str, draws: bool) -> None:
    """Print GAME_ID's log: who did what, turn by turn, and the dice each turn drew."""
    summary = client.game(game_id)
    log = client.log(game_id)
    names = seat_names(summary)
    console.print(
        f"[bold]{summary['game']}[/] game [cyan]{game_id}[/] ({log.get('status')}, "
        f"version {log.get('version')})"
    )
    console.print(f"seed commitment {log.get('commitment')}")
    if log.get("seed"):
        console.print(f"seed {shown(log['seed'])}")
    table = Table(header_style="bold", expand=False)
    table.add_column("turn", justify="right")
    table.add_column("seat")
    table.add_column("action")
    if draws:
        table.add_column("draws (value/outcomes)")
    for entry in log.get("entries") or []:
        seat = entry.get("seat")
        who = "-" if seat is None else (names[seat] if seat < len(names) else str(seat))
        action = entry.get("action")
        what = "[dim]sealed[/]" if action is None else compact(action)
        if entry.get("fallback"):
            what += " [yellow](deadline fallback)[/]"
        row = [str(entry.get("n")), who, what]
        if draws:
            drawn = entry.get("draws")
            row.append(" ".join(f"{v}/{n}" for _, n, v in drawn) if drawn else "")
        table.add_row(*row)
    console.print(table)
    if summary.get("result"):
        console.print(f"result {compact(summary['result'].get('scores'))}")
