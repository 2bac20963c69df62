"""``dicehall play``: a person plays one seat in the terminal against the server's bots.

The command holds no rules: the board is the server's view (drawn by ``clients/boards``), the
menu is the server's legal actions with their ``text``, and bots move on the server's workers
(the command waits for them on the events long-poll). Choices are read from stdin, so a
script can pipe them in; ``--auto`` picks the first legal action every time (smoke tests).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import click
from rich.rule import Rule

from clients.cli.console import console
from clients.cli.errors import ExitStatus
from clients.cli.menu import Menu, page_size
from clients.cli.options import option_pairs, parse_options, pass_client, seed_option, wait_option
from clients.cli.render import (
    action_sentence,
    action_text,
    board,
    board_rows,
    event_sentence,
    prompt_text,
    result_table,
    seat_names,
    seats_to_act,
)
from clients.cli.simultaneous import (
    DecisionWatcher,
    decided_line,
    deciding_line,
    still_to_decide,
)
from clients.sdk import Client, Conflict, IllegalActionError, StaleVersion

CHOOSE = "Choose"
"""The menu's prompt (a watcher printing others' decisions shows it again)."""


def read_choice(items: list[dict[str, Any]], board_rows: int, resume: str) -> int:
    """Show a menu page that fits the terminal and read answers until one picks an item;
    ``q`` quits (saying how to come back). Returns the 0-based index."""
    menu = Menu(items, page_size(console.size.height, board_rows))
    while True:
        console.print(menu.render())
        answer = menu.answer(click.prompt(CHOOSE, default="", show_default=False, type=str))
        if answer == "quit":
            console.print(f"left the table; come back with [bold]{resume}[/]", soft_wrap=True)
            raise click.exceptions.Exit(ExitStatus.SUCCESS)
        if isinstance(answer, int):
            return answer
        if isinstance(answer, str):
            console.print(f"[red]{answer}[/]")


def describe_events(events: list[dict[str, Any]], names: list[str], me: int) -> None:
    """One dim line per move the other seats made (bots included), as the game's sentence,
    and one per public game event, in the order they happened."""
    for event in events:
        kind = event.get("type")
        if kind == "action" and event.get("seat") != me:
            decided = decided_line(event, me, names)
            if decided:
                console.print(f"[dim]v{event.get('version')} {decided}[/]")
                continue
            seat = event.get("seat")
            who = names[seat] if isinstance(seat, int) and seat < len(names) else f"seat {seat}"
            console.print(f"[dim]{who}: {action_sentence(event)}[/]")
        elif kind == "game_event":
            console.print(f"[dim]  {event_sentence(event.get('event') or {})}[/]")


def create_and_join(
    client: Client,
    game: str,
    bots: int,
    bot: str,
    my_seat: int,
    name: str,
    options: dict[str, Any],
    seed: str | None,
) -> tuple[Client, str, int]:
    """Create ``game`` with bots in every seat but ``my_seat`` and join it; (me, id, seat)."""
    if my_seat > bots:
        raise click.BadParameter(f"with {bots} bots the seats are 0-{bots}", param_hint="--seat")
    seats: list[dict[str, Any]] = [{"kind": "bot", "bot": bot} for _ in range(bots)]
    seats.insert(my_seat, {"kind": "human", "name": name})
    created = client.create_game(game, seats, options, seed)
    game_id = created["id"]
    joined = client.with_token(created["creator_token"]).join(game_id, my_seat, name)
    console.print(f"[dim]seat token {joined['seat_token']}[/]")
    return client.with_token(joined["seat_token"]), game_id, my_seat


def take_existing(
    client: Client, game_id: str, my_seat: int | None, name: str
) -> tuple[Client, str, int]:
    """Continue as the seat of ``--token``, or join ``my_seat`` (default: the first open human
    seat) of an existing game, with ``--token`` an invite or the creator's token when the game
    is private; (me, id, seat)."""
    invite = None
    if client.token and client.token.startswith(("invite_", "creator_")):
        invite, client = client.token, client.with_token(None)
    if client.token:
        seat = client.view(game_id).get("seat")
        if seat is None:
            raise click.UsageError("--token is not a seat token of that game")
        return client, game_id, int(seat)
    if my_seat is None:
        open_seats = [
            s.get("seat", n)
            for n, s in enumerate(client.game(game_id).get("seats") or [])
            if s.get("kind") == "human" and not s.get("joined")
        ]
        if not open_seats:
            raise click.UsageError("that game has no open human seat (pass --token to resume)")
        my_seat = int(open_seats[0])
    joined = client.join(game_id, my_seat, name, invite=invite)
    console.print(f"[dim]seat token {joined['seat_token']}[/]")
    return client.with_token(joined["seat_token"]), game_id, my_seat


@click.command()
@click.argument("game", required=False)
@click.option(
    "--join",
    "join_id",
    metavar="GAME_ID",
    help="Sit at an existing game (e.g. from `dicehall new`) instead of creating one; "
    "with --token, continue as that seat (a seat token) or take a seat of a private game "
    "(its invite token).",
)
@click.option("--bots", default=1, show_default=True, type=click.IntRange(0), help="Bot seats.")
@click.option("--bot", default="heuristic", show_default=True, help="Strategy of the bots.")
@click.option(
    "--seat",
    "my_seat",
    default=None,
    type=click.IntRange(0),
    help="Which seat you take (new game: default 0, bots fill the rest; --join: the first "
    "open human seat).",
)
@click.option("--name", default="you", show_default=True, help="Your name at the table.")
@option_pairs
@seed_option
@click.option("--auto", is_flag=True, help="Play the first legal action every turn.")
@wait_option
@click.option("--quiet", is_flag=True, help="Draw the board only at the end.")
@pass_client
def play(
    client: Client,
    game: str | None,
    join_id: str | None,
    bots: int,
    bot: str,
    my_seat: int | None,
    name: str,
    option_pairs: tuple[str, ...],
    seed: str | None,
    auto: bool,
    wait: float,
    quiet: bool,
) -> None:
    """Play GAME in the terminal: one human seat (you) and --bots bot seats; or sit at an
    existing game with --join GAME_ID."""
    if join_id:
        me, game_id, my_seat = take_existing(client, join_id, my_seat, name)
    elif game:
        options = parse_options(option_pairs)
        me, game_id, my_seat = create_and_join(
            client, game, bots, bot, my_seat or 0, name, options, seed
        )
    else:
        raise click.UsageError("name a GAME to create, or --join GAME_ID")
    summary = me.game(game_id)
    table = Table(
        me=me,
        game=summary["game"],
        game_id=game_id,
        my_seat=my_seat,
        names=seat_names(summary),
        quiet=quiet,
        auto=auto,
        resume=f"dicehall play --join {game_id} --token {me.token}",
    )
    console.print(f"[bold]{table.game}[/] game [cyan]{game_id}[/], you are seat {my_seat}")
    console.print(f"[dim]seed commitment {summary.get('commitment')}[/]")

    cursor: str | None = me.events_cursor(game_id)  # others' earlier moves are on the board
    announced_waiting = False
    while True:
        current = me.view(game_id)
        if current["status"] == "over":
            finish(table, current, cursor)
            return
        if my_seat in seats_to_act(current.get("to_act")):
            cursor = take_turn(table, current, cursor)
            continue
        if current["status"] == "waiting" and not announced_waiting:
            console.print("waiting for the other human seats to join...")
            announced_waiting = True
        cursor = wait_for_others(me, game_id, cursor, wait, table.names, quiet, my_seat)


@dataclass(frozen=True)
class Table:
    """What each step of ``dicehall play`` needs: the seat's client, the game, how to show
    it, and the command that comes back to it."""

    me: Client
    game: str
    game_id: str
    my_seat: int
    names: list[str]
    quiet: bool
    auto: bool
    resume: str


def finish(t: Table, current: dict[str, Any], cursor: str | None) -> None:
    """The game is over: the last moves, the final board, the result and how to verify it."""
    wait_for_others(t.me, t.game_id, cursor, 0.0, t.names, t.quiet, t.my_seat)
    console.print(Rule("game over"))
    console.print(board(t.game, current["view"], t.my_seat, t.me))
    if current.get("result"):
        console.print(result_table(current["result"], t.names))
    console.print(
        f"verify it: [bold]dicehall verify {t.game_id} --seat-token {t.my_seat}={t.me.token}[/]",
        soft_wrap=True,
    )


def take_turn(t: Table, current: dict[str, Any], cursor: str | None) -> str | None:
    """The seat owes a decision: show what happened and the board, choose, answer; the new
    events cursor."""
    polled = t.me.events(t.game_id, after=cursor, wait=0)  # what happened, in order
    earlier = polled.get("events") or []
    if not t.quiet:
        describe_events(earlier, t.names, t.my_seat)
    cursor = polled.get("cursor", cursor)
    legal = t.me.legal_actions(t.game_id)
    actions = legal.get("actions") or []
    if not actions:  # the server moved on between the two reads
        return wait_for_others(t.me, t.game_id, cursor, 1.0, t.names, t.quiet, t.my_seat)
    drawn = board(t.game, current["view"], t.my_seat, t.me)
    if not t.quiet:
        console.print(Rule(f"version {legal['version']}"))
        console.print(drawn)
        hint = prompt_text(current.get("to_act"), t.my_seat)
        if hint:
            console.print(f"[bold]{hint}[/]")
    forced = len(actions) == 1
    if t.auto or forced:
        index = 0
    else:
        index, cursor = ask(t, current, earlier, actions, board_rows(console, drawn), cursor)
    chosen = actions[index]
    if not t.quiet:
        note = " [dim](the only move: taken for you)[/]" if forced and not t.auto else ""
        console.print(f"[green]you:[/] {action_text(chosen)}{note}")
    answer(t, chosen["action"], legal["version"])
    return cursor


def ask(
    t: Table,
    current: dict[str, Any],
    earlier: list[dict[str, Any]],
    actions: list[dict[str, Any]],
    rows: int,
    cursor: str | None,
) -> tuple[int, str | None]:
    """The person's choice from the menu, while others deciding at the same time are shown
    as they decide; (index, events cursor)."""
    also = deciding_line(still_to_decide(current, earlier, t.my_seat), t.my_seat, t.names)
    if also:
        console.print(f"[dim]{also}[/]")
    watcher = (
        DecisionWatcher(t.me, t.game_id, cursor, t.my_seat, t.names).start(CHOOSE + ": ")
        if also
        else None
    )
    try:
        index = read_choice(actions, rows, t.resume)
    finally:
        if watcher is not None:
            cursor = watcher.stop()
    return index, cursor


def answer(t: Table, action: dict[str, Any], version: int) -> None:
    """Post the chosen action; a refusal is said, and the loop reads the game again."""
    try:
        t.me.act(t.game_id, action, if_match=version)
    except StaleVersion as stale:
        console.print(f"[yellow]your answer was not taken: {stale.detail}[/]")
    except Conflict as conflict:  # e.g. a deadline fallback ended the game first
        console.print(f"[yellow]{conflict.detail}[/]")
    except IllegalActionError as refused:
        console.print(f"[red]refused:[/] {refused.detail}")


def wait_for_others(
    me: Client,
    game_id: str,
    cursor: str | None,
    wait: float,
    names: list[str],
    quiet: bool,
    my_seat: int,
) -> str | None:
    """Long-poll the events after ``cursor`` (printing others' moves); the new cursor."""
    polled = me.events(game_id, after=cursor, wait=wait)
    if not quiet:
        describe_events(polled.get("events") or [], names, my_seat)
    return polled.get("cursor", cursor)
