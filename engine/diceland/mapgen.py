"""Deterministic generator of the eight Diceland maps A-H (house designs).

The published boards' layouts are not available, so these maps are our own designs. Run
``python -m engine.diceland.mapgen`` to rewrite ``engine/diceland/maps/*.json``; the JSON files
are the data (the engine only reads them). Each map has a shape and obstacles of its own
character; territories (2-6 hexes, connected) are grown with a seeded ``random.Random`` and
coloured so that no two neighbouring territories share a colour; two treasures a colour are
placed in two different territories by the map's treasure policy. The generator retries a
design until it passes the same checks as ``tests/engine/test_diceland_maps.py``. A design
names its chosen ``attempt`` and its tuning ``edits`` (treasure moves, hexes handed between
territories: :func:`apply_edit`), both found by playtesting (``bench/diceland_tune.py``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from engine.diceland.board import AXIAL_STEPS, COLOURS, Board, Hex
from engine.diceland.fairness import link_cost

MAPS_DIR = Path(__file__).with_name("maps")


def offset(col: int, row: int) -> Hex:
    """Axial coordinates of an odd-r offset cell (rectangular boards)."""
    return (col - (row - (row & 1)) // 2, row)


def rectangle(cols: int, rows: int) -> list[Hex]:
    return [offset(c, r) for r in range(rows) for c in range(cols)]


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def hexagon(radius: int, centre: Hex = (0, 0)) -> list[Hex]:
    return [
        (centre[0] + q, centre[1] + r)
        for r in range(-radius, radius + 1)
        for q in range(-radius, radius + 1)
        if abs(q + r) <= radius
    ]


def ring(centre: Hex, radius: int) -> list[Hex]:
    return [h for h in hexagon(radius, centre) if distance(h, centre) == radius]


def neighbours(h: Hex) -> list[Hex]:
    return [(h[0] + dq, h[1] + dr) for dq, dr in AXIAL_STEPS]


Edit = tuple[str, Hex, Hex]
"""A fine-tuning step on a layout: ``("treasure", a, b)`` moves the treasure on hex ``a`` to
hex ``b`` (a hex of the same colour); ``("hex", a, b)`` hands hex ``a`` from its territory to
the neighbouring territory that holds hex ``b``; ``("colour", a, b)`` recolours the territory
that holds hex ``a`` (one without a treasure) in the colour of the territory that holds hex
``b`` (not a neighbour): a colour's territories change, not their shapes."""


@dataclass
class Design:
    """A map's character: its shape, obstacles, start, territory sizes and treasure policy."""

    name: str
    title: str
    character: str
    cells: list[Hex]
    obstacles: set[Hex]
    start: Hex
    sizes: list[int]
    treasures: str  # "far", "near", "spread", "rim"
    attempt: int = 0
    """The generator's attempt (seed) of the chosen layout: chosen by playtesting with bots
    (``bench/diceland_tune.py``) so that every map wins as often as the others."""
    edits: tuple[Edit, ...] = ()
    """Fine tuning applied to the attempt's layout, in order (:func:`apply_edit`): treasure
    moves and hexes handed to a neighbouring territory, found by playtesting
    (``bench/diceland_tune.py``) so that the map wins as often as the others."""
    edit_sizes: tuple[int, int] | None = None
    """The territory sizes tuning edits may reach (smallest, largest); None: the range of
    ``sizes``. Wider for a design whose character is its shape, not its grain."""

    def size_range(self) -> tuple[int, int]:
        """The territory sizes tuning edits keep to (:func:`apply_edit`)."""
        return self.edit_sizes or (min(self.sizes), max(self.sizes))


def design_a() -> Design:
    cells = rectangle(11, 10)
    obstacles = {offset(c, r) for c, r in [(1, 1), (8, 1), (4, 3), (9, 4), (1, 6), (6, 7), (3, 9)]}
    return Design(
        "A",
        "Open Plains",
        "An open rectangle with a few lone rocks: many ways out of the start.",
        cells,
        obstacles,
        offset(5, 5),
        [3, 4, 4, 5],
        "spread",
        attempt=14,
        edits=(
            ("hex", (-1, 6), (0, 6)),
            ("treasure", (-3, 9), (-2, 9)),
        ),
    )


def design_b() -> Design:
    cells = rectangle(11, 10)
    obstacles = {offset(c, 2) for c in range(11) if c not in (2, 3)}
    obstacles |= {offset(c, 7) for c in range(11) if c not in (7, 8)}
    return Design(
        "B",
        "The Ridges",
        "Two rock ridges cross the board, each with one narrow pass; treasures lie beyond.",
        cells,
        obstacles,
        offset(5, 4),
        [3, 4, 4, 5, 6],
        "far",
        attempt=606,
        edits=(
            ("hex", (6, 5), (5, 6)),
            ("hex", (9, 0), (7, 0)),
            ("treasure", (5, 7), (0, 3)),
        ),
    )


def design_c() -> Design:
    cells = [h for h in hexagon(6) if distance(h, (0, 0)) < 6 or (h[0] - h[1]) % 3]
    obstacles = {h for h in ring((0, 0), 3) if h not in {(3, 0), (-3, 3), (0, -3)}}
    for dq, dr in ((1, -1), (-1, 0), (0, 1)):
        obstacles |= {(dq * k, dr * k) for k in (4, 5, 6)}
    obstacles = {h for h in obstacles if h in set(cells)}
    return Design(
        "C",
        "Archipelago",
        "A central isle ringed by water with three bridges to outer isles split by channels.",
        cells,
        obstacles,
        (0, 0),
        [2, 3, 3, 4, 5],
        "spread",
        attempt=10,
        edits=(
            ("hex", (-3, 3), (-3, 4)),
            ("hex", (-3, -1), (-4, -2)),
        ),
    )


def design_d() -> Design:
    cells = rectangle(11, 10)
    centre = offset(5, 5)
    gates = {offset(4, 3), offset(7, 5), offset(3, 6)}
    obstacles = {h for h in ring(centre, 2) if h not in gates}
    obstacles |= {offset(0, 0), offset(10, 0), offset(0, 9), offset(10, 9)}
    return Design(
        "D",
        "The Crater",
        "The start sits in a crater with three gaps in its rim; the plain outside is wide.",
        cells,
        obstacles,
        centre,
        [2, 3, 4, 5, 6],
        "far",
        attempt=15,
        edits=(
            ("hex", (4, 8), (4, 7)),
            ("hex", (-3, 7), (-4, 8)),
        ),
    )


def design_e() -> Design:
    cells = rectangle(12, 9)
    obstacles = {offset(c, r) for c, r in [(2, 2), (9, 2), (2, 6), (9, 6)]}
    return Design(
        "E",
        "Mosaic",
        "Small territories of two and three hexes packed tight; treasures spread out.",
        cells,
        obstacles,
        offset(6, 4),
        [2, 2, 3, 3, 3],
        "spread",
        attempt=42,
        edit_sizes=(2, 4),
        edits=(
            ("hex", (7, 3), (6, 4)),
            ("treasure", (-1, 3), (9, 3)),
            ("treasure", (0, 1), (10, 0)),
            ("treasure", (9, 3), (1, 7)),
            ("treasure", (10, 0), (6, 1)),
            ("hex", (3, 6), (3, 7)),
            ("colour", (0, 3), (3, 0)),
            ("colour", (10, 2), (5, 1)),
        ),
    )


def design_f() -> Design:
    cells = rectangle(11, 10)
    lakes = [(1, 2), (2, 2), (1, 3), (8, 1), (9, 1), (9, 2), (2, 7), (3, 7), (2, 8), (8, 7)]
    lakes += [(9, 7), (8, 8)]
    obstacles = {offset(c, r) for c, r in lakes}
    return Design(
        "F",
        "Broad Fields",
        "Big territories of four and five hexes around four lakes; treasures out at the edges.",
        cells,
        obstacles,
        offset(5, 5),
        [4, 4, 5, 5],
        "far",
        attempt=1840,
        edits=(
            ("hex", (7, 1), (6, 1)),
            ("treasure", (3, 9), (5, 0)),
            ("treasure", (0, 1), (0, 0)),
            ("treasure", (5, 0), (4, 9)),
        ),
    )


def design_g() -> Design:
    cells = rectangle(10, 11)
    obstacles = {offset(c, 2) for c in range(10) if c < 8}
    obstacles |= {offset(c, 5) for c in range(10) if c > 1}
    obstacles |= {offset(c, 8) for c in range(10) if c < 8}
    return Design(
        "G",
        "The Serpent",
        "Walls fold the board into a winding corridor; the way to the far ends is long.",
        cells,
        obstacles,
        offset(5, 4),
        [3, 4, 4, 5],
        "spread",
        attempt=23,
        edit_sizes=(2, 6),
        edits=(
            ("hex", (1, 10), (0, 9)),
            ("hex", (5, 3), (7, 2)),
            ("treasure", (5, 9), (-3, 10)),
            ("hex", (-1, 3), (0, 3)),
        ),
    )


def design_h() -> Design:
    corners = {(6, 0), (-6, 0), (0, 6), (0, -6), (6, -6), (-6, 6)}
    cells = [h for h in hexagon(6) if h not in corners]
    obstacles = {(2, -1), (3, -1), (-2, 2), (-3, 2), (1, 2), (0, -3), (-1, -2), (4, 1), (-4, -1)}
    obstacles |= {(-1, 4), (5, -3)}
    return Design(
        "H",
        "The Rim",
        "A round board with rock clusters near the middle and a long way round them.",
        cells,
        obstacles,
        (0, 0),
        [3, 4, 4, 5],
        "spread",
        attempt=2,
        edits=(
            ("treasure", (-3, 4), (-3, 3)),
            ("hex", (-4, -2), (-1, -5)),
            ("treasure", (1, -5), (-2, 1)),
            ("treasure", (1, 5), (3, 0)),
        ),
    )


DESIGNS: list[Callable[[], Design]] = [
    design_a,
    design_b,
    design_c,
    design_d,
    design_e,
    design_f,
    design_g,
    design_h,
]


def land_of(design: Design) -> list[Hex]:
    return [h for h in design.cells if h not in design.obstacles and h != design.start]


def partition(design: Design, rng: random.Random) -> list[list[Hex]] | None:
    """Grow connected territories of the design's sizes; None if a pocket of one is left."""
    land = set(land_of(design))
    free = set(land)
    regions: list[list[Hex]] = []

    def tightness(h: Hex) -> int:
        return sum(1 for n in neighbours(h) if n in free)

    while free:
        seed = min(sorted(free), key=lambda h: (tightness(h), rng.random()))
        target = rng.choice(design.sizes)
        region = [seed]
        free.discard(seed)
        while len(region) < target:
            frontier = sorted({n for h in region for n in neighbours(h) if n in free})
            if not frontier:
                break
            pick = min(frontier, key=lambda h: (tightness(h), rng.random()))
            region.append(pick)
            free.discard(pick)
        regions.append(region)
    for region in [r for r in regions if len(r) == 1]:
        h = region[0]
        hosts = [r for r in regions if len(r) < 6 and r is not region]
        hosts = [r for r in hosts if any(n in r for n in neighbours(h))]
        if not hosts:
            return None
        host = min(hosts, key=len)
        host.append(h)
        regions.remove(region)
    return regions


def colour(regions: list[list[Hex]], rng: random.Random) -> list[str] | None:
    """Colours for the regions, neighbours never alike, hex totals balanced; None if stuck."""
    owner = {h: i for i, reg in enumerate(regions) for h in reg}
    adjacent = [
        {owner[n] for h in reg for n in neighbours(h) if n in owner and owner[n] != i}
        for i, reg in enumerate(regions)
    ]
    order = sorted(range(len(regions)), key=lambda i: (-len(adjacent[i]), rng.random()))
    totals = dict.fromkeys(COLOURS, 0)
    counts = dict.fromkeys(COLOURS, 0)
    colours: list[str | None] = [None] * len(regions)
    for i in order:
        banned = {colours[j] for j in adjacent[i]}
        options = [c for c in COLOURS if c not in banned]
        if not options:
            return None
        best = min(options, key=lambda c: (totals[c], counts[c], rng.random()))
        colours[i] = best
        totals[best] += len(regions[i])
        counts[best] += 1
    if max(totals.values()) - min(totals.values()) > 6 or min(counts.values()) < 2:
        return None
    return [c for c in colours if c is not None]


def place_treasures(
    design: Design, regions: list[list[Hex]], colours: list[str], rng: random.Random
) -> list[list[Hex]]:
    """Two treasures per colour in two different territories, by the design's policy."""
    rim = max(distance(h, design.start) for h in land_of(design))
    chosen: list[list[Hex]] = [[] for _ in regions]
    for c in COLOURS:
        ids = [i for i, col in enumerate(colours) if col == c]

        def score(h: Hex) -> float:
            d = distance(h, design.start)
            if design.treasures == "far":
                return -d + rng.random() * 2
            if design.treasures == "near":
                return abs(d - 3) + rng.random() * 2
            if design.treasures == "rim":
                return (rim - d) * 3 + rng.random()
            return rng.random()

        candidates = sorted(
            ((score(h), i, h) for i in ids for h in regions[i] if h != design.start),
        )
        used: set[int] = set()
        for _, i, h in candidates:
            if i in used:
                continue
            if any(n in chosen[j] for j in range(len(regions)) for n in neighbours(h)):
                continue
            chosen[i].append(h)
            used.add(i)
            if len(used) == 2:
                break
    return chosen


def connected(cells: set[Hex], origin: Hex) -> bool:
    """Every hex of ``cells`` is reachable from ``origin`` (one of them) over ``cells``."""
    seen = {origin}
    stack = [origin]
    while stack:
        h = stack.pop()
        for n in neighbours(h):
            if n in cells and n not in seen:
                seen.add(n)
                stack.append(n)
    return seen == cells


def connected_to_start(design: Design) -> bool:
    return connected(set(land_of(design)) | {design.start}, design.start)


def layout(design: Design, attempt: int) -> dict | None:
    """The layout the generator makes on ``attempt`` (its seed), or None if that attempt
    fails a check. The layout records its ``link_cost`` (``fairness.link_cost``)."""
    rng = random.Random(f"diceland-{design.name}-{attempt}")
    regions = partition(design, rng)
    if regions is None or any(not 2 <= len(r) <= 6 for r in regions):
        return None
    colours = colour(regions, rng)
    if colours is None:
        return None
    treasures = place_treasures(design, regions, colours, rng)
    if sum(len(t) for t in treasures) != 12:
        return None
    order = sorted(range(len(regions)), key=lambda i: min((h[1], h[0]) for h in regions[i]))

    def pairs(hs: list[Hex]) -> list[list[int]]:
        return [[q, r] for q, r in sorted(hs, key=lambda h: (h[1], h[0]))]

    data = {
        "name": design.name,
        "title": design.title,
        "house_design": True,
        "note": "House design: the published boards' layouts are not available. Chosen "
        "among the generator's layouts by playtesting with bots so that the eight maps "
        "are equally hard (RULES.md, The maps).",
        "character": design.character,
        "generator": f"engine/diceland/mapgen.py, attempt {attempt}",
        "start": list(design.start),
        "obstacles": pairs(sorted(design.obstacles)),
        "territories": [
            {
                "colour": colours[i],
                "hexes": pairs(regions[i]),
                "treasures": pairs(treasures[i]),
            }
            for i in order
        ],
    }
    data["link_cost"] = link_cost(Board(data))
    return data


def layouts(design: Design, attempts: int = 10_000) -> Iterator[tuple[int, dict]]:
    """Every layout of ``design`` that passes the checks, with its attempt, in seeded order
    (the candidates a designer plays: ``bench/diceland_tune.py``)."""
    if not connected_to_start(design):
        raise ValueError(f"map {design.name}: land not connected to the start")
    for attempt in range(attempts):
        data = layout(design, attempt)
        if data is not None:
            yield attempt, data


def build(design: Design) -> dict:
    """The JSON data of one map: the layout of its chosen ``design.attempt`` with the
    design's ``edits`` applied in order."""
    if not connected_to_start(design):
        raise ValueError(f"map {design.name}: land not connected to the start")
    data = layout(design, design.attempt)
    if data is None:
        raise ValueError(f"map {design.name}: attempt {design.attempt} fails the checks")
    base = data
    for edit in design.edits:
        edited = apply_edit(design, base, data, edit)
        if edited is None:
            raise ValueError(f"map {design.name}: edit {edit} fails the checks")
        data = edited
    if design.edits:
        count = len(design.edits)
        data["generator"] += f", {count} tuning edit{'s' if count > 1 else ''}"
    return data


def layout_ok(data: dict) -> bool:
    """The checks every layout passes (the data tests' and the generator's): territories of
    2-6 connected hexes, neighbours never alike, every colour used with balanced totals, two
    treasures a colour in two different territories, at most one treasure a territory, no
    two treasures side by side."""
    owner: dict[Hex, int] = {}
    totals = dict.fromkeys(COLOURS, 0)
    treasures: dict[str, list[int]] = {c: [] for c in COLOURS}
    spots: list[Hex] = []
    for i, terr in enumerate(data["territories"]):
        hexes = [(q, r) for q, r in terr["hexes"]]
        if not 2 <= len(hexes) <= 6 or not connected(set(hexes), hexes[0]):
            return False
        owner.update(dict.fromkeys(hexes, i))
        totals[terr["colour"]] += len(hexes)
        if len(terr["treasures"]) > 1:
            return False
        for q, r in terr["treasures"]:
            if (q, r) not in hexes:
                return False
            treasures[terr["colour"]].append(i)
            spots.append((q, r))
    if any(len(set(ids)) != 2 or len(ids) != 2 for ids in treasures.values()):
        return False
    if max(totals.values()) - min(totals.values()) > 6:
        return False
    if any(n in spots for h in spots for n in neighbours(h)):
        return False
    colours = [t["colour"] for t in data["territories"]]
    return all(
        colours[owner[n]] != colours[i]
        for h, i in owner.items()
        for n in neighbours(h)
        if n in owner and owner[n] != i
    )


def apply_edit(design: Design, base: dict, data: dict, edit: Edit) -> dict | None:
    """``data`` with one tuning ``edit`` made, or None if the result would fail a check or
    change the design's character: a far-treasure design keeps every treasure at least as
    far from the start as the nearest treasure of its unedited layout ``base``, and a
    territory never leaves the design's size range (or goes further out of it)."""
    kind, a, b = edit
    out = json.loads(json.dumps(data))
    terrs = out["territories"]
    where = {(q, r): i for i, t in enumerate(terrs) for q, r in t["hexes"]}
    if a not in where or b not in where:
        return None
    ta, tb = terrs[where[a]], terrs[where[b]]
    start = (base["start"][0], base["start"][1])
    if kind == "treasure":
        if list(a) not in ta["treasures"] or ta["colour"] != tb["colour"] or a == b:
            return None
        if design.treasures == "far":
            nearest = min(
                distance((q, r), start) for t in base["territories"] for q, r in t["treasures"]
            )
            if distance(b, start) < nearest:
                return None
        ta["treasures"].remove(list(a))
        tb["treasures"] = sorted([*tb["treasures"], list(b)], key=lambda h: (h[1], h[0]))
    elif kind == "hex":
        if (
            ta is tb
            or list(a) in ta["treasures"]
            or not any(n in map(tuple, tb["hexes"]) for n in neighbours(a))
        ):
            return None
        low, high = design.size_range()
        na, nb = len(ta["hexes"]) - 1, len(tb["hexes"]) + 1
        if na < min(low, na + 1) or nb > max(high, nb - 1):
            return None
        ta["hexes"].remove(list(a))
        tb["hexes"] = sorted([*tb["hexes"], list(a)], key=lambda h: (h[1], h[0]))
    elif kind == "colour":
        if ta is tb or ta["treasures"] or ta["colour"] == tb["colour"]:
            return None
        ta["colour"] = tb["colour"]
    else:
        return None
    if not layout_ok(out):
        return None
    out["link_cost"] = link_cost(Board(out))
    return out


def edit_options(design: Design, base: dict, data: dict) -> Iterator[tuple[Edit, dict]]:
    """Every single tuning edit that ``data`` (an edited ``base``) allows, with its result:
    the tuner's fine knob (``bench/diceland_tune.py``)."""
    terrs = data["territories"]
    where = {(q, r): i for i, t in enumerate(terrs) for q, r in t["hexes"]}
    for t in terrs:
        for q, r in t["treasures"]:
            for u in terrs:
                if u["colour"] != t["colour"]:
                    continue
                for h in u["hexes"]:
                    edit: Edit = ("treasure", (q, r), (h[0], h[1]))
                    out = apply_edit(design, base, data, edit)
                    if out is not None:
                        yield edit, out
    for h, i in where.items():
        seen: set[int] = set()
        for n in neighbours(h):
            j = where.get(n)
            if j is None or j == i or j in seen:
                continue
            seen.add(j)
            edit = ("hex", h, (terrs[j]["hexes"][0][0], terrs[j]["hexes"][0][1]))
            out = apply_edit(design, base, data, edit)
            if out is not None:
                yield edit, out
    for t in terrs:
        if t["treasures"]:
            continue
        painted: set[str] = set()
        for u in terrs:
            if u["colour"] in painted or u["colour"] == t["colour"]:
                continue
            painted.add(u["colour"])
            edit = ("colour", _first(t), _first(u))
            out = apply_edit(design, base, data, edit)
            if out is not None:
                yield edit, out


def _first(territory: dict) -> Hex:
    q, r = territory["hexes"][0]
    return (q, r)


def main() -> None:
    MAPS_DIR.mkdir(exist_ok=True)
    for make in DESIGNS:
        data = build(make())
        path = MAPS_DIR / f"{data['name']}.json"
        text = json.dumps(data, indent=1)
        path.write_text(text + "\n")
        land = sum(len(t["hexes"]) for t in data["territories"])
        print(f"{path.name}: {len(data['territories'])} territories, {land} land hexes")


if __name__ == "__main__":
    main()
