"""One keys module (issue 18): every Redis key is built by ``service.keys.Keys``, and its
layout keeps each transaction in one cluster slot (issue 14)."""

from __future__ import annotations

import re
from pathlib import Path

from service.keys import Keys

ROOT = Path(__file__).resolve().parents[2]
KEY_LITERAL = re.compile(r"""prefix\}:|\{\{\{|["'](?:dh|floor):|:\{\{\w""")
"""What formatting a key by hand looks like: ``f"{prefix}:..."``, a hash tag ``{{{id}}}``,
or a literal ``"dh:..."``."""


def test_no_module_but_keys_formats_a_redis_key() -> None:
    found = []
    for folder in ("service", "clients", "bench"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == ROOT / "service" / "keys.py":
                continue
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if KEY_LITERAL.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == [], "\n".join(found)


def test_the_grep_would_see_a_key_formatted_by_hand() -> None:
    for line in (
        'key = f"{self.prefix}:rate:{name}"',
        'f"dh:{{{game_id}}}:game"',
        'client.get("dh:games")',
        'f"{p}:account:{{{account}}}"',
    ):
        assert KEY_LITERAL.search(line), line


def slot_tag(key: str) -> str:
    """The part of a key that decides its cluster slot (its hash tag, else all of it)."""
    match = re.search(r"\{([^}]+)\}", key)
    return match.group(1) if match else key


def test_a_games_parts_share_one_slot_and_index_shards_do_not() -> None:
    keys = Keys("dh")
    parts = [
        keys.game("g1"),
        keys.game("g1", "log"),
        keys.game("g1", "events"),
        keys.answers("g1"),
        keys.idempotency("g1", 2, "k"),
        keys.times("g1", 0),
        keys.bot_job("g1", 1),
        keys.replays("g1", 1),
        keys.beside(keys.game("g1"), "synced"),
        keys.answers_beside(keys.idempotency("g1", 0, "k")),
    ]
    assert {slot_tag(key) for key in parts} == {"g1"}
    assert {slot_tag(keys.account("a1")), slot_tag(keys.account("a1", "feed"))} == {"a1"}
    assert {slot_tag(keys.tournament("t1")), slot_tag(keys.tournament("t1", "lock"))} == {"t1"}
    shards = {slot_tag(keys.index_shard("games", n)) for n in range(8)}
    assert len(shards) == 8
