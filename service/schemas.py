"""Marshmallow schemas of the API's bodies: they validate requests and document responses."""

from __future__ import annotations

import re
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from engine.games import LISTED, catalogue
from engine.search import MAX_BUDGET_MS, MAX_ITERATIONS

_CURSOR = re.compile(r"^(0|(\d{1,20})-(\d{1,20}))$")


PRINTABLE = r"^[^\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ufffe\uffff]*$"
"""Text people read (names, an owner's address): no control characters, which a terminal
would obey and which XML (the SVG pictures) cannot hold; no bidirectional embedding,
override or isolate (U+202A-U+202E, U+2066-U+2069: they make text beside them read in
another order than it is written, so ``"ann\u202egnp.exe"`` shows as ``annexe.png``); nor
U+FFFE and U+FFFF, which are no characters (XML cannot hold them either)."""


class Whole(validate.Regexp):
    """``validate.Regexp`` matched against the whole text: Python's ``$`` also matches before
    a last newline, so ``re.match`` let ``"ann\\n"`` through a pattern that, read as the
    contract's (ECMA-262) ``pattern``, refuses it."""

    def __call__(self, value: Any) -> Any:
        if self.regex.fullmatch(value) is None:
            raise ValidationError(self._format_error(value))
        return value


def readable(low: int, high: int, **kwargs: Any) -> fields.String:
    """A string of ``low`` to ``high`` characters, none of them a control character."""
    return fields.String(
        validate=[
            validate.Length(min=low or None, max=high),
            Whole(PRINTABLE, error="must not hold control characters"),
        ],
        **kwargs,
    )


def is_cursor(text: str) -> bool:
    """Whether ``text`` is an event cursor: ``0`` or a Redis stream id ``<ms>-<seq>``, both
    parts 64-bit (Redis refuses larger ones)."""
    match = _CURSOR.fullmatch(text)
    if match is None:
        return False
    return text == "0" or all(int(part) < 2**64 for part in match.groups()[1:])


class Typed(fields.Raw):
    """A field whose schema differs per game: ``{Game}{part}`` in the document's per-game
    components (``service.components``). It loads any JSON object (the game checks it) and
    dumps as is.
    ``generic`` is its schema where no game is known (e.g. a ``$ref`` to a union)."""

    def __init__(self, part: str, generic: dict | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.part = part
        self.generic = generic or {"type": "object"}

    default_error_messages = {"invalid": "Not a valid object."}

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, dict):
            raise self.make_error("invalid")
        return value


def carries_game_data(field: fields.Field) -> bool:
    """Whether ``field`` holds a ``Typed`` field, itself or nested (lists, nested schemas)."""
    if isinstance(field, Typed):
        return True
    if isinstance(field, fields.List):
        return carries_game_data(field.inner)
    if isinstance(field, fields.Nested):
        return any(carries_game_data(f) for f in type(field.schema)._declared_fields.values())
    return False


def check_cursor(text: str) -> None:
    """A marshmallow validator for cursors. Raises ValidationError."""
    if not is_cursor(text):
        raise ValidationError("a cursor from an earlier answer (or 0)")


class ProblemSchema(Schema):
    """RFC 9457 problem details; ``code`` is stable, ``detail`` is for people."""

    type = fields.String(metadata={"example": "https://dicehall.dev/problems/illegal_action"})
    title = fields.String(metadata={"example": "Illegal action"})
    status = fields.Integer(metadata={"example": 422})
    code = fields.String(required=True, metadata={"example": "illegal_action"})
    detail = fields.String(metadata={"example": "die 2 does not match the city edge to its north"})
    rule = fields.String(metadata={"description": "the engine's code for an illegal action"})
    errors = fields.Dict(metadata={"description": "field -> messages, for validation failures"})
    field = fields.String(
        metadata={"description": "with malformed_action: the action's field to fix (a dotted path)"}
    )
    current = fields.Dict(metadata={"description": "the current view, with version_mismatch"})
    version = fields.Integer(metadata={"description": "the game's version, with version_mismatch"})
    decision = fields.Integer(
        allow_none=True,
        metadata={
            "description": "with version_mismatch: the id of the decision the seat owes now "
            "(null when it owes none)"
        },
    )


class HealthSchema(Schema):
    """Liveness of the API and its Redis."""

    status = fields.String(required=True, metadata={"example": "ok"})
    redis = fields.String(required=True, metadata={"example": "ok"})


class GameInfoSchema(Schema):
    """A game in the catalogue."""

    name = fields.String(required=True, metadata={"example": "carcassonne"})
    title = fields.String(required=True)
    min_seats = fields.Integer(required=True)
    max_seats = fields.Integer(required=True)
    bots = fields.List(fields.String(), required=True)
    options_schema = fields.Dict(required=True, metadata={"description": "JSON Schema of options"})
    options_example = fields.Dict(required=True)
    rules = fields.Url(
        required=True,
        metadata={
            "description": "the game's rules page served by this service (text/markdown): "
            "its rulings where the rulebook is silent, and its designed data"
        },
    )


def _bot_names() -> list[str]:
    return sorted({bot for game in catalogue() for bot in game.bots})


SEAT_FIELD_KINDS = {"bot": "bot", "budget_ms": "bot", "iterations": "bot", "account": "external"}
"""The seat fields only one kind of seat has."""


class SeatSpecSchema(Schema):
    """One seat of a new game: a human who will join, or a bundled bot."""

    kind = fields.String(required=True, validate=validate.OneOf(["human", "bot", "external"]))
    name = readable(0, 64)
    bot = fields.String(
        validate=validate.Length(min=1, max=64),
        metadata={"description": "bundled bot (kind bot), one of the game's", "enum": _bot_names()},
    )
    budget_ms = fields.Float(
        validate=validate.Range(min=1, max=MAX_BUDGET_MS),
        metadata={"description": "the search bot's time per decision in ms (default 1000)"},
    )
    iterations = fields.Integer(
        validate=validate.Range(min=1, max=MAX_ITERATIONS),
        metadata={
            "description": "the search bot's simulations per decision instead of a time "
            "budget (reproducible from the game's seed), cut at a minute and before the "
            "seat's deadline"
        },
    )
    account = fields.String(
        validate=validate.Length(min=1, max=64),
        metadata={"description": "bot account invited to the seat (kind external)"},
    )

    @validates_schema
    def _fields_of_its_kind(self, data: dict, **_: object) -> None:
        """A field of another kind of seat is refused, not ignored (a human seat's
        ``budget_ms``, a bot seat's ``account``)."""
        for name in sorted(data):
            kind = SEAT_FIELD_KINDS.get(name)
            if kind is not None and kind != data["kind"]:
                raise ValidationError(f"only a seat of kind {kind} has it", name)


class ForkSchema(Schema):
    """Where a forked game starts: a finished game after ``version`` moves."""

    game = fields.String(required=True, metadata={"description": "the finished game's id"})
    version = fields.Integer(
        required=True,
        validate=validate.Range(min=0),
        metadata={"description": "how many of its moves to keep (0: its set-up)"},
    )
    dice = fields.String(
        load_default="fresh",
        validate=validate.OneOf(["fresh", "original"]),
        metadata={
            "description": "fresh: a new committed seed (or `seed`); original: the finished "
            "game's dice from that move on, for exact debugging"
        },
    )


class ForkedFromSchema(Schema):
    """The origin of a forked game."""

    game = fields.String(required=True)
    version = fields.Integer(required=True)
    dice = fields.String(required=True, validate=validate.OneOf(["fresh", "original"]))


class CreateGameSchema(Schema):
    """The body of ``POST /v1/games``: a new game, or with ``fork`` a finished game's
    position played on (the game and its options are the origin's)."""

    game = fields.String(
        metadata={
            "example": "carcassonne",
            "enum": list(LISTED),
            "description": "required unless `fork` is given",
        }
    )
    fork = fields.Nested(ForkSchema)
    seats = fields.List(
        fields.Nested(SeatSpecSchema), required=True, validate=validate.Length(min=1, max=8)
    )
    options = fields.Dict(load_default=dict)
    seed = fields.String(
        validate=validate.Length(min=1, max=256),
        metadata={"description": "secret seed of the dice (default: random); revealed at the end"},
    )
    decision_seconds = fields.Float(
        validate=validate.Range(min=0.05, max=86_400),
        metadata={"description": "time per decision; when it passes the random bot plays"},
    )
    visibility = fields.String(
        load_default="private",
        validate=validate.OneOf(["private", "public"]),
        metadata={
            "description": "private (default): unlisted, a human seat is taken only with its "
            "invite token or the creator's token; public: listed, open seats joinable by anyone"
        },
    )

    @validates_schema
    def _game_or_fork(self, data: dict, **_: object) -> None:
        if "fork" in data:
            if data.get("options"):
                raise ValidationError("a fork keeps its origin's options", "options")
        elif "game" not in data:
            raise ValidationError("Missing data for required field.", "game")


class SeatSchema(Schema):
    """A seat as everybody may see it."""

    seat = fields.Integer(required=True)
    kind = fields.String(required=True)
    name = fields.String()
    bot = fields.String(allow_none=True)
    account = fields.String(allow_none=True)
    joined = fields.Boolean(required=True)


class PromptSchema(Schema):
    """A decision a seat owes now."""

    kind = fields.String(
        required=True,
        metadata={"description": "the game's name for the decision", "example": "build"},
    )
    sealed = fields.Boolean(
        required=True,
        metadata={"description": "hidden from the other seats until the game resolves it"},
    )
    text = fields.String(metadata={"description": "the decision in a sentence, for people"})
    deadline = fields.Float(
        allow_none=True,
        metadata={"description": "epoch seconds by which the seat must decide (null: no clock)"},
    )
    decision = fields.Integer(
        required=True,
        metadata={
            "description": "the decision id: the version at which this seat's current decision "
            "fell due. `If-Match` with it, or with any later version, succeeds as long as the "
            "decision stands; other seats' choices (sealed or not) never change it unless they "
            "change what this seat may do.",
            "example": 7,
        },
    )


TO_ACT = {
    "description": "who owes a decision now: seat number (a string, JSON keys are) -> prompt; "
    "several seats at once in simultaneous phases, empty when nobody does",
    "example": {
        "0": {
            "kind": "build",
            "sealed": False,
            "text": "place dice",
            "deadline": None,
            "decision": 7,
        }
    },
}


class ResultSchema(Schema):
    """The end of a game: scores (whole numbers in every game), ranks, winners, detail."""

    scores = fields.List(fields.Integer(), required=True, metadata={"example": [42, 17]})
    ranks = fields.List(
        fields.Integer(), required=True, metadata={"description": "1 is best; ties share"}
    )
    winners = fields.List(fields.Integer(), required=True, metadata={"example": [0]})
    detail = Typed("ResultDetail", required=True, metadata={"description": "the game's own detail"})


class TimeBankSchema(Schema):
    """A clock per seat and game: a starting bank plus an increment per decision."""

    start = fields.Float(
        required=True,
        validate=validate.Range(min=0.05, max=86_400),
        metadata={"description": "seconds on each seat's clock when the game starts"},
    )
    increment = fields.Float(
        load_default=0.0,
        validate=validate.Range(min=0, max=3_600),
        metadata={"description": "seconds added to a seat's clock whenever a decision falls due"},
    )


class GameSchema(Schema):
    """A game's public summary."""

    id = fields.String(required=True, metadata={"example": "3f2a9c0d1b7e4a55"})
    game = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["waiting", "active", "over"]))
    version = fields.Integer(required=True)
    seats = fields.List(fields.Nested(SeatSchema), required=True)
    options = fields.Dict(required=True)
    to_act = fields.Dict(
        keys=fields.String(), values=fields.Nested(PromptSchema), required=True, metadata=TO_ACT
    )
    result = fields.Nested(ResultSchema, allow_none=True)
    commitment = fields.String(required=True, metadata={"description": "sha256 of the seed"})
    seed = fields.String(
        allow_none=True, metadata={"description": "revealed when the game is over"}
    )
    created_at = fields.Float(required=True)
    visibility = fields.String(validate=validate.OneOf(["private", "public"]))
    decision_seconds = fields.Float(allow_none=True)
    time_bank = fields.Nested(
        TimeBankSchema, allow_none=True, metadata={"description": "each seat's clock, if any"}
    )
    tournament = fields.String(allow_none=True)
    forked_from = fields.Nested(ForkedFromSchema, allow_none=True)


class CreatedGameSchema(GameSchema):
    """A new game with the creator's token (shown once)."""

    creator_token = fields.String(required=True)
    invites = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        metadata={
            "description": "private games: an invite token per open human seat (seat -> "
            "token), shown once; whoever holds it may join that seat"
        },
    )


class JoinSchema(Schema):
    """The body of a join."""

    name = readable(0, 64)


class JoinedSchema(Schema):
    """The seat and its token (shown once)."""

    game_id = fields.String(required=True)
    seat = fields.Integer(required=True)
    seat_token = fields.String(required=True)
    status = fields.String(required=True)


class ViewSchema(Schema):
    """What the caller may see of a game now."""

    game_id = fields.String(required=True)
    game = fields.String(required=True, metadata={"description": "the game's name"})
    version = fields.Integer(required=True)
    seat = fields.Integer(allow_none=True, required=True)
    status = fields.String(required=True, validate=validate.OneOf(["waiting", "active", "over"]))
    view = Typed(
        "GameView", required=True, metadata={"description": "the game's own view of the caller"}
    )
    to_act = fields.Dict(
        keys=fields.String(), values=fields.Nested(PromptSchema), required=True, metadata=TO_ACT
    )
    result = Typed("Result", allow_none=True, required=True)


class LegalActionSchema(Schema):
    """One legal action with a sentence for people."""

    action = Typed("Action", required=True, metadata={"description": "post it as it is"})
    text = fields.String(required=True)


class LegalActionsSchema(Schema):
    """Every legal action of the caller's seat now (empty when it owes nothing)."""

    game_id = fields.String(required=True)
    game = fields.String(required=True, metadata={"description": "the game's name"})
    version = fields.Integer(required=True)
    seat = fields.Integer(required=True)
    deadline = fields.Float(allow_none=True)
    decision = fields.Integer(
        allow_none=True,
        metadata={"description": "the id of the decision these actions answer (for If-Match)"},
    )
    actions = fields.List(fields.Nested(LegalActionSchema), required=True)


class ActionRequestSchema(Schema):
    """The body of a move: one of the seat's legal actions."""

    action = Typed(
        "Action",
        generic={"$ref": "#/components/schemas/Action"},
        required=True,
        metadata={"example": {"type": "reroll"}},
    )


class MoveHeadersSchema(Schema):
    """Optional headers of a move."""

    if_match = fields.String(
        data_key="If-Match",
        metadata={
            "description": 'the seat\'s decision id or any later version you read, e.g. "7"; '
            "412 only when the seat's own decision changed since"
        },
    )
    idempotency_key = fields.String(
        data_key="Idempotency-Key",
        validate=validate.Regexp(
            r"^[\x21-\x7e]{1,128}$", error="1 to 128 printable ASCII characters, no spaces"
        ),
        metadata={
            "description": "a retry with the same key and action returns the first answer, "
            "whatever the interleaving; the same key with another action is refused "
            "(422 idempotency_key_reused)"
        },
    )
    prefer = fields.String(
        data_key="Prefer",
        metadata={
            "description": "RFC 7240 preferences; `return=minimal` answers without the "
            "mover's view (`view: null`; version, `to_act`, events and next actions stay), "
            "`return=representation` (the default) with it. A preference this service does "
            "not know, or a malformed header, is ignored, never refused",
            "example": "return=minimal",
        },
    )


class MoveResultSchema(ViewSchema):
    """The answer of a move: the new version, the caller's events and view, and the legal
    actions of the caller's next decision if it owes one at once (so a client plays its
    next move without another request)."""

    view = Typed(
        "GameView",
        required=True,
        allow_none=True,
        metadata={
            "description": "the game's own view of the caller; null when the move asked for "
            "`Prefer: return=minimal` (the answer then says `Preference-Applied: "
            "return=minimal`): read it with `getView` when needed"
        },
    )
    events = fields.List(Typed("Event"), required=True)
    actions = fields.List(
        fields.Nested(LegalActionSchema),
        required=True,
        metadata={
            "description": "the caller's legal actions now, as `listLegalActions` gives them "
            "(empty when it owes nothing at once: wait for a `decision_due` event, then read "
            "them); its decision id is `to_act[seat].decision`"
        },
    )


class LogEntrySchema(Schema):
    """One applied action (entry 0 is the set-up)."""

    n = fields.Integer(required=True)
    version = fields.Integer(required=True)
    seat = fields.Integer(allow_none=True, required=True)
    action = Typed(
        "LogAction",
        allow_none=True,
        required=True,
        metadata={"description": "null: another seat's sealed action, until the game is over"},
    )
    sealed = fields.Boolean(required=True)
    fallback = fields.Boolean(metadata={"description": "played by the service after a deadline"})
    draws = fields.List(
        fields.List(fields.Integer()),
        metadata={"description": "[k, n, value] of each draw; shown once the game is over"},
    )
    at = fields.Float()
    text = fields.String(
        allow_none=True,
        metadata={"description": "the move as a sentence (the game's describe); null if hidden"},
    )


class LogSchema(Schema):
    """The action log, with the seed once the game is over."""

    game_id = fields.String(required=True)
    game = fields.String(required=True)
    seats = fields.Integer(required=True)
    options = fields.Dict(required=True)
    status = fields.String(required=True)
    version = fields.Integer(required=True)
    commitment = fields.String(required=True)
    seed = fields.String(allow_none=True)
    forked_from = fields.Nested(ForkedFromSchema, allow_none=True)
    entries = fields.List(fields.Nested(LogEntrySchema), required=True)
    next = fields.Integer(
        allow_none=True,
        metadata={"description": "pass as `after` for the next page; null on the last page"},
    )


class LogQuerySchema(Schema):
    """Paging of the action log."""

    after = fields.Integer(
        load_default=-1,
        validate=validate.Range(min=-1, max=10_000_000),
        metadata={"description": "entries numbered after this one (-1: from the set-up)"},
    )
    limit = fields.Integer(load_default=500, validate=validate.Range(min=1, max=1000))


class EventsQuerySchema(Schema):
    """Long-poll parameters."""

    after = fields.String(
        load_default="0",
        validate=check_cursor,
        metadata={"description": "cursor of the last event seen (0: from the start)"},
    )
    wait = fields.Float(
        load_default=0.0,
        validate=validate.Range(min=0, max=30),
        metadata={"description": "seconds to wait for an event when there is none yet"},
    )
    detail = fields.String(
        load_default="full",
        validate=validate.OneOf(["full", "compact", "none"]),
        metadata={
            "description": "what decision_due notices carry: `full` (the seat's view and legal "
            "actions with texts), `compact` (view and actions without texts) or `none`"
        },
    )


def _entry_type(name: str) -> fields.String:
    return fields.String(required=True, validate=validate.OneOf([name]))


class _EntrySchema(Schema):
    id = fields.String(required=True, metadata={"description": "the entry's cursor"})


class GameCreatedEntrySchema(_EntrySchema):
    """The game was created."""

    type = _entry_type("game_created")
    game = fields.String(required=True)
    commitment = fields.String(required=True)


class SeatJoinedEntrySchema(_EntrySchema):
    """A human seat was taken."""

    type = _entry_type("seat_joined")
    seat = fields.Integer(required=True)
    name = fields.String(allow_none=True)


class SeatRemovedEntrySchema(_EntrySchema):
    """The creator removed a human seat nobody had taken (``removeSeat``): the game was dealt
    again for the seats left, and the later seats moved down one."""

    type = _entry_type("seat_removed")
    seat = fields.Integer(required=True, metadata={"description": "the seat removed"})


class GameStartedEntrySchema(_EntrySchema):
    """Every seat is taken; the first decisions are owed."""

    type = _entry_type("game_started")
    to_act = fields.Dict(
        keys=fields.String(), values=fields.Nested(PromptSchema), required=True, metadata=TO_ACT
    )


class ToActEntrySchema(_EntrySchema):
    """Who owes a decision after a move."""

    type = _entry_type("to_act")
    version = fields.Integer(required=True)
    to_act = fields.Dict(
        keys=fields.String(), values=fields.Nested(PromptSchema), required=True, metadata=TO_ACT
    )


class ActionEntrySchema(_EntrySchema):
    """A seat moved (a sealed action is null until the game resolves it)."""

    type = _entry_type("action")
    version = fields.Integer(required=True)
    seat = fields.Integer(required=True)
    action = Typed("Action", allow_none=True, required=True)
    text = fields.String(
        allow_none=True,
        metadata={"description": "the move as a sentence, the game's own; null while sealed"},
    )
    sealed = fields.Boolean(required=True)


class GameEventEntrySchema(_EntrySchema):
    """Something the move caused, as the game tells it (``to``: private to those seats)."""

    type = _entry_type("game_event")
    version = fields.Integer(required=True)
    event = Typed("Event", required=True)
    to = fields.List(fields.Integer())


class GameOverEntrySchema(_EntrySchema):
    """The game is over: its result and the revealed seed."""

    type = _entry_type("game_over")
    version = fields.Integer(required=True)
    result = Typed("Result", required=True)
    seed = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "null for a mirrored tournament table while another table dealt "
            "the same seed is played (read it later from the summary or the log)"
        },
    )


class EventsSchema(Schema):
    """What the caller owes now, events after the cursor, and the cursor to pass next."""

    game = fields.String(required=True, metadata={"description": "the game's name"})
    pending = fields.List(fields.Nested("PendingSchema"), required=True)
    events = fields.List(Typed("StreamEntry"), required=True)
    cursor = fields.String(required=True)


class ViewQuerySchema(Schema):
    """Whose view to read."""

    seat = fields.Integer(
        validate=validate.Range(min=0, max=7),
        metadata={"description": "any seat's final view, once the game is over (for audits)"},
    )


class PictureQuerySchema(Schema):
    """Whose sheet or map to draw."""

    player = fields.Integer(validate=validate.Range(min=0, max=7))
    version = fields.Integer(
        validate=validate.Range(min=0),
        metadata={"description": "draw the game after this many moves (finished games only)"},
    )


class CheckSchema(Schema):
    """One verified claim about a finished game."""

    name = fields.String(required=True)
    ok = fields.Boolean(required=True)
    detail = fields.String(required=True)


class VerificationSchema(Schema):
    """The service's audit of a finished game (the checks of `dicehall verify`)."""

    game_id = fields.String(required=True)
    ok = fields.Boolean(required=True, metadata={"description": "every check holds"})
    commitment = fields.String(required=True)
    seed = fields.String(required=True)
    checks = fields.List(fields.Nested(CheckSchema), required=True)


class GameListQuerySchema(Schema):
    """Paging of the games list."""

    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=1_000_000))


class GameListSchema(Schema):
    """A page of games, newest first."""

    games = fields.List(fields.Nested(GameSchema), required=True)


class RegisterBotSchema(Schema):
    """The body of a bot registration."""

    name = readable(1, 64, required=True)
    owner = readable(
        1,
        200,
        required=True,
        metadata={"description": "how to reach the bot's author (e-mail or URL)"},
    )


class AccountSchema(Schema):
    """A bot account."""

    id = fields.String(required=True)
    name = fields.String(required=True)
    owner = fields.String(required=True)
    created_at = fields.Float(required=True)


class RegisteredBotSchema(AccountSchema):
    """A new bot account and its token (shown once)."""

    token = fields.String(required=True)


class NoticeActionSchema(Schema):
    """A legal action in a decision notice (its sentence only with detail full)."""

    action = Typed(
        "Action",
        generic={"$ref": "#/components/schemas/Action"},
        required=True,
        metadata={"description": "post it as it is"},
    )
    text = fields.String()


class PendingSchema(Schema):
    """A decision a seat owes (``decision_due``): everything needed to answer it with one
    POST of one of ``actions`` with ``If-Match: "<decision>"``."""

    type = fields.String(required=True)
    game_id = fields.String(required=True)
    seat = fields.Integer(required=True)
    version = fields.Integer(required=True, metadata={"description": "the game's version now"})
    decision = fields.Integer(
        required=True, metadata={"description": "the decision id: send it as If-Match"}
    )
    prompt = fields.Nested(PromptSchema, required=True)
    deadline = fields.Float(allow_none=True, metadata={"description": "epoch seconds"})
    current = fields.Boolean(
        metadata={
            "description": "false when the decision was answered or superseded since the "
            "notice was written (then it carries no view or actions)"
        }
    )
    last_round_trip = fields.Float(
        allow_none=True,
        metadata={
            "description": "seconds from this seat's previous decision falling due to its move "
            "being applied, in this game (null before its first)"
        },
    )
    view: fields.Field = fields.Dict(
        metadata={"description": "the seat's view (detail full or compact)"}
    )
    actions = fields.List(
        fields.Nested("NoticeActionSchema"),
        metadata={"description": "the legal actions (texts only with detail full)"},
    )


class DecisionDueEntrySchema(PendingSchema, _EntrySchema):
    """For a seat's own feed: the decision it now owes, with its view and legal actions
    (right after the ``to_act`` entry that made it due, with the same id)."""

    type = _entry_type("decision_due")
    view = Typed("GameView", metadata={"description": "the seat's view"})


class FeedSchema(Schema):
    """An account's feed after a cursor, with what it owes now."""

    pending = fields.List(fields.Nested(PendingSchema), required=True)
    events = fields.List(fields.Dict(), required=True)
    cursor = fields.String(required=True)


class ParticipantSchema(Schema):
    """A tournament entrant: a bundled bot or an external bot account."""

    name = readable(1, 64, required=True)
    bot = fields.String(
        allow_none=True,
        validate=validate.Length(min=1, max=64),
        metadata={"description": "a bundled bot of the game"},
    )
    account = fields.String(
        allow_none=True,
        validate=validate.Length(min=1, max=64),
        metadata={"description": "an external bot account id"},
    )
    budget_ms = fields.Float(
        allow_none=True,
        validate=validate.Range(min=1, max=MAX_BUDGET_MS),
        metadata={"description": "the search bot's time per decision in ms (default 1000)"},
    )
    iterations = fields.Integer(
        allow_none=True,
        validate=validate.Range(min=1, max=MAX_ITERATIONS),
        metadata={
            "description": "the search bot's simulations per decision instead of a time "
            "budget (reproducible from the game's seed), cut at a minute and before the "
            "seat's deadline"
        },
    )

    @validates_schema
    def _settings_of_a_bot(self, data: dict, **_: object) -> None:
        """A search setting is refused beside an account (it is the bundled bot's)."""
        for name in ("budget_ms", "iterations"):
            if data.get(name) is not None and data.get("account") is not None:
                raise ValidationError("only a bundled bot (bot) has it", name)


class CreateTournamentSchema(Schema):
    """The body of ``POST /v1/tournaments``."""

    game = fields.String(required=True)
    options = fields.Dict(load_default=dict)
    participants = fields.List(
        fields.Nested(ParticipantSchema), required=True, validate=validate.Length(min=2, max=32)
    )
    games = fields.Integer(required=True, validate=validate.Range(min=1, max=10_000))
    format = fields.String(
        load_default="round_robin", validate=validate.OneOf(["round_robin", "mirrored"])
    )
    seats_per_game = fields.Integer(validate=validate.Range(min=1, max=8))
    seed = fields.String(validate=validate.Length(min=1, max=256))
    decision_seconds = fields.Float(validate=validate.Range(min=0.05, max=86_400))
    time_bank = fields.Nested(
        TimeBankSchema,
        metadata={
            "description": "a clock per seat and game for external bots: a decision owed when "
            "its seat's clock runs out gets the fallback move (counted as a missed deadline)"
        },
    )
    concurrency = fields.Integer(load_default=4, validate=validate.Range(min=1, max=64))


class StandingSchema(Schema):
    """One participant's standing."""

    rank = fields.Integer(required=True)
    name = fields.String(required=True)
    bot = fields.String(allow_none=True)
    account = fields.String(allow_none=True)
    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)
    ordinal = fields.Float(required=True, metadata={"description": "mu - 3 sigma"})
    interval = fields.List(fields.Float(), required=True, metadata={"description": "mu +- 2 sigma"})
    games = fields.Integer(required=True)
    wins = fields.Integer(required=True)
    average_score = fields.Float(allow_none=True)
    illegal_actions = fields.Integer(required=True)
    deadlines_missed = fields.Integer(required=True)
    decision_time_mean = fields.Float(allow_none=True)
    decision_time_p50 = fields.Float(
        allow_none=True, metadata={"description": "median seconds from due to decided"}
    )
    decision_time_p95 = fields.Float(allow_none=True)


class ProgressSchema(Schema):
    total = fields.Integer(required=True)
    started = fields.Integer(required=True)
    finished = fields.Integer(required=True)


class TournamentSchema(Schema):
    """A tournament with its progress and standings."""

    id = fields.String(required=True)
    game = fields.String(required=True)
    options = fields.Dict(required=True)
    participants = fields.List(fields.Nested(ParticipantSchema), required=True)
    games = fields.Integer(required=True)
    format = fields.String(required=True)
    seats_per_game = fields.Integer(required=True)
    seed = fields.String(allow_none=True, metadata={"description": "revealed when finished"})
    seed_commitment = fields.String(required=True)
    decision_seconds = fields.Float(allow_none=True)
    time_bank = fields.Nested(TimeBankSchema, allow_none=True)
    concurrency = fields.Integer(required=True)
    created_at = fields.Float(required=True)
    finished_at = fields.Float(allow_none=True)
    status = fields.String(required=True, validate=validate.OneOf(["running", "finished"]))
    created = fields.Integer(required=True)
    progress = fields.Nested(ProgressSchema, required=True)
    standings = fields.List(fields.Nested(StandingSchema), required=True)


class TournamentListSchema(Schema):
    """Tournaments, newest first."""

    tournaments = fields.List(fields.Nested(TournamentSchema), required=True)


class TournamentGameSchema(Schema):
    """One game of a tournament."""

    index = fields.Integer(required=True)
    game_id = fields.String(required=True)
    status = fields.String(required=True)
    participants = fields.List(fields.String(), required=True)
    result = fields.Dict(allow_none=True)
    commitment = fields.String(required=True)


class TournamentGamesSchema(Schema):
    games = fields.List(fields.Nested(TournamentGameSchema), required=True)
