"""The house-data benches still run: Diceland's fairness and map tuning, Burgundy's duchies.

Each runs with a handful of games and prints its table; no figure is asserted beyond the
table's shape (the figures come from running the benches by hand, RULES.md pages).
"""

from __future__ import annotations

import itertools
import json
import math
import re
from math import inf
from pathlib import Path

from bench.diceland_race import (
    Distribution,
    candidate_maps,
    four_seat_share,
    heads_up_rate,
    race,
)
from bench.diceland_sides import game_value, pairings
from bench.diceland_tune import inside_with, strengths
from engine.diceland import GAME
from engine.diceland.maps import MAP_DATA as GAME_MAPS
from engine.diceland.maps import MAP_NAMES
from engine.simulate import make_bots, play
from tests.bench.runs import run_bench

ROOT = Path(__file__).resolve().parents[2]


def test_diceland_fairness_prints_shares_with_intervals_heads_up_pairs_and_the_structure():
    out = run_bench(
        "diceland_fairness.py",
        "--deals",
        "2",
        "--pairs",
        "2",
        "--bots",
        "random",
        "--seat-games",
        "4",
        "--bottlenecks",
        "2",
        "--against",
        "1",
    )
    assert "link cost" in out and "placements" in out
    assert "random: 16 four-seat games (2 balanced deals), share per map with 95 % CI" in out
    assert re.search(r"A 0\.\d{3}±0\.\d{3}", out), out
    assert "heads-up, 4 games a pair (mirrored)" in out
    assert "pairs within 45-55 %:" in out and "of 28" in out
    assert "what the losing seats lacked (2 four-seat games)" in out
    assert re.search(r"^    A: \d+ / \d+ / \d+ / \d+$", out, re.M), out
    assert "random: paired with edition 1 (same deals and seeds)" in out
    assert re.search(r"^    A 0\.\d{3}->0\.\d{3} \([+-]0\.\d{3}±0\.\d{3}\)$", out, re.M), out
    assert re.search(r"edition 1: outside 0\.25±0\.04: .* within 45-55 %: \d+ of 28", out), out


def test_diceland_fairness_pairs_heads_up_games_alone_with_no_four_seat_deals():
    """``--deals 0``: only heads-up games, both editions' pairs reported in full."""
    out = run_bench(
        "diceland_fairness.py",
        *("--deals", "0", "--pairs", "1", "--bots", "random", "--seat-games", "1"),
        *("--against", "2"),
    )
    assert "four-seat games" not in out
    assert "random: paired with edition 2 (same deals and seeds):" in out
    assert re.search(r"^  edition 2: heads-up pairs within 45-55 %: \d+ of 28$", out, re.M), out
    assert "random, edition 2: heads-up, 2 games a pair (mirrored)" in out


def test_diceland_fairness_plays_four_seat_deals_alone_with_no_pairs(tmp_path):
    """``--pairs 0``: only four-seat deals, saved (an edition's shares on the deals a candidate
    is judged on, read back after the run)."""
    saved = tmp_path / "run.json"
    out = run_bench(
        "diceland_fairness.py",
        *("--deals", "1", "--pairs", "0", "--bots", "random", "--seat-games", "1"),
        *("--save", str(saved)),
    )
    assert "random: 8 four-seat games (1 balanced deals)" in out
    assert "heads-up" not in out
    units = json.loads(saved.read_text())["random"]
    assert all(len(units["four_seat"][m]) == 1 for m in MAP_NAMES)


def test_diceland_paired_pairs_saved_runs_unit_for_unit_without_playing(tmp_path):
    """``diceland_paired.py OLD... --new NEW``: an edition's four-seat and heads-up units saved
    in two runs pair with a candidate's run of the same deals and seeds (here the same maps, so
    every paired difference is nought and the counts agree), as ``--against`` prints them."""
    four, heads = tmp_path / "four.json", tmp_path / "heads.json"
    common = ("--bots", "random", "--seat-games", "1", "--first-deals", "0", "--first-pairs", "0")
    run_bench("diceland_fairness.py", "--deals", "1", "--pairs", "0", *common, "--save", str(four))
    run_bench("diceland_fairness.py", "--deals", "0", "--pairs", "1", *common, "--save", str(heads))
    both = tmp_path / "both.json"
    run_bench("diceland_fairness.py", "--deals", "1", "--pairs", "1", *common, "--save", str(both))
    out = run_bench("diceland_paired.py", str(four), str(heads), "--new", str(both))
    edition = json.loads(both.read_text())["edition"]
    assert f"random: paired with edition {edition} (same deals and seeds), four-seat share" in out
    assert re.search(r"^    A (0\.\d{3})->\1 \(\+0\.000±0\.000\)$", out, re.M), out
    counts = re.findall(r"heads-up pairs within 45-55 %: (\d+) of 28", out)
    assert len(counts) == 2 and counts[0] == counts[1], out
    assert "random, now: heads-up, 2 games a pair (mirrored)" in out
    alone = run_bench("diceland_paired.py", str(heads), "--new", str(heads))
    assert "four-seat" not in alone and f"random, edition {edition}: heads-up" in alone


def test_diceland_sides_reads_a_saved_run_and_pairs_maps_as_boards(tmp_path):
    """``--save`` keeps every unit; ``diceland_sides.py`` reads them back: each pair with its
    interval, and the best pairing of the maps as boards' sides both ways of picking a side."""
    saved = tmp_path / "run.json"
    run_bench(
        "diceland_fairness.py",
        *("--deals", "0", "--pairs", "2", "--bots", "random", "--seat-games", "1"),
        *("--save", str(saved)),
    )
    units = json.loads(saved.read_text())["random"]["heads_up"]
    assert len(units) == 28 and all(len(v) == 2 for v in units.values())
    out = run_bench("diceland_sides.py", str(saved))
    assert "random: edition " in out and "4 games a pair (mirrored seeds)" in out
    assert re.search(r"^    A-B 0\.\d{3}±0\.\d{3}\**$", out, re.M), out
    assert re.search(r"inside 45-55 %: \d+ of 28; CI wholly outside: \d+", out), out
    assert re.search(r"best boards, sides at random: (\w/\w ){3}\w/\w; worst board pair", out)
    assert "best boards, each picks the best side:" in out


def test_diceland_fairness_reuses_a_saved_runs_units_of_the_pairs_it_would_play_alike(tmp_path):
    """``--reuse``: a game is fixed by its maps and its seed (two runs save the same units),
    so a run takes the saved units of every pair whose maps are unchanged (all 28 here)."""
    runs = [tmp_path / f"run{n}.json" for n in range(3)]
    args = ("--deals", "0", "--pairs", "2", "--bots", "random", "--seat-games", "1")
    played = run_bench("diceland_fairness.py", *args, "--save", str(runs[0]))
    run_bench("diceland_fairness.py", *args, "--save", str(runs[1]))
    out = run_bench("diceland_fairness.py", *args, "--reuse", str(runs[0]), "--save", str(runs[2]))
    assert "pairs' heads-up units from" not in played
    assert f"random: 28 pairs' heads-up units from {runs[0]}" in out
    saved = [json.loads(run.read_text()) for run in runs]
    assert saved[0] == saved[1] == saved[2]


def test_a_board_side_chosen_well_is_worth_the_two_by_two_games_value():
    assert game_value([[0.6, 0.7], [0.4, 0.5]]) == 0.6  # a saddle point: the first side
    assert abs(game_value([[1.0, 0.0], [0.0, 1.0]]) - 0.5) < 1e-12  # matching pennies
    assert len(list(pairings("ABCDEFGH"))) == 105


def test_diceland_tune_plays_candidates_against_the_field_and_names_the_edits():
    out = run_bench("diceland_tune.py", "--maps", "E", "--candidates", "1", "--stages", "1:2:1")
    assert re.search(
        r"round 0 E: baseline 4s-h 0\.\d+ 4s-r 0\.\d+ hu-h 0\.\d+ hu-r 0\.\d+ \(1/2 units\) "
        r"obj \d+\.\d+; best .* -> (new edit|kept) \(\d+ edits, link \d+, grain \d\.\d\d\)",
        out,
    ), out
    assert re.search(r"^E: edits=\(", out, re.M), out


def test_diceland_tune_measures_named_candidates_against_the_maps_as_they_are(tmp_path):
    spec = tmp_path / "candidates.json"
    spec.write_text('{"G far": ["G", [["treasure", [7, 3], [-4, 9]]]]}')
    out = run_bench("diceland_tune.py", "--measure", str(spec), "--units", "1", "--tag", "t")
    assert "1 four-seat units a layout and bot" in out
    assert re.search(
        r"^  G now: link \d+; heuristic 0\.\d{3} \(\+0\.000±0\.000\); random", out, re.M
    )
    assert re.search(r"^  G far: link \d+; heuristic 0\.\d{3} \([+-]0\.\d{3}±0\.\d{3}\)", out, re.M)


def test_diceland_tune_measures_named_candidates_heads_up_paired_with_a_saved_run(tmp_path):
    """``--heads-up SAVED``: the candidate's map against the other seven on the saved run's
    seeds, its paired difference, and the pairs a strength model predicts inside."""
    saved, spec = tmp_path / "run.json", tmp_path / "candidates.json"
    run_bench(
        "diceland_fairness.py",
        *("--deals", "0", "--pairs", "2", "--seat-games", "1", "--save", str(saved)),
    )
    spec.write_text('{"D out": ["D", [["treasure", [6, 0], [7, 0]]]]}')
    out = run_bench(
        "diceland_tune.py", "--measure", str(spec), "--heads-up", str(saved), "--seeds", "2"
    )
    assert "2 mirrored seeds a pair (28 games a candidate and bot; seeds 0-1)" in out
    assert re.search(r"^  random: saved run inside \d+ of 28; strengths A [+-]0\.\d\d ", out, re.M)
    assert re.search(
        r"^    D out \(D\): 0\.\d{3} -> 0\.\d{3} \([+-]0\.\d{3}±0\.\d{3}\); strength "
        r"[+-]\d\.\d\d -> [+-]\d\.\d\d; predicted inside \d+ of 28; against all 2 saved seeds "
        r"[+-]0\.\d{3}$",
        out,
        re.M,
    ), out


def test_diceland_tune_screens_every_edit_of_a_map_on_fresh_seeds_and_keeps_the_best(tmp_path):
    """``--options MAP``: every single edit the map allows (here its recolourings), heads-up
    on the saved run's seeds from ``--first-seed``, ranked by the pairs predicted inside, the
    best written out."""
    saved, kept = tmp_path / "run.json", tmp_path / "kept.json"
    run_bench(
        "diceland_fairness.py",
        *("--deals", "0", "--pairs", "3", "--seat-games", "1", "--save", str(saved)),
    )
    out = run_bench(
        "diceland_tune.py",
        *("--options", "D", "--kinds", "colour", "--heads-up", str(saved)),
        *("--seeds", "1", "--first-seed", "2"),
        *("--keep", "2", "--write", str(kept)),
    )
    assert "1 mirrored seeds a pair (14 games a candidate and bot; seeds 2-2)" in out
    assert re.search(r"^best 2 by pairs predicted inside \(heuristic \+ random\):$", out, re.M)
    assert re.search(
        r"^  D-colour-[-\d,]+-[-\d,]+: heuristic [+-]0\.\d{3} -> \d+; random ",
        out,
        re.M,
    ), out
    best = json.loads(kept.read_text())
    assert len(best) == 2 and all(m == "D" and len(edits) == 1 for m, edits in best.values())


def test_a_strength_model_fitted_to_rates_predicts_them():
    """``rate(A v B) = logistic(sA - sB)``: rates made from strengths give them back."""
    truth = dict(zip(MAP_NAMES, (0.3, -0.2, 0.1, 0.0, -0.4, 0.25, -0.05, 0.0), strict=True))
    rates = {
        (a, b): 1 / (1 + math.exp(truth[b] - truth[a]))
        for a in MAP_NAMES
        for b in MAP_NAMES
        if a != b
    }
    fitted = strengths(rates)
    assert all(abs(fitted[m] - truth[m]) < 1e-6 for m in MAP_NAMES), fitted
    assert inside_with(rates, {}) == sum(
        abs(rates[(a, b)] - 0.5) <= 0.05 for a, b in itertools.combinations(MAP_NAMES, 2)
    )
    assert inside_with(rates, {m: -v for m, v in truth.items()}) == 28


def test_diceland_race_is_the_game_up_to_its_first_winner():
    """Played past its winners, a race's first finishers are exactly the game's winners."""
    for seed in ("race-a", "race-b", "race-c"):
        for bot in ("random", "heuristic"):
            maps = ["A", "G", "E", "D"]
            times = race(maps, bot, seed)
            played = play(GAME, make_bots(GAME, [bot] * 4), seed, {"maps": maps}, strict=False)
            first = min(times)
            assert [s for s, t in enumerate(times) if t == first] == played.result.winners
            assert sum(t < inf for t in times) >= 2, "the race goes on past the first winner"


def test_diceland_race_shares_split_ties_and_sum_to_one():
    early, late, tied = Distribution([10.0] * 4), Distribution([20.0] * 4), Distribution([10.0])
    assert four_seat_share([10.0], [late, late, late]) == 1.0
    assert four_seat_share([20.0], [early, late, late]) == 0.0
    assert four_seat_share([10.0], [tied, late, late]) == 0.5
    assert heads_up_rate([inf], late) == 0.0
    times = {m: [float(t) for t in range(k, 40 + k, 3)] for k, m in enumerate("ABCDE")}
    dists = {m: Distribution(t) for m, t in times.items()}
    shares = [four_seat_share(times[m], [dists[o] for o in times if o != m]) for m in times]
    assert abs(sum(shares) - len(times) / 4) < 1e-9, "every draw of four has one win to share"
    assert shares == sorted(shares, reverse=True), "the earlier map wins more"


def test_diceland_race_predicts_shares_and_climbs_a_map(tmp_path):
    save = tmp_path / "edits.json"
    out = run_bench(
        "diceland_race.py",
        "--games",
        "2",
        "--heads-up",
        "2",
        "--search",
        "D",
        "--steps",
        "1",
        "--screen",
        "1",
        "--confirm",
        "2",
        "--save",
        str(save),
        "--mixed",
        "1",
    )
    assert re.search(r"^edition \d random \(2 races a map, 8 times\): A 0\.\d{3} ", out, re.M), out
    assert re.search(r"heads-up: \d+ of 28 pairs within 45-55 %", out), out
    assert re.search(r"^edition \d mixed heuristic \(1 races a map, 1 times\): A ", out, re.M)
    assert re.search(r"^  D step 1: \('(treasure|hex)', ", out, re.M), out
    assert "D" in json.loads(save.read_text())


def test_diceland_race_races_a_candidates_edits_in_place_of_the_current_maps(tmp_path):
    spec = tmp_path / "far.json"
    spec.write_text('{"G far": ["G", [["treasure", [7, 3], [-4, 9]]]]}')
    changed = candidate_maps(spec)
    assert set(changed) == {"G"}
    treasures = {tuple(h) for t in changed["G"]["territories"] for h in t["treasures"]}
    assert (-4, 9) in treasures and (7, 3) not in treasures
    assert changed["G"]["territories"] != GAME_MAPS["G"]["territories"]
    out = run_bench("diceland_race.py", "--games", "0", "--mixed", "1", "--candidate", str(spec))
    assert re.search(r"^edition \d \+ far mixed random \(1 races a map, 1 times\): A ", out, re.M)


def test_burgundy_duchies_prints_every_duchy_against_duchy_a():
    out = run_bench("burgundy_duchies.py", "--games", "3")
    lines = [line for line in out.splitlines() if line[:1] in "ABCD"]
    assert [line[0] for line in lines] == ["A", "B", "C", "D"]
    assert all("vs A" in line for line in lines)


def test_diceland_boards_plays_the_four_boards_with_sides_picked_and_saves_every_unit(tmp_path):
    """``diceland_boards.py``: the real games of the current edition, each seat picking its
    board's side: four-seat shares per board, the six board pairs, each side's share when
    picked, the seat-effect baseline of the same run and the worst pair against the maps
    dealt singly (a saved run, not played)."""
    singles = tmp_path / "singles.json"
    run_bench(
        "diceland_fairness.py", "--deals", "0", "--pairs", "1", "--bots", "random",
        "--seat-games", "1", "--save", str(singles),
    )  # fmt: skip
    saved = tmp_path / "boards.json"
    out = run_bench(
        "diceland_boards.py", "--seeds", "2", "--pairs", "1", "--seat-games", "2",
        "--first-seeds", "1", "--first-pairs", "1", "--bots", "random",
        "--singles", str(singles), "--save", str(saved),
    )  # fmt: skip
    assert "edition 7, boards A/C B/H D/E F/G" in out
    assert "random, all: 8 four-seat games, 2 games a board pair" in out
    assert re.search(r"four seats: A/C 0\.\d{3}±0\.\d{3}", out), out
    assert re.search(r"inside 45-55 %: \d of 6; worst off 0\.\d{3}", out), out
    assert "each side when picked" in out and "baseline (same run)" in out
    assert re.search(r"worst map pair dealt singly \(saved\) 0\.\d{3}: ratio", out), out
    data = json.loads(saved.read_text())
    assert data["boards"] == ["A/C", "B/H", "D/E", "F/G"] and data["maps_sha256"]
    assert len(data["random"]["four_seat"]["A/C"]) == 2 and len(data["random"]["heads_up"]) == 6


def test_diceland_side_table_plays_every_side_forced_and_finds_each_deals_equilibrium(tmp_path):
    """``diceland_side_table.py``: every set of boards, side combination and rotation at 2, 3
    and 4 seats on one dice seed; each board's paired side advantage, each deal's equilibrium
    and the shares at random, by the better side and by the equilibrium; the run saved with
    the maps it measured, read again by ``--load``, and the equilibria written."""
    table, saved = tmp_path / "table.json", tmp_path / "run.json"
    out = run_bench("diceland_side_table.py", "--seeds", "1", "--save", str(saved))
    assert re.search(r"4 seats, 1 seeds:\n  side advantage .*A/C -?0\.\d{3}±0\.\d{3}", out), out
    assert re.search(r"A/C B/H D/E F/G: equilibrium \w+ \w+ \w+ \w+ \(", out), out
    for label in ("at random", "better side", "by the equilibrium"):
        assert re.search(label + r" \d\.\d{3}±", out), (label, out)
    data = json.loads(saved.read_text())
    assert data["boards"] == ["A/C", "B/H", "D/E", "F/G"] and data["maps_sha256"]
    assert len(data["runs"]["3"][0]) == 4 and len(data["runs"]["2"][0]["A/C B/H"]) == 4
    again = run_bench("diceland_side_table.py", "--load", str(saved), "--table", str(table))
    assert again.splitlines()[1:-1] == out.splitlines()[1:-1]
    made = json.loads(table.read_text())["sides"]
    assert all(set(c) <= set(b.split("/")) for d in made["4"].values() for b, c in d.items())


def test_diceland_side_screen_pairs_each_edit_with_its_side_as_it_is(tmp_path):
    """``diceland_side_screen.py``: a candidate edit of one map, its side forced in four-seat
    and heads-up games on the seeds of the map as it is, both paired; the map as it is shifts
    by nothing, the board by half the side; every unit saved."""
    spec, saved = tmp_path / "cands.json", tmp_path / "units.json"
    spec.write_text(json.dumps({"B-y": ["B", [["treasure", [0, 3], [5, 7]]]]}))
    out = run_bench(
        "diceland_side_screen.py", str(spec), "--seeds", "2", "--heads-up", "1",
        "--bots", "random", "--chunk", "1", "--save", str(saved),
    )  # fmt: skip
    assert re.search(r"B now \[B/H, link 28, .*random four 0\.\d{3} \(\+0\.000±0\.000", out), out
    assert re.search(r"B-y \[B/H, link 22, .*random heads-up \d\.\d{3} \([-+]0\.\d{3}±", out), out
    units = json.loads(saved.read_text())["units"]
    assert len(units["B-y|random|four"]) == 2 and len(units["B now|random|heads-up"]) == 1


def test_burgundy_tune_castles_pairs_every_castle_against_the_own_pick_or_a_named_one():
    """``burgundy_tune.py castles``: each castle of duchy A on the same seeds, paired against
    the heuristic's own solo pick (the commodity castle, ``SOLO_CASTLE``: +0.00 on every
    seed) or, with ``--against worker``, against the worker castle (as RULES.md's figures)."""

    def lines(*args: str) -> dict[str, str]:
        out = run_bench("burgundy_tune.py", "castles", *args, columns=300)
        found = re.findall(r"^castle \[\d, \d\] \((\w+)\): (.*)$", out, re.MULTILINE)
        return dict(found)

    own = lines("--games", "2", "--first", "0")
    assert sorted(own) == ["commodity", "monk", "silver", "worker"]
    assert own["commodity"].endswith("against the own pick +0.00 (95% CI +0.00 to +0.00)")
    worker = lines("--games", "2", "--first", "0", "--against", "worker")
    assert worker["worker"].endswith("against the worker castle +0.00 (95% CI +0.00 to +0.00)")
    assert "against the worker castle +0.00" not in worker["commodity"]
