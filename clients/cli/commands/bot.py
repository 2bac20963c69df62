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


def decision(client: Client, notice: dict[str, Any]) -> tuple[Any, list[dict[str, Any]], int]:
    """The seat's view, legal actions and decision id for a ``decision_due`` notice: from the
    notice itself (the service completes it), or read from a server that does not."""
    if "actions" in notice and "view" in notice:
        return notice["view"], notice["actions"], int(notice["decision"])
    while True:  # view and legal actions of one and the same version
        view = client.view(notice["game_id"])
        legal = client.legal_actions(notice["game_id"])
        if view["version"] == legal["version"]:
            return view["view"], legal.get("actions") or [], int(legal["version"])


def due_notices(feed: dict[str, Any], answered: set[tuple[str, int, int]]) -> list[dict[str, Any]]:
    """The decisions to answer from one feed reply: ``pending`` and new ``decision_due``
    events that are still current, each once."""
    notices = [*(feed.get("pending") or []), *(feed.get("events") or [])]
    due = []
    for notice in notices:
        if notice.get("type") != "decision_due" or notice.get("current") is False:
            continue
        key = (notice["game_id"], int(notice["seat"]), int(notice.get("decision", -1)))
        if key not in answered:
            answered.add(key)
            due.append(notice)
    return due


def play_as_bot(
    client: Client,
    strategy: str,
    seed: str | None,
    max_games: int,
    idle: float,
    wait: float,
    quiet: bool,
) -> None:
    """Play every decision the bot account of --token owes, until stopped: each decision
    from its notice alone (view, legal actions, decision id), answered with one POST."""
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
    answered: set[tuple[str, int, int]] = set()
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
        due = due_notices(feed, answered)
        if not due:
            if idle and time.monotonic() - idle_since >= idle:
                console.print(f"idle for {idle:g} s; {len(finished)} games finished")
                return
            continue
        idle_since = time.monotonic()
        for notice in due:
            answer_notice(client, choose, notice, quiet)


def answer_notice(client: Client, choose: Any, notice: dict[str, Any], quiet: bool) -> None:
    """Choose and post one move for a ``decision_due`` notice."""
    game_id = notice["game_id"]
    view, actions, decision_id = decision(client, notice)
    if not actions:
        return
    try:
        action = pick(choose(view, actions), actions)
    except ValueError as exc:
        err_console.print(f"[red]strategy error in {game_id}:[/] {exc}")
        action = dict(actions[0]["action"])
    try:
        answer = client.act(game_id, action, if_match=decision_id)
    except StaleVersion:
        return
    except IllegalActionError as refused:
        err_console.print(f"[red]{game_id} refused[/] {compact(action)}: {refused.detail}")
        return
    if not quiet:
        console.print(f"[dim]{game_id} v{answer.get('version')}: {compact(action)}[/]")
