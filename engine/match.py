"""Telling two bots apart with few games: paired games on mirrored dice and a sequential test.

A **pair** is one deal (one dice seed) played once per rotation of the seats, so each bot
sits in every seat on the same dice and the luck of the deal cancels within the pair. Bot
A takes the even seats of the first rotation and B the odd ones (solo games: each bot plays
the deal alone). A game's **share** for A is the fraction of (A seat, B seat) meetings that
A won on rank (ties count half; solo: the better measure wins); a pair's share is the mean
over its games, between 0 and 1.

The **SPRT** (sequential probability ratio test, as fishtest and fastchess use it) tests
H0 "A is ``elo0`` stronger than B" against H1 "A is ``elo1`` stronger" after every pair,
with the generalised SPRT's normal approximation over pair shares::

    LLR = N (s1 - s0) (2 m - s0 - s1) / (2 v)

where ``m`` and ``v`` are the mean and variance of the N pair shares and ``s0``, ``s1`` the
expected shares at ``elo0``, ``elo1`` (logistic Elo). The match stops when the LLR leaves
``[log(beta / (1 - alpha)), log((1 - beta) / alpha)]`` (H0 or H1 accepted) or at the most
pairs allowed (inconclusive). Pairs correlate the two games of a deal, which the per-pair
variance accounts for (a pentanomial-style model, not a trinomial one over single games).
"""

from __future__ import annotations

import importlib
import math
import random
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.contract import Bot, Game, Result
from engine.simulate import play

PRIOR_VARIANCE = 0.25
"""The variance of the one pseudo-pair the SPRT's variance estimate starts from."""


SHARE_FLOOR = 1e-6
"""How close to 0 or 1 a share is taken when it is read as an Elo difference."""


def elo_to_share(elo: float) -> float:
    """The expected share of a player ``elo`` points stronger (logistic)."""
    return 1 / (1 + 10 ** (-elo / 400))


def share_to_elo(share: float) -> float:
    """The Elo difference that gives ``share`` (clamped away from 0 and 1)."""
    share = min(max(share, SHARE_FLOOR), 1 - SHARE_FLOOR)
    return -400 * math.log10(1 / share - 1)


MAX_ELO = round(share_to_elo(1), 1)
"""The largest Elo difference a share tells apart (2400.0): a hypothesis beyond it is one no
match can show (and far beyond, its expected share is not a float)."""


def parse_bot(game: Game, spec: str) -> tuple[str, Callable[[], Bot]]:
    """A bot factory from ``name`` (a bundled bot of ``game``), ``name,key=value,...``
    (bundled bot options, e.g. ``search,iterations=50``) or ``module:Class``.

    Raises ValueError with a readable reason.
    """
    head, *pairs = spec.split(",")
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"{pair!r} in {spec!r} is not key=value")
        options[key] = parse_value(raw)
    if ":" in head:
        module_name, _, attribute = head.partition(":")
        try:
            found = getattr(importlib.import_module(module_name), attribute)
        except (ImportError, AttributeError) as exc:
            raise ValueError(f"cannot load bot {head!r}: {exc}") from exc
        if not callable(getattr(found, "choose", None)):
            raise ValueError(f"{head!r} has no choose(view, legal, rng) method")
        return spec, lambda: found(**options)
    if head not in game.bots:
        known = ", ".join(sorted(game.bots))
        raise ValueError(f"{game.title} has no bot {head!r} ({known}, or module:Class)")
    factory = game.bots[head]
    try:
        factory(**options)
    except TypeError as exc:
        raise ValueError(f"bot {head!r} does not take {sorted(options)}: {exc}") from None
    return spec, lambda: factory(**options)


def parse_value(raw: str) -> Any:
    """A bot option value: an int, else a float, else the text."""
    for kind in (int, float):
        try:
            return kind(raw)
        except ValueError:
            pass
    return raw


def measure(result: Result, seat: int) -> float:
    """A seat's score in a result, larger is better (solo Carcassonne: fewer turns)."""
    turns = result.detail.get("solo_turns") if isinstance(result.detail, dict) else None
    return -float(turns) if turns is not None else float(result.scores[seat])


@dataclass
class Pair:
    """One deal played in every rotation: A's share (0-1) and A's score margin over B."""

    seed: str
    share: float
    margin: float
    games: int


Deal = Callable[[list[list[int]], str], list[Result]]
"""Plays one deal: the seatings (per seat 0 for A, 1 for B; solo ``[[0], [1]]``) on the
deal's ``seed``; returns a result per seating, in order. :func:`local_deal` plays bundled
and ``module:Class`` bots in this process; ``dicehall match --via`` plays through a service."""


def local_deal(
    game: Game, bots: tuple[Callable[[], Bot], Callable[[], Bot]], options: dict[str, Any]
) -> Deal:
    """A :data:`Deal` that plays ``bots`` in this process (their randomness seeded from the
    deal's seed and the seating's place)."""

    def deal(seatings: list[list[int]], seed: str) -> list[Result]:
        labels = ["a", "b"] if len(seatings[0]) == 1 else [str(n) for n in range(len(seatings))]
        return [
            play(
                game, [bots[o]() for o in owners], seed, options, bot_seed=f"{seed}:{label}"
            ).result
            for owners, label in zip(seatings, labels, strict=True)
        ]

    return deal


def seatings(seats: int) -> list[list[int]]:
    """A pair's games: who sits where (0: A, 1: B), the seats rotated (solo: each alone).

    Only distinct rotations are played: at 4 seats A-B-A-B rotated is itself every second
    turn, and a repeat is the same dice and seating again, which costs games and tells nothing.
    """
    if seats == 1:
        return [[0], [1]]
    base = [n % 2 for n in range(seats)]  # A takes the even seats of the first rotation
    rotations = [tuple(base[turn:] + base[:turn]) for turn in range(seats)]
    return [list(owners) for owners in dict.fromkeys(rotations)]


def score_pair(seed: str, tables: list[list[int]], results: list[Result]) -> Pair:
    """A's share and score margin over the games of one deal."""
    if len(tables[0]) == 1:
        ma, mb = measure(results[0], 0), measure(results[1], 0)
        return Pair(seed, 1.0 if ma > mb else 0.5 if ma == mb else 0.0, ma - mb, 2)
    shares, margins = [], []
    for owners, result in zip(tables, results, strict=True):
        ranks = result.ranks
        a_seats = [s for s, o in enumerate(owners) if o == 0]
        b_seats = [s for s, o in enumerate(owners) if o == 1]
        meetings = [
            1.0 if ranks[a] < ranks[b] else 0.5 if ranks[a] == ranks[b] else 0.0
            for a in a_seats
            for b in b_seats
        ]
        shares.append(statistics.fmean(meetings))
        margins.append(
            statistics.fmean(measure(result, s) for s in a_seats)
            - statistics.fmean(measure(result, s) for s in b_seats)
        )
    return Pair(seed, statistics.fmean(shares), statistics.fmean(margins), len(tables))


def play_pair(
    game: Game,
    bots: tuple[Callable[[], Bot], Callable[[], Bot]],
    seats: int,
    options: dict[str, Any],
    seed: str,
) -> Pair:
    """Play the deal ``seed`` once per rotation (solo: once per bot) and score it for A."""
    tables = seatings(seats)
    return score_pair(seed, tables, local_deal(game, bots, options)(tables, seed))


@dataclass
class Sprt:
    """The sequential test's hypotheses (Elo of A over B) and error rates."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, shares: list[float]) -> float:
        """The log-likelihood ratio of H1 over H0 after these pair shares.

        The variance carries a prior worth one pair of variance 1/4 (a pair won or lost
        outright against the mean of 1/2), so that a few identical pairs (every deal won
        by the same seat) do not read as a certainty.
        """
        if len(shares) < 2:
            return 0.0
        m = statistics.fmean(shares)
        n = len(shares)
        v = (sum((x - m) ** 2 for x in shares) + PRIOR_VARIANCE) / (n + 1)
        s0, s1 = elo_to_share(self.elo0), elo_to_share(self.elo1)
        return len(shares) * (s1 - s0) * (2 * m - s0 - s1) / (2 * v)

    def decide(self, llr: float) -> str | None:
        """``"H1"`` (A is at least ``elo1`` stronger), ``"H0"`` (at most ``elo0``) or None."""
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None


@dataclass
class MatchReport:
    """A finished match: the pairs, the LLR and the decision (None: the maximum was hit)."""

    a: str
    b: str
    sprt: Sprt
    pairs: list[Pair] = field(default_factory=list)
    llr: float = 0.0
    decision: str | None = None

    def share(self) -> tuple[float, float]:
        """A's mean pair share and the half-width of its 95% confidence interval."""
        return _mean_ci([p.share for p in self.pairs])

    def margin(self) -> tuple[float, float]:
        """A's mean score margin over B per pair and its 95% confidence half-width."""
        return _mean_ci([p.margin for p in self.pairs])

    def elo(self) -> tuple[float, float, float]:
        """The Elo estimate of A over B with its 95% interval (from the pair shares)."""
        m, half = self.share()
        return share_to_elo(m), share_to_elo(m - half), share_to_elo(m + half)

    def to_json(self) -> dict[str, Any]:
        share, share_half = self.share()
        margin, margin_half = self.margin()
        elo, low, high = self.elo()
        return {
            "a": self.a,
            "b": self.b,
            "pairs": len(self.pairs),
            "games": sum(p.games for p in self.pairs),
            "share": share,
            "share_ci": [share - share_half, share + share_half],
            "margin": margin,
            "margin_ci": [margin - margin_half, margin + margin_half],
            "elo": elo,
            "elo_ci": [low, high],
            "llr": self.llr,
            "bounds": [self.sprt.lower, self.sprt.upper],
            "hypotheses": {"elo0": self.sprt.elo0, "elo1": self.sprt.elo1},
            "decision": self.decision,
        }


def _mean_ci(values: list[float]) -> tuple[float, float]:
    if not values:
        return 0.0, math.inf
    if len(values) < 2:
        return values[0], math.inf
    return statistics.fmean(values), 1.96 * statistics.stdev(values) / math.sqrt(len(values))


MIN_PAIRS = 4
"""Pairs a match plays before its SPRT may stop it (unless it may play fewer)."""


def run_match(
    game: Game,
    a: str,
    b: str,
    seats: int = 2,
    options: dict[str, Any] | None = None,
    sprt: Sprt | None = None,
    max_pairs: int = 200,
    min_pairs: int | None = None,
    seed: str = "match",
    on_pair: Callable[[MatchReport], None] | None = None,
    deal: Deal | None = None,
) -> MatchReport:
    """Play pairs until the SPRT decides (not before ``min_pairs``, by default
    :data:`MIN_PAIRS` or ``max_pairs`` if fewer) or ``max_pairs``.

    ``a`` and ``b`` are bot specs (see :func:`parse_bot`), played in this process unless
    ``deal`` plays them elsewhere. Raises ValueError for a bad spec, seat count or options,
    or ``min_pairs`` above ``max_pairs`` (the test would never be consulted).
    """
    if min_pairs is None:
        min_pairs = min(MIN_PAIRS, max_pairs)
    elif min_pairs > max_pairs:
        raise ValueError(f"min_pairs ({min_pairs}) is more than max_pairs ({max_pairs})")
    sprt = sprt or Sprt()
    try:
        opts = game.validate_options(seats, options or {})
    except Exception as exc:  # InvalidOptions
        raise ValueError(str(exc)) from None
    if deal is None:
        deal = local_deal(game, (parse_bot(game, a)[1], parse_bot(game, b)[1]), opts)
    report = MatchReport(a, b, sprt)
    rng = random.Random(seed)
    tables = seatings(seats)
    for _ in range(max_pairs):
        deal_seed = f"{seed}-{rng.getrandbits(48):012x}"
        report.pairs.append(score_pair(deal_seed, tables, deal(tables, deal_seed)))
        report.llr = sprt.llr([p.share for p in report.pairs])
        if len(report.pairs) >= min_pairs:
            report.decision = sprt.decide(report.llr)
        if on_pair is not None:
            on_pair(report)
        if report.decision is not None:
            break
    return report
