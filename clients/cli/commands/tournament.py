"""``dicehall tournament``: start a tournament between bundled bots and external bot accounts,
follow its progress, and print the standings (ratings with intervals)."""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from clients.cli.console import console, shown
from clients.cli.options import (
    Finite,
    option_pairs,
    parse_options,
    pass_client,
    seed_option,
    writable_output,
    write_output,
)
from clients.cli.render import compact
from clients.sdk import Client


def participants(bots: tuple[str, ...], accounts: tuple[str, ...]) -> list[dict[str, str]]:
    """Entrants from ``--bot NAME`` and ``--account ID[=NAME]``; a repeated name gets the
    first suffix (``-2``, ``-3``...) no other entrant has: the server refuses two entrants of
    one name, and on main ``--bot random --bot random --account x=random-2`` made two."""
    entrants: list[dict[str, str]] = [{"name": name, "bot": name} for name in bots]
    for spec in accounts:
        account, _, name = spec.partition("=")
        entrants.append({"name": name or account, "account": account})
    given = [entrant["name"] for entrant in entrants]
    taken: set[str] = set()
    for n, entrant in enumerate(entrants):
        name, count = entrant["name"], 1
        while entrant["name"] in taken or (count > 1 and entrant["name"] in given[n + 1 :]):
            count += 1
            entrant["name"] = f"{name}-{count}"
        taken.add(entrant["name"])
    return entrants


def standings_table(tournament: Mapping[str, Any]) -> Table:
    """The standings, best first."""
    table = Table(
        title=f"{tournament.get('game')} tournament {tournament.get('id')}", header_style="bold"
    )
    for column in (
        "rank",
        "name",
        "rating (mu)",
        "95% interval",
        "ordinal",
        "games",
        "wins",
        "avg score",
        "illegal",
        "missed",
        "decide p50/p95 (s)",
    ):
        table.add_column(column, justify="left" if column == "name" else "right")
    for row in tournament.get("standings") or []:
        low, high = (row.get("interval") or [0, 0])[:2]
        average = row.get("average_score")
        table.add_row(
            str(row.get("rank")),
            shown(row.get("name")),
            f"{row.get('mu', 0):.1f}",
            f"{low:.1f}-{high:.1f}",
            f"{row.get('ordinal', 0):.1f}",
            str(row.get("games")),
            str(row.get("wins")),
            "-" if average is None else f"{average:.1f}",
            str(row.get("illegal_actions", 0)),
            str(row.get("deadlines_missed", 0)),
            latency(row),
        )
    return table


def latency(row: Mapping[str, Any]) -> str:
    """A standings row's median and 95th percentile decision times, or "-"."""
    p50, p95 = row.get("decision_time_p50"), row.get("decision_time_p95")
    if p50 is None or p95 is None:
        return "-"
    return f"{p50:.3f}/{p95:.3f}"


def follow(client: Client, tournament_id: str, every: float) -> dict[str, Any]:
    """Poll the tournament with a progress bar until it is no longer running."""
    current = client.tournament(tournament_id)
    columns = (TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("games", total=current.get("progress", {}).get("total"))
        while current.get("status") == "running":
            bar.update(task, completed=current.get("progress", {}).get("finished", 0))
            time.sleep(every)
            current = client.tournament(tournament_id)
    return current


@click.group()
def tournament() -> None:
    """Tournaments between bots: start one, or show one."""


@tournament.command()
@click.argument("game")
@click.option("--bot", "bots", multiple=True, metavar="NAME", help="A bundled bot (repeatable).")
@click.option(
    "--account",
    "accounts",
    multiple=True,
    metavar="ID[=NAME]",
    help="An external bot account (repeatable).",
)
@click.option("--games", default=20, show_default=True, type=click.IntRange(1))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["round_robin", "mirrored"]),
    default="round_robin",
    show_default=True,
)
@click.option("--seats-per-game", type=click.IntRange(1), default=None)
@click.option(
    "--decision-seconds",
    type=Finite(0.05),
    default=None,
    help="Deadline per decision (a fallback move is played after it).",
)
@click.option(
    "--time-bank",
    metavar="START[+INC]",
    default=None,
    help="A clock per seat and game: START seconds plus INC per decision (e.g. 60+2).",
)
@click.option("--concurrency", type=click.IntRange(1), default=None)
@option_pairs
@seed_option
@click.option("--no-wait", is_flag=True, help="Print the id and return at once.")
@click.option(
    "--chart",
    "chart_path",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Where to write the ratings chart (SVG) at the end [default: tournament-ID.svg].",
)
@click.option(
    "--poll",
    default=1.0,
    show_default=True,
    type=Finite(0.05),
    help="Seconds between progress reads.",
)
@pass_client
def start(
    client: Client,
    game: str,
    bots: tuple[str, ...],
    accounts: tuple[str, ...],
    games: int,
    fmt: str,
    seats_per_game: int | None,
    decision_seconds: float | None,
    time_bank: str | None,
    concurrency: int | None,
    option_pairs: tuple[str, ...],
    seed: str | None,
    no_wait: bool,
    chart_path: str | None,
    poll: float,
) -> None:
    """Start a GAME tournament between --bot and --account entrants and follow it."""
    entrants = participants(bots, accounts)
    if len(entrants) < 2:
        raise click.UsageError("a tournament needs at least two entrants (--bot/--account)")
    if not no_wait:  # the chart is written at the end: refuse a bad place before the wait
        writable_output(Path(chart_path or "tournament.svg"), "'--chart'")
    created = client.create_tournament(
        game,
        entrants,
        games,
        format=fmt,
        seats_per_game=seats_per_game,
        decision_seconds=decision_seconds,
        time_bank=parse_time_bank(time_bank),
        concurrency=concurrency,
        options=parse_options(option_pairs) or None,
        seed=seed,
    )
    console.print(
        f"tournament [cyan]{created['id']}[/] ({created.get('games')} games, "
        f"seed commitment {created.get('seed_commitment')})"
    )
    if no_wait:
        return
    finished = follow(client, created["id"], poll)
    console.print(standings_table(finished))
    console.print(f"status {finished.get('status')}; seed {shown(finished.get('seed'))}")
    chart = Path(chart_path or f"tournament-{created['id']}.svg")
    write_output(chart, client.tournament_chart_svg(created["id"]))
    console.print(f"ratings chart: {chart}")


@tournament.command()
@click.argument("tournament_id")
@click.option("--games", "list_games", is_flag=True, help="Also list the tournament's games.")
@pass_client
def show(client: Client, tournament_id: str, list_games: bool) -> None:
    """Show TOURNAMENT_ID's progress and standings."""
    current = client.tournament(tournament_id)
    progress = current.get("progress") or {}
    console.print(
        f"{current.get('status')}: {progress.get('finished')}/{progress.get('total')} "
        "games finished"
    )
    if current.get("standings"):
        console.print(standings_table(current))
    if list_games:
        table = Table(header_style="bold")
        for column in ("#", "game id", "status", "seats", "scores"):
            table.add_column(column)
        for item in client.tournament_games(tournament_id):
            table.add_row(
                str(item.get("index")),
                str(item.get("game_id")),
                str(item.get("status")),
                ", ".join(shown(name) for name in item.get("participants") or []),
                compact((item.get("result") or {}).get("scores")),
            )
        console.print(table)


def parse_time_bank(text: str | None) -> dict[str, float] | None:
    """``START`` or ``START+INC`` (seconds) as the API's ``time_bank``."""
    if text is None:
        return None
    start, _, increment = text.partition("+")
    try:
        bank = {"start": float(start), "increment": float(increment or 0)}
        if not all(math.isfinite(seconds) for seconds in bank.values()):
            raise ValueError(text)
        return bank
    except ValueError:
        raise click.BadParameter(
            f"{text!r} is not START or START+INC", param_hint="--time-bank"
        ) from None
