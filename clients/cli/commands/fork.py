"""``dicehall fork``: play on from move K of a finished game, with new seats."""

from __future__ import annotations

import click

from clients.cli.commands.new import join_and_report, seat_specs
from clients.cli.options import Finite, pass_client, seed_option
from clients.sdk import Client


@click.command()
@click.argument("game_id")
@click.option("--at", "version", required=True, type=click.IntRange(0), help="Keep K moves.")
@click.option(
    "--bots",
    default=None,
    type=click.IntRange(0),
    help="Bot seats, the last ones (default: every seat); the others are humans.",
)
@click.option("--bot", default="heuristic", show_default=True, help="Strategy of the bot seats.")
@click.option("--name", "names", multiple=True, help="Names of the human seats, in order.")
@click.option(
    "--dice",
    type=click.Choice(["fresh", "original"]),
    default="fresh",
    show_default=True,
    help="fresh: a new committed seed; original: the finished game's dice from move K on.",
)
@seed_option
@click.option(
    "--deadline",
    "decision_seconds",
    type=Finite(0.05),
    default=None,
    help="Seconds per decision; after it the server plays a fallback move.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the tokens as JSON.")
@pass_client
def fork(
    client: Client,
    game_id: str,
    version: int,
    bots: int | None,
    bot: str,
    names: tuple[str, ...],
    dice: str,
    seed: str | None,
    decision_seconds: float | None,
    as_json: bool,
) -> None:
    """Start a new (private) game from finished game GAME_ID after its first K moves (--at
    K); join its human seats and print the tokens, like `dicehall new`."""
    count = len(client.game(game_id)["seats"])
    bots = count if bots is None else bots
    if bots > count:
        raise click.BadParameter(f"game {game_id} has {count} seats", param_hint="--bots")
    seats = seat_specs(count - bots, bots, bot, names)
    created = client.fork_game(game_id, version, seats, dice, seed, decision_seconds)
    join_and_report(client.with_token(created["creator_token"]), created, seats, as_json)
