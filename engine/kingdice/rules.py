"""Rules of King of the Dice: The Board Game (HABA 2021), as a dicehall engine game.

One decision per action: ``roll``; ``reroll`` (with the dice to keep) or ``stop``; in phase 2
``joker`` (discard a pair for a pretend die), ``hire`` (face up) or ``take`` (face down, dragon
alarm); in phase 3 ``place``, ``steal_card``/``steal_gem``/``no_steal``, ``free_dragon``,
``raid`` and ``place_dragon``. See ``RULES.md`` for the rulings.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from marshmallow import Schema

from engine.contract import (
    Action,
    Event,
    Game,
    IllegalAction,
    Prompt,
    RandomBot,
    Result,
    View,
    ranks_from_keys,
)
from engine.dice import Dice
from engine.kingdice import board
from engine.kingdice.board import DRAGON, NOBODY
from engine.kingdice.bots import HeuristicBot
from engine.kingdice.conditions import COLOURS, Die, best_level, level
from engine.kingdice.data import (
    CARDS,
    DICE,
    DRAGON_FIRES,
    GOLD_GEMS,
    LAYOUTS,
    MARKERS,
    WHITE_GEMS,
    Layout,
)
from engine.kingdice.observe import make_view, sample_state
from engine.kingdice.state import ExtraDie, KingState, Phase, Player

LOG_KEEP = 12
TILE_EFFECTS = ("merchant", "thief_card", "thief_gem", "land_developer")
DRAWS = {"thief_card": (2, 1), "thief_gem": (1, 1), "land_developer": (2, 2)}
"""Tiles drawn and tiles placed by each tile-drawing effect (the merchant draws its grade)."""

REROLL_KEEPS: list[list[int]] = sorted(
    ([i for i in range(6) if mask >> i & 1] for mask in range(63)),
    key=lambda keep: (len(keep), keep),
)
"""Every set of dice that can be kept for a reroll (all but 'keep all six', which is stop)."""

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


class KingOptions(Schema):
    """King of the Dice has no options: the map and set-up follow the player count."""


class KingOfTheDice(Game):
    """King of the Dice: The Board Game, for 2 to 4 players."""

    name = "kingdice"
    title = "King of the Dice: The Board Game"
    min_seats = 2
    max_seats = 4
    options_schema = KingOptions
    state_class = KingState
    rules_page = "engine/kingdice/RULES.md"
    bots = {"random": RandomBot, "heuristic": HeuristicBot}

    # --- set-up -------------------------------------------------------------------------
    def setup(self, seats: int, options: dict[str, Any], dice: Dice) -> KingState:
        layout = LAYOUTS[seats]
        occupant = [NOBODY] * layout.size
        tiled = [False] * layout.size
        face_down = [False] * layout.size
        gem = [""] * layout.size
        tiles = list(layout.terrain)
        for space in layout.dragon_fires:
            occupant[space] = DRAGON
            tiled[space] = face_down[space] = True
            tiles.remove(layout.terrain[space])
        for space in layout.gold:
            gem[space] = "gold"
        for space in layout.white:
            gem[space] = "white"
        dice.shuffle(tiles)
        removed = [tiles.pop(), tiles.pop()]
        stacks = []
        for stack in range(1, 6):
            ids = [c["id"] for c in CARDS if c["stack"] == stack]
            dice.shuffle(ids)
            stacks.append(ids)
        state = KingState(
            seats=seats,
            occupant=occupant,
            tiled=tiled,
            face_down=face_down,
            gem=gem,
            stock=tiles,
            removed=removed,
            known_in_stock=[],
            stacks=stacks,
            players=[Player(white=1, markers=MARKERS) for _ in range(seats)],
            gold_stock=GOLD_GEMS - len(layout.gold),
            white_stock=WHITE_GEMS - len(layout.white) - seats,
            fire_stock=DRAGON_FIRES - len(layout.dragon_fires),
        )
        state.active = self._starting_player(state, dice)
        return state

    @staticmethod
    def _starting_player(state: KingState, dice: Dice) -> int:
        """Everyone rolls six dice; most sixes starts; tied players roll again."""
        rolling = list(range(state.seats))
        while True:
            sixes = [-1] * state.seats
            for seat in rolling:
                sixes[seat] = sum(1 for _ in range(6) if dice.roll() == 6)
            state.start_rolls.append(sixes)
            best = max(sixes)
            rolling = [seat for seat in rolling if sixes[seat] == best]
            if len(rolling) == 1:
                return rolling[0]

    # --- helpers ------------------------------------------------------------------------
    @staticmethod
    def layout(state: KingState) -> Layout:
        return LAYOUTS[state.seats]

    @staticmethod
    def rolled(state: KingState) -> list[Die]:
        """The thrown dice as (number, colour), before jokers."""
        return [(n, DICE[i][n - 1]) for i, n in enumerate(state.dice)]

    def result_dice(self, state: KingState) -> list[Die]:
        """The dice result with the pretend dice from joker pairs."""
        return self.rolled(state) + [(e.number, e.colour) for e in state.extra]

    def grade(self, state: KingState, card: int) -> int:
        """How many of ``card``'s conditions the dice result (with joker dice) meets."""
        extra = [(e.number, e.colour) for e in state.extra]
        return best_level(CARDS[card]["conditions"], self.rolled(state), extra)

    @staticmethod
    def market(state: KingState) -> list[tuple[int, int]]:
        """(stack, card id) of the face-up top card of every stack that is not empty."""
        return [(s + 1, ids[0]) for s, ids in enumerate(state.stacks) if ids]

    def must_hire(self, state: KingState) -> bool:
        """Whether the thrown dice alone (no jokers) meet a card in the job market."""
        rolled = self.rolled(state)
        return any(level(CARDS[c]["conditions"], rolled) > 0 for _, c in self.market(state))

    @staticmethod
    def symbols(player: Player) -> Counter[tuple[str, int]]:
        return Counter(
            (CARDS[c]["symbol"]["colour"], CARDS[c]["symbol"]["number"]) for c in player.face_up
        )

    def place_spaces(self, state: KingState) -> list[int]:
        """Empty spaces whose terrain matches a drawn tile."""
        terrain = self.layout(state).terrain
        drawn = set(state.drawn)
        return [s for s in range(len(terrain)) if not state.tiled[s] and terrain[s] in drawn]

    # --- whose decision -----------------------------------------------------------------
    def to_act(self, state: KingState) -> dict[int, Prompt]:
        if state.over:
            return {}
        return {state.active: Prompt(state.phase.value, text=PROMPTS[state.phase])}

    def legal_actions(self, state: KingState, seat: int) -> list[Action]:
        if state.over or seat != state.active:
            return []
        phase = state.phase
        if phase is Phase.ROLL:
            return [{"type": "roll"}]
        if phase is Phase.KEEP:
            return [{"type": "stop"}] + [{"type": "reroll", "keep": k} for k in REROLL_KEEPS]
        if phase is Phase.HIRE:
            return self._hire_actions(state, seat)
        if phase is Phase.PLACE:
            return [{"type": "place", "space": s} for s in self.place_spaces(state)]
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
                {"type": "free_dragon", "space": s}
                for s, o in enumerate(state.occupant)
                if o == DRAGON
            ]
        if phase is Phase.RAID:
            targets = board.closest_targets(self.layout(state), state.occupant, seat)
            return [{"type": "raid", "space": s} for s in targets]
        if phase is Phase.PLACE_DRAGON:
            sources = self._fire_sources(state, seat)
            return [
                {"type": "place_dragon", "space": s, **({} if src is None else {"source": src})}
                for s in self.place_spaces(state)
                for src in sources
            ]
        return []

    def _hire_actions(self, state: KingState, seat: int) -> list[Action]:
        market = self.market(state)
        acts: list[Action] = [
            {"type": "hire", "stack": stack}
            for stack, card in market
            if self.grade(state, card) > 0
        ]
        if not acts or not self.must_hire(state):
            acts += [{"type": "take", "stack": stack} for stack, _ in market]
        player = state.players[seat]
        held = self.symbols(player)
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

    @staticmethod
    def _fire_sources(state: KingState, seat: int) -> list[int | None]:
        """Where the dragon fire comes from: None for the stockpile or the seat's own area
        (no choice), else each other player who has one. [None] when there is none at all."""
        if state.fire_stock > 0 or state.players[seat].fires > 0:
            return [None]
        others = [s for s, p in enumerate(state.players) if s != seat and p.fires > 0]
        return list(others) or [None]

    def describe(self, state: KingState, seat: int, action: Action) -> str:
        kind = action.get("type")
        terrain = self.layout(state).terrain
        if kind == "roll":
            return "Roll all six dice"
        if kind == "stop":
            return "Stop rolling and use this result"
        if kind == "reroll":
            keep = action.get("keep", [])
            shown = [f"{n} {DICE[i][n - 1]}" for i, n in enumerate(state.dice) if i in keep]
            return "Reroll everything" if not keep else f"Keep {', '.join(shown)}; reroll the rest"
        if kind == "hire":
            stack = action.get("stack", 0)
            card = state.stacks[stack - 1][0] if 1 <= stack <= 5 and state.stacks[stack - 1] else -1
            name = CARDS[card]["name"] if card >= 0 else "?"
            return f"Hire the {name} from stack {stack}"
        if kind == "take":
            return f"Take stack {action.get('stack')}'s card face down (dragon alarm)"
        if kind == "joker":
            pair = {"twin": "two matching jokers", "super": "a joker and a super joker"}.get(
                action.get("pair", ""), "two super jokers"
            )
            return f"Discard {pair} for a {action.get('colour')} {action.get('number')}"
        space = action.get("space")
        where = f"{terrain[space]} (space {space})" if isinstance(space, int) else "?"
        if kind == "place":
            return f"Place the tile on {where} with a marker"
        if kind == "place_dragon":
            src = action.get("source")
            tail = f" (dragon fire from player {src})" if src is not None else ""
            return f"Place the tile on {where} with a dragon fire{tail}"
        if kind == "free_dragon":
            return f"Drive out the dragon fire on {where}"
        if kind == "raid":
            return f"Replace player {state.occupant[space]}'s marker on {where}"
        if kind == "steal_card":
            card = action.get("card", 0)
            sym = CARDS[card]["symbol"] if isinstance(card, int) and 0 <= card < 60 else {}
            return f"Steal card {card} (a {sym.get('colour')} {sym.get('number')} joker)"
        if kind == "steal_gem":
            return f"Steal a {action.get('gem')} gemstone from player {action.get('victim')}"
        if kind == "no_steal":
            return "Steal nothing"
        return super().describe(state, seat, action)

    # --- moves --------------------------------------------------------------------------
    def check(self, state: KingState, seat: int, action: Action) -> None:
        kind = action.get("type")
        if kind not in ALL_TYPES:
            raise IllegalAction("unknown_action", f"unknown action type {kind!r}")
        if state.over:
            raise IllegalAction("game_over", "the game is over")
        if seat != state.active:
            raise IllegalAction("not_your_turn", f"it is player {state.active}'s turn")
        if kind not in PHASE_ACTIONS[state.phase]:
            raise IllegalAction(
                "wrong_phase", f"you cannot {kind} now: you must {PROMPTS[state.phase]}"
            )
        if action in self.legal_actions(state, seat):
            return
        raise IllegalAction(*self._why_not(state, seat, action))

    def _why_not(self, state: KingState, seat: int, action: Action) -> tuple[str, str]:
        """A specific code and reason for an action of the right phase that is not legal."""
        kind = action["type"]
        if kind == "reroll":
            return "bad_keep", "keep is a sorted list of 0 to 5 distinct die indices 0..5"
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

    def perform(self, state: KingState, seat: int, action: Action, dice: Dice) -> list[Event]:
        events: list[Event] = []
        getattr(self, f"_do_{action['type']}")(state, seat, action, dice, events)
        state.log = (state.log + [e for e in events if e.get("type") != "turn"])[-LOG_KEEP:]
        return events

    # phase 1
    def _do_roll(self, state: KingState, seat: int, action: Action, dice: Dice, ev: list) -> None:
        state.dice = [dice.roll() for _ in range(6)]
        state.rolls = 1
        state.phase = Phase.KEEP
        ev.append({"type": "rolled", "seat": seat, "roll": 1, "dice": list(state.dice)})

    def _do_reroll(self, state: KingState, seat: int, action: Action, dice: Dice, ev: list) -> None:
        keep = set(action["keep"])
        state.dice = [n if i in keep else dice.roll() for i, n in enumerate(state.dice)]
        state.rolls += 1
        ev.append({"type": "rolled", "seat": seat, "roll": state.rolls, "dice": list(state.dice)})
        if state.rolls == 3:
            self._end_rolling(state, seat, ev)

    def _do_stop(self, state: KingState, seat: int, action: Action, dice: Dice, ev: list) -> None:
        self._end_rolling(state, seat, ev)

    def _end_rolling(self, state: KingState, seat: int, ev: list) -> None:
        state.phase = Phase.HIRE
        ev.append({"type": "result", "seat": seat, "must_hire": self.must_hire(state)})

    # phase 2
    def _do_joker(self, state: KingState, seat: int, action: Action, dice: Dice, ev: list) -> None:
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

    def _do_hire(self, state: KingState, seat: int, action: Action, dice: Dice, ev: list) -> None:
        card = state.stacks[action["stack"] - 1].pop(0)
        state.players[seat].face_up.append(card)
        state.hired = card
        state.grade = self.grade(state, card)
        ev.append({"type": "hired", "seat": seat, "card": card, "grade": state.grade})
        effect = CARDS[card]["effect"]
        if effect == "merchant":
            self._draw(state, state.grade, 1, dice, ev)
            self._next_placement(state, seat, dice, ev)
        elif effect in DRAWS:
            self._draw(state, *DRAWS[effect], dice, ev)
            self._next_placement(state, seat, dice, ev)
        elif effect == "dragon_trainer":
            if DRAGON in state.occupant:
                self._need_marker(state, seat, Phase.FREE_DRAGON, dice, ev)
            else:
                ev.append({"type": "no_effect", "seat": seat, "reason": "no dragon fire on map"})
                self._end_phase3(state, ev)
        else:  # ruffian
            if board.closest_targets(self.layout(state), state.occupant, seat):
                self._need_marker(state, seat, Phase.RAID, dice, ev)
            else:
                ev.append({"type": "no_effect", "seat": seat, "reason": "no marker to replace"})
                self._end_phase3(state, ev)

    def _do_take(self, state: KingState, seat: int, action: Action, dice: Dice, ev: list) -> None:
        stack = action["stack"]
        card = state.stacks[stack - 1].pop(0)
        state.players[seat].face_down.append(card)
        state.dragon_alarm = True
        ev.append({"type": "took_face_down", "seat": seat, "stack": stack})
        self._draw(state, 1, 1, dice, ev)
        if state.drawn:
            state.phase = Phase.PLACE_DRAGON
        else:
            self._end_phase3(state, ev)

    # phase 3
    def _draw(self, state: KingState, n: int, place: int, dice: Dice, ev: list) -> None:
        for _ in range(min(n, len(state.stock))):
            tile = state.stock.pop()
            if tile in state.known_in_stock:
                state.known_in_stock.remove(tile)
            state.drawn.append(tile)
        state.to_place = min(place, len(state.drawn))
        ev.append({"type": "drew", "tiles": list(state.drawn), "tiles_left": len(state.stock)})

    def _need_marker(self, state: KingState, seat: int, phase: Phase, dice: Dice, ev: list) -> None:
        """Enter a phase where ``seat`` places a marker; with none left, ``seat`` wins."""
        if state.players[seat].markers == 0:
            state.winner = seat
            state.over = True
            state.phase = Phase.OVER
            ev.append({"type": "won", "seat": seat, "reason": "must place a 17th marker"})
            return
        state.phase = phase

    def _next_placement(self, state: KingState, seat: int, dice: Dice, ev: list) -> None:
        if state.to_place > 0 and self.place_spaces(state):
            self._need_marker(state, seat, Phase.PLACE, dice, ev)
            return
        if state.drawn:
            state.stock += state.drawn
            state.known_in_stock = sorted(state.known_in_stock + state.drawn)
            ev.append({"type": "returned", "tiles": list(state.drawn)})
            state.drawn = []
            dice.shuffle(state.stock)
        state.to_place = 0
        self._after_tiles(state, seat, ev)

    def _after_tiles(self, state: KingState, seat: int, ev: list) -> None:
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
            self._end_phase3(state, ev)

    def _take_gem(self, state: KingState, seat: int, space: int, ev: list) -> None:
        gem = state.gem[space]
        if gem:
            state.gem[space] = ""
            player = state.players[seat]
            if gem == "gold":
                player.gold += 1
            else:
                player.white += 1
            ev.append({"type": "gem_taken", "seat": seat, "space": space, "gem": gem})

    def _do_place(self, state: KingState, seat: int, action: Action, dice: Dice, ev: list) -> None:
        space = action["space"]
        terrain = self.layout(state).terrain[space]
        state.drawn.remove(terrain)
        state.tiled[space] = True
        state.occupant[space] = seat
        state.players[seat].markers -= 1
        state.to_place -= 1
        ev.append({"type": "placed", "seat": seat, "space": space, "terrain": terrain})
        self._take_gem(state, seat, space, ev)
        self._next_placement(state, seat, dice, ev)

    def _do_place_dragon(
        self, state: KingState, seat: int, action: Action, dice: Dice, ev: list
    ) -> None:
        space = action["space"]
        terrain = self.layout(state).terrain[space]
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
        self._end_phase3(state, ev)

    def _do_free_dragon(
        self, state: KingState, seat: int, action: Action, dice: Dice, ev: list
    ) -> None:
        space = action["space"]
        state.occupant[space] = seat
        state.players[seat].markers -= 1
        state.players[seat].fires += 1
        ev.append({"type": "dragon_freed", "seat": seat, "space": space})
        self._take_gem(state, seat, space, ev)
        self._end_phase3(state, ev)

    def _do_raid(self, state: KingState, seat: int, action: Action, dice: Dice, ev: list) -> None:
        space = action["space"]
        victim = state.occupant[space]
        state.players[victim].markers += 1
        state.occupant[space] = seat
        state.players[seat].markers -= 1
        ev.append({"type": "raided", "seat": seat, "space": space, "victim": victim})
        self._end_phase3(state, ev)

    def _do_steal_card(
        self, state: KingState, seat: int, action: Action, dice: Dice, ev: list
    ) -> None:
        card = action["card"]
        victim = next(s for s, p in enumerate(state.players) if card in p.face_up)
        state.players[victim].face_up.remove(card)
        state.players[seat].face_up.append(card)
        ev.append({"type": "stole_card", "seat": seat, "victim": victim, "card": card})
        self._end_phase3(state, ev)

    def _do_steal_gem(
        self, state: KingState, seat: int, action: Action, dice: Dice, ev: list
    ) -> None:
        victim, gem = action["victim"], action["gem"]
        thief, loser = state.players[seat], state.players[victim]
        if gem == "gold":
            loser.gold -= 1
            thief.gold += 1
        else:
            loser.white -= 1
            thief.white += 1
        ev.append({"type": "stole_gem", "seat": seat, "victim": victim, "gem": gem})
        self._end_phase3(state, ev)

    def _do_no_steal(
        self, state: KingState, seat: int, action: Action, dice: Dice, ev: list
    ) -> None:
        ev.append({"type": "no_steal", "seat": seat})
        self._end_phase3(state, ev)

    def _end_phase3(self, state: KingState, ev: list) -> None:
        """End of phase 3: the game ends when the stockpile is empty and all but two spaces
        are occupied; otherwise the next player's turn begins."""
        if not state.stock and sum(state.tiled) >= len(state.tiled) - 2:
            state.over = True
            state.phase = Phase.OVER
            ev.append({"type": "game_over", "reason": "the castle-tile stockpile is empty"})
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

    # --- observation --------------------------------------------------------------------
    def scores(self, state: KingState) -> list[dict[str, int]]:
        return board.score_breakdown(
            self.layout(state),
            state.occupant,
            [p.fires for p in state.players],
            [p.gold for p in state.players],
            [p.white for p in state.players],
        )

    def view(self, state: KingState, seat: int | None) -> View:
        return make_view(self, state, seat)

    def result(self, state: KingState) -> Result | None:
        if not state.over:
            return None
        parts = self.scores(state)
        totals = [p["total"] for p in parts]
        fires = [p.fires for p in state.players]
        keys: list[Any] = [(totals[s], fires[s]) for s in range(state.seats)]
        if state.winner >= 0:
            keys[state.winner] = (10**6, 0)
        return Result(
            scores=[float(t) for t in totals],
            ranks=ranks_from_keys(keys),
            detail={
                "breakdown": parts,
                "immediate_winner": state.winner if state.winner >= 0 else None,
                "turns": state.turn,
                "removed_tiles": sorted(state.removed),
            },
        )

    def sample(self, view: View, seat: int | None, dice: Dice) -> KingState:
        return sample_state(view, dice)


GAME = KingOfTheDice()
