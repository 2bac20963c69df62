"""``dicehall new``: create a game, join its human seats and print every token."""

from __future__ import annotations

import json
from typing import Any

import click
from rich.table import Table

from clients.cli.console import console
from clients.cli.options import Finite, option_pairs, parse_options, pass_client, seed_option
from clients.sdk import Client


def seat_specs(humans: int, bots: int, bot: str, names: tuple[str, ...]) -> list[dict[str, Any]]:
    """Human seats first (named from ``names`` or ``player1``...), then ``bots`` bot seats."""
    seats: list[dict[str, Any]] = []
    for index in range(humans):
        name = names[index] if index < len(names) else f"player{index + 1}"
        seats.append({"kind": "human", "name": name})
    seats.extend({"kind": "bot", "bot": bot} for _ in range(bots))
    return seats


@click.command()
@click.argument("game")
@click.option("--bots", default=0, show_default=True, type=click.IntRange(0), help="Bot seats.")
@click.option("--humans", default=1, show_default=True, type=click.IntRange(0), help="Human seats.")
@click.option("--bot", default="heuristic", show_default=True, help="Strategy of the bot seats.")
@click.option("--name", "names", multiple=True, help="Names of the human seats, in order.")
@option_pairs
@seed_option
@click.option(
    "--deadline",
    "decision_seconds",
    type=Finite(0.05),
    default=None,
    help="Seconds per decision; after it the server plays a fallback move.",
)
@click.option("--public", is_flag=True, help="List the game and let anybody take its open seats.")
@click.option(
    "--invite",
    is_flag=True,
    help="Leave the human seats open and print an invite (a `dicehall play` command) per seat.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the tokens as JSON.")
@pass_client
def new(
    client: Client,
    game: str,
    bots: int,
    humans: int,
    bot: str,
    names: tuple[str, ...],
    option_pairs: tuple[str, ...],
    seed: str | None,
    decision_seconds: float | None,
    public: bool,
    invite: bool,
    as_json: bool,
) -> None:
    """Create a GAME with human and bot seats; join every human seat and print the tokens
    (with --invite: print an invite per human seat instead)."""
    seats = seat_specs(humans, bots, bot, names)
    created = client.create_game(
        game,
        seats,
        parse_options(option_pairs),
        seed,
        decision_seconds,
        visibility="public" if public else "private",
    )
    if invite:
        print_invites(created["id"], created, public, as_json)
        return
    join_and_report(client.with_token(created["creator_token"]), created, seats, as_json)


def join_and_report(
    client: Client, created: dict[str, Any], seats: list[dict[str, Any]], as_json: bool
) -> None:
    """Join every human seat of a new game and print its id, tokens and how to play."""
    game_id = created["id"]
    joined = []
    for index, seat in enumerate(seats):
        if seat["kind"] == "human":
            answer = client.join(game_id, index, seat["name"])
            joined.append(
                {
                    "seat": answer.get("seat", index),
                    "name": seat["name"],
                    "seat_token": answer["seat_token"],
                }
            )
    if as_json:
        click.echo(
            json.dumps(
                {
                    "id": game_id,
                    "creator_token": created.get("creator_token"),
                    "commitment": created.get("commitment"),
                    "forked_from": created.get("forked_from"),
                    "seats": joined,
                }
            )
        )
        return
    console.print(f"[bold]game[/] {game_id} ({created.get('game')})")
    fork = created.get("forked_from")
    if fork:
        origin, at, dice = fork["game"], fork["version"], fork["dice"]
        console.print(f"[bold]forked from[/] {origin} after move {at} ({dice} dice)")
    console.print(f"[bold]creator token[/] {created.get('creator_token')}")
    if created.get("commitment"):
        console.print(f"[bold]seed commitment[/] {created['commitment']}")
    console.print(f"[bold]watch[/] {client.base_url}/watch/{game_id}", soft_wrap=True)
    table = Table(header_style="bold")
    table.add_column("seat", justify="right")
    table.add_column("name")
    table.add_column("seat token")
    for seat in joined:
        table.add_row(str(seat["seat"]), seat["name"], seat["seat_token"])
    if joined:
        console.print(table)
        console.print("each player runs:", soft_wrap=True)
        for seat in joined:
            console.print(
                f"  dicehall play --join {game_id} --token {seat['seat_token']}", soft_wrap=True
            )


def print_invites(game_id: str, created: dict[str, Any], public: bool, as_json: bool) -> None:
    """The command each invited player runs to take their seat."""
    invites = created.get("invites") or {}
    open_seats = [
        int(seat["seat"])
        for seat in created.get("seats") or []
        if seat.get("kind") == "human" and not seat.get("joined")
    ]
    commands = {
        seat: f"dicehall play --join {game_id} --seat {seat}"
        + ("" if public else f" --token {invites[str(seat)]}")
        for seat in open_seats
    }
    if as_json:
        click.echo(
            json.dumps(
                {
                    "id": game_id,
                    "creator_token": created.get("creator_token"),
                    "commitment": created.get("commitment"),
                    "invites": invites,
                    "commands": {str(seat): command for seat, command in commands.items()},
                }
            )
        )
        return
    console.print(f"[bold]game[/] {game_id}")
    console.print(f"[bold]creator token[/] {created.get('creator_token')}")
    console.print("send each player their command:", soft_wrap=True)
    for seat, command in commands.items():
        console.print(f"  seat {seat}: {command}", soft_wrap=True)
