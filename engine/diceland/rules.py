"""Rules of Diceland (Spies and Staupe): see ``RULES.md`` beside this module for the rulings."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

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
from engine.diceland import schemas
from engine.diceland.board import COLOURS, Board
from engine.diceland.bots import BOTS
from engine.diceland.maps import (
    EDITION,
    EDITIONS,
    FIRST_EDITION,
    MAP_NAMES,
    board_name,
    boards_of,
    edition_boards,
    edition_data,
)
from engine.diceland.picture import render_svg
from engine.diceland.state import Choice, DicelandState, Phase
from engine.diceland.view import (
    board_of,
    build_view,
    choice_json,
    choice_of,
    crossed_mask,
    sample_state,
)

PHASE1_DICE = 6
TREASURE_DICE = 5
TURN_LIMIT = 300
"""House safeguard: the game ends after this many turns in all (RULES.md ruling 11)."""


class DicelandOptions(Schema):
    """Options of Diceland: optionally the map of each seat (else drawn from the dice)."""

    maps = fields.List(
        fields.String(validate=validate.OneOf(MAP_NAMES)),
        load_default=None,
        metadata={
            "description": "one map letter A-H per seat (the side each plays, chosen by the "
            "game's creator); omitted: dealt at random (RULES.md ruling 9)"
        },
    )
    boards = fields.List(
        fields.String(),
        load_default=None,
        metadata={
            "description": 'one board per seat, named by its two sides ("A/C"), each seat '
            "still choosing its side; only in an edition with boards; omitted: dealt at random"
        },
    )
    edition = fields.Integer(
        load_default=EDITION,
        validate=validate.OneOf(EDITIONS),
        metadata={
            "description": f"the maps' edition (RULES.md, The maps); omitted: {EDITION}, "
            "the current one"
        },
    )


class Diceland(Game):
    """Diceland: push your luck with six colour dice, cross off territories, find treasure."""

    name = "diceland"
    title = "Diceland"
    min_seats = 2
    max_seats = 4
    options_schema = DicelandOptions
    state_class = DicelandState
    action_schemas = schemas.ACTIONS
    view_schema = schemas.VIEW
    result_detail_schema = schemas.RESULT_DETAIL
    event_schemas = schemas.EVENTS
    edition_schema = schemas.EDITION_DATA
    rules_page = "engine/diceland/RULES.md"
    bots = BOTS

    def check_options(self, seats: int, options: dict[str, Any]) -> None:
        maps, boards = options.get("maps"), options.get("boards")
        if maps is not None and len(maps) != seats:
            raise InvalidOptions(
                f"give one map per seat ({seats}), not {len(maps)}",
                {"maps": [f"needs exactly {seats} map letters"]},
            )
        if boards is None:
            return
        names = [board_name(b) for b in boards_of(options["edition"])]
        problem = (
            "give maps or boards, not both"
            if maps is not None
            else f"edition {options['edition']} has no boards"
            if not names
            else f"give one board per seat ({seats}), not {len(boards)}"
            if len(boards) != seats
            else f"the boards are {', '.join(names)}"
            if not set(boards) <= set(names)
            else "each seat gets its own board"
            if len(set(boards)) != seats
            else ""
        )
        if problem:
            raise InvalidOptions(problem, {"boards": [problem]})

    def options_example(self) -> dict[str, Any]:
        return {"maps": ["A", "D"]}

    # --- set-up -------------------------------------------------------------------------
    def setup(self, seats: int, options: dict[str, Any], dice: Dice) -> DicelandState:
        # validated options always name an edition; a log made before editions existed
        # does not, and replays on the maps it was played on
        edition = int(options.get("edition", FIRST_EDITION))
        assigned, sides = options.get("maps"), boards_of(edition)
        dealt: list[list[str]] = []
        if assigned is not None:
            maps = list(assigned)
        elif sides:
            named = {board_name(b): list(b) for b in sides}
            if options.get("boards") is not None:
                dealt = [named[b] for b in options["boards"]]
            else:
                boards = list(named.values())
                dice.shuffle(boards)
                dealt = boards[:seats]
            maps = [front for front, _ in dealt]
        else:
            deck = list(MAP_NAMES)
            dice.shuffle(deck)
            maps = deck[:seats]
        state = DicelandState(
            seats=seats,
            maps=maps,
            crosses=self._starts(edition, maps),
            active=dice.randbelow(seats),
            choices=[None] * seats,
            boards=dealt,
            sides=[""] * seats if dealt else [],
            edition=edition,
        )
        if dealt:
            state.phase = Phase.SIDE
        else:
            self._begin_turn(state, dice, [])
        return state

    @staticmethod
    def _starts(edition: int, maps: list[str]) -> list[list[int]]:
        """Each seat's crosses before the first turn: its map's start hex."""
        boards = edition_boards(edition)
        return [[boards[m].start] for m in maps]

    # --- helpers ------------------------------------------------------------------------
    @staticmethod
    def board(state: DicelandState, seat: int) -> Board:
        return board_of(state, seat)

    @staticmethod
    def crossed(state: DicelandState, seat: int) -> int:
        return crossed_mask(state, seat)

    @staticmethod
    def _throw(dice: Dice, count: int) -> list[str]:
        return [dice.face(COLOURS) for _ in range(count)]

    def dice_for(self, state: DicelandState, seat: int) -> dict[str, int]:
        """The colours ``seat`` may cross off now, with the number of dice of each."""
        if state.phase == Phase.CROSS:
            if seat == state.active:
                return {state.chosen: state.aside}
            throw, chosen = state.last_throw, state.chosen
            return {c: n for c in COLOURS if c != chosen and (n := throw.count(c))}
        if state.phase == Phase.TREASURE and state.treasure_queue[0] == seat:
            throw = state.treasure_dice
            return {c: n for c in COLOURS if (n := throw.count(c))}
        return {}

    def may_pass(self, state: DicelandState, seat: int) -> bool:
        return state.phase == Phase.TREASURE or seat != state.active

    def _can_cross(self, state: DicelandState, seat: int) -> bool:
        board, crossed = self.board(state, seat), self.crossed(state, seat)
        return any(
            board.has_placement(crossed, c, n) for c, n in self.dice_for(state, seat).items()
        )

    # --- whose decision -------------------------------------------------------------------
    def to_act(self, state: DicelandState) -> dict[int, Prompt]:
        if state.phase == Phase.SIDE:
            return {
                seat: Prompt(
                    "choose_side",
                    sealed=True,
                    text=f"choose the side of board {board_name(state.boards[seat])} to play on",
                )
                for seat in range(state.seats)
                if not state.sides[seat]
            }
        if state.phase == Phase.CHOOSE:
            return {state.active: Prompt("choose_colour", text="choose a colour to set aside")}
        if state.phase == Phase.PUSH:
            return {
                state.active: Prompt(
                    "stop_or_throw", text=f"{state.aside} {state.chosen} aside: stop or throw"
                )
            }
        if state.phase == Phase.CROSS:
            return {
                seat: Prompt(
                    "cross",
                    sealed=True,
                    text=(
                        f"cross off {state.aside} {state.chosen}"
                        if seat == state.active
                        else "cross off one other colour of the last throw, or pass"
                    ),
                )
                for seat in range(state.seats)
                if state.choices[seat] is None
            }
        if state.phase == Phase.TREASURE:
            return {
                state.treasure_queue[0]: Prompt(
                    "treasure_throw", text="use one colour of your treasure throw, or pass"
                )
            }
        return {}

    def legal_actions(self, state: DicelandState, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        if state.phase == Phase.SIDE:
            return [{"type": "side", "map": m} for m in state.boards[seat]]
        if state.phase == Phase.CHOOSE:
            return [{"type": "choose", "colour": c} for c in COLOURS if c in state.last_throw]
        if state.phase == Phase.PUSH:
            return [{"type": "throw"}, {"type": "stop"}]
        board, crossed = self.board(state, seat), self.crossed(state, seat)
        actions: list[Action] = []
        for colour, n in self.dice_for(state, seat).items():
            for mask in board.placements(crossed, colour, n):
                actions.append({"type": "cross", "colour": colour, "hexes": board.hexes_of(mask)})
        if self.may_pass(state, seat):
            actions.append({"type": "pass"})
        return actions

    def describe(self, state: DicelandState, seat: int, action: Action) -> str:
        kind = action.get("type")
        if kind == "side":
            name = str(action.get("map", ""))
            data = edition_data(state.edition).get(name, {})
            return f"Play side {name} ({data.get('title', 'unknown map')}) of your board"
        if kind == "choose":
            colour = str(action.get("colour", ""))
            n = state.last_throw.count(colour)
            text = f"Set aside the {n} {colour} {'die' if n == 1 else 'dice'}"
            if not self.usable(state, seat, colour, n):
                text += f" ({n} {colour} would cross nothing now)"
            return text
        if kind == "throw":
            return f"Throw the other {PHASE1_DICE - state.aside} dice again"
        if kind == "stop":
            if not self.usable(state, seat, state.chosen, state.aside):
                return (
                    f"Stop: {state.aside} {state.chosen} have nowhere to go (no {state.chosen} "
                    "territory next to your crosses, or the excess rule), so you cross nothing"
                )
            return f"Stop and cross off {state.aside} {state.chosen}"
        if kind == "pass":
            return "Pass (cross off nothing)"
        if kind == "cross":
            board = self.board(state, seat)
            hexes = action.get("hexes", [])
            marks = []
            for q, r in hexes:
                i = board.index.get((q, r))
                star = "*" if i is not None and (board.treasure_mask >> i) & 1 else ""
                marks.append(f"({q},{r}){star}")
            return f"Cross {len(hexes)} {action.get('colour')}: {' '.join(marks)}"
        return super().describe(state, seat, action)

    def usable(self, state: DicelandState, seat: int, colour: str, n: int) -> bool:
        """Whether ``n`` dice of ``colour`` have somewhere to go on ``seat``'s map now (that
        the placements are not none, without listing them: ``Board.has_placement``)."""
        return self.board(state, seat).has_placement(self.crossed(state, seat), colour, n)

    # --- moves ----------------------------------------------------------------------------
    def check_rules(self, state: DicelandState, seat: int, action: Action) -> None:
        kind = action["type"]
        wanted = {
            Phase.SIDE: ("side",),
            Phase.CHOOSE: ("choose",),
            Phase.PUSH: ("throw", "stop"),
            Phase.CROSS: ("cross", "pass"),
            Phase.TREASURE: ("cross", "pass"),
        }.get(state.phase, ())
        if kind not in wanted:
            raise IllegalAction(
                "wrong_phase", f"{kind!r} is not possible now; expected one of {list(wanted)}"
            )
        if kind == "side":
            if action["map"] not in state.boards[seat]:
                raise IllegalAction(
                    "not_your_board",
                    f"your board's sides are {' and '.join(state.boards[seat])}",
                )
        elif kind == "choose":
            colour = action["colour"]
            if colour not in state.last_throw:
                raise IllegalAction("colour_not_thrown", f"no die shows {colour}")
        elif kind == "pass":
            if not self.may_pass(state, seat):
                raise IllegalAction(
                    "must_cross", "the active player must use the chosen colour's dice"
                )
        elif kind == "cross":
            self._check_cross(state, seat, action)

    def _check_cross(self, state: DicelandState, seat: int, action: Action) -> None:
        colour = action["colour"]
        available = self.dice_for(state, seat)
        if colour not in available:
            if state.phase == Phase.CROSS and seat == state.active:
                reason = f"you chose {state.chosen} in phase 1"
            elif state.phase == Phase.CROSS and colour == state.chosen:
                reason = f"{colour} is the active player's colour"
            else:
                reason = f"no die of the throw shows {colour}"
            raise IllegalAction("colour_not_available", reason)
        hexes = action["hexes"]
        board, crossed = self.board(state, seat), self.crossed(state, seat)
        indices = []
        for q, r in hexes:
            i = board.index.get((q, r))
            if i is None:
                raise IllegalAction("no_such_hex", f"hex [{q}, {r}] is not on your map")
            indices.append(i)
        n = available[colour]
        if len(set(indices)) != len(indices):
            raise IllegalAction("duplicate_hex", "each hex can be crossed only once")
        for i in indices:
            q, r = board.coords[i]
            if (crossed >> i) & 1:
                raise IllegalAction("already_crossed", f"hex [{q}, {r}] is already crossed")
            if not board.is_land(i):
                raise IllegalAction("not_a_territory", f"hex [{q}, {r}] is an obstacle")
            if board.colour_of[i] != colour:
                raise IllegalAction(
                    "wrong_territory_colour", f"hex [{q}, {r}] is {board.colour_of[i]}"
                )
        territories = {board.territory_of[i] for i in indices}
        if len(territories) > 1:
            raise IllegalAction(
                "several_territories", "all crosses of one colour go in one territory"
            )
        current = board.working_on(crossed, colour)
        if current is not None and current.id not in territories:
            raise IllegalAction(
                "territory_unfinished",
                f"finish your unfinished {colour} territory before starting another",
            )
        terr = board.territories[next(iter(territories))] if territories else None
        if terr is not None and n > (terr.mask & ~crossed).bit_count():
            raise IllegalAction(
                "excess_dice",
                f"{n} {colour} dice but only {(terr.mask & ~crossed).bit_count()} free spaces "
                "in that territory: you cannot cross off that colour there",
            )
        if len(indices) != n:
            raise IllegalAction(
                "wrong_number_of_crosses", f"{n} {colour} dice make exactly {n} crosses"
            )
        mask = board.mask_of(indices)
        if not board.is_linked(crossed, mask):
            raise IllegalAction(
                "not_adjacent", "every cross must be next to a cross (of any kind) already made"
            )
        if hexes != board.hexes_of(mask):
            raise IllegalAction(
                "not_canonical", "list the hexes in reading order (by r, then by q)"
            )

    def perform(self, state: DicelandState, seat: int, action: Action, dice: Dice) -> list[Event]:
        kind = action["type"]
        events: list[Event] = []
        if kind == "side":
            state.sides[seat] = action["map"]
            events.append({"type": "side_decided", "seat": seat})
            if all(state.sides):
                state.maps = list(state.sides)
                state.crosses = self._starts(state.edition, state.maps)
                events.append({"type": "sides_revealed", "maps": list(state.maps)})
                self._begin_turn(state, dice, events)
        elif kind == "choose":
            colour = action["colour"]
            state.chosen = colour
            state.aside = state.last_throw.count(colour)
            events.append(
                {"type": "colour_chosen", "seat": seat, "colour": colour, "aside": state.aside}
            )
            if state.aside == PHASE1_DICE:
                self._begin_phase2(state, dice, events)
            else:
                state.phase = Phase.PUSH
        elif kind == "stop":
            events.append({"type": "stopped", "seat": seat, "aside": state.aside})
            self._begin_phase2(state, dice, events)
        elif kind == "throw":
            state.last_throw = self._throw(dice, PHASE1_DICE - state.aside)
            state.throws += 1
            got = state.last_throw.count(state.chosen)
            state.aside += got
            events.append(
                {"type": "thrown", "seat": seat, "dice": list(state.last_throw), "kept": got}
            )
            if got == 0 or state.aside == PHASE1_DICE:
                self._begin_phase2(state, dice, events)
        elif state.phase == Phase.CROSS:
            state.choices[seat] = choice_of(state, seat, action)
            events.append({"type": "decided", "seat": seat})
            if all(c is not None for c in state.choices):
                self._resolve_phase2(state, dice, events)
        else:
            self._treasure_choice(state, seat, action, dice, events)
        return events

    # --- flow -----------------------------------------------------------------------------
    def _begin_turn(self, state: DicelandState, dice: Dice, events: list[Event]) -> None:
        state.phase = Phase.CHOOSE
        state.chosen = ""
        state.aside = 0
        state.throws = 1
        state.treasure_dice = []
        state.last_throw = self._throw(dice, PHASE1_DICE)
        events.append(
            {
                "type": "turn_started",
                "turn": state.turn,
                "seat": state.active,
                "dice": list(state.last_throw),
            }
        )

    def _begin_phase2(self, state: DicelandState, dice: Dice, events: list[Event]) -> None:
        state.phase = Phase.CROSS
        state.choices = [
            None if self._can_cross(state, seat) else Choice("none") for seat in range(state.seats)
        ]
        events.append(
            {
                "type": "phase2_started",
                "colour": state.chosen,
                "aside": state.aside,
                "last_throw": list(state.last_throw),
                "deciding": [s for s, c in enumerate(state.choices) if c is None],
            }
        )
        if all(c is not None for c in state.choices):
            self._resolve_phase2(state, dice, events)

    def _cross(self, state: DicelandState, seat: int, hexes: list[int]) -> int:
        """Cross ``hexes`` on ``seat``'s map; return the number of treasures crossed."""
        state.crosses[seat] = sorted({*state.crosses[seat], *hexes})
        board = self.board(state, seat)
        return sum(1 for i in hexes if (board.treasure_mask >> i) & 1)

    def _resolve_phase2(self, state: DicelandState, dice: Dice, events: list[Event]) -> None:
        found = [0] * state.seats
        choices = [c if c is not None else Choice("none") for c in state.choices]
        for seat, choice in enumerate(choices):
            if choice.kind == "cross":
                found[seat] = self._cross(state, seat, choice.hexes)
        state.last_phase2 = choices
        events.append(
            {
                "type": "phase2_resolved",
                "choices": [choice_json(state, s, c) for s, c in enumerate(choices)],
                "treasures_found": found,
            }
        )
        state.choices = [None] * state.seats
        winners = [
            s for s in range(state.seats) if self.board(state, s).has_won(self.crossed(state, s))
        ]
        if winners:
            self._finish(state, winners, events)
            return
        order = [(state.active + k) % state.seats for k in range(state.seats)]
        state.treasure_queue = [s for s in order for _ in range(found[s])]
        self._next_treasure_throw(state, dice, events)

    def _next_treasure_throw(self, state: DicelandState, dice: Dice, events: list[Event]) -> None:
        """Start the next treasure throw in the queue (skipping throws nobody can use), or
        hand the dice to the next player when the queue is empty."""
        while state.treasure_queue:
            seat = state.treasure_queue[0]
            state.phase = Phase.TREASURE
            state.treasure_dice = self._throw(dice, TREASURE_DICE)
            events.append(
                {"type": "treasure_throw", "seat": seat, "dice": list(state.treasure_dice)}
            )
            if self._can_cross(state, seat):
                return
            events.append({"type": "treasure_throw_unusable", "seat": seat})
            state.treasure_queue.pop(0)
        if state.turn >= TURN_LIMIT:
            self._finish(state, [], events)
            return
        state.active = (state.active + 1) % state.seats
        state.turn += 1
        self._begin_turn(state, dice, events)

    def _treasure_choice(
        self, state: DicelandState, seat: int, action: Action, dice: Dice, events: list[Event]
    ) -> None:
        state.treasure_queue.pop(0)
        choice = choice_of(state, seat, action)
        found = self._cross(state, seat, choice.hexes) if choice.kind == "cross" else 0
        events.append({"type": "treasure_used", **choice_json(state, seat, choice), "found": found})
        if self.board(state, seat).has_won(self.crossed(state, seat)):
            self._finish(state, [seat], events)
            return
        state.treasure_queue[0:0] = [seat] * found
        self._next_treasure_throw(state, dice, events)

    def _finish(self, state: DicelandState, winners: list[int], events: list[Event]) -> None:
        state.phase = Phase.OVER
        state.winners = winners
        state.treasure_queue = []
        state.treasure_dice = []
        events.append({"type": "game_over", "winners": list(winners), "turn": state.turn})

    def picture(self, view: View, player: int | None = None) -> str:
        return render_svg(view, player)

    def view(self, state: DicelandState, seat: int | None) -> View:
        return build_view(self, state, seat)

    def is_over(self, state: DicelandState) -> bool:
        return state.phase == Phase.OVER

    def result(self, state: DicelandState) -> Result | None:
        if not self.is_over(state):
            return None
        treasures = [
            self.board(state, s).treasure_count(self.crossed(state, s)) for s in range(state.seats)
        ]
        keys = [
            (1, 0, 0) if s in state.winners else (0, treasures[s], len(state.crosses[s]))
            for s in range(state.seats)
        ]
        return Result(
            scores=list(treasures),
            ranks=ranks_from_keys(keys),
            detail={
                "winners": list(state.winners),
                "turns": state.turn,
                "treasures": treasures,
                "ended_by": "win" if state.winners else "turn_limit",
            },
        )

    def sample(self, view: View, seat: int | None, dice: Dice) -> DicelandState:
        """Rebuild the state from a view; other seats' sealed choices drawn from ``dice``."""
        return sample_state(self, view, seat, dice)

    def edition_data(self, edition: int) -> dict[str, Any] | None:
        """Every map's layout in ``edition`` and its double-sided boards (none for editions
        1-5, which dealt maps singly); None for an edition that does not exist."""
        if edition not in EDITIONS:
            return None
        return {
            "maps": edition_data(edition),
            "boards": [list(sides) for sides in boards_of(edition)],
        }


GAME = Diceland()
