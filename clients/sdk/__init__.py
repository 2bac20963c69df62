"""The dicehall Python SDK: a thin requests-based client with typed errors and safe retries.

>>> from clients.sdk import Client
>>> hall = Client("http://127.0.0.1:8000")
>>> game = hall.create_game("carcassonne", [{"kind": "human"}, {"kind": "bot"}])
"""

from clients.sdk.client import Client, RetryPolicy
from clients.sdk.errors import (
    BadRequest,
    Conflict,
    DicehallError,
    Forbidden,
    IllegalActionError,
    NotFound,
    ProblemError,
    RateLimited,
    ServerError,
    StaleVersion,
    TransportError,
    Unauthorized,
)
from clients.sdk.sse import ServerEvent

__all__ = [
    "BadRequest",
    "Client",
    "Conflict",
    "DicehallError",
    "Forbidden",
    "IllegalActionError",
    "NotFound",
    "ProblemError",
    "RateLimited",
    "RetryPolicy",
    "ServerError",
    "ServerEvent",
    "StaleVersion",
    "TransportError",
    "Unauthorized",
]
