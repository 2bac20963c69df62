"""Paired matches with a sequential test (engine.match, behind ``dicehall match``)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from clients.cli.main import cli
from engine.games import get_game
from engine.match import (
    Sprt,
    elo_to_share,
    parse_bot,
    play_pair,
    run_match,
    seatings,
    share_to_elo,
)

KINGDICE = get_game("kingdice")


def test_heuristic_against_random_stops_early_with_h1():
    report = run_match(KINGDICE, "heuristic", "random", max_pairs=60, seed="m1")
    assert report.decision == "H1"
    assert len(report.pairs) < 60
    share, half = report.share()
    assert share - half > 0.5
    low = report.to_json()["margin_ci"][0]
    assert low > 0


def test_a_bot_against_itself_claims_no_difference():
    report = run_match(KINGDICE, "heuristic", "heuristic", max_pairs=12, seed="m2")
    assert report.decision != "H1"
    share, half = report.share()
    assert share - half <= 0.5 <= share + half


def test_a_bot_against_itself_accepts_h0_when_h1_is_a_large_gain():
    report = run_match(
        KINGDICE, "heuristic", "heuristic", sprt=Sprt(0, 200), max_pairs=60, seed="m3"
    )
    assert report.decision == "H0"
    assert report.llr <= report.sprt.lower


def test_a_pair_plays_the_same_deal_with_the_seats_rotated():
    bots = (parse_bot(KINGDICE, "heuristic")[1], parse_bot(KINGDICE, "random")[1])
    pair = play_pair(KINGDICE, bots, 2, KINGDICE.validate_options(2, {}), "deal")
    assert pair.games == 2 and 0.0 <= pair.share <= 1.0
    again = play_pair(KINGDICE, bots, 2, KINGDICE.validate_options(2, {}), "deal")
    assert again == pair


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_pair_plays_each_distinct_rotation_once_with_every_seat_held_by_both(seats):
    tables = seatings(seats)
    assert len({tuple(t) for t in tables}) == len(tables)  # no seating played twice
    assert len(tables) == (2 if seats % 2 == 0 else seats)
    for seat in range(seats):
        assert {t[seat] for t in tables} == {0, 1}


def test_solo_pairs_compare_the_measure_on_the_same_deal():
    game = get_game("carcassonne")
    bots = (parse_bot(game, "heuristic")[1], parse_bot(game, "heuristic")[1])
    pair = play_pair(game, bots, 1, {}, "solo-deal")
    assert pair.share == 0.5 and pair.margin == 0  # the same bot on the same dice


def test_sprt_bounds_and_llr_sign():
    sprt = Sprt(0, 10, 0.05, 0.05)
    assert sprt.lower == pytest.approx(-2.944, abs=1e-3)
    assert sprt.upper == pytest.approx(2.944, abs=1e-3)
    assert sprt.llr([0.8, 0.6, 0.7, 0.9]) > 0
    assert sprt.llr([0.4, 0.5, 0.3, 0.6]) < 0
    assert share_to_elo(elo_to_share(35.0)) == pytest.approx(35.0)


def test_bot_specs_name_bundled_bots_options_or_classes():
    label, make = parse_bot(KINGDICE, "search,iterations=3")
    assert label == "search,iterations=3"
    assert make().iterations == 3
    _, make = parse_bot(KINGDICE, "engine.kingdice.bots:HeuristicBot")
    assert make().name == "heuristic"
    for bad in ("nobody", "heuristic,budget_ms=5", "no.such.module:Bot", "search,iterations"):
        with pytest.raises(ValueError):
            parse_bot(KINGDICE, bad)


def test_dicehall_match_prints_the_decision_as_json():
    result = CliRunner().invoke(
        cli,
        ["match", "kingdice", "heuristic", "random", "--max-pairs", "40", "--json"],
        env={"COLUMNS": "200"},
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["decision"] == "H1" and data["pairs"] < 40
    assert data["games"] == 2 * data["pairs"]
    assert data["llr"] >= data["bounds"][1]


def test_dicehall_match_refuses_more_pairs_at_least_than_at_most_before_playing():
    # the SPRT was never consulted: it played every pair and called a match whose LLR had
    # passed a bound "inconclusive (maximum pairs reached)"
    args = ["match", "kingdice", "heuristic", "random", "--min-pairs", "5", "--max-pairs", "2"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert "min_pairs (5) is more than max_pairs (2)" in " ".join(result.output.split())
    with pytest.raises(ValueError, match="is more than max_pairs"):
        run_match(get_game("kingdice"), "heuristic", "random", max_pairs=2, min_pairs=5)


def test_dicehall_match_with_fewer_pairs_at_most_than_the_default_least_still_decides():
    # --min-pairs unset: at least 4 pairs, or --max-pairs if fewer (not a refusal)
    args = ["match", "kingdice", "heuristic", "random", "--max-pairs", "2", "--elo1", "600"]
    result = CliRunner().invoke(cli, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["pairs"] == 2 and data["decision"] == "H1"
    assert data["llr"] >= data["bounds"][1]


def test_dicehall_match_refuses_an_unknown_bot():
    result = CliRunner().invoke(cli, ["match", "kingdice", "heuristic", "nobody"])
    assert result.exit_code == 2 and "no bot 'nobody'" in result.output
