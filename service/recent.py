"""Putting an entry into a bounded, most-recently-used mapping of a process.

The per-process stores of decoded states (``service.decoded``) and of described actions
(``service.described``) keep the entries used last and drop the oldest beyond their size.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


def hold(entries: OrderedDict[K, V], key: K, value: V, size: int) -> None:
    """Put ``value`` under ``key`` as the entry used last, then drop the oldest entries beyond
    ``size``. Safe if another thread changes ``entries`` meanwhile: the key is removed and added
    again rather than moved (a move raises if the key was just evicted), and an eviction that
    finds the mapping already emptied stops."""
    entries.pop(key, None)
    entries[key] = value
    while len(entries) > size:
        try:
            entries.popitem(last=False)
        except KeyError:  # emptied meanwhile by another thread
            break
