"""``dicehall bot``: register an external bot account and run a strategy for it over HTTP.

``run`` follows the account's feed (what it owes across all its games), asks the strategy
for each decision with the seat's view and the server's legal actions, and posts the move
with ``If-Match`` and an idempotency key. Strategies live in :mod:`clients.strategies`.
"""

from __future__ import annotations

import time
from typing import Any

import click

from clients.cli.console import console, err_console
from clients.cli.options import pass_client
from clients.cli.render import compact
from clients.sdk import Client, IllegalActionError, StaleVersion
from clients.strategies import load_strategy, pick


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
            type=click.FloatRange(0),
            help="Stop after this many seconds with nothing to decide (0: never).",
        ),
        click.option(
            "--wait",
            default=20.0,
            show_default=True,
            type=click.FloatRange(0, 30),
            help="Seconds per feed long-poll.",
        ),
        click.option("--quiet", is_flag=True, help="Print only finished games."),
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
    console.print(f"[bold]bot account[/] {account['id']} ({account['name']})")
    console.print(f"[bold]token[/] {account['token']}")


@bot.command()
@run_options
@pass_client
def run(client: Client, **options: Any) -> None:
    """Play every decision the bot account of --token owes, until stopped."""
    play_as_bot(client, **options)


def decision(client: Client, game_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The seat's view and legal actions of one and the same version (the game may move
    between the two reads: a deadline fallback, or another seat's sealed choice)."""
    while True:
        view = client.view(game_id)
        legal = client.legal_actions(game_id)
        if view["version"] == legal["version"]:
            return view, legal


def play_as_bot(
    client: Client,
    strategy: str,
    seed: str | None,
    max_games: int,
    idle: float,
    wait: float,
    quiet: bool,
) -> None:
    """Play every decision the bot account of --token owes, until stopped."""
    if not client.token:
        raise click.UsageError("pass the bot account's token with --token (or DICEHALL_TOKEN)")
    try:
        choose = load_strategy(strategy, seed)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--strategy") from exc
    account = client.bot_account()
    console.print(f"bot [bold]{account['name']}[/] ({account['id']}) plays with {strategy!r}")
    # Start from the feed's end: games that ended before this run do not count.
    cursor: str | None = client.bot_feed_cursor()
    finished: set[str] = set()
    idle_since = time.monotonic()
    while True:
        feed = client.bot_feed(after=cursor, wait=wait)
        cursor = feed.get("cursor", cursor)
        for event in feed.get("events") or []:
            if event.get("type") == "game_over" and event.get("game_id") not in finished:
                finished.add(event["game_id"])
                scores = (event.get("result") or {}).get("scores")
                console.print(f"game {event['game_id']} over: {compact(scores)}")
        if max_games and len(finished) >= max_games:
            return
        pending = feed.get("pending") or []
        if not pending:
            if idle and time.monotonic() - idle_since >= idle:
                console.print(f"idle for {idle:g} s; {len(finished)} games finished")
                return
            continue
        idle_since = time.monotonic()
        for due in pending:
            game_id = due["game_id"]
            view, legal = decision(client, game_id)
            actions = legal.get("actions") or []
            if not actions:
                continue
            try:
                action = pick(choose(view["view"], actions), actions)
            except ValueError as exc:
                err_console.print(f"[red]strategy error in {game_id}:[/] {exc}")
                action = dict(actions[0]["action"])
            try:
                answer = client.act(game_id, action, if_match=legal["version"])
            except StaleVersion:
                continue
            except IllegalActionError as refused:
                err_console.print(f"[red]{game_id} refused[/] {compact(action)}: {refused.detail}")
                continue
            if not quiet:
                console.print(f"[dim]{game_id} v{answer.get('version')}: {compact(action)}[/]")
