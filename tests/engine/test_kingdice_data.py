"""King of the Dice's designed data: dice, map, cards (house design), validated by test."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from engine.kingdice import data
from engine.kingdice.conditions import COLOURS, KINDS, keep_toward, level, meets
from engine.kingdice.data import CARDS, DICE, LAYOUTS, TERRAINS

PACKAGE = Path(data.__file__).parent


def roll_die(rng: random.Random, die: int) -> tuple[int, str]:
    n = rng.randint(1, 6)
    return (n, DICE[die][n - 1])


def three_roll_chance(cond: dict, rng: random.Random, trials: int) -> float:
    """Chance that three rolls with the simple keep strategy meet ``cond``."""
    hits = 0
    for _ in range(trials):
        dice = [roll_die(rng, d) for d in range(6)]
        for _ in range(2):
            if meets(cond, dice):
                break
            keep = set(keep_toward(cond, dice))
            dice = [dice[i] if i in keep else roll_die(rng, i) for i in range(6)]
        hits += meets(cond, dice)
    return hits / trials


@pytest.mark.parametrize("name", ["dice.json", "map.json", "cards.json"])
def test_data_files_are_marked_house_design(name):
    doc = json.loads((PACKAGE / name).read_text())
    assert doc["house_design"] is True
    assert "House design" in doc["note"]
    assert "house design" in (PACKAGE / "RULES.md").read_text().lower()


def test_data_six_dice_two_faces_of_each_colour_a_different_pattern_each():
    assert len(DICE) == 6
    for die in DICE:
        assert Counter(die) == {"red": 2, "blue": 2, "green": 2}
    assert len({tuple(d) for d in DICE}) == 6
    for pip in range(6):
        assert Counter(d[pip] for d in DICE) == {"red": 2, "blue": 2, "green": 2}


def test_data_bad_dice_are_refused():
    with pytest.raises(ValueError):
        data.load_dice({"house_design": True, "dice": [DICE[0]] * 6})


def test_data_map_has_30_spaces_15_terrains_twice_and_names_the_four_missing():
    doc = json.loads((PACKAGE / "map.json").read_text())
    rulebook = set(doc["rulebook_terrains"])
    assert len(rulebook) == 11
    ours = set(TERRAINS) - rulebook
    assert ours == {"hills", "lake", "desert", "glacier"}
    for layout in LAYOUTS.values():
        assert layout.size == 30
        assert Counter(layout.terrain) == dict.fromkeys(TERRAINS, 2)


def test_data_map_two_halves_of_15_each_with_every_terrain():
    for layout in LAYOUTS.values():
        halves = [[s for s in range(30) if layout.half[s] == h] for h in (0, 1)]
        assert [len(h) for h in halves] == [15, 15]
        for half in halves:
            assert sorted(layout.terrain[s] for s in half) == sorted(TERRAINS)


def test_data_map_halves_join_differently_by_player_count():
    seams = {
        n: {(a, b) for a, b in layout.edges if layout.half[a] != layout.half[b]}
        for n, layout in LAYOUTS.items()
    }
    assert all(seams.values())
    assert seams[2] != seams[3] != seams[4] != seams[2]
    inner = {
        n: {(a, b) for a, b in layout.edges if layout.half[a] == layout.half[b]}
        for n, layout in LAYOUTS.items()
    }
    assert inner[2] == inner[3] == inner[4]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_data_map_is_connected_symmetric_and_planar(players):
    layout = LAYOUTS[players]
    assert data.is_connected(layout)
    assert data.is_plane_drawing(layout)
    for s, nbrs in enumerate(layout.neighbours):
        assert s not in nbrs
        assert all(s in layout.neighbours[n] for n in nbrs)
    # Euler's bound for simple planar graphs
    assert len(layout.edges) <= 3 * layout.size - 6


def test_data_plane_drawing_check_catches_a_crossing():
    layout = LAYOUTS[4]
    bad = data.Layout(**{**layout.__dict__, "edges": (*layout.edges, (0, 29), (4, 25))})
    assert not data.is_plane_drawing(bad)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_data_setup_dragon_fires_and_6_white_4_gold_gemstones(players):
    layout = LAYOUTS[players]
    assert len(layout.white) == 6 and len(layout.gold) == 4
    assert len(set(layout.white + layout.gold)) == 10
    assert 1 <= len(layout.dragon_fires) <= data.DRAGON_FIRES
    fires = {n: LAYOUTS[n].dragon_fires for n in LAYOUTS}
    assert len(set(fires.values())) == 3, "the set-up differs by player count"


def test_data_60_cards_in_five_stacks_of_12_with_rulebook_condition_types_only():
    assert len(CARDS) == 60
    assert Counter(c["stack"] for c in CARDS) == {s: 12 for s in range(1, 6)}
    kinds = {cond["kind"] for c in CARDS for cond in c["conditions"]}
    assert kinds <= set(KINDS)
    assert kinds == set(KINDS), "every rulebook condition type is used"
    for card in CARDS:
        assert card["symbol"]["colour"] in COLOURS and 1 <= card["symbol"]["number"] <= 6


def test_data_joker_symbols_each_appear_three_or_four_times():
    counts = Counter((c["symbol"]["colour"], c["symbol"]["number"]) for c in CARDS)
    assert len(counts) == 18
    assert set(counts.values()) <= {3, 4}


def test_data_stack_2_is_split_between_steal_card_and_steal_gemstone():
    effects = Counter(c["effect"] for c in CARDS if c["stack"] == 2)
    assert effects == {"thief_card": 6, "thief_gem": 6}


def test_data_stack_1_cards_are_graded_and_their_grades_nested():
    rng = random.Random(7)
    for card in (c for c in CARDS if c["stack"] == 1):
        assert len(card["conditions"]) == 3
        for _ in range(400):
            dice = [roll_die(rng, d) for d in range(6)]
            met = [meets(cond, dice) for cond in card["conditions"]]
            assert level(card["conditions"], dice) == sum(met), "a later grade implies earlier"


def test_data_chance_to_meet_a_card_falls_from_stack_1_to_stack_5():
    rng = random.Random(20211)
    per_stack = {}
    for stack in range(1, 6):
        chances = [
            three_roll_chance(c["conditions"][0], rng, 300) for c in CARDS if c["stack"] == stack
        ]
        per_stack[stack] = sum(chances) / len(chances)
    print("\nkingdice: chance that three rolls (simple keep strategy) meet a card, per stack")
    for stack, p in per_stack.items():
        print(f"  stack {stack}: {p:.3f}")
    values = [per_stack[s] for s in range(1, 6)]
    assert values == sorted(values, reverse=True)
    assert values[0] - values[-1] > 0.4
