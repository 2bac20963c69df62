"""What the service refuses, in its own words: the exceptions of the game service and stores.

Each says what went wrong as a type (callers match on the type, never on a message) with a
readable ``detail`` and any facts a client needs (``extra``: the current view of a stale move,
the rule an illegal action broke...). They know nothing of HTTP: the API answers each as
problem+json through one table at the edge (``service.problems.PROBLEM_OF``).
"""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """A request the service refuses; nothing was changed unless the type says otherwise."""

    def __init__(self, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.detail = detail
        self.extra = extra


# --- not there -----------------------------------------------------------------------------
class UnknownGameName(ServiceError):
    """No game is registered under that name."""


class GameNotFound(ServiceError):
    """No game has that id (never created, cancelled, or expired)."""


class SeatNotFound(ServiceError):
    """The game has no seat with that number."""


class VersionNotFound(ServiceError):
    """The game never was at that version."""


class TournamentNotFound(ServiceError):
    """No tournament has that id."""


# --- who may ---------------------------------------------------------------------------------
class Unauthorized(ServiceError):
    """No token, or a token that opens nothing here."""


class PrivateGame(ServiceError):
    """A private game's seat needs its invite token or the creator's token."""


class NotCreator(ServiceError):
    """Only the game's creator may do this."""


# --- not now ---------------------------------------------------------------------------------
class SeatNotHuman(ServiceError):
    """The seat is played by a bot."""


class SeatTaken(ServiceError):
    """The seat was joined already."""


class GameNotStarted(ServiceError):
    """The game waits for its human seats."""


class GameOver(ServiceError):
    """The game is over: no more moves."""


class GameNotOver(ServiceError):
    """What was asked opens when the game is over."""


class GameStarted(ServiceError):
    """The game has started: its seats can no longer change."""


class VersionConflict(ServiceError):
    """The seat's own decision changed since the version the move was made for (``extra``:
    the current view, version and decision)."""


class Conflict(ServiceError):
    """A record that should not exist yet does (a create of an existing id)."""


# --- not so ----------------------------------------------------------------------------------
class MalformedMove(ServiceError):
    """The action does not have the game's shape (``extra``: the field and errors); not
    counted against the seat."""


class IllegalMove(ServiceError):
    """The rules forbid the action now (``extra``: the rule); counted against the seat."""


class KeyReused(ServiceError):
    """An idempotency key came back with a different request body."""


class InvalidGameOptions(ServiceError):
    """Game options the game does not accept."""


class UnknownBot(ServiceError):
    """The game has no bot of that name."""


class InvalidBotOptions(ServiceError):
    """Options a bot does not take."""


class UnknownAccount(ServiceError):
    """No bot account has that id."""


class InvalidFork(ServiceError):
    """A fork that does not fit its origin."""


class InvalidParticipant(ServiceError):
    """A tournament participant that is neither exactly a bot nor an account."""


class InvalidSeats(ServiceError):
    """A number of seats per tournament game the game or the field cannot take."""


# --- not possible now ------------------------------------------------------------------------
class Contention(ServiceError):
    """Compare-and-set gave up: the game kept changing through every attempt; nothing was
    changed, retry shortly."""

    def __init__(self, attempts: int, detail: str | None = None) -> None:
        super().__init__(detail or f"gave up after {attempts} compare-and-set attempts")
        self.attempts = attempts


class NotReplicated(ServiceError):
    """The write was made but fewer replicas than ``DICEHALL_MIN_REPLICAS`` confirmed it in
    time: a failover now could lose it. Retry with the same ``Idempotency-Key``: the stored
    answer comes back once the write is replicated."""

    def __init__(self, reached: int, wanted: int) -> None:
        super().__init__(
            f"the write was made but reached {reached} of {wanted} replicas in time; retry "
            "with the same Idempotency-Key to get its answer once it is replicated"
        )
        self.reached = reached
        self.wanted = wanted
