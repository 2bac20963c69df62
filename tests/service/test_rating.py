"""Tournament ratings: bundled bots (fixed programs) are rated without drift, so their
intervals narrow with every game; a tournament with an external account keeps the drift."""

from __future__ import annotations

import itertools

from engine.games import get_game
from engine.simulate import play
from service.rating import Ratings
from service.tournaments import Participant, Tournament, schedule


def tournament(*participants: Participant, games: int = 2) -> Tournament:
    return Tournament(
        id="t",
        game="kingdice",
        options={},
        participants=list(participants),
        games=games,
        format="mirrored",
        seats_per_game=2,
        seed="rating",
        decision_seconds=None,
        concurrency=1,
        created_at=0.0,
    )


def test_only_a_tournament_of_bundled_bots_rates_fixed_programs():
    bots = tournament(Participant("h", bot="heuristic"), Participant("r", bot="random"))
    mixed = tournament(Participant("h", bot="heuristic"), Participant("x", account="acct"))
    assert bots.fixed_programs()
    assert not mixed.fixed_programs()


def alternating(ratings: Ratings, games: int) -> list[float]:
    """Two entrants who win in turn; the first one's sigma after each game."""
    sigmas = []
    for n in range(games):
        ratings.rate([0, 1], [1, 2] if n % 2 == 0 else [2, 1])
        sigmas.append(ratings[0].sigma)
    return sigmas


def test_fixed_programs_sigma_shrinks_with_every_game_like_a_standard_error():
    sigmas = alternating(Ratings(["a", "b"], fixed_programs=True), 600)
    assert all(later < earlier for earlier, later in itertools.pairwise(sigmas))
    assert sigmas[599] / sigmas[299] < 0.75, "twice the games: about 1/sqrt(2) of the sigma"
    assert sigmas[-1] < 0.55


def test_with_an_external_account_the_drift_keeps_sigma_from_settling():
    sigmas = alternating(Ratings(["a", "b"], fixed_programs=False), 600)
    assert sigmas[599] / sigmas[299] > 0.9, "twice the games: hardly narrower"
    assert sigmas[-1] > 1.4


def test_intervals_separate_the_heuristic_from_random_in_a_few_real_games():
    game = get_game("kingdice")
    t = tournament(
        Participant("heuristic", bot="heuristic"), Participant("random", bot="random"), games=16
    )
    ratings = Ratings([p.name for p in t.participants], t.fixed_programs())
    kinds = ["heuristic", "random"]
    for n, (seating, seed) in enumerate(schedule(t)):
        bots = [game.bots[kinds[p]]() for p in seating]
        ratings.rate(seating, play(game, bots, seed, {}, bot_seed=n).result.ranks)
    assert ratings.interval(0)[0] > ratings.interval(1)[1]
