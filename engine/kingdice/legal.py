"""The legal actions of King of the Dice, phase by phase, and why an action is refused."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from engine.contract import Action
from engine.kingdice import board
from engine.kingdice.board import DRAGON
from engine.kingdice.conditions import COLOURS
from engine.kingdice.data import DICE
from engine.kingdice.queries import (
    fire_sources,
    grade,
    layout,
    market,
    must_hire,
    place_spaces,
    symbols,
)
from engine.kingdice.state import KingState, Phase

REROLL_KEEPS: list[list[int]] = sorted(
    ([i for i in range(6) if mask >> i & 1] for mask in range(63)),
    key=lambda keep: (len(keep), keep),
)
"""Every set of dice that can be kept for a reroll (all but 'keep all six', which is stop)."""


def canonical_keep(faces: Sequence[tuple[int, str]], keep: list[int]) -> list[int]:
    """The same kept faces (number, colour) on the lowest-numbered dice: dice showing the
    same number in the same colour are interchangeable, so keeping either is one choice
    (RULES.md, Rulings)."""
    used: set[int] = set()
    for i in keep:
        used.add(next(j for j in range(6) if faces[j] == faces[i] and j not in used))
    return sorted(used)


_KEEP_MASKS: list[tuple[list[int], int]] = [
    (keep, sum(1 << i for i in keep)) for keep in REROLL_KEEPS
]


def distinct_keeps(state: KingState) -> list[list[int]]:
    """The rerolls that keep different faces, each once, written with the lowest dice.

    A keep is :func:`canonical_keep`'s own exactly when, for every kept die, each lower die
    showing the same face is kept too (the kept dice of a face are its lowest ones)."""
    faces = thrown_faces(state)
    lower = tuple(sum(1 << j for j in range(i) if faces[j] == faces[i]) for i in range(6))
    return [[*keep] for keep in _canonical_keeps(lower)]


@functools.lru_cache(maxsize=256)
def _canonical_keeps(lower: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The keeps whose every kept die has its lower dice of the same face (``lower[i]``, a
    mask) kept too. It depends only on which dice show equal faces: at most 203 patterns
    (the partitions of six dice), all kept once worked out."""
    return tuple(
        tuple(keep) for keep, mask in _KEEP_MASKS if all(lower[i] & ~mask == 0 for i in keep)
    )


def thrown_faces(state: KingState) -> list[tuple[int, str]]:
    """(number, colour) of each of the six thrown dice."""
    return [(n, DICE[i][n - 1]) for i, n in enumerate(state.dice)]


PHASE_ACTIONS: dict[Phase, tuple[str, ...]] = {
    Phase.ROLL: ("roll",),
    Phase.KEEP: ("stop", "reroll"),
    Phase.HIRE: ("hire", "take", "joker"),
    Phase.PLACE: ("place",),
    Phase.STEAL_CARD: ("steal_card", "no_steal"),
    Phase.STEAL_GEM: ("steal_gem", "no_steal"),
    Phase.FREE_DRAGON: ("free_dragon",),
    Phase.RAID: ("raid",),
    Phase.PLACE_DRAGON: ("place_dragon",),
    Phase.OVER: (),
}
PROMPTS: dict[Phase, str] = {
    Phase.ROLL: "roll all six dice",
    Phase.KEEP: "keep some dice and reroll, or stop",
    Phase.HIRE: "use jokers, then hire a citizen (or take one face down)",
    Phase.PLACE: "place a drawn castle tile with one of your markers",
    Phase.STEAL_CARD: "steal a face-up citizen card (or not)",
    Phase.STEAL_GEM: "steal a gemstone (or not)",
    Phase.FREE_DRAGON: "replace a dragon fire with your marker",
    Phase.RAID: "replace the closest marker of another player with yours",
    Phase.PLACE_DRAGON: "dragon alarm: place the drawn tile with a dragon fire",
}
ALL_TYPES = {t for types in PHASE_ACTIONS.values() for t in types}


def legal_actions(state: KingState, seat: int) -> list[Action]:
    """Every legal action of ``seat`` now, in a stable order."""
    if state.phase == Phase.OVER or seat != state.active:
        return []
    phase = state.phase
    if phase is Phase.ROLL:
        return [{"type": "roll"}]
    if phase is Phase.KEEP:
        return [{"type": "stop"}] + [{"type": "reroll", "keep": k} for k in distinct_keeps(state)]
    if phase is Phase.HIRE:
        return hire_actions(state, seat)
    if phase is Phase.PLACE:
        return [{"type": "place", "space": s} for s in place_spaces(state)]
    if phase is Phase.STEAL_CARD:
        acts: list[Action] = [{"type": "no_steal"}]
        for victim, player in enumerate(state.players):
            if victim != seat:
                acts += [{"type": "steal_card", "card": c} for c in sorted(player.face_up)]
        return acts
    if phase is Phase.STEAL_GEM:
        acts = [{"type": "no_steal"}]
        for victim, player in enumerate(state.players):
            if victim == seat:
                continue
            for gem, count in (("gold", player.gold), ("white", player.white)):
                if count:
                    acts.append({"type": "steal_gem", "victim": victim, "gem": gem})
        return acts
    if phase is Phase.FREE_DRAGON:
        return [
            {"type": "free_dragon", "space": s} for s, o in enumerate(state.occupant) if o == DRAGON
        ]
    if phase is Phase.RAID:
        targets = board.closest_targets(layout(state), state.occupant, seat)
        return [{"type": "raid", "space": s} for s in targets]
    if phase is Phase.PLACE_DRAGON:
        sources = fire_sources(state, seat)
        return [
            {"type": "place_dragon", "space": s, **({} if src is None else {"source": src})}
            for s in place_spaces(state)
            for src in sources
        ]
    return []


def hire_actions(state: KingState, seat: int) -> list[Action]:
    """Phase 2: hires the dice meet, face-down takes unless the throw must hire, jokers."""
    offer = market(state)
    acts: list[Action] = [
        {"type": "hire", "stack": stack} for stack, card in offer if grade(state, card) > 0
    ]
    if not acts or not must_hire(state):
        acts += [{"type": "take", "stack": stack} for stack, _ in offer]
    player = state.players[seat]
    held = symbols(player)
    supers = len(player.face_down)
    order = sorted(held, key=lambda s: (COLOURS.index(s[0]), s[1]))
    acts += [
        {"type": "joker", "pair": "twin", "colour": c, "number": n}
        for c, n in order
        if held[(c, n)] >= 2
    ]
    if supers >= 1:
        acts += [{"type": "joker", "pair": "super", "colour": c, "number": n} for c, n in order]
    if supers >= 2:
        acts += [
            {"type": "joker", "pair": "supers", "colour": c, "number": n}
            for c in COLOURS
            for n in range(1, 7)
        ]
    return acts


def why_not(state: KingState, seat: int, action: Action) -> tuple[str, str]:
    """A specific code and reason for an action of the right phase that is not legal."""
    kind = action["type"]
    if kind == "reroll":
        keep = action.get("keep")
        if keep in REROLL_KEEPS:
            same = canonical_keep(thrown_faces(state), keep)
            return "same_dice", (
                f"dice showing the same number and colour are one choice, written with the "
                f"lowest-numbered dice: keep {same}"
            )
        return "bad_keep", "list the kept dice in increasing order"
    if kind in ("hire", "take"):
        stack = action.get("stack")
        if stack not in (1, 2, 3, 4, 5) or not state.stacks[stack - 1]:
            return "no_such_card", f"stack {stack!r} has no card in the job market"
        if kind == "take":
            return "must_hire", "your dice meet a card in the job market: you must hire one"
        return "condition_not_met", f"your dice do not meet the stack {stack} card"
    if kind == "joker":
        return "no_joker_pair", "you do not hold that pair of joker symbols"
    if kind in ("place", "place_dragon"):
        if kind == "place_dragon" and "source" in action:
            return "bad_source", "that dragon fire source is not allowed now"
        return "space_not_available", "that space is not empty or does not match a drawn tile"
    if kind == "free_dragon":
        return "no_dragon_there", "there is no dragon fire on that space"
    if kind == "raid":
        return "not_closest", "you may only replace the closest marker of another player"
    if kind == "steal_card":
        return "cannot_steal_card", "you may only steal another player's face-up card"
    if kind == "steal_gem":
        return "cannot_steal_gem", "that player has no such gemstone"
    return "not_a_legal_choice", "that is not one of the legal actions"
