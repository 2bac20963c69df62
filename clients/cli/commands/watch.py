"""``dicehall watch``: follow a game's events and redraw the view until the game ends.

Without a token the view is the spectator's; with a seat token it is that seat's. Events
come from the long-poll by default, or from the Server-Sent Events stream with ``--sse``.
"""

from __future__ import annotations

from typing import Any

import click
from rich.rule import Rule

from clients.cli.console import console
from clients.cli.options import pass_client, wait_option
from clients.cli.render import board, result_table, seat_names, seats_to_act
from clients.sdk import Client

REDRAW_ON = {"game_started", "to_act", "game_over", "seat_joined"}
"""Stream events after which the view has changed (one arrives after every move)."""


def draw(client: Client, game_id: str, game: str, names: list[str]) -> dict[str, Any]:
    """Print the caller's current view; returns it."""
    current = client.view(game_id)
    waiting = ", ".join(
        names[s] if s < len(names) else str(s) for s in seats_to_act(current.get("to_act"))
    )
    status = current["status"] + (f" - waiting for {waiting}" if waiting else "")
    if console.is_terminal:
        console.clear()  # a person sees one live board; a pipe gets every frame in turn
    console.print(Rule(f"{game} {game_id} v{current['version']} ({status})"))
    console.print(board(game, current["view"], current.get("seat"), client))
    if current["status"] == "over" and current.get("result"):
        console.print(result_table(current["result"], names))
    return current


@click.command()
@click.argument("game_id")
@click.option("--sse", is_flag=True, help="Follow the Server-Sent Events stream.")
@wait_option
@click.option("--once", is_flag=True, help="Draw the current view and stop.")
@pass_client
def watch(client: Client, game_id: str, sse: bool, wait: float, once: bool) -> None:
    """Follow GAME_ID and redraw its view after every move until it is over."""
    summary = client.game(game_id)
    game, names = summary["game"], seat_names(summary)
    current = draw(client, game_id, game, names)
    if once or current["status"] == "over":
        return
    if sse:
        for event in client.stream_events(game_id):
            kind = event.data.get("type") if isinstance(event.data, dict) else event.event
            redraw = event.event in REDRAW_ON or kind in REDRAW_ON
            if redraw and draw(client, game_id, game, names)["status"] == "over":
                return
        return
    cursor: str | None = None
    while True:
        polled = client.events(game_id, after=cursor, wait=wait)
        cursor = polled.get("cursor", cursor)
        if polled.get("events") and draw(client, game_id, game, names)["status"] == "over":
            return
