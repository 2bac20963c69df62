"""``dicehall match``: two bots, paired games on mirrored dice, a sequential test.

Exception to the clients' rule of importing nothing from the engine (like ``verify``): the
match plays bundled bots and ``module:Class`` bots in this process with
:mod:`engine.match`, which is what makes it fast enough to run hundreds of games; it needs
no server. With ``--via URL`` the games are played by a service instead: each deal's games
are created there with the deal's seed (bundled bots played by its workers, ``account:NAME``
seats by external bots connected to it, e.g. with ``dicehall bot run``), and the match waits
for their results.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from clients.cli.console import console
from clients.cli.options import Finite, option_pairs, parse_options

if TYPE_CHECKING:
    from engine.contract import Result
    from engine.match import Deal

WAIT_SECONDS = 10.0
"""How long one long poll of a game's events waits for news (``--via``)."""

DECISIONS = {
    "H1": "A is stronger (H1 accepted)",
    "H0": "no gain of elo1 (H0 accepted)",
    None: "inconclusive (maximum pairs reached)",
}


@click.command()
@click.argument("game")
@click.argument("bot_a", metavar="A")
@click.argument("bot_b", metavar="B")
@click.option("--seats", default=2, show_default=True, type=click.IntRange(1, 8))
@click.option(
    "--elo0", default=0.0, show_default=True, type=Finite(), help="H0: A is this much stronger."
)
@click.option(
    "--elo1", default=10.0, show_default=True, type=Finite(), help="H1: A is this much stronger."
)
@click.option("--alpha", default=0.05, show_default=True, type=Finite(0.001, 0.5))
@click.option("--beta", default=0.05, show_default=True, type=Finite(0.001, 0.5))
@click.option("--max-pairs", default=200, show_default=True, type=click.IntRange(1))
@click.option(
    "--min-pairs",
    type=click.IntRange(1),
    help="Pairs played before the test may stop the match  [default: 4, or --max-pairs if fewer]",
)
@option_pairs
@click.option(
    "--seed",
    default="match",
    show_default=True,
    help="Seeds the deals: the same seed replays the same match.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option(
    "--via",
    metavar="URL",
    default=None,
    help="Play the games on this dicehall service (bundled bots or account:NAME).",
)
def match(
    game: str,
    bot_a: str,
    bot_b: str,
    seats: int,
    elo0: float,
    elo1: float,
    alpha: float,
    beta: float,
    max_pairs: int,
    min_pairs: int | None,
    option_pairs: tuple[str, ...],
    seed: str,
    as_json: bool,
    via: str | None,
) -> None:
    """Play bot A against bot B in GAME until a sequential test decides.

    A and B are bundled bots (`heuristic`, `search,iterations=50`, `search,budget_ms=200`)
    or `module:Class`; with `--via URL`, bundled bots or `account:NAME` (an external bot
    account, its bot connected to that service). Each pair is one deal played with the
    seats rotated (solo: each bot plays the deal alone); after every pair the SPRT's
    log-likelihood ratio of H1 (A is ELO1 stronger) over H0 (ELO0) is checked against the
    bounds from ALPHA and BETA.
    """
    from engine.games import UnknownGame, get_game
    from engine.match import MAX_ELO, Sprt, run_match

    for name, elo in (("--elo0", elo0), ("--elo1", elo1)):
        if abs(elo) > MAX_ELO:
            raise click.BadParameter(
                f"an Elo difference from -{MAX_ELO:g} to {MAX_ELO:g}, not {elo:g}", param_hint=name
            )
    if elo1 <= elo0:
        raise click.BadParameter("elo1 must be above elo0", param_hint="--elo1")
    try:
        engine_game = get_game(game)
    except UnknownGame:
        raise click.BadParameter(f"no game {game!r}", param_hint="GAME") from None
    sprt = Sprt(elo0, elo1, alpha, beta)
    options = parse_options(option_pairs)
    deal = None
    if via is not None:
        deal = service_deal(via, game, seat_spec(bot_a, "A"), seat_spec(bot_b, "B"), options)
    elif "account:" in (bot_a[:8], bot_b[:8]):
        raise click.BadParameter("an account:NAME bot plays through a service: add --via URL")
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("LLR {task.fields[llr]:+.2f} [{task.fields[low]:.2f}, {task.fields[high]:.2f}]"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, transient=True, disable=as_json) as bar:
        task = bar.add_task("pairs", total=max_pairs, llr=0.0, low=sprt.lower, high=sprt.upper)

        def advance(report) -> None:  # type: ignore[no-untyped-def]
            bar.update(task, completed=len(report.pairs), llr=report.llr)

        try:
            report = run_match(
                engine_game,
                bot_a,
                bot_b,
                seats=seats,
                options=options,
                sprt=sprt,
                max_pairs=max_pairs,
                min_pairs=min_pairs,
                seed=seed,
                on_pair=advance,
                deal=deal,
            )
        except ValueError as exc:
            raise click.BadParameter(str(exc)) from None
    data = report.to_json()
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    table = Table(title=f"{game}: {bot_a} (A) v {bot_b} (B), {seats} seats", header_style="bold")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_column("95% CI", justify="right")
    table.add_row("pairs (games)", f"{data['pairs']} ({data['games']})", "")
    share_low, share_high = data["share_ci"]
    table.add_row(
        "A's share per pair", f"{data['share']:.3f}", f"{share_low:.3f} to {share_high:.3f}"
    )
    margin_low, margin_high = data["margin_ci"]
    table.add_row(
        "A's score margin per pair",
        f"{data['margin']:+.2f}",
        f"{margin_low:+.2f} to {margin_high:+.2f}",
    )
    elo_low, elo_high = data["elo_ci"]
    table.add_row("Elo of A over B", f"{data['elo']:+.0f}", f"{elo_low:+.0f} to {elo_high:+.0f}")
    low, high = data["bounds"]
    table.add_row("LLR", f"{data['llr']:+.2f}", f"bounds {low:.2f}, {high:.2f}")
    console.print(table)
    console.print(
        f"SPRT elo0={elo0:g} elo1={elo1:g} alpha={alpha:g} beta={beta:g}: "
        f"[bold]{DECISIONS[data['decision']]}[/bold]"
    )


def seat_spec(spec: str, which: str) -> dict[str, Any]:
    """A service seat for a bot spec: ``account:NAME`` an external seat, ``name[,k=v...]`` a
    bundled bot (with its options, e.g. ``search,iterations=50``)."""
    from engine.match import parse_value

    if spec.startswith("account:"):
        return {"kind": "external", "account": spec.removeprefix("account:")}
    head, *pairs = spec.split(",")
    if ":" in head:
        raise click.BadParameter(
            f"{spec!r}: through a service, a module:Class bot plays as an external bot "
            "(dicehall bot run --strategy MODULE:CLASS with a bot account): name it account:NAME",
            param_hint=which,
        )
    seat: dict[str, Any] = {"kind": "bot", "bot": head}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"{pair!r} is not KEY=VALUE", param_hint=which)
        seat[key] = parse_value(raw)
    return seat


def service_deal(
    url: str, game: str, a: dict[str, Any], b: dict[str, Any], options: dict[str, Any]
) -> Deal:
    """A deal played on the service at ``url``: the deal's games are created at once (the
    deal's seed, the seats rotated), then each is followed to its end."""
    from clients.sdk import Client

    client = Client(url)

    def deal(tables: list[list[int]], seed: str) -> list[Result]:
        ids = [
            client.create_game(game, [(a, b)[o] for o in owners], options, seed=seed)["id"]
            for owners in tables
        ]
        return [game_result(client, game_id) for game_id in ids]

    return deal


def game_result(client: Any, game_id: str) -> Result:
    """Wait (long-polling the game's events) until ``game_id`` is over; its result."""
    from engine.contract import Result

    cursor = None
    while True:
        summary = client.game(game_id)
        if summary["status"] == "over":
            found = summary["result"]
            return Result(found["scores"], found["ranks"], found.get("detail") or {})
        cursor = client.events(game_id, after=cursor, wait=WAIT_SECONDS)["cursor"]
