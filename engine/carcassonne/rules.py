"""Rules of Carcassonne: The Dice Game (see ``RULES.md`` beside this file for every ruling).

One decision per step: after each roll the active seat places one city die, sets a knight
aside, re-rolls the dice still on the table, scores, or (with three knights) holds a knight
for a doubled next turn. Rolls happen inside ``perform`` (and ``setup`` for the first turn)
with the dice passed in, so the log and a replay hold every throw.
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema

from engine.carcassonne import city as geometry
from engine.carcassonne import schemas
from engine.carcassonne.bots import BOTS
from engine.carcassonne.faces import (
    CATAPULT,
    CITY_FACES,
    DICE,
    EDGE_TEXT,
    FACES,
    KNIGHT,
    ROTATIONS,
    edge_list,
    face_mask,
)
from engine.carcassonne.picture import render_svg
from engine.carcassonne.rulebook import KNIGHTS_TO_HOLD, ROLLS, TARGET, TURN_LIMIT
from engine.carcassonne.state import (
    ASIDE,
    FREE,
    GONE,
    PLACED,
    CarcassonneState,
    PlacedDie,
    RolledDie,
    Turn,
    TurnRecord,
)
from engine.carcassonne.view import build_view, state_from_view
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


class CarcassonneOptions(Schema):
    """Carcassonne takes no options: 2 to 5 seats play, and a single seat plays solo."""


def grid_of(turn: Turn) -> geometry.Grid:
    """The turn's city grid: cell -> city-edge mask, in placement order."""
    return {(p.x, p.y): face_mask(p.face, p.rotation) for p in turn.placed}


def dice_for(held: list[bool], seat: int) -> int:
    """Dice in ``seat``'s turn: nine minus the knights the other seats hold."""
    return DICE - sum(1 for other, holds in enumerate(held) if holds and other != seat)


class Carcassonne(Game):
    """Carcassonne: The Dice Game, for 2-5 players, or one playing solo to 42 points."""

    name = "carcassonne"
    title = "Carcassonne: The Dice Game"
    min_seats = 1
    max_seats = 5
    options_schema = CarcassonneOptions
    state_class = CarcassonneState
    action_schemas = schemas.ACTIONS
    view_schema = schemas.VIEW
    result_detail_schema = schemas.RESULT_DETAIL
    event_schemas = schemas.EVENTS
    rules_page = "engine/carcassonne/RULES.md"
    bots = BOTS

    # --- set-up -------------------------------------------------------------------------
    def setup(self, seats: int, options: dict[str, Any], dice: Dice) -> CarcassonneState:
        state = CarcassonneState(
            seats=seats,
            scores=[0] * seats,
            held=[False] * seats,
            turns=[0] * seats,
            turn=Turn(seat=0, dice=DICE, doubled=False),
        )
        self._start_turn(state, 0, dice, [])
        return state

    # --- whose decision -------------------------------------------------------------------
    def to_act(self, state: CarcassonneState) -> dict[int, Prompt]:
        if self.is_over(state):
            return {}
        turn = state.turn
        text = f"roll {turn.rolls} of {ROLLS}: place city dice, keep knights, re-roll or score"
        return {turn.seat: Prompt("turn", text=text)}

    def legal_actions(self, state: CarcassonneState, seat: int) -> list[Action]:
        turn = state.turn
        if self.is_over(state) or seat != turn.seat:
            return []
        grid = grid_of(turn)
        cells = [(x, y, *geometry.shared_edges(grid, (x, y))) for x, y in geometry.frontier(grid)]
        actions: list[Action] = []
        seen: set[str] = set()
        knight: int | None = None
        free = 0
        for index, die in enumerate(turn.roll):
            if die.status != FREE:
                continue
            free += 1
            if die.face == KNIGHT:
                knight = index if knight is None else knight
                continue
            if die.face in seen:
                continue
            seen.add(die.face)
            masks = [(rotation, face_mask(die.face, rotation)) for rotation in ROTATIONS[die.face]]
            for x, y, shared, city in cells:  # geometry.fits, for a cell of the frontier
                for rotation, mask in masks:
                    if mask & shared == city:
                        actions.append(
                            {"type": "place", "die": index, "x": x, "y": y, "rotation": rotation}
                        )
        if knight is not None:
            actions.append({"type": "keep_knight", "die": knight})
        if free and turn.rolls < ROLLS:
            actions.append({"type": "reroll"})
        actions.append({"type": "score"})
        if turn.knights >= KNIGHTS_TO_HOLD:
            actions.append({"type": "hold_knight"})
        return actions

    def describe(self, state: CarcassonneState, seat: int, action: Action) -> str:
        turn = state.turn
        kind = action.get("type")
        if kind == "place":
            return self._place_text(turn, grid_of(turn), action)
        if kind == "keep_knight":
            return f"Set the knight on die {action['die']} aside"
        if kind == "reroll":
            free = sum(1 for die in turn.roll if die.status == FREE)
            return f"Re-roll the {free} dice on the table (roll {turn.rolls + 1} of {ROLLS})"
        if kind == "score":
            best = geometry.scoring_city(geometry.cities(grid_of(turn)))
            if best is None:
                return "End the turn and score nothing (no closed city)"
            won = best.points * (2 if turn.doubled else 1)
            doubled = ", doubled" if turn.doubled else ""
            unit = "point" if won == 1 else "points"
            return f"End the turn and score {won} {unit} (a closed city of {best.size}{doubled})"
        if kind == "hold_knight":
            return "End the turn without scoring and keep a knight to double your next turn"
        return super().describe(state, seat, action)

    def describe_all(self, state: CarcassonneState, seat: int, actions: list[Action]) -> list[str]:
        turn = state.turn
        grid = grid_of(turn)  # built once for every placement
        closing = geometry.Closing(grid)
        return [
            self._place_text(turn, grid, action, closing)
            if action.get("type") == "place"
            else self.describe(state, seat, action)
            for action in actions
        ]

    @staticmethod
    def _place_text(
        turn: Turn, grid: geometry.Grid, action: Action, closing: geometry.Closing | None = None
    ) -> str:
        """The sentence of a placement on ``grid`` (the turn's; left as it was; ``closing``:
        the grid's, if the caller describes several)."""
        face = turn.roll[action["die"]].face
        mask = face_mask(face, action["rotation"])
        cell = (action["x"], action["y"])
        text = (
            f"Place die {action['die']} ({face}, city on {EDGE_TEXT[mask]}) "
            f"at ({cell[0]}, {cell[1]})"
        )
        if cell in grid:  # not a legal placement: say it as the grid would have it
            size = geometry.closed_size({**grid, cell: mask}, cell)
        else:
            size = (closing or geometry.Closing(grid)).size(cell, mask)
        if size is not None:
            text += f", closing a city of {size}"
        return text

    # --- moves ----------------------------------------------------------------------------
    def check_rules(self, state: CarcassonneState, seat: int, action: Action) -> None:
        kind = action["type"]
        turn = state.turn
        if kind == "place":
            self._check_place(turn, action)
        elif kind == "keep_knight":
            self._check_die(turn, action, knight=True)
        elif kind == "reroll":
            if turn.rolls >= ROLLS:
                raise IllegalAction("no_rolls_left", f"you have rolled {ROLLS} times this turn")
            if not any(die.status == FREE for die in turn.roll):
                raise IllegalAction("nothing_to_reroll", "no die is left on the table to re-roll")
        elif kind == "hold_knight" and turn.knights < KNIGHTS_TO_HOLD:
            raise IllegalAction(
                "too_few_knights",
                f"holding a knight needs {KNIGHTS_TO_HOLD} knights set aside this turn, "
                f"you have {turn.knights}",
            )

    def _check_die(self, turn: Turn, action: Action, knight: bool) -> str:
        index = action["die"]
        if not 0 <= index < len(turn.roll):
            raise IllegalAction("no_such_die", f"the current roll has no die {index}")
        die = turn.roll[index]
        if die.status != FREE:
            raise IllegalAction("die_not_free", f"die {index} is no longer on the table")
        if knight and die.face != KNIGHT:
            raise IllegalAction("not_a_knight", f"die {index} shows {die.face}, not a knight")
        if not knight and die.face not in CITY_FACES:
            raise IllegalAction("not_a_city_die", f"die {index} shows {die.face}, not a city")
        for lower, other in enumerate(turn.roll[:index]):
            if other.status == FREE and other.face == die.face:
                raise IllegalAction(
                    "use_lowest_die",
                    f"die {lower} shows the same face as die {index}; "
                    f"dice showing the same face are used lowest number first",
                )
        return die.face

    def _check_place(self, turn: Turn, action: Action) -> None:
        face = self._check_die(turn, action, knight=False)
        x, y, rotation = action["x"], action["y"], action["rotation"]
        if rotation not in ROTATIONS[face]:
            raise IllegalAction(
                "bad_rotation",
                f"a {face} is placed with rotation {' or '.join(map(str, ROTATIONS[face]))} "
                f"(quarter turns clockwise)",
            )
        grid = grid_of(turn)
        if (x, y) in grid:
            raise IllegalAction("cell_taken", f"a die is already built at ({x}, {y})")
        if not grid and (x, y) != geometry.ORIGIN:
            raise IllegalAction("first_die_at_origin", "the first die of a turn goes at (0, 0)")
        if grid and (x, y) not in geometry.frontier(grid):
            raise IllegalAction("not_adjacent", f"({x}, {y}) does not touch the city grid")
        if not geometry.fits(grid, (x, y), face_mask(face, rotation)):
            raise IllegalAction(
                "edges_do_not_match",
                "every edge a die shares must match: city to city, field to field",
            )

    def perform(
        self, state: CarcassonneState, seat: int, action: Action, dice: Dice
    ) -> list[Event]:
        events: list[Event] = []
        kind = action["type"]
        if kind == "place":
            self._place(state, action, events)
        elif kind == "keep_knight":
            self._keep_knight(state, action["die"], events)
        elif kind == "reroll":
            count = sum(1 for die in state.turn.roll if die.status == FREE)
            self._roll(state, count, dice, events)
        elif kind == "score":
            self._score(state, dice, events)
        elif kind == "hold_knight":
            self._hold_knight(state, dice, events)
        return events

    def _place(self, state: CarcassonneState, action: Action, events: list[Event]) -> None:
        turn = state.turn
        die = turn.roll[action["die"]]
        x, y, rotation = action["x"], action["y"], action["rotation"]
        die.status = PLACED
        turn.placed.append(PlacedDie(x, y, die.face, rotation))
        events.append(
            {
                "type": "placed",
                "seat": turn.seat,
                "die": action["die"],
                "face": die.face,
                "x": x,
                "y": y,
                "rotation": rotation,
                "edges": edge_list(face_mask(die.face, rotation)),
            }
        )
        for found in geometry.cities(grid_of(turn)):
            if (x, y) in found.cells and found.is_closed:
                events.append(
                    {
                        "type": "city_closed",
                        "seat": turn.seat,
                        "size": found.size,
                        "points": found.points,
                    }
                )

    def _keep_knight(self, state: CarcassonneState, index: int, events: list[Event]) -> None:
        turn = state.turn
        turn.roll[index].status = ASIDE
        turn.knights += 1
        events.append(
            {"type": "knight_aside", "seat": turn.seat, "die": index, "knights": turn.knights}
        )

    def _hold_knight(self, state: CarcassonneState, dice: Dice, events: list[Event]) -> None:
        seat = state.turn.seat
        state.held[seat] = True
        state.turns[seat] += 1
        state.last = TurnRecord(seat=seat, ending="held_knight", doubled=state.turn.doubled)
        events.append({"type": "knight_held", "seat": seat})
        self._start_turn(state, (seat + 1) % state.seats, dice, events)

    def _score(self, state: CarcassonneState, dice: Dice, events: list[Event]) -> None:
        turn = state.turn
        seat = turn.seat
        best = geometry.scoring_city(geometry.cities(grid_of(turn)))
        size = best.size if best else 0
        won = geometry.points(size) * (2 if turn.doubled else 1)
        state.scores[seat] += won
        state.turns[seat] += 1
        state.last = TurnRecord(seat, "scored", city=size, points=won, doubled=turn.doubled)
        events.append(
            {
                "type": "scored",
                "seat": seat,
                "city": size,
                "points": won,
                "doubled": turn.doubled,
                "score": state.scores[seat],
            }
        )
        if state.scores[seat] >= TARGET:
            state.winner, state.won_by = seat, "points"
            events.append(
                {"type": "game_won", "seat": seat, "by": "points", "score": state.scores[seat]}
            )
        else:
            self._start_turn(state, (seat + 1) % state.seats, dice, events)

    def _start_turn(
        self, state: CarcassonneState, seat: int, dice: Dice, events: list[Event]
    ) -> None:
        if min(state.turns) >= TURN_LIMIT:
            self._stop_at_turn_limit(state, events)
            return
        doubled = state.held[seat]
        state.held[seat] = False
        state.turn = Turn(seat=seat, dice=dice_for(state.held, seat), doubled=doubled)
        events.append(
            {"type": "turn_started", "seat": seat, "dice": state.turn.dice, "doubled": doubled}
        )
        self._roll(state, state.turn.dice, dice, events)

    @staticmethod
    def _stop_at_turn_limit(state: CarcassonneState, events: list[Event]) -> None:
        """The safeguard: every seat has played ``TURN_LIMIT`` turns and nobody reached the
        target; the best score is named winner (the lowest seat among equals) and ranks
        follow the scores alone."""
        best = max(state.scores)
        state.winner, state.won_by = state.scores.index(best), "turn_limit"
        events.append({"type": "game_won", "seat": state.winner, "by": "turn_limit", "score": best})

    def _roll(self, state: CarcassonneState, count: int, dice: Dice, events: list[Event]) -> None:
        turn = state.turn
        faces = [dice.face(FACES) for _ in range(count)]
        turn.rolls += 1
        turn.roll = [RolledDie(face, GONE if face == CATAPULT else FREE) for face in faces]
        events.append({"type": "rolled", "seat": turn.seat, "roll": turn.rolls, "faces": faces})
        gone = [index for index, face in enumerate(faces) if face == CATAPULT]
        if not gone:
            return
        turn.catapults += len(gone)
        events.append(
            {
                "type": "catapults_passed",
                "seat": turn.seat,
                "dice": gone,
                "this_turn": turn.catapults,
            }
        )
        if turn.catapults >= DICE:
            state.winner, state.won_by = turn.seat, "catapults"
            state.turns[turn.seat] += 1
            state.last = TurnRecord(turn.seat, "nine_catapults", doubled=turn.doubled)
            events.append(
                {
                    "type": "game_won",
                    "seat": turn.seat,
                    "by": "catapults",
                    "score": state.scores[turn.seat],
                }
            )

    # --- observation ----------------------------------------------------------------------
    def picture(self, view: View, player: int | None = None) -> str:
        return render_svg(view, player)

    def view(self, state: CarcassonneState, seat: int | None) -> View:
        return build_view(state, seat)

    def is_over(self, state: CarcassonneState) -> bool:
        return state.winner is not None

    def result(self, state: CarcassonneState) -> Result | None:
        if not self.is_over(state):
            return None
        keys: list[Any] = [(seat == state.winner, score) for seat, score in enumerate(state.scores)]
        if state.won_by == "turn_limit":
            keys = list(state.scores)
        detail: dict[str, Any] = {
            "winner": state.winner,
            "won_by": state.won_by,
            "turns": list(state.turns),
        }
        if state.seats == 1:
            detail["solo_turns"] = state.turns[0]
        return Result(scores=list(state.scores), ranks=ranks_from_keys(keys), detail=detail)

    def sample(self, view: View, seat: int | None, dice: Dice) -> CarcassonneState:
        """Nothing is hidden in this game: the view alone rebuilds the state exactly."""
        return state_from_view(view)


GAME = Carcassonne()
