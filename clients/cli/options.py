"""Options shared by every command that talks to a server, declared once."""

from __future__ import annotations

import functools
import json
import math
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

import click

from clients.sdk import Client

DEFAULT_URL = "http://127.0.0.1:8000"

F = TypeVar("F", bound=Callable[..., Any])


class Finite(click.FloatRange):
    """A number option (within ``min`` and ``max`` when given) that refuses NaN and the
    infinities, which ``float`` reads and a range lets through (NaN compares false with
    every bound): JSON cannot carry them to the server, and a wait cannot take them."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return number


def finite_json(text: str) -> Any:
    """``text`` read as JSON, refusing what JSON has no number for (``NaN``, ``Infinity``, or
    a number too large for a float). Raises ValueError."""

    def refused(word: str) -> float:
        raise ValueError(f"{word} is not a JSON number")

    def number(word: str) -> float:
        value = float(word)
        return value if math.isfinite(value) else refused(word)

    return json.loads(text, parse_constant=refused, parse_float=number)


def server_url(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """``--server``, refused (exit 2) unless it is an http(s) URL with a host: requests raised
    its own error on anything else (``nothttp``, ``http://[::1``), a traceback."""
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 (reading it checks it)
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise click.BadParameter(f"{value!r} is not an http(s) URL such as {DEFAULT_URL}")
    return value


def writable_output(path: Path, option: str) -> None:
    """Refuse (exit 2) an output file that cannot be written, before the work it is for: a
    folder that does not exist, or one this user may not write in."""
    folder = path.parent
    if not folder.is_dir():
        raise click.BadParameter(f"{str(folder)!r} is not a folder", param_hint=option)
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise click.BadParameter(f"{str(path)!r} cannot be written", param_hint=option)


def write_output(path: Path, text: str) -> None:
    """Write ``text`` to ``path``; a failure (a full disk...) is click's file error, not a
    traceback."""
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise click.FileError(str(path), hint=error.strerror or str(error)) from error


def pass_client(func: F) -> F:
    """Add ``--server`` and ``--token`` and pass the command a ready :class:`Client`."""

    @click.option(
        "--server",
        envvar="DICEHALL_URL",
        default=DEFAULT_URL,
        show_default=True,
        callback=server_url,
        help="Base URL of the dicehall API (env DICEHALL_URL).",
    )
    @click.option(
        "--token",
        envvar="DICEHALL_TOKEN",
        default=None,
        help="A seat or creator token (env DICEHALL_TOKEN); none is a spectator.",
    )
    @functools.wraps(func)
    def wrapper(server: str, token: str | None, **kwargs: Any) -> Any:
        return func(Client(server, token), **kwargs)

    return wrapper  # type: ignore[return-value]


def parse_options(pairs: tuple[str, ...]) -> dict[str, Any]:
    """``k=v`` pairs into a game's options; values are read as JSON when they parse
    (``rounds=3`` is a number, ``map=west`` a string)."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"{pair!r} is not KEY=VALUE", param_hint="--option")
        try:
            options[key] = finite_json(value)
        except ValueError:
            options[key] = value
    return options


option_pairs = click.option(
    "--option",
    "-o",
    "option_pairs",
    multiple=True,
    metavar="KEY=VALUE",
    help="A game option (repeatable); values are JSON when they parse.",
)
seed_option = click.option("--seed", default=None, help="The game's secret seed (default: random).")
wait_option = click.option(
    "--wait",
    default=25.0,
    show_default=True,
    type=Finite(0, 30),
    help="Seconds each events long-poll may wait while nothing happens.",
)
