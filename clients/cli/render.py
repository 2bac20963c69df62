"""Terminal pictures shared by the commands: boards, action menus, results and log lines.

A game's board comes from ``clients/boards/<game>.py`` (``render(view, seat)``, or
``render(view, seat, edition)`` for a view that names the edition of its game's designed
data, as Diceland's names its maps') when that module exists; otherwise the view is shown as a
JSON panel. Nothing here knows a game's rules.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.json import JSON
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from clients.cli.console import shown
from clients.sdk import Client


def _board_renderer(game: str) -> Any:
    if not game.isidentifier():
        return None
    try:
        module = importlib.import_module(f"clients.boards.{game}")
    except ImportError:
        return None
    return getattr(module, "render", None)


def json_panel(data: Any, title: str = "view") -> Panel:
    """Any JSON data as a highlighted panel (the generic board)."""
    return Panel(JSON(json.dumps(data, sort_keys=True)), title=title, expand=False)


def board(
    game: str, view: Mapping[str, Any], seat: int | None, client: Client | None = None
) -> RenderableType:
    """The game's own terminal picture of ``view`` if it has one, else a JSON panel. A view
    that names an ``edition`` is drawn with that edition's designed data, read through
    ``client`` (once per process: :meth:`Client.edition`).

    A renderer that fails, or an edition that cannot be read, falls back to the JSON panel (a
    drawing bug never stops a game).
    """
    render = _board_renderer(game)
    if render is not None:
        try:
            if "edition" in view and client is not None:
                return render(dict(view), seat, client.edition(game, view["edition"]))
            return render(dict(view), seat)
        except Exception as exc:  # a third-party picture must not end the session
            note = Text(f"(board picture failed: {exc!r}; showing the raw view)", style="dim")
            return Group(note, json_panel(view))
    return json_panel(view)


def seats_to_act(to_act: Any) -> list[int]:
    """The seats that owe a decision, from any of the API's ``to_act`` shapes
    (``{"0": prompt}``, ``[{"seat": 0, ...}]`` or ``[0, 1]``)."""
    if not to_act:
        return []
    if isinstance(to_act, Mapping):
        return sorted(int(seat) for seat in to_act)
    seats: list[int] = []
    for item in to_act:
        seats.append(int(item["seat"]) if isinstance(item, Mapping) else int(item))
    return sorted(seats)


def prompt_text(to_act: Any, seat: int) -> str:
    """The prompt's sentence for ``seat`` (empty when the server gives none)."""
    prompt: Any = None
    if isinstance(to_act, Mapping):
        prompt = to_act.get(str(seat), to_act.get(seat))  # type: ignore[call-overload]
    elif isinstance(to_act, list):
        prompt = next((p for p in to_act if isinstance(p, Mapping) and p.get("seat") == seat), None)
    if isinstance(prompt, Mapping):
        return str(prompt.get("text") or prompt.get("kind") or "")
    return ""


def action_text(item: Mapping[str, Any]) -> str:
    """The sentence of a legal-action item, or its compact JSON when the server gave none."""
    text = item.get("text")
    if text:
        return str(text)
    return compact(item.get("action", item))


def action_sentence(event: Mapping[str, Any]) -> str:
    """An ``action`` event as a person reads it: the game's sentence when the server sent
    one, "a sealed choice" while it is hidden, else the action's compact JSON."""
    if event.get("text"):
        return str(event["text"])
    if event.get("action") is None:
        return "a sealed choice"
    return compact(event["action"])


def event_sentence(event: Mapping[str, Any]) -> str:
    """A game's own event (``{"type": "round_opened", "pips": [3, 5], ...}``) as one line:
    its type in words, then its fields (``round opened: pips 3, 5``)."""
    words = str(event.get("type", "event")).replace("_", " ")
    parts = []
    for key, value in event.items():
        if key in ("type", "to"):
            continue
        if isinstance(value, list) and all(not isinstance(v, dict | list) for v in value):
            shown = ", ".join(str(v) for v in value) or "none"
        elif isinstance(value, dict | list):
            shown = compact(value)
        elif value is None or isinstance(value, bool):
            shown = {None: "none", True: "yes", False: "no"}[value]
        else:
            shown = str(value)
        parts.append(f"{key.replace('_', ' ')} {shown}")
    return f"{words}: {'; '.join(parts)}" if parts else words


def board_rows(console: Any, renderable: RenderableType) -> int:
    """How many terminal rows ``renderable`` takes on ``console``."""
    return len(console.render_lines(renderable, console.options, pad=False))


def compact(data: Any) -> str:
    """Short JSON for one line of output."""
    return json.dumps(data, separators=(", ", ": "))


def seat_names(summary: Mapping[str, Any]) -> list[str]:
    """A label for each seat of a game summary (``0 ann``, ``1 bot:heuristic``)."""
    names: list[str] = []
    for index, seat in enumerate(summary.get("seats") or []):
        if not isinstance(seat, Mapping):
            names.append(f"{index}")
            continue
        label = seat.get("name") or (
            f"bot:{seat.get('bot')}" if seat.get("kind") == "bot" else seat.get("kind", "")
        )
        names.append(f"{index} {shown(label)}".strip())
    return names


def result_table(result: Mapping[str, Any], names: Sequence[str] = ()) -> Table:
    """The final scores and ranks, best first."""
    scores = list(result.get("scores") or [])
    ranks = list(result.get("ranks") or [])
    table = Table(title="Result", header_style="bold", expand=False)
    table.add_column("rank", justify="right")
    table.add_column("seat")
    table.add_column("score", justify="right")
    order = sorted(range(len(scores)), key=lambda s: (ranks[s] if s < len(ranks) else 0, s))
    for seat in order:
        rank = ranks[seat] if seat < len(ranks) else "?"
        label = names[seat] if seat < len(names) else str(seat)
        style = "bold green" if rank == 1 else ""
        table.add_row(str(rank), label, f"{scores[seat]:g}", style=style)
    return table
