"""Burgundy duchy data: duchy A as printed, B-D as house designs, all under the same rules."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from bench.burgundy_duchies import solo
from engine.burgundy.duchy import (
    AREA_BONUS,
    BONUS_KINDS,
    CELLS,
    COLOURS,
    DUCHIES,
    HEX_COUNT,
    INDEX,
    NEIGHBOURS,
    components,
    problems,
)

DATA = Path(__file__).parents[2] / "engine" / "burgundy" / "data"


@pytest.mark.parametrize("name", sorted(DUCHIES))
def test_duchy_data_follows_the_composition_rules(name):
    duchy = DUCHIES[name]
    assert problems(duchy) == []
    assert len(duchy.colours) == HEX_COUNT == 37
    assert all(1 <= len(area) <= 4 for area in duchy.areas)
    castles = duchy.castles
    assert len(castles) == 4
    assert sorted(duchy.castle_square[h] for h in castles) == sorted(BONUS_KINDS)
    for colour in COLOURS:
        assert duchy.colour_counts[colour] == sum(1 for c in duchy.colours if c == colour)
    assert sum(duchy.colour_counts.values()) == 37


@pytest.mark.parametrize("name", sorted(DUCHIES))
def test_duchy_every_hex_is_reachable_from_every_castle_and_every_castle_markable(name):
    duchy = DUCHIES[name]
    for start in duchy.castles:
        reach, frontier = {start}, [start]
        while frontier:
            for n in NEIGHBOURS[frontier.pop()]:
                if n not in reach:
                    reach.add(n)
                    frontier.append(n)
        assert len(reach) == 37
        assert any(duchy.colours[n] != "green" for n in NEIGHBOURS[start])


@pytest.mark.parametrize("name", sorted(DUCHIES))
def test_duchy_bonus_limits_exceed_the_areas_that_grant_each_type(name):
    duchy = DUCHIES[name]
    for kind, limit in zip(BONUS_KINDS, duchy.bonus_limits, strict=True):
        granting = sum(1 for c in duchy.area_colours if AREA_BONUS.get(c) == kind)
        assert limit >= granting + 1


def test_duchy_a_is_as_printed_and_b_c_d_are_marked_house_designs():
    assert DUCHIES["A"].house_design is False
    for name in "BCD":
        assert DUCHIES[name].house_design is True
        text = json.loads((DATA / f"duchy_{name.lower()}.json").read_text())
        assert text["house_design"] is True and "House design" in text["note"]
    maps = {tuple(DUCHIES[n].colours) for n in "ABCD"}
    assert len(maps) == 4, "every duchy has its own map"


def test_duchy_a_matches_the_published_layout_cell_for_cell():
    a = DUCHIES["A"]
    expected = {
        "blue": [{(0, 0), (0, 1)}, {(3, 1), (3, 2)}, {(4, 3), (5, 2)}],
        "gray": [{(0, 2), (0, 3)}, {(5, 1), (6, 0)}],
        "orange": [{(1, 0), (1, 1), (2, 0), (3, 0)}, {(3, 4), (3, 5), (3, 6)}, {(1, 4)}, {(6, 1)}],
        "purple": [{(1, 2), (1, 3)}, {(3, 3), (4, 2)}, {(5, 3), (5, 4)}, {(2, 5)}],
        "yellow": [{(2, 2), (2, 3)}, {(4, 0), (5, 0)}, {(6, 2), (6, 3)}, {(4, 5)}],
        "green": [{(2, 1)}, {(2, 4)}, {(4, 1)}, {(4, 4)}],
    }
    got: dict[str, list[set]] = {}
    for colour, area in zip(a.area_colours, a.areas, strict=True):
        got.setdefault(colour, []).append({CELLS[h] for h in area})
    for colour, areas in expected.items():
        assert sorted(map(sorted, got[colour])) == sorted(map(sorted, areas)), colour
    squares = {CELLS[h]: a.castle_square[h] for h in a.castles}
    assert squares == {(2, 1): "commodity", (2, 4): "silver", (4, 1): "worker", (4, 4): "monk"}
    assert a.colour_bonus["yellow"] == (4, 2)


def test_duchy_areas_are_the_connected_same_colour_groups():
    for duchy in DUCHIES.values():
        assert sorted(map(list, duchy.areas)) == components(duchy.colours)


def test_hex_grid_is_a_radius_three_hexagon_with_symmetric_neighbours():
    assert len(CELLS) == 37 and INDEX[(3, 3)] == 18
    assert len(NEIGHBOURS[INDEX[(3, 3)]]) == 6
    for h, ns in enumerate(NEIGHBOURS):
        assert all(h in NEIGHBOURS[n] for n in ns)
    assert sorted(len(ns) for ns in NEIGHBOURS).count(3) == 6  # the six corners


def test_duchy_problems_catches_bad_data():
    from engine.burgundy.duchy import parse

    raw = json.loads((DATA / "duchy_a.json").read_text())
    raw["castles"][0]["square"] = "silver"
    raw["areas"][0]["hexes"].append([6, 3])
    assert len(problems(parse(raw))) >= 2


def test_duchy_a_data_stays_exactly_as_it_is():
    """Duchy A is the printed sheet and the baseline the other duchies and the search bot are
    measured against: not one number of its file may change."""
    raw = json.loads((DATA / "duchy_a.json").read_text())
    digest = hashlib.sha256(json.dumps(raw, sort_keys=True).encode()).hexdigest()
    assert digest == "35e6c08fc105e7ddc04c4a3ee8a7325bfd19c14bda21beaf1e4ae25c0b537fe7"


def _areas(name: str, colour: str) -> list[int]:
    duchy = DUCHIES[name]
    return [len(a) for c, a in zip(duchy.area_colours, duchy.areas, strict=True) if c == colour]


def test_house_duchies_show_their_character_in_their_structure():
    """B Riverlands: the most rivers (each completed river is a commodity to sell) and the
    highest commodity limit; C City-state: the most city hexes, in cities of three; D
    Meadows: the most pasture hexes and the richest yellow colour amount."""
    others = {n: [m for m in "ABCD" if m != n] for n in "BCD"}
    rivers = {n: len(_areas(n, "blue")) for n in "ABCD"}
    assert all(rivers["B"] > rivers[m] for m in others["B"]), rivers
    commodity = BONUS_KINDS.index("commodity")
    limits = {n: DUCHIES[n].bonus_limits[commodity] for n in "ABCD"}
    assert all(limits["B"] > limits[m] for m in others["B"]), limits
    city_hexes = {n: sum(_areas(n, "orange")) for n in "ABCD"}
    assert all(city_hexes["C"] > city_hexes[m] for m in others["C"]), city_hexes
    assert set(_areas("C", "orange")) == {3}
    pastures = {n: sum(_areas(n, "yellow")) for n in "ABCD"}
    assert all(pastures["D"] > pastures[m] for m in others["D"]), pastures
    yellow = {n: DUCHIES[n].colour_bonus["yellow"][0] for n in "ABCD"}
    assert all(yellow["D"] > yellow[m] for m in others["D"]), yellow


def test_house_duchies_score_like_duchy_a_each_in_its_own_way():
    """Seeded solo games of the heuristic (the same seeds on every duchy): B-D score within 3
    points of duchy A's mean with a spread within 30 % of A's, and each makes more of its
    character than A does (B sales, C cities, D pastures). The bench
    (bench/burgundy_duchies.py, 400 games) holds them to 2 points."""
    figures = {name: solo(name, 100) for name in "ABCD"}
    a = figures["A"]
    for name in "BCD":
        got = figures[name]
        assert abs(got.mean - a.mean) <= 3, (name, got.mean, a.mean)
        assert 0.7 <= got.sd / a.sd <= 1.3, (name, got.sd, a.sd)
    assert figures["B"].per_game("sales") > a.per_game("sales")
    assert figures["C"].per_game("orange") > a.per_game("orange")
    assert figures["D"].per_game("yellow") > a.per_game("yellow")
