"""A bot's random choices come from the game's secret seed, never from public data.

A bot seat's sealed pick (Diceland's side, phase 2's sealed choices, a deadline's fallback)
must be as unforeseeable to the other seats as a human's. The worker seeds a bot's decision
from the seed, which stays secret until the game's end publishes it (then a replay
recomputes every choice); seeded from the public commitment, an opponent could work out the
bot's side before picking its own.
"""

from __future__ import annotations

import random

from engine.dice import commitment
from tests.players import Player, create, wait_for

SEATS = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
BOT_BOARD = ["F", "G"]


def _pick(source: str, decision: int) -> str:
    """The side the random bot picks for seat 1 with its decision seeded from ``source``."""
    sides = [{"type": "side", "map": m} for m in BOT_BOARD]
    return str(random.Random(f"{source}:{decision}:1").choice(sides)["map"])


def test_a_bots_sealed_side_comes_from_the_secret_seed_not_the_public_commitment(
    live_server, worker
):
    told_apart = 0
    for n in range(40):
        seed = f"bot-secret-{n}"
        game = create(live_server, "diceland", SEATS, seed=seed, options={"boards": ["A/C", "F/G"]})
        player = Player(live_server, game["id"], 0)
        wait_for(live_server, game["id"], lambda s: "1" not in s["to_act"], timeout=60)
        [bots_move] = [e for e in player.get("log")["entries"] if e["seat"] == 1]
        assert bots_move["action"] is None, "the bot's side is sealed"
        decision = bots_move["version"] - 1
        public, secret = _pick(commitment(seed), decision), _pick(seed, decision)
        assert player.act({"type": "side", "map": "A"}).status_code == 200
        picked = player.view()["view"]["players"][1]["map"]
        assert picked == secret, (seed, decision, picked)
        told_apart += public != secret
    assert told_apart >= 4, f"only {told_apart} of 40 seeds tell the two sources apart"
