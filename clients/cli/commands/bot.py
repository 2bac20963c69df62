"""``dicehall bot``: register an external bot account and run a strategy for it over HTTP.

``run`` follows the account's feed (what it owes across all its games, pushed as Server-Sent
Events), asks the strategy for each decision with the seat's view and the server's legal
actions from the notice itself, and posts the move with ``If-Match`` and an idempotency key:
one request per decision (:mod:`clients.cli.bot_runner`). Strategies live in
:mod:`clients.strategies`.
"""

from __future__ import annotations

from typing import Any

import click

from clients.cli.bot_runner import BotRunner, Patience, Tracer
from clients.cli.console import console, shown
from clients.cli.options import Finite, pass_client
from clients.sdk import Client
from clients.strategies import load_strategy


def run_options(func: Any) -> Any:
    """The options of running a strategy, shared by ``dicehall bot`` and ``dicehall bot run``."""
    options = [
        click.option(
            "--strategy",
            default="random",
            show_default=True,
            help="first, random, module:function or module:Class (see clients.strategies), "
            "e.g. engine.carcassonne.bots:HeuristicBot.",
        ),
        click.option("--seed", default=None, help="Seed of the strategy's randomness."),
        click.option(
            "--games",
            "max_games",
            default=0,
            type=click.IntRange(0),
            help="Stop after this many games end (0: never).",
        ),
        click.option(
            "--idle",
            default=0.0,
            type=Finite(0),
            help="Stop after this many seconds with nothing to decide (0: never).",
        ),
        click.option(
            "--detail",
            type=click.Choice(["full", "compact"]),
            default="full",
            show_default=True,
            help="What notices carry: legal actions with their texts (full) or without "
            "(compact: less to send and parse, for strategies that do not read texts).",
        ),
        click.option(
            "--parallel",
            default=4,
            show_default=True,
            type=click.IntRange(1, 32),
            help="Moves in flight at once (of different games), each sent on its own "
            "connection; the strategy is always called from one thread.",
        ),
        click.option(
            "--wait",
            type=float,
            default=None,
            hidden=True,
            help="Ignored: the feed is pushed over SSE (kept so older command lines run).",
        ),
        click.option(
            "--patience",
            default=Patience.seconds,
            show_default=True,
            type=Finite(0),
            help="Seconds to keep retrying through an outage (an API restart, a Redis "
            "failover): moves with the same idempotency key, the feed reconnected.",
        ),
        click.option("--quiet", is_flag=True, help="Print only finished games."),
        click.option(
            "--trace",
            type=click.Path(dir_okay=False, writable=True),
            default=None,
            help="Append one JSON line per answered decision to this file: its game, seat, "
            "decision id and when (epoch seconds) the notice arrived, the strategy started, "
            "the move was sent and its answer came back.",
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


@click.group(invoke_without_command=True)
@run_options
@pass_client
def bot(client: Client, **options: Any) -> None:
    """External bots: with --strategy (and no subcommand), play as the bot account of
    --token; or register an account, or run."""
    if click.get_current_context().invoked_subcommand is None:
        play_as_bot(client, **options)


@bot.command()
@click.argument("name")
@click.option("--owner", required=True, help="Who runs the bot (an e-mail or a handle).")
@pass_client
def register(client: Client, name: str, owner: str) -> None:
    """Register a bot account NAME; prints its id and its token (shown once)."""
    account = client.register_bot(name, owner)
    console.print(f"[bold]bot account[/] {account['id']} ({shown(account['name'])})")
    console.print(f"[bold]token[/] {account['token']}")


@bot.command()
@run_options
@pass_client
def run(client: Client, **options: Any) -> None:
    """Play every decision the bot account of --token owes, until stopped."""
    play_as_bot(client, **options)


def play_as_bot(
    client: Client,
    strategy: str,
    seed: str | None,
    max_games: int,
    idle: float,
    quiet: bool,
    detail: str,
    parallel: int,
    trace: str | None,
    patience: float = Patience.seconds,
    wait: float | None = None,
) -> None:
    """Play every decision the bot account of --token owes, until stopped: each decision
    from its notice alone (view, legal actions, decision id), answered with one POST."""
    if not client.token:
        raise click.UsageError("pass the bot account's token with --token (or DICEHALL_TOKEN)")
    try:
        choose = load_strategy(strategy, seed)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--strategy") from exc
    riding_out = Patience(seconds=patience)
    account = riding_out.retrying(client.bot_account, "the bot account")
    name = shown(account["name"])
    console.print(f"bot [bold]{name}[/] ({account['id']}) plays with {strategy!r}")
    runner = BotRunner(
        client,
        choose,
        quiet=quiet,
        detail=detail,
        parallel=parallel,
        tracer=Tracer(trace),
        patience=riding_out,
    )
    runner.run(max_games=max_games, idle=idle)
