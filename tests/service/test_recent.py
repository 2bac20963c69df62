"""The bounded most-recently-used mapping shared by the per-process stores."""

from __future__ import annotations

from collections import OrderedDict

from service.recent import hold


def test_hold_keeps_the_entries_used_last_up_to_its_size():
    entries: OrderedDict[str, int] = OrderedDict()
    for key in "abc":
        hold(entries, key, ord(key), size=3)
    hold(entries, "a", 1, size=3)  # used again: now the newest, with its new value
    hold(entries, "d", 4, size=3)  # the oldest, b, goes
    assert list(entries.items()) == [("c", 99), ("a", 1), ("d", 4)]


def test_hold_on_a_key_evicted_meanwhile_adds_it_again():
    entries: OrderedDict[str, int] = OrderedDict(x=1)
    entries.popitem(last=False)  # another thread's eviction, between a caller's get and hold
    hold(entries, "x", 2, size=1)
    assert entries == OrderedDict(x=2)
