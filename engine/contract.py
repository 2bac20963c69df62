"""The one interface every game implements (see ``engine/CONTRACT.md``).

A :class:`Game` is an immutable description of a game (its name, seat range, options schema
and bots); a state is plain data (a dataclass) that round-trips through JSON exactly via
:mod:`engine.codec`. Actions are JSON objects (``dict``) with a ``"type"`` key. Events are
JSON objects with a ``"type"`` key; an event with a ``"to"`` list of seats is private to those
seats, every other event is public.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar

from marshmallow import Schema, ValidationError

from engine import codec
from engine.dice import Dice
from engine.validation import Checker

Action = dict[str, Any]
Event = dict[str, Any]
View = dict[str, Any]
State = Any


class IllegalAction(Exception):
    """A move the rules forbid. ``code`` is stable (snake_case); ``reason`` is for people."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


class MalformedAction(IllegalAction):
    """An action of the wrong shape: not an object, an unknown ``type``, a missing or unknown
    field, a value of the wrong type (``5.0`` or ``true`` where an integer belongs) or out of
    its schema's range. ``field`` is the dotted path of the offending field (``"type"``,
    ``"bonus.hex.1"``); empty when the action is not an object at all. It is refused before
    the rules look at it, and it is not an attempt at an illegal move."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__("malformed_action", reason)
        self.field = field


class InvalidOptions(Exception):
    """Options or a seat count the game does not accept. ``errors`` maps field -> messages."""

    def __init__(self, reason: str, errors: Mapping[str, Any] | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.errors = dict(errors or {})


@dataclass(frozen=True)
class Prompt:
    """A decision a seat owes now.

    ``kind`` names the decision (game-specific, e.g. ``"build"``, ``"pick_castle"``);
    ``sealed`` is true when the choice is hidden from everybody else until the engine resolves
    it (simultaneous rounds).
    """

    kind: str
    sealed: bool = False
    text: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "sealed": self.sealed, "text": self.text}


@dataclass(frozen=True)
class Result:
    """The end of a game: per-seat scores, ranks (1 is best, ties share a rank), winners.

    Scores are integers in every game (points, treasures): ``engine.schemas.SCORE_SCHEMA``.
    """

    scores: list[int]
    ranks: list[int]
    detail: dict[str, Any] = field(default_factory=dict)

    @property
    def winners(self) -> list[int]:
        return [seat for seat, rank in enumerate(self.ranks) if rank == 1]

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": [int(score) for score in self.scores],
            "ranks": list(self.ranks),
            "winners": self.winners,
            "detail": self.detail,
        }


@cache
def _action_validators(game: type[Game]) -> dict[str, Checker]:
    """One compiled validator per action type of ``game`` (built on first use)."""
    return {kind: Checker(schema) for kind, schema in game.action_schemas.items()}


def ranks_from_keys(keys: list[Any]) -> list[int]:
    """Competition ranks (1 best) from per-seat sort keys where larger is better; ties share."""
    return [1 + sum(1 for other in keys if other > mine) for mine in keys]


class Bot(ABC):
    """A strategy that sees only a seat's view and legal actions, never the state or dice."""

    name: ClassVar[str] = "bot"
    reads_view: ClassVar[bool] = True
    """Whether :meth:`choose` reads its ``view``; a caller may pass an empty one to a bot
    that reads none (the service's bot jobs then skip building it)."""

    @abstractmethod
    def choose(self, view: View, legal: list[Action], rng: Any) -> Action:
        """Return one of ``legal``. ``rng`` is a ``random.Random`` owned by the caller."""


class RandomBot(Bot):
    """Picks uniformly among the legal actions; the baseline every game has."""

    name = "random"
    reads_view = False

    def choose(self, view: View, legal: list[Action], rng: Any) -> Action:
        return rng.choice(legal)


class Game(ABC):
    """A game's immutable description and its rules, as pure functions over a state.

    Subclasses set the class attributes and implement the abstract methods. ``apply`` is the
    checked public entry point: it refuses a seat that does not owe a decision, then calls
    :meth:`check` (which must not change the state) and only then :meth:`perform`.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    options_schema: ClassVar[type[Schema]]
    state_class: ClassVar[type]
    bots: ClassVar[Mapping[str, Callable[..., Bot]]] = {"random": RandomBot}
    rules_page: ClassVar[str] = ""
    action_schemas: ClassVar[Mapping[str, dict[str, Any]]] = {}
    """Action type -> JSON Schema of that action (``engine/<game>/schemas.py``)."""
    view_schema: ClassVar[dict[str, Any]] = {}
    """JSON Schema of ``view(state, seat)``, for a seat and for a spectator alike."""
    result_detail_schema: ClassVar[dict[str, Any]] = {}
    """JSON Schema of ``result(state).detail``."""
    event_schemas: ClassVar[Mapping[str, dict[str, Any]]] = {}
    """Event type -> JSON Schema of the events ``perform`` returns."""
    edition_schema: ClassVar[dict[str, Any]] = {}
    """JSON Schema of :meth:`edition_data`'s answer, for a game whose designed data has
    editions (empty: the game has none)."""

    # --- set-up -------------------------------------------------------------------------
    def validate_options(self, seats: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Check the seat count and load ``options`` through the game's schema.

        Raises InvalidOptions.
        """
        if not self.min_seats <= seats <= self.max_seats:
            raise InvalidOptions(
                f"{self.title} takes {self.min_seats} to {self.max_seats} seats, not {seats}",
                {"seats": [f"must be between {self.min_seats} and {self.max_seats}"]},
            )
        try:
            loaded = self.options_schema().load(dict(options or {}))
        except ValidationError as exc:
            raise InvalidOptions("invalid options", exc.normalized_messages()) from exc
        self.check_options(seats, loaded)
        return loaded

    def check_options(self, seats: int, options: dict[str, Any]) -> None:
        """Cross-field checks that need the seat count. Raises InvalidOptions."""

    @abstractmethod
    def setup(self, seats: int, options: dict[str, Any], dice: Dice) -> State:
        """A new state for ``seats`` seats with validated ``options``."""

    # --- whose decision -------------------------------------------------------------------
    @abstractmethod
    def to_act(self, state: State) -> dict[int, Prompt]:
        """Every seat that owes a decision now (several at once is normal); empty when over."""

    @abstractmethod
    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Every legal action of ``seat`` now, JSON-ready, in a stable order."""

    def describe(self, state: State, seat: int, action: Action) -> str:
        """A short sentence for a person choosing among legal actions (menus, logs)."""
        args = ", ".join(f"{k}={v}" for k, v in action.items() if k != "type")
        return f"{action.get('type')} {args}".strip()

    def describe_all(self, state: State, seat: int, actions: list[Action]) -> list[str]:
        """:meth:`describe`'s sentence of each of ``actions`` (legal ones, as
        :meth:`legal_actions` lists them), in order; a game may share the work they have in
        common (the answer of every move lists the mover's next ones)."""
        return [self.describe(state, seat, action) for action in actions]

    # --- moves ----------------------------------------------------------------------------
    def validate_action(self, action: Any) -> None:
        """Raise MalformedAction unless ``action`` matches one of :attr:`action_schemas`
        (strictly: no float or boolean where an integer belongs). Needs no state."""
        if not isinstance(action, dict):
            raise MalformedAction("", 'an action is a JSON object with a "type"')
        kind = action.get("type")
        validators = _action_validators(type(self))
        if not isinstance(kind, str) or kind not in validators:
            known = ", ".join(sorted(validators))
            raise MalformedAction("type", f"type: {kind!r} is not an action type ({known})")
        found = validators[kind].problem(action)
        if found is not None:
            raise MalformedAction(*found)

    def check(self, state: State, seat: int, action: Action) -> None:
        """Raise MalformedAction (a wrong shape) or IllegalAction with a readable reason if
        ``action`` is illegal; change nothing: :meth:`validate_action`, then
        :meth:`check_rules`."""
        self.validate_action(action)
        self.check_rules(state, seat, action)

    @abstractmethod
    def check_rules(self, state: State, seat: int, action: Action) -> None:
        """Raise IllegalAction with a readable reason if ``action``, already well formed
        (:meth:`validate_action`), is against the rules; change nothing.

        Called for a seat that owes a decision in a game not over (:meth:`apply` refuses the
        rest first), so a game's ``check_rules`` repeats neither guard."""

    @abstractmethod
    def perform(self, state: State, seat: int, action: Action, dice: Dice) -> list[Event]:
        """Apply an action already checked (skips validation); mutates ``state``."""

    def apply(self, state: State, seat: int, action: Action, dice: Dice) -> list[Event]:
        """Check and apply ``action`` for ``seat``; mutates ``state`` and returns events.

        Raises MalformedAction (a wrong shape) or IllegalAction (against the rules); the state
        is then unchanged.
        """
        self.validate_action(action)
        if self.is_over(state):
            raise IllegalAction("game_over", "the game is over")
        if seat not in self.to_act(state):
            raise IllegalAction("not_your_turn", f"seat {seat} owes no decision now")
        self.check_rules(state, seat, action)  # validated above: not twice, as check would
        return self.perform(state, seat, action, dice)

    # --- observation ----------------------------------------------------------------------
    @abstractmethod
    def view(self, state: State, seat: int | None) -> View:
        """What ``seat`` (None: a spectator) may see; the only redaction point. A new value:
        it shares no list or dict with ``state`` (the service keeps a view while the next
        move changes the state in place)."""

    @abstractmethod
    def is_over(self, state: State) -> bool:
        """Whether the game has ended: the one way to ask. ``to_act`` is then empty and
        ``result`` is not None; until then ``result`` is None."""

    @abstractmethod
    def result(self, state: State) -> Result | None:
        """Scores and ranks once the game is over (:meth:`is_over`), else None."""

    def sample(self, view: View, seat: int | None, dice: Dice) -> State:
        """A full state consistent with ``view`` (for search bots); hidden parts drawn from
        ``dice``. Games without hidden information rebuild the state from the view."""
        raise NotImplementedError(f"{self.name} does not implement sample()")

    def picture(self, view: View, player: int | None = None) -> str | None:
        """An SVG document drawn from ``view`` alone (``engine/<game>/picture.py``); ``player``
        picks whose sheet or map when the view holds several. None: the game draws none."""
        return None

    def edition_data(self, edition: int) -> dict[str, Any] | None:
        """The designed data of ``edition`` (maps, boards...), for a game whose designed data
        has editions: static, never changed once published, so its views name the edition
        instead of carrying the data, and clients read it once. None: the game has no
        editions, or none of that number (the default: no editions)."""
        return None

    # --- serialisation --------------------------------------------------------------------
    def dump_state(self, state: State) -> dict[str, Any]:
        """The state as JSON-ready data (exact round trip with :meth:`load_state`)."""
        return codec.dump(state)

    def load_state(self, data: Mapping[str, Any]) -> State:
        return codec.load(self.state_class, data)

    def options_example(self) -> dict[str, Any]:
        """A valid options object, for the catalogue's documentation."""
        return {}
