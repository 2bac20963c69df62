"""Rules of King of the Dice: The Board Game (HABA 2021), as a dicehall engine game.

One decision per action: ``roll``; ``reroll`` (with the dice to keep) or ``stop``; in phase 2
``joker`` (discard a pair for a pretend die), ``hire`` (face up) or ``take`` (face down, dragon
alarm); in phase 3 ``place``, ``steal_card``/``steal_gem``/``no_steal``, ``free_dragon``,
``raid`` and ``place_dragon``. See ``RULES.md`` for the rulings. This module is the glue:
legal actions live in ``legal``, their effects in ``effects``, menu texts in ``texts``, the
view and ``sample`` in ``observe``.
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema

from engine.contract import (
    Action,
    Event,
    Game,
    IllegalAction,
    Prompt,
    Result,
    View,
    ranks_from_keys,
)
from engine.dice import Dice
from engine.kingdice import effects, legal, queries, schemas
from engine.kingdice.board import DRAGON, NOBODY
from engine.kingdice.bots import BOTS
from engine.kingdice.data import CARDS, DRAGON_FIRES, GOLD_GEMS, LAYOUTS, MARKERS, WHITE_GEMS
from engine.kingdice.picture import render_svg
from engine.kingdice.state import KingState, Phase, Player
from engine.kingdice.texts import describe_action, describe_actions
from engine.kingdice.view import make_view, sample_state


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
    action_schemas = schemas.ACTIONS
    view_schema = schemas.VIEW
    result_detail_schema = schemas.RESULT_DETAIL
    event_schemas = schemas.EVENTS
    rules_page = "engine/kingdice/RULES.md"
    bots = BOTS

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

    # --- whose decision -----------------------------------------------------------------
    def to_act(self, state: KingState) -> dict[int, Prompt]:
        if self.is_over(state):
            return {}
        return {state.active: Prompt(state.phase.value, text=legal.PROMPTS[state.phase])}

    def legal_actions(self, state: KingState, seat: int) -> list[Action]:
        return legal.legal_actions(state, seat)

    def describe(self, state: KingState, seat: int, action: Action) -> str:
        return describe_action(state, action)

    def describe_all(self, state: KingState, seat: int, actions: list[Action]) -> list[str]:
        return describe_actions(state, actions)

    # --- moves --------------------------------------------------------------------------
    def check_rules(self, state: KingState, seat: int, action: Action) -> None:
        kind = action["type"]
        if kind not in legal.PHASE_ACTIONS[state.phase]:
            raise IllegalAction(
                "wrong_phase", f"you cannot {kind} now: you must {legal.PROMPTS[state.phase]}"
            )
        if action not in legal.legal_actions(state, seat):
            raise IllegalAction(*legal.why_not(state, seat, action))

    def perform(self, state: KingState, seat: int, action: Action, dice: Dice) -> list[Event]:
        return effects.perform(state, seat, action, dice)

    # --- observation --------------------------------------------------------------------
    def scores(self, state: KingState) -> list[dict[str, int]]:
        """Every seat's points now (the view's running scores and the final result)."""
        return queries.scores(state)

    def must_hire(self, state: KingState) -> bool:
        """Whether the thrown dice alone meet a card in the job market."""
        return queries.must_hire(state)

    def picture(self, view: View, player: int | None = None) -> str:
        return render_svg(view, player)

    def view(self, state: KingState, seat: int | None) -> View:
        return make_view(state, seat)

    def is_over(self, state: KingState) -> bool:
        return state.phase == Phase.OVER

    def result(self, state: KingState) -> Result | None:
        if not self.is_over(state):
            return None
        parts = queries.scores(state)
        totals = [p["total"] for p in parts]
        keys: list[Any] = [(totals[s], p.fires) for s, p in enumerate(state.players)]
        if state.winner >= 0:
            keys[state.winner] = (10**6, 0)
        return Result(
            scores=list(totals),
            ranks=ranks_from_keys(keys),
            detail={
                "breakdown": parts,
                "immediate_winner": state.winner if state.winner >= 0 else None,
                "turns": state.turn,
                "ended_by": "17th_marker"
                if state.winner >= 0
                else "stockpile"
                if effects.stockpile_done(state)
                else "turn_limit",
                "removed_tiles": sorted(state.removed),
            },
        )

    def sample(self, view: View, seat: int | None, dice: Dice) -> KingState:
        return sample_state(view, dice)


GAME = KingOfTheDice()
