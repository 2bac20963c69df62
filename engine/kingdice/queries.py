"""Questions about a King of the Dice state that the rules, the moves and the view share."""

from __future__ import annotations

from collections import Counter

from engine.kingdice import board
from engine.kingdice.conditions import Die, best_level, level
from engine.kingdice.data import CARDS, DICE, LAYOUTS, Layout
from engine.kingdice.state import KingState, Player


def layout(state: KingState) -> Layout:
    """The map of this game's player count."""
    return LAYOUTS[state.seats]


def rolled(state: KingState) -> list[Die]:
    """The thrown dice as (number, colour), before jokers."""
    return [(n, DICE[i][n - 1]) for i, n in enumerate(state.dice)]


def result_dice(state: KingState) -> list[Die]:
    """The dice result with the pretend dice from joker pairs."""
    return rolled(state) + [(e.number, e.colour) for e in state.extra]


def grade(state: KingState, card: int) -> int:
    """How many of ``card``'s conditions the dice result (with joker dice) meets."""
    extra = [(e.number, e.colour) for e in state.extra]
    return best_level(CARDS[card]["conditions"], rolled(state), extra)


def market(state: KingState) -> list[tuple[int, int]]:
    """(stack, card id) of the face-up top card of every stack that is not empty."""
    return [(s + 1, ids[0]) for s, ids in enumerate(state.stacks) if ids]


def must_hire(state: KingState) -> bool:
    """Whether the thrown dice alone (no jokers) meet a card in the job market."""
    thrown = rolled(state)
    return any(level(CARDS[c]["conditions"], thrown) > 0 for _, c in market(state))


def symbols(player: Player) -> Counter[tuple[str, int]]:
    """How many face-up cards of each joker symbol a player holds."""
    return Counter(
        (CARDS[c]["symbol"]["colour"], CARDS[c]["symbol"]["number"]) for c in player.face_up
    )


def place_spaces(state: KingState) -> list[int]:
    """Empty spaces whose terrain matches a drawn tile."""
    terrain = layout(state).terrain
    drawn = set(state.drawn)
    return [s for s in range(len(terrain)) if not state.tiled[s] and terrain[s] in drawn]


def fire_sources(state: KingState, seat: int) -> list[int | None]:
    """Where the dragon fire comes from: None for the stockpile or the seat's own area
    (no choice), else each other player who has one. [None] when there is none at all."""
    if state.fire_stock > 0 or state.players[seat].fires > 0:
        return [None]
    others = [s for s, p in enumerate(state.players) if s != seat and p.fires > 0]
    return list(others) or [None]


def scores(state: KingState) -> list[dict[str, int]]:
    """Every seat's points now, by the end-of-game scoring (see board.score_breakdown)."""
    return board.score_breakdown(
        layout(state),
        state.occupant,
        [p.fires for p in state.players],
        [p.gold for p in state.players],
        [p.white for p in state.players],
    )
