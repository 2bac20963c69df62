"""Marshmallow schemas of the API's bodies: they validate requests and document responses."""

from __future__ import annotations

from marshmallow import Schema, fields, validate


class ProblemSchema(Schema):
    """RFC 9457 problem details; ``code`` is stable, ``detail`` is for people."""

    type = fields.String(metadata={"example": "https://dicehall.dev/problems/illegal_action"})
    title = fields.String(metadata={"example": "Illegal action"})
    status = fields.Integer(metadata={"example": 422})
    code = fields.String(required=True, metadata={"example": "illegal_action"})
    detail = fields.String(metadata={"example": "die 2 does not match the city edge to its north"})
    rule = fields.String(metadata={"description": "the engine's code for an illegal action"})
    errors = fields.Dict(metadata={"description": "field -> messages, for validation failures"})
    current = fields.Dict(metadata={"description": "the current view, with version_mismatch"})


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
    rules = fields.String(
        metadata={"description": "the project's rules page: rulings and designed data"}
    )


class SeatSpecSchema(Schema):
    """One seat of a new game: a human who will join, or a bundled bot."""

    kind = fields.String(required=True, validate=validate.OneOf(["human", "bot"]))
    name = fields.String(validate=validate.Length(max=64))
    bot = fields.String(validate=validate.Length(min=1, max=64))


class CreateGameSchema(Schema):
    """The body of ``POST /v1/games``."""

    game = fields.String(required=True, metadata={"example": "carcassonne"})
    seats = fields.List(
        fields.Nested(SeatSpecSchema), required=True, validate=validate.Length(min=1, max=8)
    )
    options = fields.Dict(load_default=dict)
    seed = fields.String(
        validate=validate.Length(min=1, max=256),
        metadata={"description": "secret seed of the dice (default: random); revealed at the end"},
    )


class SeatSchema(Schema):
    """A seat as everybody may see it."""

    seat = fields.Integer(required=True)
    kind = fields.String(required=True)
    name = fields.String()
    bot = fields.String(allow_none=True)
    joined = fields.Boolean(required=True)


class PromptSchema(Schema):
    """A decision a seat owes."""

    kind = fields.String(required=True)
    sealed = fields.Boolean(required=True)
    text = fields.String()


class GameSchema(Schema):
    """A game's public summary."""

    id = fields.String(required=True, metadata={"example": "3f2a9c0d1b7e4a55"})
    game = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["waiting", "active", "over"]))
    version = fields.Integer(required=True)
    seats = fields.List(fields.Nested(SeatSchema), required=True)
    options = fields.Dict(required=True)
    to_act = fields.Dict(keys=fields.String(), values=fields.Nested(PromptSchema), required=True)
    result = fields.Dict(allow_none=True)
    commitment = fields.String(required=True, metadata={"description": "sha256 of the seed"})
    seed = fields.String(
        allow_none=True, metadata={"description": "revealed when the game is over"}
    )
    created_at = fields.Float(required=True)


class CreatedGameSchema(GameSchema):
    """A new game with the creator's token (shown once)."""

    creator_token = fields.String(required=True)


class JoinSchema(Schema):
    """The body of a join."""

    name = fields.String(validate=validate.Length(max=64))


class JoinedSchema(Schema):
    """The seat and its token (shown once)."""

    game_id = fields.String(required=True)
    seat = fields.Integer(required=True)
    seat_token = fields.String(required=True)
    status = fields.String(required=True)


class ViewSchema(Schema):
    """What the caller may see of a game now."""

    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    seat = fields.Integer(allow_none=True, required=True)
    status = fields.String(required=True)
    view = fields.Dict(
        required=True, metadata={"description": "the game's own view; see the rules page"}
    )
    to_act = fields.Dict(keys=fields.String(), values=fields.Nested(PromptSchema), required=True)
    result = fields.Dict(allow_none=True)


class LegalActionSchema(Schema):
    """One legal action with a sentence for people."""

    action = fields.Dict(required=True)
    text = fields.String(required=True)


class LegalActionsSchema(Schema):
    """Every legal action of the caller's seat now (empty when it owes nothing)."""

    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    seat = fields.Integer(required=True)
    actions = fields.List(fields.Nested(LegalActionSchema), required=True)


class ActionRequestSchema(Schema):
    """The body of a move: one of the seat's legal actions."""

    action = fields.Dict(required=True, metadata={"example": {"type": "reroll"}})


class MoveHeadersSchema(Schema):
    """Optional headers of a move."""

    if_match = fields.String(
        data_key="If-Match",
        metadata={"description": 'the version the move is for, e.g. "7"; 412 when stale'},
    )
    idempotency_key = fields.String(
        data_key="Idempotency-Key",
        validate=validate.Length(min=1, max=128),
        metadata={"description": "a retry with the same key returns the first answer"},
    )


class MoveResultSchema(ViewSchema):
    """The answer of a move: the new version, the caller's events and view."""

    events = fields.List(fields.Dict(), required=True)


class LogEntrySchema(Schema):
    """One applied action (entry 0 is the set-up)."""

    n = fields.Integer(required=True)
    version = fields.Integer(required=True)
    seat = fields.Integer(allow_none=True, required=True)
    action = fields.Dict(allow_none=True, required=True)
    sealed = fields.Boolean(required=True)
    draws = fields.List(
        fields.List(fields.Integer()),
        metadata={"description": "[k, n, value] of each draw; shown once the game is over"},
    )
    at = fields.Float()


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
    entries = fields.List(fields.Nested(LogEntrySchema), required=True)


class EventsQuerySchema(Schema):
    """Long-poll parameters."""

    after = fields.String(
        load_default="0",
        validate=validate.Regexp(r"^(0|\d+-\d+)$", error="a cursor from an earlier answer, or 0"),
        metadata={"description": "cursor of the last event seen (0: from the start)"},
    )
    wait = fields.Float(
        load_default=0.0,
        validate=validate.Range(min=0, max=30),
        metadata={"description": "seconds to wait for an event when there is none yet"},
    )


class EventSchema(Schema):
    """One event of a game's feed."""

    id = fields.String(required=True)
    type = fields.String(required=True)


class EventsSchema(Schema):
    """Events after the cursor, and the cursor to pass next time."""

    events = fields.List(fields.Dict(), required=True)
    cursor = fields.String(required=True)


class PictureQuerySchema(Schema):
    """Whose sheet or map to draw."""

    player = fields.Integer(validate=validate.Range(min=0, max=7))


class GameListQuerySchema(Schema):
    """Paging of the games list."""

    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=1_000_000))


class GameListSchema(Schema):
    """A page of games, newest first."""

    games = fields.List(fields.Nested(GameSchema), required=True)
