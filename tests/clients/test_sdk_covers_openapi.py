"""The SDK has a method for every operation of the committed contract (``openapi.yaml``):
each method is called against a real HTTP peer and the requests it sent must cover every
path and method of the document, and nothing outside it."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from clients.sdk import Client
from tests.clients.peer import Answer, Peer

OPENAPI = Path(__file__).resolve().parents[2] / "openapi.yaml"
METHODS = {"get", "post", "put", "patch", "delete"}
SSE = {"Content-Type": "text/event-stream"}


def operations() -> dict[tuple[str, str], re.Pattern[str]]:
    spec = yaml.safe_load(OPENAPI.read_text())
    found = {}
    for path, item in spec["paths"].items():
        pattern = re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", path) + "$")
        for method in item:
            if method in METHODS:
                found[(method.upper(), path)] = pattern
    return found


def every_sdk_call() -> list[tuple[Callable[[Client], Any], Answer | None]]:
    over = Answer(200, headers=SSE, chunks=["id: 1-0\nevent: game_over\ndata: {}\n\n"])
    pending = Answer(200, headers=SSE, chunks=["event: pending\ndata: []\n\n"])
    return [
        (lambda c: c.health(), None),
        (lambda c: c.live(), None),
        (lambda c: c.ready(), None),
        (lambda c: c.catalogue(), None),
        (lambda c: c.game_info("toy"), None),
        (lambda c: c.rules("carcassonne"), None),
        (lambda c: c.edition("peer-game", 1), None),  # a key no other test has cached
        (lambda c: c.games(), None),
        (lambda c: c.create_game("toy", [{"kind": "human"}]), None),
        (lambda c: c.game("g1"), None),
        (lambda c: c.cancel_game("g1"), None),
        (lambda c: c.remove_seat("g1", 1), None),
        (lambda c: c.fork_game("g1", 3, [{"kind": "bot"}]), None),
        (lambda c: c.verification("g1"), None),
        (lambda c: c.join("g1", 0, "ann"), None),
        (lambda c: c.view("g1"), None),
        (lambda c: c.legal_actions("g1"), None),
        (lambda c: c.act("g1", {"type": "roll"}, if_match=1), None),
        (lambda c: c.log("g1"), None),
        (lambda c: c.events("g1", after="0", wait=0), None),
        (lambda c: list(c.stream_events("g1")), over),
        (lambda c: c.picture_svg("g1", 0), None),
        (lambda c: c.register_bot("b", "me"), None),
        (lambda c: c.bot_account(), None),
        (lambda c: c.bot_feed(after="0", wait=0), None),
        (lambda c: next(c.stream_bot_feed()), pending),
        (lambda c: c.create_tournament("toy", [{"name": "a", "bot": "random"}], 2), None),
        (lambda c: c.tournaments(), None),
        (lambda c: c.tournament("t1"), None),
        (lambda c: c.tournament_games("t1"), None),
        (lambda c: c.tournament_chart_svg("t1"), None),
    ]


def test_every_openapi_operation_has_an_sdk_method(peer: Peer, sdk: Client) -> None:
    peer.default = Answer(200, {"games": [], "tournaments": [], "status": "ok"})
    for call, answer in every_sdk_call():
        if answer is not None:
            peer.answer(answer)
        call(sdk)
    contract = operations()
    covered = set()
    for request in peer.received:
        matches = [
            op
            for op, pattern in contract.items()
            if op[0] == request.method and pattern.match(request.path)
        ]
        assert matches, f"{request.method} {request.path} is not in openapi.yaml"
        covered.update(matches)
    assert set(contract) - covered == set()
