"""The HTTP client: one method per resource of the API (``docs/API.md``), nothing more.

Retries are safe by construction: a request is retried (connection errors, a cut answer,
429 and 500/502/503/504) only when repeating it cannot change anything twice, that is for
``GET`` and for ``POST`` requests that carry an ``Idempotency-Key`` (the server answers a
repeated key with the stored first answer). :meth:`Client.act` always sends a fresh key and
reuses it on its own retries. The retrying is urllib3's :class:`~urllib3.util.Retry`
(backoff, ``Retry-After``), mounted on the session through :class:`SafeRetryAdapter`.
"""

from __future__ import annotations

import math
import time
import uuid
from collections.abc import Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import quote

import requests
from requests.adapters import HTTPAdapter
from urllib3.exceptions import MaxRetryError, ProtocolError
from urllib3.util import Retry

from clients.sdk.errors import (
    ProblemError,
    RateLimited,
    TransportError,
    not_json,
    problem_from_response,
)
from clients.sdk.sse import ServerEvent, parse_events

USER_AGENT = "dicehall-sdk/0.1"
NETWORK_ERRORS = (
    requests.ConnectionError,
    requests.Timeout,
    requests.exceptions.ChunkedEncodingError,
    requests.exceptions.RetryError,
)
"""Failures with no (complete) HTTP answer: refused, reset, timed out, cut mid-body."""
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
"""Answers after which a safe request is sent again (the server's Retry-After is waited)."""
SAFE_METHODS = frozenset({"GET", "HEAD"})
Json = dict[str, Any]
STREAM_READ = 65536
"""Bytes asked for per read of an event stream (a notice with its legal actions is kB)."""
EDITIONS: dict[tuple[str, int], Json] = {}
"""The editions :meth:`Client.edition` has read in this process, by (game, edition): an
edition's designed data never changes once published, so it is read once."""


def segment(value: str) -> str:
    """``value`` (a game, tournament or catalogue name the caller gave) as one path segment,
    percent-encoded whole: an id holding ``?`` or ``#`` (one pasted with the rest of an
    address) otherwise ended the path there, so ``abc?`` read ``/v1/games/abc``'s summary as
    its view or log (a traceback in ``dicehall verify``, an empty replay), and one holding
    ``/`` named another resource."""
    return quote(str(value), safe="")


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently safe requests are retried.

    ``attempts`` counts the first try; the first retry goes at once, retry ``i`` (1-based)
    after ``backoff * 2**(i-1)`` capped at ``max_backoff`` (urllib3's backoff), or after the
    server's ``Retry-After`` (capped at ``max_retry_after``, rounded up to whole seconds).
    """

    attempts: int = 4
    backoff: float = 0.2
    max_backoff: float = 3.0
    max_retry_after: float = 30.0

    def urllib3_retry(self) -> Retry:
        """The policy as urllib3's Retry, for keyed POSTs and GETs (the adapter sends every
        other request with :meth:`connect_only`)."""
        return Retry(
            total=self.attempts - 1,
            backoff_factor=self.backoff,
            backoff_max=self.max_backoff,
            status_forcelist=RETRY_STATUSES,
            allowed_methods=SAFE_METHODS | {"POST"},
            respect_retry_after_header=True,
            retry_after_max=math.ceil(self.max_retry_after),
            raise_on_status=False,
        )

    def connect_only(self) -> Retry:
        """Retries of a request that is not safe to repeat: only when it was never sent (the
        connection was refused), never after a reply or a drop."""
        return self.urllib3_retry().new(read=False, status=0, other=0, allowed_methods=SAFE_METHODS)

    def delay(self, attempt: int, error: Exception | None = None) -> float:
        """The wait before reopening a stream for the ``attempt``-th time (``_stream``)."""
        if isinstance(error, RateLimited) and error.retry_after is not None:
            return min(error.retry_after, self.max_retry_after)
        return min(self.backoff * 2 ** (attempt - 1), self.max_backoff)


def is_safe(request: requests.PreparedRequest) -> bool:
    """Whether sending ``request`` twice cannot do anything twice."""
    return request.method in SAFE_METHODS or "Idempotency-Key" in request.headers


class SafeRetryAdapter(HTTPAdapter):
    """requests' HTTPAdapter retrying with the policy's urllib3 Retry what is safe to repeat
    (:func:`is_safe`); anything else is retried only if it was never sent."""

    def __init__(self, policy: RetryPolicy) -> None:
        super().__init__(max_retries=policy.urllib3_retry())
        self.policy = policy
        self._once = HTTPAdapter(max_retries=policy.connect_only())

    def send(
        self,
        request: requests.PreparedRequest,
        stream: bool = False,
        timeout: Any = None,
        verify: bool | str = True,
        cert: Any = None,
        proxies: Mapping[str, str] | None = None,
    ) -> requests.Response:
        proxies = dict(proxies) if proxies is not None else None
        if not is_safe(request):
            return self._once.send(request, stream, timeout, verify, cert, proxies)
        retries: Retry = self.max_retries
        while True:
            response = super().send(request, stream, timeout, verify, cert, proxies)
            if stream:
                return response
            # urllib3 hands the body over unread: a body cut short is retried here, counted
            # and spaced by the same Retry.
            try:
                response.content  # noqa: B018
                return response
            except requests.exceptions.ChunkedEncodingError as cut:
                try:
                    retries = retries.increment(
                        request.method, request.url, error=ProtocolError(str(cut))
                    )
                except MaxRetryError:
                    raise cut from None
                retries.sleep()

    def close(self) -> None:
        super().close()
        self._once.close()


def if_match_header(version: int | str) -> str:
    """An ``If-Match`` value for ``version`` (an entity tag is a quoted string)."""
    text = str(version)
    return text if text.startswith(('"', "W/")) else f'"{text}"'


class Client:
    """A dicehall server at ``base_url``, seen with ``token`` (a seat or creator token; None
    is a spectator).

    Raises :class:`~clients.sdk.errors.ProblemError` subclasses for error answers and
    :class:`~clients.sdk.errors.TransportError` when the server cannot be reached.
    """

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        *,
        timeout: float = 10.0,
        retry: RetryPolicy | None = None,
        session: requests.Session | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.retry = retry or RetryPolicy()
        self.session = session or requests.Session()
        self.session.headers.setdefault("User-Agent", USER_AGENT)
        prefix = f"{self.base_url}/"
        mounted = self.session.adapters.get(prefix)
        if not (isinstance(mounted, SafeRetryAdapter) and mounted.policy == self.retry):
            self.session.mount(prefix, SafeRetryAdapter(self.retry))

    def with_token(self, token: str | None) -> Client:
        """The same server (and connection pool) seen with another token."""
        return Client(
            self.base_url, token, timeout=self.timeout, retry=self.retry, session=self.session
        )

    # --- plumbing ---------------------------------------------------------------------
    def _url(self, path: str) -> str:
        return f"{self.base_url}/v1{path}"

    def _headers(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        headers = {"Accept": "application/json, application/problem+json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        headers.update(extra or {})
        return headers

    def _send(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, Any] | None = None,
        json: Any = None,
        headers: Mapping[str, str] | None = None,
        timeout: float | None = None,
    ) -> requests.Response:
        """One request; error statuses become ProblemError, network failures TransportError."""
        url = self._url(path)
        try:
            response = self.session.request(
                method,
                url,
                params={k: v for k, v in (params or {}).items() if v is not None},
                json=json,
                headers=self._headers(headers),
                timeout=timeout or self.timeout,
            )
        except NETWORK_ERRORS as exc:
            raise TransportError(method, url, exc) from exc
        if response.status_code >= 400:
            raise problem_from_response(response)
        return response

    def request(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, Any] | None = None,
        json: Any = None,
        headers: Mapping[str, str] | None = None,
        timeout: float | None = None,
    ) -> requests.Response:
        """Send a request; the session's :class:`SafeRetryAdapter` retries it only when that
        is safe (GET, or an Idempotency-Key)."""
        return self._send(method, path, params=params, json=json, headers=headers, timeout=timeout)

    def _json(self, method: str, path: str, **kwargs: Any) -> Any:
        response = self.request(method, path, **kwargs)
        try:
            return response.json()
        except ValueError:
            raise not_json(response) from None

    # --- resources --------------------------------------------------------------------
    def health(self) -> Json:
        """``GET /v1/health``."""
        return self._json("GET", "/health")

    def live(self) -> Json:
        """``GET /v1/health/live``: the API process answers (Redis is not checked)."""
        return self._json("GET", "/health/live")

    def ready(self) -> Json:
        """``GET /v1/health/ready``: the API can serve games (Redis reachable and writable)."""
        return self._json("GET", "/health/ready")

    def catalogue(self) -> list[Json]:
        """Every game the server offers (name, title, seats, bots, options schema...)."""
        data = self._json("GET", "/catalogue")
        if isinstance(data, dict):
            data = data.get("games", data.get("items", []))
        return list(data)

    def game_info(self, name: str) -> Json:
        """One game of the catalogue."""
        return self._json("GET", f"/catalogue/{segment(name)}")

    def rules(self, name: str) -> str:
        """A game's rules page (markdown: rulings and designed data)."""
        response = self.request(
            "GET",
            f"/catalogue/{segment(name)}/rules",
            headers={"Accept": "text/markdown, application/problem+json"},
        )
        return response.text

    def edition(self, game: str, edition: int) -> Json:
        """A game's designed data in ``edition`` (Diceland's map layouts and boards, which its
        views name by edition), read once per process (:data:`EDITIONS`): an edition never
        changes once published."""
        key = (game, edition)
        found = EDITIONS.get(key)
        if found is None:
            path = f"/catalogue/{segment(game)}/editions/{edition}"
            found = EDITIONS[key] = self._json("GET", path)
        return found

    def games(self, limit: int = 20, offset: int = 0) -> list[Json]:
        """A page of game summaries, newest first."""
        return list(self._json("GET", "/games", params={"limit": limit, "offset": offset})["games"])

    def create_game(
        self,
        game: str,
        seats: Sequence[Mapping[str, Any]],
        options: Mapping[str, Any] | None = None,
        seed: str | None = None,
        decision_seconds: float | None = None,
        visibility: str | None = None,
    ) -> Json:
        """Create a game; the answer holds its ``id``, the ``creator_token`` and, for a
        private game (the default; ``visibility="public"`` lists it and lets anyone take its
        open seats), ``invites``: an invite token per open human seat.
        ``decision_seconds`` sets a deadline per decision (then a fallback move is played).

        Not retried: a lost answer could otherwise create two games.
        """
        body: Json = {
            "game": game,
            "seats": [dict(s) for s in seats],
            "options": dict(options or {}),
        }
        if seed is not None:
            body["seed"] = seed
        if decision_seconds is not None:
            body["decision_seconds"] = decision_seconds
        if visibility is not None:
            body["visibility"] = visibility
        return self._json("POST", "/games", json=body)

    def fork_game(
        self,
        game_id: str,
        version: int,
        seats: Sequence[Mapping[str, Any]],
        dice: str = "fresh",
        seed: str | None = None,
        decision_seconds: float | None = None,
        visibility: str | None = None,
    ) -> Json:
        """A new game from the finished game ``game_id`` after ``version`` moves, with
        ``seats`` (as many as it had); ``dice="original"`` keeps its dice from there on, else
        a fresh committed ``seed`` (random by default). The answer is like
        :meth:`create_game`'s (private by default, with ``invites``), with ``forked_from``.
        Not retried."""
        body: Json = {
            "fork": {"game": game_id, "version": version, "dice": dice},
            "seats": [dict(s) for s in seats],
        }
        if visibility is not None:
            body["visibility"] = visibility
        if seed is not None:
            body["seed"] = seed
        if decision_seconds is not None:
            body["decision_seconds"] = decision_seconds
        return self._json("POST", "/games", json=body)

    def verification(self, game_id: str) -> Json:
        """The service's audit of a finished game: ``ok`` and every check made."""
        return self._json("GET", f"/games/{segment(game_id)}/verification")

    def game(self, game_id: str) -> Json:
        """The game's summary: status, version, seats, to_act, result, commitment (seed
        once over)."""
        return self._json("GET", f"/games/{segment(game_id)}")

    def join(
        self, game_id: str, seat: int, name: str | None = None, invite: str | None = None
    ) -> Json:
        """Take a human seat; the answer holds the ``seat_token``. A private game's seat
        needs its ``invite`` token, or this client's token being the creator's."""
        body = {"name": name} if name is not None else {}
        headers = {"Authorization": f"Bearer {invite}"} if invite else None
        return self._json(
            "POST", f"/games/{segment(game_id)}/seats/{seat}/join", json=body, headers=headers
        )

    def cancel_game(self, game_id: str) -> None:
        """Cancel a game that has not started (this client's token must be the creator's)."""
        self.request("DELETE", f"/games/{segment(game_id)}")

    def remove_seat(self, game_id: str, seat: int) -> Json:
        """Remove a human seat nobody took from a waiting game (the creator's token); the
        game is dealt again for the seats left. Returns the new summary."""
        return self._json("DELETE", f"/games/{segment(game_id)}/seats/{seat}")

    def view(self, game_id: str, seat: int | None = None) -> Json:
        """The caller's view (``version``, ``seat``, ``status``, ``view``, ``to_act``,
        ``result``); with ``seat``, that seat's final view of a finished game."""
        params = {"seat": seat} if seat is not None else None
        return self._json("GET", f"/games/{segment(game_id)}/view", params=params)

    def legal_actions(self, game_id: str) -> Json:
        """The caller's legal actions: ``{"version", "seat", "actions": [{"action", "text"}]}``."""
        return self._json("GET", f"/games/{segment(game_id)}/legal-actions")

    def act(
        self,
        game_id: str,
        action: Mapping[str, Any],
        if_match: int | str | None = None,
        idempotency_key: str | None = None,
        minimal: bool = False,
    ) -> Json:
        """Post a move. A fresh ``Idempotency-Key`` (uuid4) is sent unless one is given and is
        reused on every retry, so a retried move is never applied twice. ``if_match`` (a
        version) makes the move conditional: a stale version raises StaleVersion. The answer
        holds the new ``version``, the caller's ``events`` and view, and ``actions``: the
        seat's legal actions if it owes its next decision at once (``[]`` otherwise).
        ``minimal`` asks for the answer without the view (``Prefer: return=minimal``:
        ``view`` is None, the rest as it was), for a caller that reads the view elsewhere or
        not at all; a retry gets the first answer in the form it was first given."""
        headers = {"Idempotency-Key": idempotency_key or str(uuid.uuid4())}
        if if_match is not None:
            headers["If-Match"] = if_match_header(if_match)
        if minimal:
            headers["Prefer"] = "return=minimal"
        return self._json(
            "POST",
            f"/games/{segment(game_id)}/actions",
            json={"action": dict(action)},
            headers=headers,
        )

    def log(self, game_id: str) -> Json:
        """The whole action log (``entries``; ``seed`` once the game is over), page by page."""
        log = self._json("GET", f"/games/{segment(game_id)}/log", params={"limit": 1000})
        while log.get("next") is not None:
            page = self._json(
                "GET",
                f"/games/{segment(game_id)}/log",
                params={"after": log["next"], "limit": 1000},
            )
            page["entries"] = log["entries"] + page["entries"]
            log = page
        return log

    def events(self, game_id: str, after: str | None = None, wait: float | None = None) -> Json:
        """Long-poll the events after ``after``: ``{"events": [...], "cursor": "..."}``."""
        timeout = self.timeout + (wait or 0)
        return self._json(
            "GET",
            f"/games/{segment(game_id)}/events",
            params={"after": after, "wait": wait},
            timeout=timeout,
        )

    def events_cursor(self, game_id: str) -> str:
        """The cursor after the game's newest event so far (to follow only what comes next)."""
        return self._skip_to_end(lambda after: self.events(game_id, after=after, wait=0))

    @staticmethod
    def _skip_to_end(read: Any) -> str:
        cursor: str | None = None
        while True:
            page = read(cursor)
            if not page.get("events"):
                return str(page.get("cursor", cursor or "0"))
            cursor = page["cursor"]

    def stream_events(
        self, game_id: str, last_event_id: str | None = None, read_timeout: float = 45.0
    ) -> Generator[ServerEvent, None, None]:
        """Follow the game's Server-Sent Events until the ``game_over`` event (or stop
        iterating earlier).

        A dropped stream is reopened from the last event seen (``Last-Event-ID``), with the
        same retry policy as other safe requests; the policy restarts after each event.
        """
        return self._stream(
            f"/games/{segment(game_id)}/events/stream",
            last_event_id,
            read_timeout,
            until="game_over",
        )

    def _stream(
        self, path: str, last_event_id: str | None, read_timeout: float, until: str | None
    ) -> Generator[ServerEvent, None, None]:
        last = last_event_id
        failures = 0
        while True:
            headers = {"Accept": "text/event-stream"}
            if last is not None:
                headers["Last-Event-ID"] = last
            url = self._url(path)
            try:
                response = self.session.get(
                    url,
                    headers={**self._headers(), **headers},
                    stream=True,
                    timeout=(self.timeout, read_timeout),
                )
                if response.status_code >= 400:
                    raise problem_from_response(response)
                with response:
                    # Large reads: a chunked answer yields each chunk (an event) as it comes,
                    # without waiting to fill the read; small ones only cost parsing time.
                    # text/event-stream; charset=utf-8: requests decodes every line to str.
                    lines = cast(
                        "Iterator[str]",
                        response.iter_lines(chunk_size=STREAM_READ, decode_unicode=True),
                    )
                    for event in parse_events(line or "" for line in lines):
                        failures = 0
                        if event.id is not None:
                            last = event.id
                        yield event
                        if until is not None and event.event == until:
                            return
            except NETWORK_ERRORS as exc:
                error: Exception = TransportError("GET", url, exc)
            except ProblemError as exc:
                if exc.status not in RETRY_STATUSES:
                    raise
                error = exc
            else:
                error = TransportError("GET", url, ConnectionError("stream closed"))
            failures += 1
            if failures >= self.retry.attempts:
                raise error
            time.sleep(self.retry.delay(failures, error))

    def picture_svg(
        self, game_id: str, player: int | None = None, version: int | None = None
    ) -> str:
        """The board as an SVG document (``player`` picks whose sheet, where that matters;
        ``version`` draws a finished game after that many moves)."""
        response = self.request(
            "GET",
            f"/games/{segment(game_id)}/picture.svg",
            params={"player": player, "version": version},
            headers={"Accept": "image/svg+xml, application/problem+json"},
        )
        return response.text

    # --- external bot accounts ----------------------------------------------------------
    def register_bot(self, name: str, owner: str) -> Json:
        """Register an external bot account; the answer holds its ``token`` (shown once).

        Not retried (a lost answer would leave an account whose token nobody has)."""
        return self._json("POST", "/bots", json={"name": name, "owner": owner})

    def bot_account(self) -> Json:
        """The account of this client's bot token."""
        return self._json("GET", "/bots/me")

    def bot_feed(
        self, after: str | None = None, wait: float | None = None, detail: str | None = None
    ) -> Json:
        """What the bot account owes now (``pending``) and its feed after a cursor; ``detail``
        (full, compact, none) trims the notices."""
        return self._json(
            "GET",
            "/bots/me/feed",
            params={"after": after, "wait": wait, "detail": detail},
            timeout=self.timeout + (wait or 0),
        )

    def bot_feed_cursor(self) -> str:
        """The cursor after the bot account's newest feed event so far."""
        return self._skip_to_end(lambda after: self.bot_feed(after=after, wait=0))

    def stream_bot_feed(
        self, last_event_id: str | None = None, read_timeout: float = 45.0, detail: str = "full"
    ) -> Generator[ServerEvent, None, None]:
        """Follow the bot account's feed as Server-Sent Events (first a ``pending`` event
        with what it owes now, then its feed); reconnects like :meth:`stream_events`.
        ``detail`` (full, compact, none) trims the notices. Never ends by itself: stop
        iterating to stop."""
        path = "/bots/me/feed/stream" + ("" if detail == "full" else f"?detail={detail}")
        return self._stream(path, last_event_id, read_timeout, until=None)

    # --- tournaments ----------------------------------------------------------------------
    def create_tournament(
        self,
        game: str,
        participants: Sequence[Mapping[str, Any]],
        games: int,
        **settings: Any,
    ) -> Json:
        """Start a tournament (``format``, ``seats_per_game``, ``seed``, ``options``,
        ``decision_seconds``, ``time_bank`` (``{"start", "increment"}``), ``concurrency`` as
        keywords). Not retried."""
        body: Json = {
            "game": game,
            "participants": [dict(p) for p in participants],
            "games": games,
            **{k: v for k, v in settings.items() if v is not None},
        }
        return self._json("POST", "/tournaments", json=body)

    def tournaments(self, limit: int = 20, offset: int = 0) -> list[Json]:
        """Tournaments, newest first."""
        query = {"limit": limit, "offset": offset}
        return list(self._json("GET", "/tournaments", params=query)["tournaments"])

    def tournament(self, tournament_id: str) -> Json:
        """A tournament's progress and standings (its seed once finished)."""
        return self._json("GET", f"/tournaments/{segment(tournament_id)}")

    def tournament_games(self, tournament_id: str) -> list[Json]:
        """The games a tournament has started so far (each replayable and verifiable)."""
        return list(self._json("GET", f"/tournaments/{segment(tournament_id)}/games")["games"])

    def tournament_chart_svg(self, tournament_id: str) -> str:
        """The ratings with their intervals, as SVG."""
        response = self.request(
            "GET",
            f"/tournaments/{segment(tournament_id)}/chart.svg",
            headers={"Accept": "image/svg+xml, application/problem+json"},
        )
        return response.text
