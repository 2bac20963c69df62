"""The eight Diceland maps (house designs): every map is well formed and playable."""

from __future__ import annotations

import hashlib
import json
import statistics
from math import sqrt
from pathlib import Path

import pytest

import engine.diceland.maps as maps_package
from bench.diceland_boards import SAVED as BOARDS_RUN
from bench.diceland_boards import inside, layouts_digest
from bench.diceland_fairness import Estimate
from bench.diceland_side_table import AT_RANDOM, share_of
from bench.diceland_side_table import SAVED as SIDES_RUN
from engine.codec import dump, load
from engine.contract import InvalidOptions
from engine.dice import Dice
from engine.diceland import GAME
from engine.diceland.board import AXIAL_STEPS, COLOURS, Board, bits
from engine.diceland.fairness import PLACEMENTS, link_cost, placements
from engine.diceland.mapgen import (
    DESIGNS,
    Design,
    apply_edit,
    build,
    distance,
    edit_options,
    layout_ok,
    neighbours,
)
from engine.diceland.maps import (
    BOARD_SIDES,
    BOARDS,
    EDITION,
    EDITIONS,
    MAP_DATA,
    MAP_NAMES,
    board_name,
    boards_of,
    edition_data,
)
from engine.diceland.state import DicelandState
from engine.diceland.view import sample_state
from engine.replay import replay
from engine.simulate import make_bots, play

MAPS = list(MAP_NAMES)
SEVEN_RUNS = (
    BOARDS_RUN.name,
    *(f"b7_{tag}_run.json" for tag in ("k7", "l7", "m7", "n7", "o7")),
)
"""Edition 7's six judging runs (``j7`` to ``o7``), beside ``BOARDS_RUN``."""
SIX_RUN = BOARDS_RUN.with_name("b6_run.json")
"""Edition 6's first judging run (``t13``)."""


def test_there_are_eight_maps_a_to_h_marked_as_house_designs():
    assert MAPS == ["A", "B", "C", "D", "E", "F", "G", "H"]
    for name, data in MAP_DATA.items():
        assert data["name"] == name
        assert data["house_design"] is True and "House design" in data["note"]


@pytest.mark.parametrize("name", MAPS)
def test_map_files_are_what_the_generator_makes(name):
    design = next(d() for d in DESIGNS if d().name == name)
    assert json.loads(json.dumps(build(design))) == MAP_DATA[name]


@pytest.mark.parametrize("name", MAPS)
def test_map_has_about_110_hexes_and_a_start_near_the_centre(name):
    board = BOARDS[name]
    assert 100 <= len(board.coords) <= 125

    def pixel(q: int, r: int) -> tuple[float, float]:
        return sqrt(3) * (q + r / 2), 1.5 * r

    xs, ys = zip(*(pixel(q, r) for q, r in board.coords), strict=True)
    cx, cy = sum(xs) / len(xs), sum(ys) / len(ys)
    sx, sy = pixel(*board.coords[board.start])
    assert sqrt((sx - cx) ** 2 + (sy - cy) ** 2) <= 2.0, "start within about one hex of centre"
    assert board.territory_of[board.start] == -1 and not board.obstacle_mask >> board.start & 1


@pytest.mark.parametrize("name", MAPS)
def test_map_has_twelve_treasures_two_per_colour_in_different_territories(name):
    board = BOARDS[name]
    assert board.treasure_mask.bit_count() == 12
    for colour in COLOURS:
        treasures = list(bits(board.treasure_colour_mask[colour]))
        assert len(treasures) == 2
        assert len({board.territory_of[t] for t in treasures}) == 2
    for terr in MAP_DATA[name]["territories"]:
        assert all(t in terr["hexes"] for t in terr["treasures"])


@pytest.mark.parametrize("name", MAPS)
def test_map_territories_are_connected_sizes_2_to_6_in_six_colours(name):
    board = BOARDS[name]
    assert {t.colour for t in board.territories} == set(COLOURS)
    for terr in board.territories:
        assert 2 <= len(terr.hexes) <= 6
        assert board.is_linked(1 << terr.hexes[0], terr.mask & ~(1 << terr.hexes[0]))
    for i in range(len(board.coords)):
        if board.territory_of[i] < 0:
            continue
        for j in bits(board.neighbour_mask[i]):
            t, u = board.territory_of[i], board.territory_of[j]
            if u >= 0 and u != t:
                assert board.territories[t].colour != board.territories[u].colour, (
                    "neighbouring territories never share a colour"
                )


@pytest.mark.parametrize("name", MAPS)
def test_every_non_obstacle_hex_is_reachable_from_the_start(name):
    board = BOARDS[name]
    dist = board.distances(1 << board.start)
    for i in range(len(board.coords)):
        if not board.obstacle_mask >> i & 1:
            assert dist[i] >= 0, board.coords[i]
    every = {(q + dq, r + dr) for q, r in board.coords for dq, dr in AXIAL_STEPS}
    assert len(every) > len(board.coords), "coordinates are axial hexes"


@pytest.mark.parametrize("name", MAPS)
def test_every_colour_can_be_completed_following_the_rules(name):
    """Cross the whole map one die at a time under the territory rule: never stuck."""
    board = BOARDS[name]
    crossed = 1 << board.start
    land = sum(t.mask for t in board.territories)
    completed_order = []
    while crossed & land != land:
        step = next(
            (
                (c, m)
                for c in COLOURS
                if board.working_on(crossed, c)
                for m in board.placements(crossed, c, 1)
            ),
            None,
        ) or next(((c, m) for c in COLOURS for m in board.placements(crossed, c, 1)), None)
        assert step is not None, "stuck before the map was complete"
        crossed |= step[1]
        for c in board.completed_colours(crossed):
            if c not in completed_order:
                completed_order.append(c)
    assert sorted(completed_order) == sorted(COLOURS)
    assert board.has_won(crossed)


def test_maps_differ_in_character():
    def profile(board: Board) -> tuple:
        sizes = [len(t.hexes) for t in board.territories]
        return (
            len(board.coords),
            board.obstacle_mask.bit_count(),
            len(sizes),
            round(sum(sizes) / len(sizes), 1),
        )

    profiles = {name: profile(BOARDS[name]) for name in MAPS}
    assert len(set(profiles.values())) == 8, profiles
    sizes = {
        name: sum(len(t.hexes) for t in BOARDS[name].territories) / len(BOARDS[name].territories)
        for name in MAPS
    }
    assert sizes["E"] == min(sizes.values()) and sizes["F"] == max(sizes.values()), sizes
    assert sizes["E"] < 3 < 4 < sizes["F"], "Mosaic is small-grained, Broad Fields large"
    far = {
        name: sum(
            BOARDS[name].distances(1 << BOARDS[name].start)[t]
            for t in bits(BOARDS[name].treasure_mask)
        )
        for name in MAPS
    }
    assert far["H"] > far["E"], "The Rim keeps its treasures further out than Mosaic"
    assert far["G"] == max(far.values()), "The Serpent's treasures are the longest way off"


@pytest.mark.parametrize("pair", [("A", "B"), ("C", "D"), ("E", "F"), ("G", "H")])
def test_a_seeded_random_game_finishes_on_every_map(pair):
    played = play(GAME, make_bots(GAME, ["random", "random"]), f"maps-{pair}", {"maps": list(pair)})
    assert played.result.winners


@pytest.mark.parametrize("name", MAPS)
def test_map_links_nine_treasures_in_its_calibrated_number_of_placements(name):
    """The cheap structural measure of fairness (engine.diceland.fairness): every map links
    nine treasures to the start in the crosses its file records (the layout chosen by
    playtesting, bench/diceland_tune.py), and in a number of placements (crosses over
    the mean territory size) within the band the chosen maps span."""
    board = BOARDS[name]
    assert link_cost(board) == MAP_DATA[name]["link_cost"], "the map changed: playtest it again"
    low, high = PLACEMENTS
    assert low <= placements(board) <= high, placements(board)


def test_placements_weigh_crosses_by_the_grain_of_the_territories():
    """Mosaic needs the fewest crosses and Broad Fields the most, yet they are about as hard:
    over the eight maps, placements spread less than crosses do."""
    costs = {m: link_cost(BOARDS[m]) for m in MAPS}
    assert costs["E"] == min(costs.values()) and costs["F"] == max(costs.values()), costs
    counts = [placements(BOARDS[m]) for m in MAPS]
    assert max(counts) / min(counts) < max(costs.values()) / min(costs.values())


# --- fine tuning edits (mapgen) ---------------------------------------------------------


def test_tuning_edits_keep_every_check_and_refuse_what_would_break_one():
    design = next(d() for d in DESIGNS if d().name == "A")
    base = build(Design(**{**design.__dict__, "edits": ()}))
    options = list(edit_options(design, base, base))
    assert {e[0] for e, _ in options} == {"treasure", "hex", "colour"}
    assert all(layout_ok(data) for _, data in options)
    terrs = base["territories"]
    owner = {(q, r): t for t in terrs for q, r in t["hexes"]}
    spot = next((q, r) for t in terrs for q, r in t["treasures"])
    other_colour = next(
        h for h, t in owner.items() if t["colour"] != owner[spot]["colour"] and not t["treasures"]
    )
    assert apply_edit(design, base, base, ("treasure", spot, other_colour)) is None, (
        "a treasure stays in its colour (two a colour)"
    )
    same_territory_other_treasure = next(
        t for t in terrs if t["colour"] == owner[spot]["colour"] and t is not owner[spot]
    )
    if same_territory_other_treasure["treasures"]:
        q, r = same_territory_other_treasure["hexes"][0]
        assert apply_edit(design, base, base, ("treasure", spot, (q, r))) is None, (
            "two treasures of a colour lie in two different territories"
        )
    moved = apply_edit(design, base, base, options[0][0])
    assert moved is not None and moved != base and moved["link_cost"] == link_cost(Board(moved))


def test_a_recolouring_changes_one_territorys_colour_and_keeps_every_check():
    """``("colour", a, b)``: the territory at ``a`` takes the colour of the one at ``b``; its
    shape, the treasures and every other territory stay as they were, and a recolouring that
    would touch a treasure's colour or put two alike side by side is refused."""
    design = next(d() for d in DESIGNS if d().name == "E")
    base = build(Design(**{**design.__dict__, "edits": ()}))
    recolours = [(e, data) for e, data in edit_options(design, base, base) if e[0] == "colour"]
    assert recolours
    for (_, a, b), data in recolours:
        assert layout_ok(data)
        owner = {(q, r): t for t in data["territories"] for q, r in t["hexes"]}
        was = {(q, r): t for t in base["territories"] for q, r in t["hexes"]}
        assert owner[a]["colour"] == owner[b]["colour"] != was[a]["colour"]
        assert [t["hexes"] for t in data["territories"]] == [
            t["hexes"] for t in base["territories"]
        ]
        assert (
            sum(
                t["colour"] != u["colour"]
                for t, u in zip(data["territories"], base["territories"], strict=True)
            )
            == 1
        )
    terrs = base["territories"]
    owner = {(q, r): t for t in terrs for q, r in t["hexes"]}
    rich = next(t for t in terrs if t["treasures"])
    other = next(t for t in terrs if t["colour"] != rich["colour"])
    a, b = tuple(rich["hexes"][0]), tuple(other["hexes"][0])
    assert apply_edit(design, base, base, ("colour", a, b)) is None, "a treasure keeps its colour"
    plain = next(t for t in terrs if not t["treasures"])
    pa = tuple(plain["hexes"][0])
    beside = next(
        owner[n]
        for q, r in plain["hexes"]
        for n in neighbours((q, r))
        if n in owner and owner[n] is not plain
    )
    assert apply_edit(design, base, base, ("colour", pa, tuple(beside["hexes"][0]))) is None, (
        "neighbouring territories are never alike"
    )


def test_a_far_treasure_design_keeps_its_treasures_far():
    design = next(d() for d in DESIGNS if d().name == "D")
    base = build(Design(**{**design.__dict__, "edits": ()}))
    start = (base["start"][0], base["start"][1])
    nearest = min(distance((q, r), start) for t in base["territories"] for q, r in t["treasures"])
    for edit, data in edit_options(design, base, base):
        for t in data["territories"]:
            assert all(distance((q, r), start) >= nearest for q, r in t["treasures"]), edit


# --- editions: games made with older maps replay on them ---------------------------------

EDITION_ONE_SHA256 = {
    "A": "0459fe816106117a",
    "B": "0ba71e53fb484cc0",
    "C": "dd5b2d9f53ffd52a",
    "D": "24c0c44b34f1bf09",
    "E": "e313e22676904919",
    "F": "6562602a0a9a6798",
    "G": "61382c9a3c41b59c",
    "H": "e978ea7872264638",
}


def kept_digests(edition: int) -> dict[str, str]:
    """The first 16 hex digits of the SHA-256 of each map file a past edition keeps."""
    folder = Path(maps_package.__file__).with_name(f"edition{edition}")
    return {
        name: hashlib.sha256((folder / f"{name}.json").read_bytes()).hexdigest()[:16]
        for name in MAP_NAMES
    }


def test_edition_one_keeps_the_maps_as_they_were_before_the_tuning():
    assert kept_digests(1) == EDITION_ONE_SHA256
    assert edition_data(1)["E"]["link_cost"] == 15 and edition_data(EDITION) is MAP_DATA


EDITION_TWO_SHA256 = {
    "A": "fa91825a3f5c9b26",
    "B": "180a34810ac6a6b8",
    "C": "3d19c8f838ce9e40",
    "D": "0eb0d2463846581f",
    "E": "f7fa32727c6d2ee5",
    "F": "51c962ce8f92acb6",
    "G": "22bfc484f24f9327",
    "H": "e978ea7872264638",
}


def keeps_its_maps(edition: int, digests: dict[str, str], retuned: set[str], why: str) -> None:
    """A past ``edition`` keeps its map files byte for byte (``digests``), and the next
    edition changed the territories of the maps it ``retuned`` and of no other."""
    assert kept_digests(edition) == digests
    changed = {
        m
        for m in MAP_NAMES
        if edition_data(edition)[m]["territories"] != edition_data(edition + 1)[m]["territories"]
    }
    assert changed == retuned, why


def test_edition_two_keeps_the_maps_as_they_were_before_edition_three():
    keeps_its_maps(
        2, EDITION_TWO_SHA256, {"E", "G"}, "edition 3 retuned Mosaic and The Serpent only"
    )


def replays_on_its_edition(edition: int, retuned: str, other: str) -> None:
    """A heuristic game begun on ``edition`` with the map it ``retuned`` (changed by the next
    edition) replays move for move on that edition's maps, and its view names the edition."""
    seed = f"edition-{edition}"
    played = play(
        GAME,
        make_bots(GAME, ["heuristic"] * 2),
        seed,
        {"maps": [retuned, other], "edition": edition},
    )
    assert played.state.edition == edition
    again = replay(GAME, 2, played.options, seed, played.moves)
    assert dump(again.state) == dump(played.state)
    assert GAME.view(again.state, 0)["edition"] == edition
    assert edition_data(edition)[retuned]["territories"] != MAP_DATA[retuned]["territories"]


def test_a_game_begun_on_edition_two_replays_on_edition_two():
    replays_on_its_edition(2, "G", "E")


EDITION_THREE_SHA256 = {
    "A": "fa91825a3f5c9b26",
    "B": "180a34810ac6a6b8",
    "C": "3d19c8f838ce9e40",
    "D": "0eb0d2463846581f",
    "E": "68ed7aa6e6ff7038",
    "F": "51c962ce8f92acb6",
    "G": "cb9edb813ec0241d",
    "H": "e978ea7872264638",
}


def test_edition_three_keeps_the_maps_as_they_were_before_edition_four():
    keeps_its_maps(
        3,
        EDITION_THREE_SHA256,
        {"E", "G", "H"},
        "edition 4 retuned Mosaic, The Serpent and The Rim only",
    )


def test_a_game_begun_on_edition_three_replays_on_edition_three():
    replays_on_its_edition(3, "H", "E")


EDITION_FOUR_SHA256 = {
    "A": "fa91825a3f5c9b26",
    "B": "180a34810ac6a6b8",
    "C": "3d19c8f838ce9e40",
    "D": "0eb0d2463846581f",
    "E": "5fa487dcf49be12a",
    "F": "51c962ce8f92acb6",
    "G": "d1da9cce620611c0",
    "H": "0f63a006467b1b78",
}


def test_edition_four_keeps_the_maps_as_they_were_before_edition_five():
    assert edition_data(5) is edition_data(6), "editions 5 and 6 share their maps"
    keeps_its_maps(4, EDITION_FOUR_SHA256, {"F"}, "edition 5 retuned Broad Fields only")


def test_a_game_begun_on_edition_four_replays_on_edition_four():
    replays_on_its_edition(4, "F", "E")


def test_edition_six_plays_edition_fives_maps_as_the_sides_of_four_boards():
    """Edition 6 changed the boards, not the maps: the eight maps are the two sides of four
    boards, each map on one board (RULES.md, *Boards and sides*)."""
    assert edition_data(5) is edition_data(6) is not MAP_DATA
    sides = sorted(m for board in BOARD_SIDES[6] for m in board)
    assert sides == sorted(MAP_NAMES) and len(BOARD_SIDES[6]) == 4
    assert all(not boards_of(e) for e in EDITIONS if e < 6)


def test_a_game_dealt_on_edition_five_replays_with_its_maps_dealt_as_then():
    """Editions 1-5 deal each seat a map (no side to pick), so their logs replay as played."""
    played = play(GAME, make_bots(GAME, ["heuristic"] * 3), "dealt-5", {"edition": 5})
    assert not played.state.boards and {a["type"] for _, a in played.moves} & {"side"} == set()
    again = replay(GAME, 3, played.options, "dealt-5", played.moves)
    assert dump(again.state) == dump(played.state)


EDITION_SIX_SHA256 = {
    "A": "fa91825a3f5c9b26",
    "B": "180a34810ac6a6b8",
    "C": "3d19c8f838ce9e40",
    "D": "0eb0d2463846581f",
    "E": "5fa487dcf49be12a",
    "F": "f18e0e895c2290c8",
    "G": "d1da9cce620611c0",
    "H": "0f63a006467b1b78",
}


def test_edition_six_keeps_the_maps_as_they_were_before_edition_seven():
    """Editions 5 and 6 read ``maps/edition6/`` (the files current until edition 7), and
    edition 7 retuned The Ridges and The Rim only, the two sides of one board, and kept the
    four boards (RULES.md, *Edition 7*)."""
    keeps_its_maps(6, EDITION_SIX_SHA256, {"B", "H"}, "edition 7 retuned B and H only")
    assert boards_of(7) == boards_of(6) and edition_data(7) is MAP_DATA


def test_a_game_begun_on_edition_six_replays_on_edition_six():
    replays_on_its_edition(6, "B", "E")


def test_a_game_dealt_on_edition_six_replays_with_its_boards_and_sides():
    """A game of edition 6 deals boards and each seat picks a side, on edition 6's maps."""
    played = play(GAME, make_bots(GAME, ["heuristic"] * 4), "dealt-6", {"edition": 6})
    assert played.state.boards and "side" in {a["type"] for _, a in played.moves}
    again = replay(GAME, 4, played.options, "dealt-6", played.moves)
    assert dump(again.state) == dump(played.state)
    view = GAME.view(again.state, 0)
    assert view["edition"] == 6 and "maps" not in view
    assert sample_state(GAME, view, 0, Dice("s")).edition == 6


DEALT_BEFORE_SIX = [
    # seats, the edition a log of the time stored in its options (None: none, edition 1);
    # the maps, first player and first throw the code before edition 6 (d25d70a5) dealt
    # from the dice of seed before-six-{seats}-{edition}
    (2, 5, "DA", 0, "red blue red yellow blue grey"),
    (3, 5, "FCA", 1, "yellow blue orange orange red blue"),
    (4, 5, "BGAD", 1, "yellow yellow green red green green"),
    (3, 4, "DCA", 1, "orange grey blue grey grey grey"),
    (4, None, "HBEF", 0, "yellow orange red blue orange orange"),
]


@pytest.mark.parametrize(("seats", "edition", "maps", "first", "throw"), DEALT_BEFORE_SIX)
def test_rule_a_game_of_editions_one_to_five_is_dealt_as_it_was_before_edition_six(
    seats, edition, maps, first, throw
):
    """The deal of editions 1-5 is the one their logs were made with (RULES.md, *Editions*):
    the same maps, first player and first throw from the same dice as the code before
    edition 6 dealt them, so a saved log replays exactly (edition 6 deals boards instead)."""
    options = {"maps": None} if edition is None else {"maps": None, "edition": edition}
    state = GAME.setup(seats, options, Dice(f"before-six-{seats}-{edition or 1}"))
    assert (state.maps, state.active, state.last_throw) == (list(maps), first, throw.split())
    assert state.phase == "choose" and not state.boards


def test_new_games_play_the_current_edition_and_name_it_in_their_views():
    options = GAME.validate_options(2, {"maps": ["E", "B"]})
    assert options["edition"] == EDITION == max(EDITIONS)
    state = GAME.setup(2, options, Dice("edition"))
    assert state.edition == EDITION
    view = GAME.view(state, 0)
    assert view["edition"] == EDITION and "maps" not in view
    assert [p["map"] for p in view["players"]] == ["E", "B"]
    with pytest.raises(InvalidOptions):
        GAME.validate_options(2, {"edition": EDITION + 1})


def test_ruling_a_game_logged_before_editions_replays_on_the_maps_it_was_played_on():
    """An old log's options name no edition: it replays on edition 1, move for move."""
    played = play(
        GAME, make_bots(GAME, ["heuristic"] * 2), "old-log", {"maps": ["E", "B"], "edition": 1}
    )
    assert played.state.edition == 1
    old_options = {k: v for k, v in played.options.items() if k != "edition"}
    again = replay(GAME, 2, old_options, "old-log", played.moves)
    assert dump(again.state) == dump(played.state)
    assert GAME.view(again.state, 0)["edition"] == 1
    assert edition_data(1)["E"]["territories"] != MAP_DATA["E"]["territories"], (
        "the maps did change: a replay on the current edition would differ"
    )


def test_a_game_stored_before_editions_goes_on_with_its_maps():
    """A state stored before editions has no ``edition``: it loads as edition 1, and its
    view, legal moves and a search bot's sampled state use edition 1's maps."""
    state = GAME.setup(2, GAME.validate_options(2, {"maps": ["E", "B"], "edition": 1}), Dice("x"))
    stored = dump(state)
    del stored["edition"]
    loaded = load(DicelandState, stored)
    assert loaded.edition == 1
    view = GAME.view(loaded, 0)
    assert view["edition"] == 1
    assert sample_state(GAME, view, 0, Dice("s")).edition == 1
    current = GAME.setup(2, GAME.validate_options(2, {"maps": ["E", "B"]}), Dice("x"))
    assert sample_state(GAME, GAME.view(current, 0), 0, Dice("s")).edition == EDITION


def test_tuning_edits_keep_to_the_designs_size_range_or_the_wider_one_it_names():
    """Mosaic's edits may grow a territory to 4 (its ``edit_sizes``), never to 5; without
    that range they keep to the attempt's 2-3."""
    design = next(d() for d in DESIGNS if d().name == "E")
    assert design.size_range() == (2, 4)
    base = build(Design(**{**design.__dict__, "edits": ()}))

    def largest(d: Design) -> set[int]:
        return {
            max(len(t["hexes"]) for t in data["territories"])
            for edit, data in edit_options(d, base, base)
            if edit[0] == "hex"
        }

    assert largest(design) == {3, 4}
    assert largest(Design(**{**design.__dict__, "edit_sizes": None})) == {3}


def test_the_boards_were_judged_on_these_maps_every_share_and_every_pair_inside():
    """The boards' data test (issue 17's fair maps, edition 7): the six saved judging runs of
    ``bench/diceland_boards.py`` (the real games, each seat picking its side; seeds ``j7`` to
    ``o7``, none of the screens') were made on the current maps and boards, each at the issue's
    size (400 four-seat games, 500 games a board pair, each bot). Over the six (2,400 four-seat
    games, 3,000 games a pair), every board's four-seat share lies in 0.25 ± 0.04 with its
    whole 95 % interval and every board pair in 45-55 %, for the heuristic and for the random
    bots; the intervals of two pairs reach past 55 % (the heuristic's A/C against D/E, 0.542,
    and the random bots' B/H against F/G, 0.537). Alone, a run misses up to two pairs
    or a board, as a perfectly fair set would in about a third of runs (RULES.md, *Edition 7*).
    A changed map or pairing fails here until the bench is run again and its files saved; each
    map's structure is kept by the placements test above."""
    runs = [json.loads(BOARDS_RUN.with_name(name).read_text()) for name in SEVEN_RUNS]
    assert [r["tag"] for r in runs] == ["j7", "k7", "l7", "m7", "n7", "o7"]
    for saved in runs:
        assert saved["maps_sha256"] == layouts_digest(), "the maps changed: run the bench again"
        assert saved["edition"] == EDITION
        assert saved["boards"] == [board_name(b) for b in BOARD_SIDES[EDITION]]
        for bot in ("heuristic", "random"):
            assert len(saved[bot]["four_seat"]["B/H"]) * 4 >= 400, "the issue's 400 games"
            assert all(len(u) * 2 >= 500 for u in saved[bot]["heads_up"].values())
    assert {bot: [inside(r[bot]) for r in runs] for bot in ("heuristic", "random")} == {
        "heuristic": [(4, 5), (4, 6), (4, 4), (4, 6), (4, 5), (4, 6)],
        "random": [(4, 5), (3, 6), (4, 4), (4, 5), (4, 6), (4, 4)],
    }
    reaching_out = []
    for bot in ("heuristic", "random"):
        pooled = {
            kind: {k: [u for r in runs for u in r[bot][kind][k]] for k in runs[0][bot][kind]}
            for kind in ("four_seat", "heads_up")
        }
        assert inside(pooled) == (4, 6), bot
        boards = [Estimate.of(u) for u in pooled["four_seat"].values()]
        assert all(abs(b.mean - 0.25) + b.half <= 0.04 for b in boards), bot
        reaching_out += [
            (bot, pair)
            for pair, units in pooled["heads_up"].items()
            if abs(Estimate.of(units).mean - 0.5) + Estimate.of(units).half > 0.05
        ]
    assert reaching_out == [("heuristic", "A/C-D/E"), ("random", "B/H-F/G")]


def test_edition_six_boards_were_measured_on_its_maps_every_share_inside_and_all_pairs_but_one():
    """Edition 6's boards' data test (issue 17's fair maps; edition 7's is below): the saved run
    of ``bench/diceland_boards.py`` (the real games, each seat picking its side; 800 four-seat
    games and 500 games a board pair a bot) was made on edition 6's maps and boards, and in it
    every board's four-seat share lies in 0.25 ± 0.04 for both bots, every board pair in 45-55 %
    for the random bots and five of six for the heuristic, the sixth (B/H against F/G, 0.563)
    within 0.065 (RULES.md, *Boards and sides*)."""
    saved = json.loads(SIX_RUN.read_text())
    assert saved["maps_sha256"] == layouts_digest(6), "edition 6's maps are kept unchanged"
    assert saved["boards"] == [board_name(b) for b in BOARD_SIDES[6]]
    for bot, pairs in (("heuristic", 5), ("random", 6)):
        run = saved[bot]
        assert len(run["four_seat"]["A/C"]) * 4 >= 400, "the issue's 400 games at least"
        assert inside(run) == (4, pairs), bot
        assert all(abs(sum(u) / len(u) - 0.5) <= 0.065 for u in run["heads_up"].values()), bot


def test_with_sides_picked_at_random_every_board_is_inside_at_four_seats_on_every_side_played():
    """The heuristic picks its side at random (RULES.md, *Boards and sides*). The saved run of
    ``bench/diceland_side_table.py`` (every set of boards, combination of sides and seat
    rotation, heuristic bots, 150 dice seeds a size: 9,600 four-seat and 7,200 heads-up games)
    was made on edition 6's maps and boards; read with the sides at random, every board's
    four-seat share lies in 0.25 ± 0.04 with its whole 95 % interval, and every board pair in
    45-55 % but The Ridges/The Rim against The Crater/Mosaic, within 0.055 (0.552 ±0.028)."""
    saved = json.loads(SIDES_RUN.read_text())
    assert saved["maps_sha256"] == layouts_digest(6), "edition 6's maps are kept unchanged"
    assert saved["boards"] == [board_name(b) for b in BOARD_SIDES[6]]
    four = saved["runs"]["4"]
    shares = zip(*share_of(four, "A/C B/H D/E F/G", AT_RANDOM), strict=True)
    assert len(four) >= 100 and all(
        Estimate.of(s).half < 0.04 - abs(Estimate.of(s).mean - 0.25) for s in shares
    )
    rates = {d: Estimate.of([s[0] for s in share_of(saved["runs"]["2"], d, AT_RANDOM)]).mean
             for d in saved["runs"]["2"][0]}  # fmt: skip
    assert [d for d, r in rates.items() if abs(r - 0.5) > 0.05] == ["B/H D/E"]
    assert all(abs(r - 0.5) <= 0.055 for r in rates.values())


def test_the_heuristics_second_judging_run_holds_the_rules_pages_figures():
    """The heuristic's second judging run of the boards on fresh seeds (``t14``, saved beside
    ``b6_run.json``; RULES.md, *A second judging run*): of edition 6's maps and boards, 2 of
    4 boards and 5 of 6 pairs inside; with ``t13`` (the saved run above) every pair inside,
    0.458-0.540, and The Ridges/The Rim (B/H) the strongest board, 0.291, on the band's edge."""
    second = json.loads(SIX_RUN.with_name("b6_t14_heuristic.json").read_text())
    assert second["maps_sha256"] == layouts_digest(6) and second["tag"] == "t14"
    assert second["boards"] == [board_name(b) for b in BOARD_SIDES[6]]
    assert inside(second["heuristic"]) == (2, 5)
    first = json.loads(SIX_RUN.read_text())["heuristic"]
    both = {
        kind: {k: first[kind][k] + second["heuristic"][kind][k] for k in first[kind]}
        for kind in ("four_seat", "heads_up")
    }
    pairs = [statistics.fmean(u) for u in both["heads_up"].values()]
    assert (round(min(pairs), 3), round(max(pairs), 3)) == (0.458, 0.540)
    shares = {b: round(statistics.fmean(u), 3) for b, u in both["four_seat"].items()}
    assert max(shares, key=shares.__getitem__) == "B/H" and shares["B/H"] == 0.291


def test_a_search_bot_samples_the_edition_its_view_names():
    """Editions 5 and 6 share their layouts: a sampled state keeps the edition the view
    names (5, dealt maps singly), where guessing it from the layouts gave 6."""
    state = GAME.setup(2, GAME.validate_options(2, {"maps": ["E", "B"], "edition": 5}), Dice("x"))
    view = GAME.view(state, 1)
    assert view["edition"] == 5
    sampled = sample_state(GAME, view, 1, Dice("s"))
    assert sampled.edition == 5 and dump(sampled) == dump(state)
