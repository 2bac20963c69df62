"""``dicehall verify``: audit a finished game on this machine.

Exception to the clients' rule of importing nothing from the engine: this command (through
:mod:`clients.verifier`) re-plays the published log locally with ``engine.replay``,
``engine.dice`` and ``engine.games``, so the verdict does not rest on the server's word.
"""

from __future__ import annotations

import json
from typing import Any

import click
from rich.table import Table

from clients.cli.console import console
from clients.cli.errors import ExitStatus
from clients.cli.options import pass_client
from clients.sdk import Client


def parse_seat_tokens(pairs: tuple[str, ...]) -> dict[int, str]:
    """``SEAT=TOKEN`` pairs."""
    tokens: dict[int, str] = {}
    for pair in pairs:
        seat, sep, token = pair.partition("=")
        if not sep or not seat.isdigit() or not token:
            raise click.BadParameter(f"{pair!r} is not SEAT=TOKEN", param_hint="--seat-token")
        tokens[int(seat)] = token
    return tokens


def _fork_start(client: Client, summary: dict[str, Any]) -> Any:
    """A fork's first state and dice, from its origin's published log (None: not a fork)."""
    from clients.verifier import fork_start

    fork = summary.get("forked_from")
    if not fork:
        return None
    origin, origin_log = client.game(fork["game"]), client.log(fork["game"])
    return fork_start(summary, origin, origin_log, _fork_start(client, origin))


def not_over(game_id: str, summary: dict[str, Any], as_json: bool) -> None:
    """Say that a game still in play cannot be verified yet; exit ``ExitStatus.NOT_OVER``."""
    status = summary.get("status")
    if as_json:
        click.echo(json.dumps({"game_id": game_id, "ok": False, "over": False, "status": status}))
    else:
        console.print(
            f"[bold yellow]NOT OVER[/]: game {game_id} is {status} (version "
            f"{summary.get('version')}); its seed is revealed when it ends, verify it then."
        )
    raise click.exceptions.Exit(ExitStatus.NOT_OVER)


@click.command()
@click.argument("game_id")
@click.option(
    "--seat-token",
    "seat_tokens",
    multiple=True,
    metavar="SEAT=TOKEN",
    help="Also compare this seat's private final view (repeatable).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the checks as JSON.")
@pass_client
def verify(client: Client, game_id: str, seat_tokens: tuple[str, ...], as_json: bool) -> None:
    """Check GAME_ID: seed vs commitment, every draw, and a local re-play of the log whose
    final state must match the server's final views. Exits 8 on any mismatch, 11 when the
    game is not over yet (its seed is revealed only at the end)."""
    # the engine is loaded only here, through the verifier
    from clients.verifier import Check, IllegalAction, audit_game

    summary = client.game(game_id)
    if summary.get("status") != "over":
        not_over(game_id, summary, as_json)
    log = client.log(game_id)
    views: dict[int | None, Any] = {}
    if summary.get("status") == "over":
        spectator = client.with_token(None).view(game_id)
        views[None] = spectator["view"]
        for seat in range(len(summary.get("seats") or [])):
            views[seat] = client.with_token(None).view(game_id, seat=seat)["view"]
        if client.token:
            mine = client.view(game_id)
            views[mine.get("seat")] = mine["view"]
        for seat, token in parse_seat_tokens(seat_tokens).items():
            seen = client.with_token(token).view(game_id)
            if seen.get("seat") != seat:
                raise click.BadParameter(
                    f"that token is not seat {seat}'s", param_hint="--seat-token"
                )
            views[seat] = seen["view"]
    start, refused = None, None
    try:
        start = _fork_start(client, summary) if summary.get("status") == "over" else None
    except IllegalAction as error:
        refused = error
    audit = audit_game(summary, log, views, start)
    if refused is not None:
        audit.checks.insert(0, Check("the origin's log re-plays", False, refused.reason))
    if as_json:
        checks = [{"check": c.name, "ok": c.ok, "detail": c.detail} for c in audit.checks]
        click.echo(json.dumps({"game_id": game_id, "ok": audit.ok, "checks": checks}))
        if not audit.ok:
            raise click.exceptions.Exit(ExitStatus.VERIFY_FAILED)
        return

    table = Table(title=f"verify {summary.get('game')} {game_id}", header_style="bold")
    table.add_column("", width=2)
    table.add_column("check")
    table.add_column("evidence", style="dim")
    for check in audit.checks:
        mark = "[green]ok[/]" if check.ok else "[bold red]NO[/]"
        table.add_row(mark, check.name, check.detail)
    console.print(table)
    if audit.ok:
        console.print(
            "[bold green]VERIFIED[/]: the server played this game by the rules, "
            "with the dice it committed to."
        )
        return
    console.print("[bold red]MISMATCH[/]: this game does not check out (see the NO lines).")
    raise click.exceptions.Exit(ExitStatus.VERIFY_FAILED)
