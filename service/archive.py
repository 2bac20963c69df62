"""The compact form of a finished game: what replay and the API need, in one compressed field.

A finished game keeps its record (meta: seats, options, seed, commitment), its final state,
its action log and, for tournament games, the per-seat statistics the standings read. The
log is stored without what can be recomputed: an entry's ``n`` and ``version`` are its
position, ``at`` is kept in milliseconds after the game's creation, and of each draw
only the number of outcomes ``n`` (``k`` counts on from 0, or for a fork from the dice
``counter`` it started at, and the value is
``engine.dice.derive(seed, k, n)``). :func:`unpack` gives entries exactly as the live log had
them (``at`` to within half a millisecond). The whole is JSON, zlib-compressed (binary: the
store reads it with decoding off).
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from typing import Any

from engine.dice import derive


@dataclass
class Archive:
    """A finished game as stored: record meta, final state, log entries, statistics."""

    meta: dict[str, Any]
    state: dict[str, Any]
    log: list[dict[str, Any]]
    stats: list[dict[str, Any]] | None


def _fold_entry(entry: dict[str, Any], created_at: float) -> dict[str, Any]:
    folded = {key: value for key, value in entry.items() if key not in {"n", "version"}}
    if "at" in folded:
        folded["at"] = round((folded["at"] - created_at) * 1000)
    if "draws" in folded:
        folded["draws"] = [n for _k, n, _value in folded["draws"]]
    return folded


def _unfold_entry(
    folded: dict[str, Any], n: int, k: int, seed: str, created_at: float
) -> tuple[dict[str, Any], int]:
    entry = {"n": n, "version": n, **folded}
    if "at" in entry:
        entry["at"] = created_at + entry["at"] / 1000
    if "draws" in entry:
        draws = []
        for outcomes in entry["draws"]:
            draws.append([k, outcomes, derive(seed, k, outcomes)])
            k += 1
        entry["draws"] = draws
    return entry, k


def pack(archive: Archive) -> bytes:
    """The archive, compressed."""
    created_at = archive.meta["created_at"]
    stats = archive.stats
    if stats is not None:
        stats = [{**seat, "times": [round(t * 1000) for t in seat["times"]]} for seat in stats]
    data = {
        "meta": archive.meta,
        "state": archive.state,
        "log": [_fold_entry(entry, created_at) for entry in archive.log],
        "stats": stats,
    }
    return zlib.compress(json.dumps(data, separators=(",", ":")).encode(), 9)


def unpack(packed: bytes, with_log: bool = True) -> Archive:
    """The archive from its compressed form (the log rebuilt only when ``with_log``)."""
    data = json.loads(zlib.decompress(packed))
    meta = data["meta"]
    log = []
    if with_log:
        k = int((meta.get("forked_from") or {}).get("counter", 0))  # a fork's draws go on
        for n, folded in enumerate(data["log"]):
            entry, k = _unfold_entry(folded, n, k, meta["seed"], meta["created_at"])
            log.append(entry)
    stats = data["stats"]
    if stats is not None:
        stats = [{**seat, "times": [t / 1000 for t in seat["times"]]} for seat in stats]
    return Archive(meta, data["state"], log, stats)
