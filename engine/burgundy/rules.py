"""Rules of The Castles of Burgundy: The Dice Game (see RULES.md for rulings)."""

from __future__ import annotations

import json
from typing import Any

from marshmallow import Schema, fields, validate

from engine.burgundy import schemas
from engine.burgundy.bots import BOTS
from engine.burgundy.duchy import BONUS_KINDS, CELLS, COLOURS, DUCHIES, INDEX, Duchy
from engine.burgundy.legal import (
    COMMODITY,
    SILVER,
    WORKER,
    can_sell,
    check_round,
    describe_round,
    describe_rounds,
    parse_hex,
    round_actions,
)
from engine.burgundy.picture import render_svg
from engine.burgundy.sheet import available, circle, is_colour_complete, unused_total, write
from engine.burgundy.state import (
    CASTLE_POINTS,
    CHECKED,
    COLUMN,
    HOURGLASS_FACES,
    SALE_POINTS,
    BurgundyState,
    ColourClaim,
    Roll,
    Sheet,
    Stage,
    column_size,
)
from engine.burgundy.view import build_view, sample_state
from engine.contract import (
    Action,
    Event,
    Game,
    IllegalAction,
    InvalidOptions,
    Prompt,
    Result,
    View,
    ranks_from_keys,
)
from engine.dice import Dice

VARIANTS = ("standard", "all_different", "all_same", "solo")


class BurgundyOptions(Schema):
    """Options: the duchy every player uses, the variant, and the castle for "all_same"."""

    duchy = fields.String(load_default="A", validate=validate.OneOf(sorted(DUCHIES)))
    variant = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.OneOf(VARIANTS),
        metadata={
            "description": "standard (2-5 players: the time track, 5-10 rounds a phase); "
            "all_different (2-4 players, open castle picks); all_same (one castle for all); "
            "solo: the rulebook's one-player game 'One and only' (8 rounds a phase, the "
            "higher colour amount in phases I-II). Default: solo with one seat, else "
            "standard. standard with one seat is a practice game, not the rulebook's solo."
        },
    )
    castle = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(BONUS_KINDS))


def canonical(action: Action) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


class Burgundy(Game):
    """The Castles of Burgundy: The Dice Game, for 1-5 players on one duchy."""

    name = "burgundy"
    title = "The Castles of Burgundy: The Dice Game"
    min_seats = 1
    max_seats = 5
    options_schema = BurgundyOptions
    state_class = BurgundyState
    action_schemas = schemas.ACTIONS
    view_schema = schemas.VIEW
    result_detail_schema = schemas.RESULT_DETAIL
    event_schemas = schemas.EVENTS
    rules_page = "engine/burgundy/RULES.md"
    bots = BOTS

    # --- set-up -------------------------------------------------------------------------
    def check_options(self, seats: int, options: dict[str, Any]) -> None:
        if options["variant"] is None:
            options["variant"] = "solo" if seats == 1 else "standard"
        variant = options["variant"]
        if variant == "all_different" and seats < 2:
            raise InvalidOptions(
                "all different takes 2-4 players: one seat has no one to differ from",
                {"variant": ["all_different: 2 to 4 seats"]},
            )
        if variant == "solo" and seats != 1:
            raise InvalidOptions(
                "the solo variant is for one player", {"variant": ["solo: 1 seat"]}
            )
        if variant == "all_different" and seats > 4:
            raise InvalidOptions(
                "all different takes at most 4 players (four castles)",
                {"variant": ["all_different: at most 4 seats"]},
            )
        if (variant == "all_same") != (options["castle"] is not None):
            raise InvalidOptions(
                "a castle is chosen in the options exactly when the variant is all_same",
                {"castle": ["required for all_same, not allowed otherwise"]},
            )

    def options_example(self) -> dict[str, Any]:
        return {"duchy": "A", "variant": "standard", "castle": None}

    def setup(self, seats: int, options: dict[str, Any], dice: Dice) -> BurgundyState:
        duchy = DUCHIES[options["duchy"]]
        state = BurgundyState(
            seats=seats,
            duchy=duchy.name,
            variant=options["variant"],
            castle_option=options["castle"] or "",
            stage=Stage.CASTLE,
            sheets=[Sheet() for _ in range(seats)],
            pending=[""] * seats,
            claims=[ColourClaim(colour) for colour in COLOURS],
        )
        if state.variant == "all_different":
            state.picker = 0
        if state.variant == "all_same":
            castle = next(h for h in duchy.castles if duchy.castle_square[h] == options["castle"])
            for sheet in state.sheets:
                self._start_castle(duchy, sheet, castle)
            self._open_round(state, dice)
        return state

    @staticmethod
    def _start_castle(duchy: Duchy, sheet: Sheet, h: int) -> None:
        sheet.values[h] = CHECKED
        sheet.castle = h
        sheet.points[0] += CASTLE_POINTS

    # --- whose decision -------------------------------------------------------------------
    def to_act(self, state: BurgundyState) -> dict[int, Prompt]:
        if state.stage == Stage.CASTLE:
            if state.variant == "all_different":
                prompt = Prompt("pick_castle", text="choose your starting castle")
            else:
                prompt = Prompt(
                    "pick_castle", sealed=True, text="choose your starting castle (sealed)"
                )
        else:
            prompt = Prompt("round", sealed=True, text=f"round {state.round}: mark a hex")
        return {s: prompt for s in range(state.seats) if self._owes(state, s)}

    @staticmethod
    def _owes(state: BurgundyState, seat: int) -> bool:
        """Whether ``seat`` owes a decision now (is in :meth:`to_act`): nobody once the game
        is over, the picker in the open castle picks (all different), else every seat that
        has not decided."""
        if state.stage == Stage.OVER or not 0 <= seat < state.seats:
            return False
        if state.stage == Stage.CASTLE and state.variant == "all_different":
            return seat == state.picker
        return not state.pending[seat]

    def legal_actions(self, state: BurgundyState, seat: int) -> list[Action]:
        if not self._owes(state, seat):
            return []
        duchy = DUCHIES[state.duchy]
        if state.stage == Stage.CASTLE:
            taken = self._taken_castles(state)
            return [
                {"type": "pick_castle", "hex": [CELLS[h][0], CELLS[h][1]]}
                for h in duchy.castles
                if h not in taken
            ]
        assert state.roll is not None
        return round_actions(duchy, state.sheets[seat], state.roll)

    @staticmethod
    def _taken_castles(state: BurgundyState) -> set[int]:
        if state.variant != "all_different":
            return set()
        return {INDEX[tuple(json.loads(p)["hex"])] for p in state.pending if p}

    def describe(self, state: BurgundyState, seat: int, action: Action) -> str:
        duchy = DUCHIES[state.duchy]
        if action.get("type") == "pick_castle":
            h = INDEX[tuple(action["hex"])]
            return f"Start at the castle {list(CELLS[h])} ({duchy.castle_square[h]} square)"
        assert state.roll is not None
        return describe_round(duchy, state.roll, action)

    def describe_all(self, state: BurgundyState, seat: int, actions: list[Action]) -> list[str]:
        if state.stage == Stage.CASTLE or state.roll is None:
            return super().describe_all(state, seat, actions)
        return describe_rounds(DUCHIES[state.duchy], state.roll, actions)

    # --- moves ----------------------------------------------------------------------------
    def check_rules(self, state: BurgundyState, seat: int, action: Action) -> None:
        duchy = DUCHIES[state.duchy]
        if state.stage == Stage.CASTLE:
            if action["type"] != "pick_castle":
                raise IllegalAction("wrong_stage", "first choose a starting castle")
            h = parse_hex(action["hex"])
            if duchy.castle_square[h] is None:
                raise IllegalAction("not_a_castle", f"{list(CELLS[h])} is not a castle")
            if h in self._taken_castles(state):
                raise IllegalAction(
                    "castle_taken", "all different: another player already starts at that castle"
                )
            return
        assert state.roll is not None
        check_round(duchy, state.sheets[seat], state.roll, action)

    def perform(self, state: BurgundyState, seat: int, action: Action, dice: Dice) -> list[Event]:
        state.pending[seat] = canonical(action)
        events: list[Event] = [{"type": "decided", "seat": seat}]
        if state.stage == Stage.CASTLE:
            if state.variant == "all_different":
                events = [{"type": "castle_picked", "seat": seat, "hex": list(action["hex"])}]
                if seat + 1 < state.seats:
                    state.picker = seat + 1
                    return events
                state.picker = -1
            if all(state.pending):
                events.extend(self._resolve_castles(state, dice))
            return events
        if all(state.pending):
            events.extend(self._resolve_round(state, dice))
        return events

    def _resolve_castles(self, state: BurgundyState, dice: Dice) -> list[Event]:
        duchy = DUCHIES[state.duchy]
        picks = [INDEX[tuple(json.loads(p)["hex"])] for p in state.pending]
        for sheet, h in zip(state.sheets, picks, strict=True):
            self._start_castle(duchy, sheet, h)
        state.revealed = list(state.pending)
        state.revealed_round = 0
        state.pending = [""] * state.seats
        events: list[Event] = [
            {"type": "castles_revealed", "castles": [list(CELLS[h]) for h in picks]}
        ]
        events.append(self._open_round(state, dice))
        return events

    def _open_round(self, state: BurgundyState, dice: Dice) -> Event:
        state.stage = Stage.ROUND
        state.round += 1
        state.round_in_phase += 1
        pips = [dice.roll(), dice.roll()]
        colours = [dice.face(COLOURS), dice.face(COLOURS)]
        hourglass = dice.face(HOURGLASS_FACES)
        state.roll = Roll(pips=pips, colours=colours, hourglass=hourglass)
        if state.variant == "solo":
            state.time[state.phase] += 1
        else:
            state.time[state.phase] = min(COLUMN, state.time[state.phase] + hourglass)
        return {
            "type": "round_opened",
            "round": state.round,
            "phase": state.phase + 1,
            "pips": pips,
            "colours": colours,
            "hourglass": hourglass,
            "sale": hourglass == 2,
        }

    def _resolve_round(self, state: BurgundyState, dice: Dice) -> list[Event]:
        duchy = DUCHIES[state.duchy]
        assert state.roll is not None
        roll = state.roll
        phase = state.phase
        actions = [json.loads(p) for p in state.pending]
        events: list[Event] = [
            {"type": "round_resolved", "round": state.round, "decisions": actions}
        ]
        written: list[set[str]] = []  # per seat, the colours of the hexes it marked
        for seat, action in enumerate(actions):
            writes = _writes(roll, action)
            written.append({duchy.colours[h] for h, _ in writes})
            events.extend(
                self._carry_out(duchy, state.sheets[seat], roll, phase, seat, action, writes)
            )
        # A colour a seat completes this round is one it marked a hex of (unmarked before).
        for ci, colour in enumerate(COLOURS):
            winners = [
                s
                for s, sheet in enumerate(state.sheets)
                if colour in written[s] and is_colour_complete(duchy, sheet.values, colour)
            ]
            if winners:
                events.append(self._award_colour(state, duchy, ci, winners))
        state.revealed = list(state.pending)
        state.revealed_round = state.round
        state.pending = [""] * state.seats
        if state.time[phase] >= column_size(state):
            events.append({"type": "phase_ended", "phase": phase + 1})
            if phase == 2:
                state.stage = Stage.OVER
                state.roll = None
                events.append({"type": "game_over", "scores": self._scores(state)})
                return events
            state.phase += 1
            state.round_in_phase = 0
        events.append(self._open_round(state, dice))
        return events

    def _award_colour(
        self, state: BurgundyState, duchy: Duchy, ci: int, winners: list[int]
    ) -> Event:
        colour = COLOURS[ci]
        first, second = duchy.colour_bonus[colour]
        claim = state.claims[ci]
        if state.variant == "solo":
            place = "first" if state.phase < 2 else "second"
        elif not claim.first:
            place = "first"
        elif not claim.second:
            place = "second"
        else:
            place = "none"
        points = {"first": first, "second": second, "none": 0}[place]
        if place == "first":
            claim.first = list(winners)
        elif place == "second":
            claim.second = list(winners)
        for s in winners:
            state.sheets[s].points[state.phase] += points
        return {
            "type": "colour_completed",
            "colour": colour,
            "seats": winners,
            "place": place,
            "points": points,
        }

    def _carry_out(
        self,
        duchy: Duchy,
        sheet: Sheet,
        roll: Roll,
        phase: int,
        seat: int,
        action: Action,
        writes: list[tuple[int, int]],
    ) -> list[Event]:
        """Carry out one seat's decision: the sale, then its ``writes`` (:func:`_writes`)."""
        events: list[Event] = []
        if action["sell"] and can_sell(duchy, sheet, roll):
            sold = available(duchy, sheet, COMMODITY)
            sheet.used[COMMODITY] += sold
            silver = circle(duchy, sheet, SILVER, sold)
            sheet.points[phase] += SALE_POINTS * sold
            events.append(
                {
                    "type": "sold",
                    "seat": seat,
                    "commodities": sold,
                    "silver": silver,
                    "points": SALE_POINTS * sold,
                }
            )
        if action["type"] == "take_worker":
            got = circle(duchy, sheet, WORKER)
            events.append({"type": "took_worker", "seat": seat, "circled": got == 1})
            return events
        bonus = action["bonus"]
        if bonus:
            sheet.used[BONUS_KINDS.index(bonus["kind"])] += 1
        for h, v in writes:
            done = write(duchy, sheet, h, v, phase)
            events.append({"type": "marked", "seat": seat, "hex": list(CELLS[h]), "value": v})
            if "area" in done:
                events.append({"type": "area_completed", "seat": seat, **done})
            elif "bonus_lost" in done:
                events.append({"type": "bonus_lost", "seat": seat, **done})
        return events

    # --- observation ----------------------------------------------------------------------
    def _scores(self, state: BurgundyState) -> list[int]:
        return [sum(sheet.points) for sheet in state.sheets]

    def picture(self, view: View, player: int | None = None) -> str:
        return render_svg(view, player)

    def view(self, state: BurgundyState, seat: int | None) -> View:
        return build_view(self, state, seat)

    def sample(self, view: View, seat: int | None, dice: Dice) -> BurgundyState:
        """A full state consistent with ``view``: other seats' sealed decisions are drawn
        uniformly from their legal decisions."""
        return sample_state(self, view, seat, dice)

    def is_over(self, state: BurgundyState) -> bool:
        return state.stage == Stage.OVER

    def result(self, state: BurgundyState) -> Result | None:
        if not self.is_over(state):
            return None
        duchy = DUCHIES[state.duchy]
        scores = self._scores(state)
        unused = [unused_total(duchy, sheet) for sheet in state.sheets]
        ranks = ranks_from_keys([(s, u) for s, u in zip(scores, unused, strict=True)])
        return Result(
            scores=list(scores),
            ranks=ranks,
            detail={
                "by_phase": [list(sheet.points) for sheet in state.sheets],
                "unused_bonuses": unused,
                "tie_break": "most unused bonuses, else shared",
            },
        )


def _writes(roll: Roll, action: Action) -> list[tuple[int, int]]:
    """The (hex, value) pairs a round's decision writes, in order (none for take_worker)."""
    if action["type"] != "mark":
        return []
    bonus = action["bonus"] or {}
    value = bonus["value"] if bonus.get("kind") == "worker" else roll.pips[action["pip"]]
    writes = [(INDEX[tuple(action["hex"])], value)]
    if bonus.get("kind") == "silver":
        writes.append((INDEX[tuple(bonus["hex"])], roll.pips[bonus["pip"]]))
    return writes


GAME = Burgundy()
