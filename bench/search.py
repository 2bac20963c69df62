"""Search bots: engine speed for lookahead, solo targets and mirrored tournaments.

    python bench/search.py speed [--seconds 3]
    python bench/search.py solo --game carcassonne --games 200 [--iterations 200 | --budget-ms 100]
        [--log FILE]
    python bench/search.py summary --game carcassonne --log FILE [--iterations 200]
    python bench/search.py tournament --game kingdice --seats 2 --rounds 40 [--iterations 48]
    python bench/search.py tournaments [--only burgundy,kingdice] [--seat-counts 2,3,4]
        [--rounds 10] [--max-rounds 400] [--cpu-minutes 20] [--iterations N] [--json FILE]
    ... tournament(s) [--jobs 2] [--games-log FILE]

``speed``: steps per second per game on the checked path (``apply`` with verifiable ``Dice``,
what the service does), on the fast path (``perform`` with ``FastDice``, what search does)
with random moves, and heuristic-guided on the fast path (the heuristic choosing from each
view, what a search rollout costs); the checked path is the baseline measured in the same run.

``solo``: the search bot and the heuristic on the same seeds (Carcassonne: turns to 42;
Burgundy duchy A solo: points), means with 95% confidence intervals and the paired
difference. ``tournament``: search, heuristic and random (a second random for 4 seats) in a
mirrored tournament (each deal played with the seats rotated), rated in schedule order with
openskill Plackett-Luce as the service rates bundled bots (no drift: ``service.rating``;
``mu +- 2 sigma``, ordinal ``mu - 3 sigma``),
with each bot's decision CPU time (p50, p95) and the share of their games in which search
placed above the heuristic (per deal, with its 95% CI). ``tournaments``: that for every
game with 2, 3 and 4 seats (a seat count a game refuses is skipped with the reason), at
least ``--rounds`` deals each, then more while search > heuristic > random is not strictly
separated and the tournament's share of ``--cpu-minutes`` (and of ``--wall-minutes``, on a
busy machine) is not spent (``--play-on``: not stopping once separated, so a tournament
played over sittings is not cut at a lucky moment); the search plays
:data:`TOURNAMENT_ITERATIONS` simulations a decision (reproducible) unless told.

``--jobs N`` plays N games of a tournament at once in worker processes; their results are
still rated in schedule order, so the figures are those of one process. ``--games-log
FILE`` appends every game (seating, ranks, decision times, CPU) and reads back the games
of the same tournament (game, seats, iterations) already in it instead of playing them: a
run stopped by its budget or by Ctrl-C resumes where it stopped, and a fixed-length
tournament too long for one sitting is played over several (the log is only valid for the
bots' code that wrote it). The CPU budget counts the games' CPU in whichever process.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

# the repository first: a bench measures its own checkout's engine, not an installed one
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from bench.cluster import machine_line, machine_state, percentile
from engine.contract import Bot, Game
from engine.dice import Dice
from engine.games import LISTED, get_game
from engine.search import FastDice, fast_step
from engine.simulate import play
from service.rating import Ratings
from service.tournaments import Participant, Tournament, schedule
from tests.engine.burgundy_reference import ReferenceHeuristic

SOLO = {
    "carcassonne": ({}, lambda result: result.detail["solo_turns"], "turns to 42"),
    "burgundy": ({"variant": "solo", "duchy": "A"}, lambda result: result.scores[0], "points"),
}
SPEED_SEATS = {"burgundy": 2, "carcassonne": 2, "diceland": 2, "kingdice": 2}


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% confidence interval (normal approximation)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.inf
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def with_ci(values: Sequence[float], signed: bool = False) -> str:
    """The mean of ``values`` with its 95% CI, as the benches print it (``signed``: a
    difference, with its sign)."""
    mean, half = mean_ci(values)
    if signed:
        return f"{mean:+.2f} (95% CI {mean - half:+.2f} to {mean + half:+.2f})"
    return f"{mean:.2f} (95% CI {mean - half:.2f}-{mean + half:.2f})"


# --- speed ------------------------------------------------------------------------------
def steps_per_second(game: Game, mode: str, seconds: float, heuristic: Bot | None = None) -> float:
    """Steps/s over seeded games for one mode: checked, fast or guided (see module doc)."""
    seats = SPEED_SEATS[game.name]
    heuristic = heuristic or game.bots["heuristic"]()
    rng = random.Random(0)
    steps, n = 0, 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        seed = f"speed-{n}"
        n += 1
        dice: Dice = Dice(seed) if mode == "checked" else FastDice(seed)
        state = game.setup(seats, game.validate_options(seats, {}), dice)
        while not game.is_over(state) and time.process_time() - start < seconds:
            seat = min(game.to_act(state))
            legal = game.legal_actions(state, seat)
            if mode == "guided" and legal[0]["type"] == "pick_castle":
                action = legal[0]  # the reference heuristic covers round decisions only
            elif mode == "guided":
                action = heuristic.choose(game.view(state, seat), legal, rng)
            else:
                action = rng.choice(legal)
            if mode == "checked":
                game.apply(state, seat, action, dice)
            else:
                fast_step(game, state, seat, action, dice)
            steps += 1
    return steps / (time.process_time() - start)


def speed(console: Console, seconds: float) -> None:
    table = Table(title=f"engine steps per CPU second ({seconds:g} s a cell, 2 seats)")
    for column in ("game", "checked (apply, Dice)", "fast (perform, FastDice)", "x", "guided"):
        table.add_column(column, justify="right")
    for name in LISTED:
        game = get_game(name)
        checked = steps_per_second(game, "checked", seconds)
        fast = steps_per_second(game, "fast", seconds)
        guided = steps_per_second(game, "guided", seconds)
        table.add_row(
            name, f"{checked:,.0f}", f"{fast:,.0f}", f"{fast / checked:.1f}", f"{guided:,.0f}"
        )
    console.print(table)
    console.print("baseline: the checked path, measured in the same run")
    burgundy_heuristic(console, seconds)


def recorded_decisions(game: Game, count: int) -> list[tuple[Any, list[Any]]]:
    """Round decisions (view, legal actions) of seeded Burgundy games of 1 to 4 seats."""
    heuristic = game.bots["heuristic"]()
    found: list[tuple[Any, list[Any]]] = []
    n = 0
    while len(found) < count:
        seats = 1 + n % 4
        options = {"variant": "solo"} if seats == 1 else {}
        dice = Dice(f"evaluation-{n}")
        n += 1
        state = game.setup(seats, game.validate_options(seats, options), dice)
        while game.result(state) is None:
            seat = min(game.to_act(state))
            view, legal = game.view(state, seat), game.legal_actions(state, seat)
            if legal[0]["type"] != "pick_castle":
                found.append((view, legal))
            game.apply(state, seat, heuristic.choose(view, legal, random.Random(n)), dice)
    return found[:count]


def decisions_per_second(bot: Bot, decisions: list[tuple[Any, list[Any]]], seconds: float) -> float:
    """How many of ``decisions`` ``bot`` makes per CPU second (cycling through them)."""
    done = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for view, legal in decisions:
            bot.choose(view, legal, random.Random(done))
            done += 1
    return done / (time.process_time() - start)


def burgundy_heuristic(console: Console, seconds: float) -> None:
    """The Burgundy heuristic against the reference (its first, whole-sheet version)."""
    game = get_game("burgundy")
    decisions = recorded_decisions(game, 600)
    table = Table(title="Burgundy heuristic: fast evaluation against the reference")
    for column in ("measure", "reference", "fast", "x"):
        table.add_column(column, justify="right")
    for measure, rate in (
        (
            "decisions/s (600 recorded, 1-4 seats)",
            lambda b: decisions_per_second(b, decisions, seconds),
        ),
        (
            "guided steps/s (2 seats, fast path)",
            lambda b: steps_per_second(game, "guided", seconds, b),
        ),
    ):
        reference, fast = rate(ReferenceHeuristic()), rate(game.bots["heuristic"]())
        table.add_row(measure, f"{reference:,.0f}", f"{fast:,.0f}", f"{fast / reference:.1f}")
    console.print(table)


# --- solo -------------------------------------------------------------------------------
def search_bot(game: Game, args: argparse.Namespace) -> Bot:
    make: Any = game.bots["search"]  # a search factory takes its budget
    if getattr(args, "bot", None):
        module, _, name = args.bot.partition(":")
        make = getattr(importlib.import_module(module), name)
    if args.iterations:
        return make(iterations=args.iterations)
    return make(budget_ms=args.budget_ms)


def solo(console: Console, args: argparse.Namespace) -> None:
    game = get_game(args.game)
    options, measure, unit = SOLO[args.game]
    found: dict[str, list[float]] = {"heuristic": [], "search": []}
    times: list[float] = []
    with Progress(console=console) as progress:
        task = progress.add_task(f"{args.game} solo", total=args.games)
        for n in range(args.first, args.first + args.games):
            seed = f"solo-{n}"
            heuristic = play(game, [game.bots["heuristic"]()], seed, options, bot_seed=n)
            found["heuristic"].append(measure(heuristic.result))
            start = time.process_time()
            searched = play(game, [search_bot(game, args)], seed, options, bot_seed=n)
            times.append((time.process_time() - start) / max(1, len(searched.moves)))
            found["search"].append(measure(searched.result))
            if args.log:
                with open(args.log, "a") as log:
                    row = {"seed": seed, "heuristic": found["heuristic"][-1]}
                    log.write(json.dumps({**row, "search": found["search"][-1]}) + "\n")
            progress.advance(task)
    report_solo(console, args, found, times, unit)


def report_solo(
    console: Console,
    args: argparse.Namespace,
    found: dict[str, list[float]],
    times: list[float],
    unit: str,
) -> None:
    """The solo table: each bot's mean with its 95% CI, and the paired difference."""
    games = len(found["search"])
    table = Table(title=f"{args.game} solo, {games} seeds, {unit} ({budget_text(args)})")
    for column in ("bot", "mean", "95% CI", "median"):
        table.add_column(column, justify="right")
    for name, values in found.items():
        mean, half = mean_ci(values)
        table.add_row(
            name,
            f"{mean:.2f}",
            f"{mean - half:.2f}-{mean + half:.2f}",
            f"{statistics.median(values):g}",
        )
    console.print(table)
    diff = [s - h for s, h in zip(found["search"], found["heuristic"], strict=True)]
    better = sum(1 for d in diff if (d < 0 if args.game == "carcassonne" else d > 0))
    worse = sum(1 for d in diff if (d > 0 if args.game == "carcassonne" else d < 0))
    console.print(
        f"search - heuristic: {with_ci(diff, signed=True)}; "
        f"search better on {better} seeds, worse on {worse}"
        + (f"; {statistics.fmean(times) * 1000:.0f} ms CPU per step" if times else "")
    )


def summary(console: Console, args: argparse.Namespace) -> None:
    """The solo table from a ``--log`` file (a run stopped early, or runs combined)."""
    found: dict[str, list[float]] = {"heuristic": [], "search": []}
    with open(args.log) as log:
        rows = {row["seed"]: row for row in map(json.loads, log)}
    for row in rows.values():
        for name in found:
            found[name].append(row[name])
    report_solo(console, args, found, [], SOLO[args.game][2])


def budget_text(args: argparse.Namespace) -> str:
    if args.iterations:
        return f"search: {args.iterations} simulations a decision"
    return f"search: {args.budget_ms:g} ms a decision"


# --- tournament ---------------------------------------------------------------------------
TOURNAMENT_ITERATIONS = {"burgundy": 32, "carcassonne": 32, "diceland": 200, "kingdice": 40}
"""The search's iteration budget per game in ``tournaments``: at least enough to play every
candidate in four worlds (Burgundy keeps 8 candidates, Carcassonne up to 6 placements and
the other steps), so the search can override its favourite (three worlds at least); fewer
iterations play the heuristic's choice. King of the Dice short-lists 6 candidates, so its 40
play the two finalists in about ten worlds. Diceland's (fitted leaf) gains from more worlds:
200 placed above the heuristic in 0.24 more of their games than 40 on the same deals
(engine/diceland/RULES.md, Bots), at about 0.2 s of CPU a decision."""


def entrants(seats: int) -> list[str]:
    """Search, heuristic and random; a second random fills a fourth seat."""
    return ["search", "heuristic", "random"] + (["random-b"] if seats == 4 else [])


class TimedBot(Bot):
    """Any bot, with the CPU time of each of its decisions recorded."""

    def __init__(self, bot: Bot, times: list[float]) -> None:
        self.bot, self.times = bot, times

    def choose(self, view: Any, legal: list[Any], rng: Any) -> Any:
        start = time.process_time()
        action = self.bot.choose(view, legal, rng)
        self.times.append(time.process_time() - start)
        return action


GameResult = tuple[list[int], list[int], list[list[float]], float]
"""One tournament game: its seating (entrant per seat), ranks, each seat's decision CPU
times and the game's CPU seconds."""


def play_game(job: tuple[str, int, list[str], list[int], str, int]) -> GameResult:
    """Play one tournament game (``job``: game, search iterations, entrant names, seating,
    deal seed, bot seed); a function of its arguments alone, so it runs in any process."""
    name, iterations, names, seating, seed, bot_seed = job
    game = get_game(name)
    times: list[list[float]] = [[] for _ in seating]
    bots: list[Bot] = []
    for seat, p in enumerate(seating):
        kind = names[p].split("-")[0]
        made = (
            game.bots["search"](iterations=iterations)  # type: ignore[call-arg]
            if kind == "search"
            else game.bots[kind]()
        )
        bots.append(TimedBot(made, times[seat]))
    start = time.process_time()
    ranks = play(game, bots, seed, {}, bot_seed=bot_seed).result.ranks
    return seating, list(ranks), times, time.process_time() - start


class GameSource:
    """A tournament's games in schedule order: read back from a games log where it has
    them (the games are seeded and the search runs on an iteration budget, so a logged
    game is the game that would be played), else played, by ``jobs`` processes at once
    (results still taken in order) and appended to the log."""

    def __init__(
        self,
        run: RatedRun,
        plan: list[tuple[list[int], str]],
        jobs: int = 1,
        log: str | None = None,
    ) -> None:
        self.run, self.plan, self.jobs, self.log = run, plan, jobs, log
        self.logged: dict[int, GameResult] = {}
        if log and os.path.exists(log):
            with open(log) as lines:
                for line in lines:
                    row = json.loads(line)
                    if row["tournament"] == run.key():
                        self.logged[row["index"]] = (
                            row["seating"],
                            row["ranks"],
                            row["times"],
                            row["cpu"],
                        )
        self.index = 0
        self.cpu = 0.0
        """CPU seconds of the games played here (not read back), in whichever process."""
        self.pool: Any = None
        self.pending: Any = None

    def jobs_from(self, start: int) -> list[tuple[str, int, list[str], list[int], str, int]]:
        """The games still to play from ``start`` on, up to the first one logged."""
        stop = start
        while stop < len(self.plan) and stop not in self.logged:
            stop += 1
        run = self.run
        return [
            (run.game.name, run.iterations, run.names, self.plan[i][0], self.plan[i][1], i)
            for i in range(start, stop)
        ]

    def next(self) -> GameResult:
        """The next game of the schedule."""
        i = self.index
        self.index += 1
        if i in self.logged:
            return self.logged[i]
        if self.jobs <= 1:
            found = play_game(self.jobs_from(i)[0])
        else:
            if self.pending is None:
                import multiprocessing

                self.pool = self.pool or multiprocessing.get_context("spawn").Pool(self.jobs)
                self.pending = self.pool.imap(play_game, self.jobs_from(i))
            try:
                found = next(self.pending)
            except StopIteration:  # pragma: no cover - the plan and the jobs agree
                raise RuntimeError("the schedule ran out") from None
            if self.index in self.logged or self.index >= len(self.plan):
                self.pending = None
        self.cpu += found[3]
        if self.log:
            with open(self.log, "a") as out:
                seating, ranks, times, cpu = found
                row = {"tournament": self.run.key(), "index": i, "seating": seating}
                out.write(json.dumps(row | {"ranks": ranks, "times": times, "cpu": cpu}) + "\n")
        return found

    def close(self) -> None:
        """Stop the worker processes (games they were playing ahead are dropped)."""
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()
            self.pool = None


class RatedRun:
    """A mirrored tournament played in-process and rated as the service rates it:
    openskill Plackett-Luce over the games in schedule order, without drift as for any
    tournament of bundled bots (``service.rating``), interval ``mu +- 2 sigma``, ordinal
    ``mu - 3 sigma``. Also kept: each entrant's decision CPU times and, per deal, the share
    of its games in which search placed above the heuristic (ties count half)."""

    def __init__(self, game: Game, seats: int, iterations: int) -> None:
        self.game, self.seats, self.iterations = game, seats, iterations
        self.names = entrants(seats)
        self.ratings = Ratings(self.names, self.definition(1).fixed_programs())
        self.wins = [0] * len(self.names)
        self.played = [0] * len(self.names)
        self.times: list[list[float]] = [[] for _ in self.names]
        self.head_to_head: list[float] = []
        self.games = 0

    def plan(self, rounds: int) -> list[tuple[list[int], str]]:
        """The service's schedule for ``rounds`` deals (a longer plan extends a shorter)."""
        return schedule(self.definition(rounds))

    def definition(self, rounds: int) -> Tournament:
        """The service's tournament of these bundled bots with ``rounds`` deals."""
        return Tournament(
            id="bench",
            game=self.game.name,
            options={},
            participants=[Participant(name, bot=name.split("-")[0]) for name in self.names],
            games=rounds * self.seats,
            format="mirrored",
            seats_per_game=self.seats,
            seed=f"bench-{self.game.name}-{self.seats}",
            decision_seconds=None,
            concurrency=1,
            created_at=0.0,
        )

    def key(self) -> str:
        """What a games log's lines of this tournament are filed under."""
        return f"{self.game.name}/{self.seats}/{self.iterations}"

    def play_round(self, games: GameSource) -> None:
        """Take the next deal's games (every rotation of its seats) and rate them in order."""
        deal: list[float] = []
        for _ in range(self.seats):
            seating, ranks, times, _ = games.next()
            self.games += 1
            self.ratings.rate(seating, ranks)
            for seat, p in enumerate(seating):
                self.played[p] += 1
                self.wins[p] += ranks[seat] == 1
                self.times[p].extend(times[seat])
            if 0 in seating and 1 in seating:
                mine, theirs = ranks[seating.index(0)], ranks[seating.index(1)]
                deal.append(1.0 if mine < theirs else 0.5 if mine == theirs else 0.0)
        if deal:
            self.head_to_head.append(statistics.fmean(deal))

    def interval(self, p: int) -> tuple[float, float]:
        return self.ratings.interval(p)

    def separated(self) -> tuple[bool, bool]:
        """Whether search's interval lies above the heuristic's, and the heuristic's above
        every random's."""
        randoms = range(2, len(self.names))
        return (
            self.interval(0)[0] > self.interval(1)[1],
            all(self.interval(1)[0] > self.interval(p)[1] for p in randoms),
        )

    def figures(self) -> dict[str, Any]:
        """Everything the report needs, as plain data (also written with ``--json``)."""
        rows = []
        for p, name in enumerate(self.names):
            r = self.ratings[p]
            rows.append(
                {
                    "bot": name,
                    "mu": r.mu,
                    "sigma": r.sigma,
                    "interval": self.interval(p),
                    "ordinal": r.ordinal(),
                    "games": self.played[p],
                    "wins": self.wins[p],
                    "decision_ms_p50": percentile(self.times[p], 50) * 1000,
                    "decision_ms_p95": percentile(self.times[p], 95) * 1000,
                }
            )
        above, below = self.separated()
        share, half = mean_ci(self.head_to_head) if self.head_to_head else (math.nan, math.nan)
        return {
            "game": self.game.name,
            "seats": self.seats,
            "iterations": self.iterations,
            "games": self.games,
            "deals": self.games // self.seats,
            "rows": rows,
            "search_above_heuristic": above,
            "heuristic_above_random": below,
            "head_to_head": [share, half, len(self.head_to_head)],
        }


def tournament_table(figures: dict[str, Any]) -> Table:
    """One tournament's standings, best ordinal first."""
    table = Table(
        title=f"{figures['game']}, {figures['seats']} seats, mirrored, {figures['games']} games"
        f" ({figures['deals']} deals; search: {figures['iterations']} simulations a decision)"
    )
    for column in ("bot", "mu", "sigma", "mu +- 2 sigma", "ordinal", "games", "wins"):
        table.add_column(column, justify="right")
    table.add_column("decision p50 / p95 ms (CPU)", justify="right")
    for row in sorted(figures["rows"], key=lambda row: -row["ordinal"]):
        low, high = row["interval"]
        table.add_row(
            row["bot"],
            f"{row['mu']:.1f}",
            f"{row['sigma']:.2f}",
            f"{low:.1f}-{high:.1f}",
            f"{row['ordinal']:.1f}",
            str(row["games"]),
            str(row["wins"]),
            f"{row['decision_ms_p50']:.1f} / {row['decision_ms_p95']:.1f}",
        )
    return table


def separation_line(figures: dict[str, Any]) -> str:
    share, half, deals = figures["head_to_head"]
    return (
        f"intervals strictly separated: search > heuristic {figures['search_above_heuristic']}, "
        f"heuristic > random {figures['heuristic_above_random']}; search placed above the "
        f"heuristic in {share:.0%} of their games (95% CI {share - half:.0%}-{share + half:.0%},"
        f" over {deals} deals)"
    )


def tournament(console: Console, args: argparse.Namespace) -> None:
    """One game, one seat count, ``--rounds`` deals."""
    game = get_game(args.game)
    run = RatedRun(game, args.seats, args.iterations or TOURNAMENT_ITERATIONS[game.name])
    games = GameSource(run, run.plan(args.rounds), args.jobs, args.games_log)
    try:
        with Progress(console=console) as progress:
            task = progress.add_task(f"{args.game} {args.seats} seats", total=len(games.plan))
            for _ in range(args.rounds):
                run.play_round(games)
                progress.update(task, completed=run.games)
    finally:
        games.close()
    figures = run.figures()
    console.print(tournament_table(figures))
    console.print(separation_line(figures))


def seat_problem(game: Game, seats: int) -> str | None:
    """Why ``game`` cannot be played by ``seats`` with its default options, or None."""
    if not game.min_seats <= seats <= game.max_seats:
        return f"{game.name} seats {game.min_seats} to {game.max_seats}, not {seats}"
    try:
        game.validate_options(seats, {})
    except Exception as problem:  # the reason is printed, whatever it is
        return f"{game.name} refuses {seats} seats: {problem}"
    return None


def tournaments(console: Console, args: argparse.Namespace) -> None:
    """Every game (``--only``) with 2, 3 and 4 seats: at least ``--rounds`` deals each, then
    more deals while the order is not separated and the tournament's share of the CPU and
    wall-clock budgets (what is left over the tournaments still to play) is not spent."""
    machine = machine_state()
    games = args.only.split(",") if args.only else list(LISTED)
    todo: list[tuple[Game, int]] = []
    for name in games:
        game = get_game(name)
        for seats in map(int, args.seat_counts.split(",")):
            problem = seat_problem(game, seats)
            if problem:
                console.print(f"skipped: {problem}")
            else:
                todo.append((game, seats))
    budget, wall = args.cpu_minutes * 60, args.wall_minutes * 60
    used, clock = 0.0, time.monotonic()  # CPU seconds of the games played, in any process
    done: list[dict[str, Any]] = []
    with Progress(console=console) as progress:
        overall = progress.add_task("CPU budget (s)", total=budget)
        for n, (game, seats) in enumerate(todo):
            share = (budget - used) / (len(todo) - n)
            wall_share = (wall - (time.monotonic() - clock)) / (len(todo) - n)
            run = RatedRun(game, seats, args.iterations or TOURNAMENT_ITERATIONS[game.name])
            games = GameSource(run, run.plan(args.max_rounds), args.jobs, args.games_log)
            task = progress.add_task(f"{game.name} {seats} seats (deals)", total=args.rounds)
            started = time.monotonic()
            try:
                while run.games < len(games.plan):
                    run.play_round(games)
                    spent = games.cpu
                    progress.update(task, completed=run.games // seats)
                    progress.update(overall, completed=used + spent)
                    late = time.monotonic() - started > wall_share
                    decided = all(run.separated()) and not args.play_on
                    if run.games // seats >= args.rounds and (decided or spent > share or late):
                        break
            except KeyboardInterrupt:  # Ctrl-C: report the deals played so far, then stop
                stopped = True
            else:
                stopped = False
            finally:
                games.close()
            used += games.cpu
            progress.remove_task(task)
            if run.games:
                figures = run.figures() | {"cpu_seconds": games.cpu, "jobs": args.jobs}
                done.append(figures | {"interrupted": stopped})
                console.print(tournament_table(figures))
                console.print(separation_line(figures) + (" (interrupted)" if stopped else ""))
                if args.json:
                    with open(args.json, "a") as out:
                        out.write(json.dumps(figures | {"machine": machine}) + "\n")
            if stopped:
                break
    summary_of_tournaments(console, done)
    machine["load_after"] = os.getloadavg()
    console.print(f"CPU {used / 60:.1f} min (games); " + machine_line(machine))


def summary_of_tournaments(console: Console, done: list[dict[str, Any]]) -> None:
    table = Table(title="mirrored tournaments: is search > heuristic > random separated?")
    for column in ("game", "seats", "games", "search", "heuristic", "random", "s > h", "h > r"):
        table.add_column(column, justify="right")
    table.add_column("search above heuristic (95% CI)", justify="right")
    for figures in done:
        rows = {row["bot"]: row for row in figures["rows"]}
        cells = [
            "{:.1f} ({:.1f}-{:.1f})".format(rows[bot]["mu"], *rows[bot]["interval"])
            for bot in ("search", "heuristic", "random")
        ]
        share, half, _ = figures["head_to_head"]
        table.add_row(
            figures["game"],
            str(figures["seats"]),
            str(figures["games"]),
            *cells,
            "yes" if figures["search_above_heuristic"] else "no",
            "yes" if figures["heuristic_above_random"] else "no",
            f"{share:.0%} ({share - half:.0%}-{share + half:.0%})",
        )
    console.print(table)


def main(argv: Sequence[str] | None = None) -> Any:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("what", choices=["speed", "solo", "summary", "tournament", "tournaments"])
    parser.add_argument("--game", default="carcassonne", choices=LISTED)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="first seed number (solo)")
    parser.add_argument("--rounds", type=int, default=40, help="deals (tournament)")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=0)
    parser.add_argument("--budget-ms", type=float, default=1000.0)
    parser.add_argument("--seconds", type=float, default=3.0, help="per cell (speed)")
    parser.add_argument(
        "--bot", help="solo: this search (module:Class) in the catalogue search's place"
    )
    parser.add_argument("--log", help="append each solo seed's figures to this file (JSON lines)")
    parser.add_argument("--only", help="tournaments: these games (comma-separated)")
    parser.add_argument("--seat-counts", default="2,3,4", help="tournaments: these seat counts")
    parser.add_argument(
        "--max-rounds", type=int, default=400, help="tournaments: most deals of one"
    )
    parser.add_argument(
        "--cpu-minutes", type=float, default=20.0, help="tournaments: CPU budget of the run"
    )
    parser.add_argument(
        "--wall-minutes", type=float, default=60.0, help="tournaments: wall-clock budget"
    )
    parser.add_argument("--json", help="tournaments: append each one's figures (JSON lines)")
    parser.add_argument(
        "--play-on",
        action="store_true",
        help="tournaments: do not stop when separated, only at --max-rounds or a budget"
        " (a tournament played over sittings, its length not chosen by its own result)",
    )
    parser.add_argument(
        "--jobs", type=int, default=1, help="tournament(s): games played at once (processes)"
    )
    parser.add_argument(
        "--games-log",
        help="tournament(s): every game's result (JSON lines); games already in it are read"
        " back instead of played, so a stopped run resumes and runs of one schedule add up",
    )
    args = parser.parse_args(argv)
    console = Console()
    if args.what == "speed":
        speed(console, args.seconds)
    elif args.what == "solo":
        solo(console, args)
    elif args.what == "summary":
        summary(console, args)
    elif args.what == "tournament":
        tournament(console, args)
    else:
        tournaments(console, args)


if __name__ == "__main__":
    main()
