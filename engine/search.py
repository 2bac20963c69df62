"""Search bots: determinized Monte Carlo with common random numbers, shared by every game.

A search bot sees what every bot sees (its seat's view and legal actions); for lookahead it
also uses the game's ``sample`` (a full state consistent with the view, hidden parts drawn
at random) and the **fast path**: :meth:`Game.perform` (no ``check``) with :class:`FastDice`
(``random.Random`` draws, nothing recorded, not verifiable). Nothing it simulates ever
reaches a real game.

The method (one :class:`SearchBot`, tuned per game by a :class:`Lookahead`):

1. **Candidates**: the legal actions, or the few the game's lookahead keeps (ordered with
   its prior favourite first, which is also the answer when no simulation finishes).
2. **Worlds**: world ``w`` is a seed. For every candidate still in the race, the world's
   seed samples the hidden state, plays the candidate, and plays on with the game's rollout
   policy and the world's dice until the lookahead's horizon; the leaf value is the game's
   evaluation for the bot's seat. Every candidate meets the same sampled state, the same
   dice stream and the same policy randomness (common random numbers), so the differences
   between candidates are measured with far less noise than their values.
3. **Sequential halving**: after 4, 8, 16, ... worlds the worse half of the candidates (by
   mean over the same worlds) leaves the race, down to two; the favourite always stays.
4. **The favourite is the default**: the best mean wins only when it beats the favourite
   by more than two standard errors of their paired differences (over at least three
   worlds), so a short budget falls back to the heuristic instead of to noise.
5. **Budget**: a time budget per decision (``budget_ms``, checked after each simulation;
   a world left unfinished is not counted, so the comparison stays paired), or an
   iteration budget (``iterations`` simulations, checked after each world), which makes the
   bot reproducible: the world seeds come from the caller's ``rng``.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.contract import Action, Bot, Game, State, View
from engine.dice import Dice

DEFAULT_BUDGET_MS = 1000.0
"""A decision's time budget when neither ``budget_ms`` nor ``iterations`` is given."""
MAX_BUDGET_MS = 10_000.0
"""The largest time budget a seat may ask for."""
MAX_ITERATIONS = 10_000
"""The largest iteration budget a seat may ask for. At the slowest game's simulations
(Burgundy's with five seats, up to 12 ms each on the shared 2-core machine) it is two minutes
of a core; the service cuts a decision at a minute (``service.moves.THINKING_SECONDS``)."""
FIRST_CUT = 4
"""Worlds played before the first halving of the candidates."""
SWITCH_Z = 2.0
"""How many standard errors of the paired differences a challenger's mean must beat the
favourite's by (over the same worlds) before the search overrides the favourite."""
MIN_WORLDS = 3
"""Worlds needed before the search may override the favourite at all."""


def clearly_better(challenger: list[float], favourite: list[float], z: float = SWITCH_Z) -> bool:
    """Whether ``challenger`` beats ``favourite`` on the same worlds by more than
    :data:`SWITCH_Z` standard errors of the paired differences (a constant positive
    difference, as deterministic lookahead gives, always counts)."""
    n = len(favourite)
    if n < MIN_WORLDS:
        return False
    diffs = [c - f for c, f in zip(challenger, favourite, strict=True)]
    mean = statistics.fmean(diffs)
    return mean > 0 and mean > z * statistics.stdev(diffs) / math.sqrt(n)


class FastDice(Dice):
    """Dice for lookahead only: ``random.Random`` draws, no HMAC and no draw records.

    Same interface as :class:`Dice` (``randbelow``, ``roll``, ``face``, ``shuffle``), about
    ten times cheaper per draw; never used for a real game (its draws are not verifiable).
    """

    __slots__ = ("_rng",)

    def __init__(self, seed: int | str) -> None:
        super().__init__(str(seed))
        self._rng = random.Random(seed)

    def randbelow(self, n: int) -> int:
        self.counter += 1
        return self._rng.randrange(n)

    def take_draws(self) -> list[tuple[int, int, int]]:
        return []


STREAMS_KEPT = 512
"""Keyed dice streams kept for reuse (:class:`KeyedDice`). A stream is read again only by the
other candidates of its world (the world seeds are new in every decision), and a world's
rollouts meet some tens of moments, so a few hundred are plenty (each holds a generator,
about 2.5 kB)."""
Stream = tuple[str, random.Random, list[tuple[int, int]]]
"""A keyed stream: its seed, a generator seeded by it that has drawn the list's draws, and
those draws so far (the number of outcomes and the value of each)."""
_STREAMS: dict[str, Stream] = {}


def keyed_stream(seed: str) -> Stream:
    """The shared stream of ``seed`` (kept: every reader sees the same draws)."""
    found = _STREAMS.get(seed)
    if found is None:
        if len(_STREAMS) >= STREAMS_KEPT:
            _STREAMS.clear()
        found = _STREAMS[seed] = (seed, random.Random(seed), [])
    return found


class KeyedDice(FastDice):
    """Lookahead dice whose draws follow the game's moment, not the order of the draws.

    Each draw asks ``key()`` (the game's name for the chance event about to be drawn, read
    from the state being simulated, e.g. "turn 7, phase-1 throw 2"); whenever the key
    changes the stream restarts from ``world:key``. Two rollouts of one world that took
    different decisions then see the same throw at the same moment of the game even when
    one of them drew more dice before it (threw on where the other stopped, earned a
    treasure throw), which keeps their comparison paired (common random numbers) past the
    first difference. Reproducible: the streams are seeded by strings (SHA-512 in
    ``random``), not by ``hash``. A stream's draws are kept (:func:`keyed_stream`), so the
    other candidates of a world read them instead of seeding and drawing them again; the
    values are those of ``random.Random(world:key)`` drawing in order either way.
    """

    __slots__ = ("_at", "_key", "_moment", "_stream", "_world")

    def __init__(self, world: str, key: Any) -> None:
        super().__init__(world)
        self._world, self._key, self._moment = world, key, None
        self._stream: Stream | None = None
        self._at = 0

    def randbelow(self, n: int) -> int:
        moment = self._key()
        if moment != self._moment or self._stream is None:
            self._moment = moment
            self._stream = keyed_stream(f"{self._world}:{moment}")
            self._at = 0
        self.counter += 1
        seed, rng, drawn = self._stream
        at = self._at
        self._at = at + 1
        if at < len(drawn):
            outcomes, value = drawn[at]
            if outcomes == n:
                return value
            # another kind of draw than the stream's here: this reader goes on alone
            rng = random.Random(seed)
            for outcomes, _ in drawn[:at]:
                rng.randrange(outcomes)
            drawn = drawn[:at]
            self._stream = (seed, rng, drawn)
        value = rng.randrange(n)
        drawn.append((n, value))
        return value


def fast_step(game: Game, state: State, seat: int, action: Action, dice: Dice) -> None:
    """The fast path: apply an action known to be legal, without ``check`` (mutates state)."""
    game.perform(state, seat, action, dice)


class Lookahead:
    """What the search needs to know about one game; subclasses override the hooks.

    The defaults: every legal action is a candidate, the rollout policy is the game's
    ``heuristic`` bot (``random`` if none), rollouts run to the end of the game, and the
    leaf value is :meth:`outcome` (rank first, then score margin).
    """

    game: Game

    def __init__(self, game: Game) -> None:
        self.game = game
        factory = game.bots.get("heuristic") or game.bots["random"]
        self.rollout_bot = factory()

    def seat(self, view: View) -> int:
        """The seat a view belongs to."""
        you = view.get("you")
        return int(you) if you is not None else int(view["active"])

    width: int = 8
    """Most candidates the default :meth:`candidates` keeps."""
    switch_z: float = SWITCH_Z
    """See :func:`clearly_better` (0: the best mean wins)."""
    first_cut: int = FIRST_CUT
    """Worlds played before the first halving of the candidates."""

    def candidates(self, view: View, legal: list[Action], rng: random.Random) -> list[Action]:
        """The actions worth simulating, the favourite first (default: the rollout bot's
        choice, then up to ``width - 1`` others: all of them if few, else the
        :meth:`shortlist`'s first or a draw from ``rng``)."""
        favourite = self.rollout_bot.choose(view, legal, random.Random(rng.getrandbits(32)))
        others = [a for a in legal if a != favourite]
        if len(others) >= self.width:
            ranked = self.shortlist(view, others)
            others = rng.sample(others, self.width - 1) if ranked is None else ranked
        return [favourite, *others[: self.width - 1]]

    def shortlist(self, view: View, actions: list[Action]) -> list[Action] | None:
        """The actions worth simulating when there are too many, best first by the game's
        own cheap judgement (or None: draw ``width - 1`` of them at random, the default).
        A short list of good alternatives leaves the budget more worlds per candidate."""
        return None

    def policy(self, state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
        """The rollout move of ``seat`` (default: the rollout bot on the seat's view)."""
        if len(legal) == 1:
            return legal[0]
        return self.rollout_bot.choose(self.game.view(state, seat), legal, rng)

    def rollout_move(self, state: State, seat: int, rng: random.Random) -> tuple[int, Action]:
        """Who moves next in a rollout (``seat`` if it is among those to act, else the lowest
        seat that is) and the :meth:`policy`'s move for it. A game may answer this without
        listing the legal actions, if it gives the same seat and move."""
        prompts = self.game.to_act(state)
        actor = seat if seat in prompts else min(prompts)
        return actor, self.policy(state, actor, self.game.legal_actions(state, actor), rng)

    def copy(self, state: State) -> State | None:
        """A copy of a sampled state that a rollout may change without touching ``state``,
        or None (the default): each rollout samples its world again. A world's seed samples
        the same state for every candidate, so a copy is the same state, only cheaper."""
        return None

    def chance_key(self, state: State) -> Any:
        """The name of the chance event the state's next draw is for (see
        :class:`KeyedDice`), or None (the default): every world's rollouts share one
        stream of draws, in the order they are drawn."""
        return None

    def worlds(self, view: View) -> int | None:
        """Most worlds worth playing from ``view`` (default: no limit); 1 where nothing
        left before the horizon is chance (every world would play out the same)."""
        return None

    def begin(self, root: State, seat: int) -> Any:
        """Whatever :meth:`done` needs to remember about the root (default: nothing)."""
        return None

    def done(self, state: State, seat: int, mark: Any) -> bool:
        """Whether a rollout stops here before the game ends (default: never)."""
        return False

    def value(self, state: State, seat: int, mark: Any) -> float:
        """The leaf's worth for ``seat``, larger is better (default: :meth:`outcome`)."""
        return self.outcome(state, seat)

    def outcome(self, state: State, seat: int) -> float:
        """A finished game's worth: 1 for first place down to 0 for last, plus a small
        share of the score margin over the best other seat (solo: the score itself)."""
        result = self.game.result(state)
        if result is None:
            return 0.0
        seats = len(result.scores)
        if seats == 1:
            return float(result.scores[0])
        place = (seats - result.ranks[seat]) / (seats - 1)
        best_other = max(s for n, s in enumerate(result.scores) if n != seat)
        return place + 0.01 * (result.scores[seat] - best_other)


@dataclass
class Decision:
    """What one search found: the pick, the worlds played and the candidates' means."""

    action: Action
    worlds: int
    simulations: int
    means: list[tuple[Action, float]]


class SearchBot(Bot):
    """Determinized Monte Carlo over the legal actions (see the module docstring).

    ``budget_ms``: time per decision (default :data:`DEFAULT_BUDGET_MS` when ``iterations``
    is not given either); ``iterations``: simulations per decision (reproducible from the
    caller's ``rng``). Subclasses set ``lookahead`` (a :class:`Lookahead` factory).
    """

    name = "search"
    lookahead_class: ClassVar[type[Lookahead]] = Lookahead
    game_name: ClassVar[str] = ""

    def __init__(self, budget_ms: float | None = None, iterations: int | None = None) -> None:
        from engine.games import get_game

        if budget_ms is None and iterations is None:
            budget_ms = DEFAULT_BUDGET_MS
        self.budget_ms = budget_ms
        self.iterations = iterations
        self.look = self.lookahead_class(get_game(self.game_name))
        self.last: Decision | None = None

    def limit(self, seconds: float) -> None:
        """Think at most ``seconds`` (at least a millisecond) on each decision from now on:
        a longer time budget is cut to it, and an ``iterations`` budget gets it beside
        (whichever ends first), so that a seat with a deadline answers before it."""
        most = max(1.0, seconds * 1000)
        self.budget_ms = most if self.budget_ms is None else min(self.budget_ms, most)

    def choose(self, view: View, legal: list[Action], rng: Any) -> Action:
        self.last = None
        if len(legal) == 1:
            return legal[0]
        candidates = self.look.candidates(view, legal, rng)
        if len(candidates) == 1:
            return candidates[0]
        decision = self.search(view, candidates, rng)
        self.last = decision
        return decision.action

    def search(self, view: View, candidates: list[Action], rng: Any) -> Decision:
        """Play worlds until the budget is spent; the best mean among the survivors wins."""
        look = self.look
        seat = look.seat(view)
        base = rng.getrandbits(64)
        deadline = (
            time.perf_counter() + self.budget_ms / 1000 if self.budget_ms is not None else None
        )
        history: list[list[float]] = [[] for _ in candidates]
        alive = list(range(len(candidates)))
        worlds = simulations = 0
        cut = look.first_cut
        most = look.worlds(view)
        while True:
            world_seed = f"{base}:{worlds}"
            values: dict[int, float] = {}
            root: State | None = None  # the world's sampled state, kept unplayed
            for i in alive:
                state = look.copy(root) if root is not None else None
                if state is None:
                    state = self.sample(view, seat, world_seed)
                    root = look.copy(state)
                values[i] = self.simulate(view, seat, candidates[i], world_seed, state)
                simulations += 1
                if deadline is not None and time.perf_counter() > deadline:
                    break
            if len(values) == len(alive):
                for i, v in values.items():
                    history[i].append(v)
                worlds += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
            if self.iterations is not None and simulations >= self.iterations:
                break
            if most is not None and worlds >= most:
                break
            if worlds >= cut and len(alive) > 2:
                ranked = sorted(alive, key=lambda i: (-sum(history[i]), i))
                keep = ranked[: max(2, len(alive) // 2)]
                if 0 not in keep:
                    keep[-1] = 0  # the favourite stays to the end: it is the fallback
                alive = sorted(keep)
                cut *= 2
        if worlds == 0:
            return Decision(candidates[0], 0, simulations, [])
        best = max(alive, key=lambda i: (sum(history[i]), -i))
        if best != 0 and not clearly_better(history[best], history[0], look.switch_z):
            best = 0
        means = [(candidates[i], statistics.fmean(history[i])) for i in alive]
        return Decision(candidates[best], worlds, simulations, means)

    def sample(self, view: View, seat: int, world_seed: str) -> State:
        """The world's state: the view's hidden parts drawn from the world's seed."""
        return self.look.game.sample(view, seat, FastDice(world_seed + ":sample"))

    def simulate(
        self, view: View, seat: int, action: Action, world_seed: str, state: State | None = None
    ) -> float:
        """One rollout from the world's sampled ``state`` (sampled here if not given; the
        rollout changes it): play ``action``, play on to the horizon."""
        look, game = self.look, self.look.game
        if state is None:
            state = self.sample(view, seat, world_seed)
        mark = look.begin(state, seat)
        dice = (
            KeyedDice(world_seed, lambda: look.chance_key(state))
            if look.chance_key(state) is not None
            else FastDice(world_seed)
        )
        rng = random.Random(world_seed)
        fast_step(game, state, seat, action, dice)
        while not game.is_over(state) and not look.done(state, seat, mark):
            actor, move = look.rollout_move(state, seat, rng)
            fast_step(game, state, actor, move, dice)
        return look.value(state, seat, mark)


def bot_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The search options of a seat (``budget_ms``, ``iterations``), checked and bounded.

    Raises ValueError with a readable reason.
    """
    found: dict[str, Any] = {}
    for key, top, kind in (
        ("budget_ms", MAX_BUDGET_MS, (int, float)),
        ("iterations", MAX_ITERATIONS, (int,)),
    ):
        value = (options or {}).get(key)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, kind) or not 0 < value <= top:
            raise ValueError(f"{key} must be a number above 0 and at most {top:g}")
        found[key] = value
    return found


def lazy_bot(path: str) -> Any:
    """A bot factory for ``module:Class`` that imports the module on first use (a game's
    search module imports its rules, so its rules cannot import it at load time)."""
    module_name, _, class_name = path.partition(":")

    def make(**options: Any) -> Bot:
        import importlib

        return getattr(importlib.import_module(module_name), class_name)(**options)

    make.__doc__ = f"The search bot {path}."
    return make
