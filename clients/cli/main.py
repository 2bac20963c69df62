"""The ``dicehall`` entry point: the click group, its commands and the top-level handler."""

from __future__ import annotations

from typing import Any

import click

from clients.cli.commands import (
    bot,
    fork,
    games,
    list_games,
    match,
    new,
    picture,
    play,
    replay,
    tournament,
    up,
    verify,
    watch,
)
from clients.cli.errors import handled_errors


class DicehallGroup(click.Group):
    """A click group that runs every command inside the one top-level error handler."""

    def invoke(self, ctx: click.Context) -> Any:
        with handled_errors():
            return super().invoke(ctx)


@click.group(cls=DicehallGroup)
@click.version_option(package_name="dicehall")
def cli() -> None:
    """dicehall: play dice games over HTTP, by people and by bots."""


for command in (
    up.up,
    games.games,
    list_games.list_games,
    new.new,
    fork.fork,
    play.play,
    watch.watch,
    picture.picture,
    replay.replay,
    verify.verify,
    bot.bot,
    tournament.tournament,
    match.match,
):
    cli.add_command(command)
