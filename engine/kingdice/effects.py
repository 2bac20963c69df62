"""How King of the Dice's actions change the state: phase 1 throws, phase 2 jokers and hires,
phase 3 effects, the dragon alarm, the 17th-marker win and the end of the game."""

from __future__ import annotations

from collections.abc import Callable

from engine.contract import Action, Event
from engine.dice import Dice
from engine.kingdice import board
from engine.kingdice.board import DRAGON
from engine.kingdice.data import CARDS
from engine.kingdice.queries import grade, layout, must_hire, place_spaces
from engine.kingdice.state import THROWS, ExtraDie, KingState, Phase

LOG_KEEP = 12
TURN_LIMIT = 200
"""House safeguard: the game ends after this many turns in all (RULES.md ruling 17)."""
DRAWS = {"thief_card": (2, 1), "thief_gem": (1, 1), "land_developer": (2, 2)}
"""Tiles drawn and tiles placed by each tile-drawing effect (the merchant draws its grade)."""

Handler = Callable[[KingState, int, Action, Dice, list[Event]], None]


def perform(state: KingState, seat: int, action: Action, dice: Dice) -> list[Event]:
    """Apply an action already checked; mutates ``state``; returns the events."""
    events: list[Event] = []
    HANDLERS[action["type"]](state, seat, action, dice, events)
    state.log = (state.log + [e for e in events if e.get("type") != "turn"])[-LOG_KEEP:]
    return events


# phase 1
def _do_roll(state: KingState, seat: int, action: Action, dice: Dice, ev: list[Event]) -> None:
    state.dice = [dice.roll() for _ in range(6)]
    state.rolls = 1
    state.phase = Phase.KEEP
    ev.append({"type": "rolled", "seat": seat, "roll": 1, "dice": list(state.dice)})


def _do_reroll(state: KingState, seat: int, action: Action, dice: Dice, ev: list[Event]) -> None:
    keep = set(action["keep"])
    state.dice = [n if i in keep else dice.roll() for i, n in enumerate(state.dice)]
    state.rolls += 1
    ev.append({"type": "rolled", "seat": seat, "roll": state.rolls, "dice": list(state.dice)})
    if state.rolls == THROWS:
        _end_rolling(state, seat, ev)


def _do_stop(state: KingState, seat: int, action: Action, dice: Dice, ev: list[Event]) -> None:
    _end_rolling(state, seat, ev)


def _end_rolling(state: KingState, seat: int, ev: list[Event]) -> None:
    state.phase = Phase.HIRE
    ev.append({"type": "result", "seat": seat, "must_hire": must_hire(state)})


# phase 2
def _do_joker(state: KingState, seat: int, action: Action, dice: Dice, ev: list[Event]) -> None:
    player = state.players[seat]
    colour, number = action["colour"], action["number"]
    matching = sorted(
        c
        for c in player.face_up
        if (CARDS[c]["symbol"]["colour"], CARDS[c]["symbol"]["number"]) == (colour, number)
    )
    pair = action["pair"]
    if pair == "twin":
        up, down = matching[:2], []
    elif pair == "super":
        up, down = matching[:1], player.face_down[:1]
    else:
        up, down = [], player.face_down[:2]
    for c in up:
        player.face_up.remove(c)
    for c in down:
        player.face_down.remove(c)
    state.box += up + down
    state.extra.append(ExtraDie(number=number, colour=colour))
    ev.append(
        {
            "type": "joker",
            "seat": seat,
            "pair": pair,
            "discarded": up,
            "super_jokers": len(down),
            "die": {"number": number, "colour": colour},
        }
    )


def _do_hire(state: KingState, seat: int, action: Action, dice: Dice, ev: list[Event]) -> None:
    card = state.stacks[action["stack"] - 1].pop(0)
    state.players[seat].face_up.append(card)
    state.hired = card
    state.grade = grade(state, card)
    ev.append({"type": "hired", "seat": seat, "card": card, "grade": state.grade})
    effect = CARDS[card]["effect"]
    if effect == "merchant":
        _draw(state, state.grade, 1, dice, ev)
        _next_placement(state, seat, dice, ev)
    elif effect in DRAWS:
        _draw(state, *DRAWS[effect], dice, ev)
        _next_placement(state, seat, dice, ev)
    elif effect == "dragon_trainer":
        if DRAGON in state.occupant:
            _need_marker(state, seat, Phase.FREE_DRAGON, dice, ev)
        else:
            ev.append({"type": "no_effect", "seat": seat, "reason": "no dragon fire on map"})
            _end_phase3(state, ev)
    else:  # ruffian
        if board.closest_targets(layout(state), state.occupant, seat):
            _need_marker(state, seat, Phase.RAID, dice, ev)
        else:
            ev.append({"type": "no_effect", "seat": seat, "reason": "no marker to replace"})
            _end_phase3(state, ev)


def _do_take(state: KingState, seat: int, action: Action, dice: Dice, ev: list[Event]) -> None:
    stack = action["stack"]
    card = state.stacks[stack - 1].pop(0)
    state.players[seat].face_down.append(card)
    state.dragon_alarm = True
    ev.append({"type": "took_face_down", "seat": seat, "stack": stack})
    _draw(state, 1, 1, dice, ev)
    if state.drawn:
        state.phase = Phase.PLACE_DRAGON
    else:
        _end_phase3(state, ev)


# phase 3
def _draw(state: KingState, n: int, place: int, dice: Dice, ev: list[Event]) -> None:
    for _ in range(min(n, len(state.stock))):
        tile = state.stock.pop()
        if tile in state.known_in_stock:
            state.known_in_stock.remove(tile)
        state.drawn.append(tile)
    state.to_place = min(place, len(state.drawn))
    ev.append({"type": "drew", "tiles": list(state.drawn), "tiles_left": len(state.stock)})


def _need_marker(state: KingState, seat: int, phase: Phase, dice: Dice, ev: list[Event]) -> None:
    """Enter a phase where ``seat`` places a marker; with none left, ``seat`` wins."""
    if state.players[seat].markers == 0:
        state.winner = seat
        state.over = True
        state.phase = Phase.OVER
        ev.append({"type": "won", "seat": seat, "reason": "must place a 17th marker"})
        return
    state.phase = phase


def _next_placement(state: KingState, seat: int, dice: Dice, ev: list[Event]) -> None:
    if state.to_place > 0 and place_spaces(state):
        _need_marker(state, seat, Phase.PLACE, dice, ev)
        return
    if state.drawn:
        state.stock += state.drawn
        state.known_in_stock = sorted(state.known_in_stock + state.drawn)
        ev.append({"type": "returned", "tiles": list(state.drawn)})
        state.drawn = []
        dice.shuffle(state.stock)
    state.to_place = 0
    _after_tiles(state, seat, ev)


def _after_tiles(state: KingState, seat: int, ev: list[Event]) -> None:
    effect = CARDS[state.hired]["effect"]
    if effect == "merchant" and state.grade == len(CARDS[state.hired]["conditions"]):
        gem = "gold" if state.gold_stock else "white" if state.white_stock else ""
        if gem == "gold":
            state.gold_stock -= 1
            state.players[seat].gold += 1
        elif gem == "white":
            state.white_stock -= 1
            state.players[seat].white += 1
        ev.append({"type": "bonus_gem", "seat": seat, "gem": gem or None})
    others = [p for s, p in enumerate(state.players) if s != seat]
    if effect == "thief_card" and any(p.face_up for p in others):
        state.phase = Phase.STEAL_CARD
    elif effect == "thief_gem" and any(p.gold or p.white for p in others):
        state.phase = Phase.STEAL_GEM
    else:
        _end_phase3(state, ev)


def _take_gem(state: KingState, seat: int, space: int, ev: list[Event]) -> None:
    gem = state.gem[space]
    if gem:
        state.gem[space] = ""
        player = state.players[seat]
        if gem == "gold":
            player.gold += 1
        else:
            player.white += 1
        ev.append({"type": "gem_taken", "seat": seat, "space": space, "gem": gem})


def _occupy(state: KingState, seat: int, space: int) -> None:
    """Put one of ``seat``'s markers on ``space`` (the 17th-marker check is at phase entry)."""
    state.occupant[space] = seat
    state.players[seat].markers -= 1


def _do_place(state: KingState, seat: int, action: Action, dice: Dice, ev: list[Event]) -> None:
    space = action["space"]
    terrain = layout(state).terrain[space]
    state.drawn.remove(terrain)
    state.tiled[space] = True
    _occupy(state, seat, space)
    state.to_place -= 1
    ev.append({"type": "placed", "seat": seat, "space": space, "terrain": terrain})
    _take_gem(state, seat, space, ev)
    _next_placement(state, seat, dice, ev)


def _do_place_dragon(
    state: KingState, seat: int, action: Action, dice: Dice, ev: list[Event]
) -> None:
    space = action["space"]
    terrain = layout(state).terrain[space]
    state.drawn.remove(terrain)
    state.to_place = 0
    state.tiled[space] = True
    source: int | str | None
    if state.fire_stock > 0:
        state.fire_stock -= 1
        source = "stock"
    elif state.players[seat].fires > 0:
        state.players[seat].fires -= 1
        source = seat
    elif "source" in action:
        state.players[action["source"]].fires -= 1
        source = action["source"]
    else:
        source = None
    if source is not None:
        state.occupant[space] = DRAGON
    ev.append({"type": "dragon_placed", "seat": seat, "space": space, "from": source})
    _end_phase3(state, ev)


def _do_free_dragon(
    state: KingState, seat: int, action: Action, dice: Dice, ev: list[Event]
) -> None:
    space = action["space"]
    _occupy(state, seat, space)
    state.players[seat].fires += 1
    ev.append({"type": "dragon_freed", "seat": seat, "space": space})
    _take_gem(state, seat, space, ev)
    _end_phase3(state, ev)


def _do_raid(state: KingState, seat: int, action: Action, dice: Dice, ev: list[Event]) -> None:
    space = action["space"]
    victim = state.occupant[space]
    state.players[victim].markers += 1
    _occupy(state, seat, space)
    ev.append({"type": "raided", "seat": seat, "space": space, "victim": victim})
    _end_phase3(state, ev)


def _do_steal_card(
    state: KingState, seat: int, action: Action, dice: Dice, ev: list[Event]
) -> None:
    card = action["card"]
    victim = next(s for s, p in enumerate(state.players) if card in p.face_up)
    state.players[victim].face_up.remove(card)
    state.players[seat].face_up.append(card)
    ev.append({"type": "stole_card", "seat": seat, "victim": victim, "card": card})
    _end_phase3(state, ev)


def _do_steal_gem(state: KingState, seat: int, action: Action, dice: Dice, ev: list[Event]) -> None:
    victim, gem = action["victim"], action["gem"]
    thief, loser = state.players[seat], state.players[victim]
    if gem == "gold":
        loser.gold -= 1
        thief.gold += 1
    else:
        loser.white -= 1
        thief.white += 1
    ev.append({"type": "stole_gem", "seat": seat, "victim": victim, "gem": gem})
    _end_phase3(state, ev)


def _do_no_steal(state: KingState, seat: int, action: Action, dice: Dice, ev: list[Event]) -> None:
    ev.append({"type": "no_steal", "seat": seat})
    _end_phase3(state, ev)


def stockpile_done(state: KingState) -> bool:
    """The natural end: the stockpile is empty and all but two spaces are occupied."""
    return not state.stock and sum(state.tiled) >= len(state.tiled) - 2


def _end_phase3(state: KingState, ev: list[Event]) -> None:
    """End of phase 3: the game ends when the stockpile is empty and all but two spaces
    are occupied, or after the last turn the safeguard allows; otherwise the next player's
    turn begins."""
    if stockpile_done(state):
        state.over = True
        state.phase = Phase.OVER
        ev.append({"type": "game_over", "reason": "the castle-tile stockpile is empty"})
        return
    if state.turn >= TURN_LIMIT:
        state.over = True
        state.phase = Phase.OVER
        ev.append({"type": "game_over", "reason": f"the turn limit ({TURN_LIMIT} turns)"})
        return
    state.active = (state.active + 1) % state.seats
    state.turn += 1
    state.phase = Phase.ROLL
    state.rolls = 0
    state.dice = []
    state.extra = []
    state.hired = -1
    state.grade = 0
    state.drawn = []
    state.to_place = 0
    state.dragon_alarm = False
    ev.append({"type": "turn", "seat": state.active, "turn": state.turn})


HANDLERS: dict[str, Handler] = {
    "roll": _do_roll,
    "reroll": _do_reroll,
    "stop": _do_stop,
    "joker": _do_joker,
    "hire": _do_hire,
    "take": _do_take,
    "place": _do_place,
    "place_dragon": _do_place_dragon,
    "free_dragon": _do_free_dragon,
    "raid": _do_raid,
    "steal_card": _do_steal_card,
    "steal_gem": _do_steal_gem,
    "no_steal": _do_no_steal,
}
