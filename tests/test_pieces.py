"""Play pieces (generator/render/pieces*.py): pieces.pdf is read back with pypdf and measured.

Every piece carries an invisible marker (`pnp:counter:…`, `pnp:standee:…`, `pnp:base:…`,
`pnp:tracker:…`) at a known point; the cut outlines are found among the stroked paths of
the content stream, in page coordinates. Sizes are checked to 0.05 mm; the hex size is the
maps' (25.4 mm flat to flat, PRINT-SPECS.md "Hex grids"), the duplex rule is PRINT-SPECS.md
"Home printing" (long edge: x → W − x; short edge: y → H − y).
"""

from __future__ import annotations

import math
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from pydantic import ValidationError
from pypdf import PdfReader
from pypdf.generic import ContentStream

from generator.grids import hexgrid
from generator.core.errors import InputError
from generator.pack.load import load_build, load_pack
from generator.maps.load import load_pack_maps
from generator.pack.model import PiecesSpec, StatTrackerSpec, TrackersSpec
from generator.render.pieces.document import build_pieces_pdf
from generator.render.pieces.model import footprint_of
from generator.rules.engine import validate_build
from conftest import LEGAL_BOSS, LEGAL_PARTY, PACK_DIR

PT = 72 / 25.4  # points per mm
TOL_MM = 0.05


# ---- reading a PDF back ------------------------------------------------------------------------


@dataclass
class Path_:
    op: str  # the painting operator: S, f, B, n …
    points: list  # (x, y) in mm, page coordinates
    closed: bool
    curved: bool

    @property
    def stroked(self) -> bool:
        return self.op in ("S", "s", "B", "B*", "b", "b*")

    @property
    def centre(self):
        xs, ys = [p[0] for p in self.points], [p[1] for p in self.points]
        return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2

    @property
    def size(self):
        xs, ys = [p[0] for p in self.points], [p[1] for p in self.points]
        return max(xs) - min(xs), max(ys) - min(ys)


def _mul(a, b):
    return [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
            a[2] * b[1] + a[3] * b[3], a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]]


def page_paths(reader: PdfReader, page) -> list[Path_]:
    """Every subpath painted on the page, transformed by the CTM, in mm."""
    ctm, stack, out = [1, 0, 0, 1, 0, 0], [], []
    subpaths, current = [], None

    def pt(x, y):
        x, y = float(x), float(y)
        return ((ctm[0] * x + ctm[2] * y + ctm[4]) / PT, (ctm[1] * x + ctm[3] * y + ctm[5]) / PT)

    for operands, op in ContentStream(page.get_contents(), reader).operations:
        op = op.decode() if isinstance(op, bytes) else op
        if op == "q":
            stack.append(list(ctm))
        elif op == "Q":
            ctm = stack.pop()
        elif op == "cm":
            ctm = _mul([float(v) for v in operands], ctm)
        elif op == "m":
            current = {"points": [pt(*operands)], "closed": False, "curved": False}
            subpaths.append(current)
        elif op == "l":
            current["points"].append(pt(*operands))
        elif op in ("c", "v", "y"):
            vals = [float(v) for v in operands]
            current["points"] += [pt(vals[i], vals[i + 1]) for i in range(0, len(vals), 2)]
            current["curved"] = True
        elif op == "re":
            x, y, w, h = (float(v) for v in operands)
            subpaths.append({"points": [pt(x, y), pt(x + w, y), pt(x + w, y + h), pt(x, y + h)],
                             "closed": True, "curved": False})
            current = None
        elif op == "h":
            if current is not None:
                current["closed"] = True
        elif op in ("S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "n"):
            for sp in subpaths:
                ends_meet = len(sp["points"]) > 2 and math.dist(sp["points"][0], sp["points"][-1]) < 1e-6
                closed = sp["closed"] or ends_meet or op in ("s", "b", "b*")
                out.append(Path_(op, sp["points"], closed, sp["curved"]))
            subpaths, current = [], None
    return out


def page_markers(page) -> list[tuple[str, float, float]]:
    """The invisible `pnp:` labels and where they are, in mm."""
    found = []

    def visit(text, cm, tm, font, size):
        if text.startswith("pnp:"):
            m = _mul(tm, cm)
            found.append((text, m[4] / PT, m[5] / PT))

    page.extract_text(visitor_text=visit)
    return found


class Doc:
    def __init__(self, path: Path):
        self.reader = PdfReader(str(path))
        self.pages = self.reader.pages
        self._paths: dict = {}
        self.markers = [page_markers(p) for p in self.pages]

    def paths(self, index: int) -> list[Path_]:
        if index not in self._paths:
            self._paths[index] = page_paths(self.reader, self.pages[index])
        return self._paths[index]

    def find(self, prefix: str) -> list[tuple[int, str, float, float]]:
        return [(i, label, x, y) for i, ms in enumerate(self.markers) for label, x, y in ms
                if label.startswith(prefix)]

    def page_size(self, index: int) -> tuple[float, float]:
        box = self.pages[index].mediabox
        return float(box.width) / PT, float(box.height) / PT


def hex_f2f(points) -> float | None:
    """Flat-to-flat size of a closed hexagon given by its corners; None if it is not a
    regular hexagon (all six apothems equal to 0.01 mm)."""
    pts = list(points)
    if len(pts) == 7 and math.dist(pts[0], pts[-1]) < 1e-6:
        pts = pts[:-1]
    if len(pts) != 6:
        return None
    cx = sum(p[0] for p in pts) / 6
    cy = sum(p[1] for p in pts) / 6
    apothems = []
    for i in range(6):
        (x1, y1), (x2, y2) = pts[i], pts[(i + 1) % 6]
        length = math.hypot(x2 - x1, y2 - y1)
        apothems.append(abs((x2 - x1) * (y1 - cy) - (x1 - cx) * (y2 - y1)) / length)
    if max(apothems) - min(apothems) > 0.01:
        return None
    return 2 * sum(apothems) / 6


def cut_hexes(doc: Doc, index: int) -> list[tuple[float, float, float]]:
    """(centre x, centre y, flat to flat) of every stroked regular hexagon on a page."""
    out = []
    for p in doc.paths(index):
        if p.stroked and p.closed and not p.curved:
            f2f = hex_f2f(p.points)
            if f2f is not None:
                out.append((*p.centre, f2f))
    return out


def shape_at(doc: Doc, index: int, x: float, y: float, kind: str):
    """The cut outline centred on (x, y): a hexagon's flat-to-flat size, or a circle's or
    square's width, in mm."""
    best = None
    for p in doc.paths(index):
        if not (p.stroked and p.closed) or math.dist(p.centre, (x, y)) > 0.1:
            continue
        if kind == "hex" and not p.curved:
            size = hex_f2f(p.points)
        elif kind == "round" and p.curved:
            size = p.size[0] if abs(p.size[0] - p.size[1]) < 0.01 else None
        elif kind == "square" and not p.curved and len(p.points) == 4:
            size = p.size[0] if abs(p.size[0] - p.size[1]) < 0.01 else None
        else:
            size = None
        if size is not None and (best is None or size > best):
            best = size  # the cut line is the outermost stroked outline of its shape
    return best


# ---- fixtures ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def kit_doc(pack, tmp_path_factory):
    out = tmp_path_factory.mktemp("pieces") / "pieces.pdf"
    info = build_pieces_pdf(pack, out)
    return Doc(out), info, out


@pytest.fixture(scope="module")
def map_hex_mm(pack):
    sizes = {m.hex_size for m in load_pack_maps(pack)}
    assert len(sizes) <= 1, "the shipped maps disagree on the hex size"
    return sizes.pop() if sizes else 25.4


def preset(name: str) -> Path:
    return PACK_DIR / "presets" / f"{name}.yaml"


BOSS_PRESETS = sorted(p.stem for p in (PACK_DIR / "presets").glob("*.yaml") if p.stem.startswith("boss-"))
PARTY_PRESETS = sorted(p.stem for p in (PACK_DIR / "presets").glob("*.yaml") if p.stem.startswith("party-"))


def rule_footprint(pack, build) -> set:
    """The boss size rule, computed here from the cards: the union of the pieces' `size`
    lists, all anchored at (0, 0); no hexes at all is one hex."""
    hexes = set()
    for character in build.characters:
        for entry in character.bases:
            for q, r in pack.cards[entry.card.id].fields.get("size") or []:
                hexes.add((q, r))
    return hexes or {(0, 0)}


# ---- counters ----------------------------------------------------------------------------------


def test_the_kit_has_every_kind_of_piece(kit_doc, pack):
    doc, info, _ = kit_doc
    assert info["pages"] == len(doc.pages)
    kinds = {label.split(":")[1] for page in doc.markers for label, _, _ in page}
    assert {"counter", "standee", "base", "tracker", "round-tracker", "board", "page"} <= kinds
    assert info["counters"] == len([m for m in doc.find("pnp:counter:") if ":front:" in m[1]])


def test_hex_counters_have_exactly_the_map_hex_size(kit_doc, map_hex_mm):
    doc, _, _ = kit_doc
    checked = 0
    for index, label, x, y in doc.find("pnp:counter:"):
        _, _, kind, number, side, shape, size = label.split(":")
        measured = shape_at(doc, index, x, y, shape)
        assert measured is not None, f"no {shape} cut line under {label} on page {index + 1}"
        assert measured == pytest.approx(float(size), abs=TOL_MM), label
        if shape == "hex":
            assert measured == pytest.approx(map_hex_mm, abs=TOL_MM), label
            checked += 1
    assert checked >= 30  # obstacles, token cards' counters and spare base hexes


def test_two_sided_backs_sit_behind_their_fronts(kit_doc):
    doc, _, _ = kit_doc
    fronts = {}
    for index, label, x, y in doc.find("pnp:counter:"):
        kind, number, side = label.split(":")[2:5]
        if side == "front":
            fronts[(kind, number)] = (index, x, y, label)
    backs = [m for m in doc.find("pnp:counter:") if ":back:" in m[1]]
    assert len(backs) >= 40
    for index, label, x, y in backs:
        kind, number, _, shape, size = label.split(":")[2:]
        front_page, fx, fy, front_label = fronts[(kind, number)]
        assert index == front_page + 1, f"{label}: backs go on the page right after their fronts"
        width, _ = doc.page_size(index)
        assert x == pytest.approx(width - fx, abs=TOL_MM), label  # long-edge flip
        assert y == pytest.approx(fy, abs=TOL_MM), label
        assert shape_at(doc, index, x, y, shape) == pytest.approx(float(size), abs=TOL_MM)
        assert front_label.split(":")[5:] == label.split(":")[5:]
    # every front page of two-sided counters is followed by exactly its backs
    for index, label, _, _ in doc.find("pnp:page:counters:front:"):
        n = label.rsplit(":", 1)[1]
        assert any(lb == f"pnp:page:counters:back:{n}" for lb, _, _ in doc.markers[index + 1])


def test_short_edge_and_offset_backs(pack, tmp_path):
    out = tmp_path / "short.pdf"
    build_pieces_pdf(pack, out, duplex="short-edge", back_offset=(1.0, -0.5))
    doc = Doc(out)
    fronts = {tuple(lb.split(":")[2:4]): (i, x, y) for i, lb, x, y in doc.find("pnp:counter:") if ":front:" in lb}
    backs = [m for m in doc.find("pnp:counter:") if ":back:" in m[1]]
    assert backs
    for index, label, x, y in backs:
        _, fx, fy = fronts[tuple(label.split(":")[2:4])]
        _, height = doc.page_size(index)
        # a short-edge reading of (1.0, -0.5) moves backs (-1.0, -0.5) on their own page:
        # the flip reverses up and down as seen from the front (generator/core/duplex.py)
        assert x == pytest.approx(fx - 1.0, abs=TOL_MM)
        assert y == pytest.approx(height - fy - 0.5, abs=TOL_MM)


def test_counters_stay_clear_of_the_unprintable_edge(kit_doc):
    doc, _, _ = kit_doc
    for index, label, x, y in doc.find("pnp:counter:"):
        size = float(label.rsplit(":", 1)[1])
        width, height = doc.page_size(index)
        reach = size / math.sqrt(3) + 1.0  # a hex's corner radius, plus the bleed
        assert 5.0 <= x - reach and x + reach <= width - 5.0, label
        assert 5.0 <= y - reach and y + reach <= height - 5.0, label


def test_counts_cover_the_maps_and_the_table(kit_doc, pack):
    doc, _, _ = kit_doc
    fronts = [lb.split(":") for _, lb, _, _ in doc.find("pnp:counter:") if ":front:" in lb]
    count = {}
    for parts in fronts:
        count[parts[2]] = count.get(parts[2], 0) + 1
    most_obstacles = max((len(m.obstacles) for m in load_pack_maps(pack)), default=0)
    assert count["obstacle"] >= most_obstacles + 8
    # a side without a maximum (Boss Fight's party, issue 14) prints for its `kit` number
    most_characters = sum(s.characters.max if s.characters.max is not None else s.characters.kit
                          for s in pack.spec.sides.values())
    for status in (k for k, v in pack.spec.keywords.items() if v.kind == "status"):
        assert count[status] >= most_characters, status
    heroes = pack.cards_of("hero")
    assert count["death"] == len(heroes)  # one death token per hero, with its name
    for token in pack.cards_of("token"):
        assert count[token.id] >= 2, f"{token.id} needs counters on the map"


# ---- figures -----------------------------------------------------------------------------------


def test_every_hero_has_a_standee_and_a_one_hex_base(kit_doc, pack, map_hex_mm):
    doc, _, _ = kit_doc
    standees = {lb.split(":")[3]: (i, lb, x, y) for i, lb, x, y in doc.find("pnp:standee:hero:")}
    bases = {lb.split(":")[3]: (i, lb, x, y) for i, lb, x, y in doc.find("pnp:base:hero:")}
    for hero in pack.cards_of("hero"):
        assert hero.id in standees, f"no standee for {hero.name}"
        assert hero.id in bases, f"no base for {hero.name}"
        index, label, x, y = bases[hero.id]
        assert label.endswith(":1")
        assert shape_at(doc, index, x, y, "hex") == pytest.approx(map_hex_mm, abs=TOL_MM)
        index, label, x, y = standees[hero.id]
        width = float(label.rsplit(":", 1)[1].split("x")[0])
        assert width <= map_hex_mm - 2, "a hero's standee must stand inside its hex"
        cut = [p for p in doc.paths(index) if p.stroked and len(p.points) == 4 and abs(p.centre[0] - x) < 0.1
               and p.size[0] == pytest.approx(width, abs=TOL_MM)]
        assert cut, f"no cut outline for the standee of {hero.name}"


@pytest.mark.parametrize("name", BOSS_PRESETS)
def test_boss_base_hexes_match_the_rule_footprint(pack, tmp_path, name, map_hex_mm):
    build = load_build(preset(name), pack)
    out = tmp_path / "boss.pdf"
    info = build_pieces_pdf(pack, out, build=build)
    doc = Doc(out)
    expected = rule_footprint(pack, build)
    character = build.characters[0]
    assert set(footprint_of(pack, build, character)) == expected
    report = validate_build(pack, build)
    assert report.stats["characters[0]"]["size"] == len(expected)  # reports key characters by position
    (index, label, ox, oy), = doc.find("pnp:base:boss:")
    assert label.endswith(f":{len(expected)}")
    layout = hexgrid.Layout.from_flat_to_flat("pointy", map_hex_mm)
    found = set()
    for x, y, f2f in cut_hexes(doc, index):
        assert f2f == pytest.approx(map_hex_mm, abs=TOL_MM)
        h = layout.to_hex(x - ox, oy - y)  # page y points up; hex layouts point down
        cx, cy = layout.center(h)
        assert math.dist((cx, cy), (x - ox, oy - y)) < TOL_MM, "a base hex off the grid"
        found.add(tuple(h))
    assert found == expected
    # the build's standee is as wide as the longest line of hexes, so it stands on the base
    (_, slabel, _, _), = doc.find("pnp:standee:boss:")
    width = float(slabel.rsplit(":", 1)[1].split("x")[0])
    assert map_hex_mm - 3 - TOL_MM <= width < len(expected) * map_hex_mm
    assert info["bases"] == 1 and info["standees"] == 1


def test_a_boss_whose_pieces_add_no_hexes_stands_on_one_hex(pack, tmp_path):
    heads = [c for c in pack.cards_of("boss-piece") if not c.fields.get("size")][:2]
    text = ("pack: boss_fight\nname: Tiny Terror\nside: boss\ncharacters:\n  - name: Tiny Terror\n    pieces:\n"
            + "".join(f"      - piece: {c.id}\n" for c in heads) + "    abilities: []\n    deck: {walk: 3}\n")
    path = tmp_path / "tiny.yaml"
    path.write_text(text, encoding="utf-8")
    build = load_build(path, pack)
    assert footprint_of(pack, build, build.characters[0]) == [(0, 0)]
    out = tmp_path / "tiny.pdf"
    build_pieces_pdf(pack, out, build=build)
    doc = Doc(out)
    (index, label, x, y), = doc.find("pnp:base:boss:")
    assert label.endswith(":1")
    assert [(round(hx - x, 2), round(hy - y, 2)) for hx, hy, _ in cut_hexes(doc, index)] == [(0.0, 0.0)]


def test_custom_boss_build_prints_its_own_footprint(pack, tmp_path):
    path = tmp_path / "brute.yaml"
    path.write_text(LEGAL_BOSS, encoding="utf-8")
    build = load_build(path, pack)
    expected = rule_footprint(pack, build)
    out = tmp_path / "brute-pieces.pdf"
    build_pieces_pdf(pack, out, paper="letter", build=build)
    doc = Doc(out)
    assert doc.page_size(0) == pytest.approx((215.9, 279.4), abs=0.01)
    (index, _, ox, oy), = doc.find("pnp:base:boss:")
    layout = hexgrid.Layout.from_flat_to_flat("pointy", 25.4)
    assert {tuple(layout.to_hex(x - ox, oy - y)) for x, y, _ in cut_hexes(doc, index)} == expected


# ---- trackers ----------------------------------------------------------------------------------


def _trackers(doc: Doc) -> dict:
    out = {}
    for _, label, _, _ in doc.find("pnp:tracker:"):
        _, _, stat, side, key, style, top, start = label.split(":")
        out[(stat, side, key)] = (style, int(top.split("=")[1]), start.split("=")[1])
    return out


def test_kit_health_trackers_fit_the_largest_health(kit_doc, pack):
    doc, _, _ = kit_doc
    trackers = _trackers(doc)
    headroom = pack.spec.pieces.trackers.stats["health"].headroom
    largest = max(h.stats["health"] for h in pack.cards_of("hero"))
    for hero in pack.cards_of("hero"):
        style, top, start = trackers[("health", "hero", hero.id)]
        assert top >= largest + headroom and start == str(hero.stats["health"])
    boss_health = [validate_build(pack, load_build(preset(n), pack)).stats for n in BOSS_PRESETS]
    most = max(next(iter(s.values()))["health"] for s in boss_health)
    boss = [v for k, v in trackers.items() if k[1] == "boss"]
    assert len(boss) == len(BOSS_PRESETS) + 1  # one per preset and a write-in one
    assert all(top >= most for _, top, _ in boss)
    assert doc.find("pnp:round-tracker:")


@pytest.mark.parametrize("name", PARTY_PRESETS[:2])
def test_a_party_build_gets_standees_bases_and_trackers_at_actual_health(pack, tmp_path, name):
    build = load_build(preset(name), pack)
    out = tmp_path / "party.pdf"
    build_pieces_pdf(pack, out, build=build)
    doc = Doc(out)
    stats = validate_build(pack, build).stats
    trackers = _trackers(doc)
    standees = doc.find("pnp:standee:hero:")
    bases = doc.find("pnp:base:hero:")
    assert len(standees) == len(bases) == len(build.characters)
    for index, character in enumerate(build.characters):
        health = stats[f"characters[{index}]"]["health"]
        matches = [v for k, v in trackers.items() if k[0] == "health" and k[1] == "hero"
                   and v[2] == str(health)]
        assert any(top == health for _, top, _ in matches), f"{character.name}: a track to {health}"
    assert not doc.find("pnp:board") and not doc.find("pnp:round-tracker")
    assert len([m for m in doc.find("pnp:counter:death:")]) == len(build.characters)


def test_dial_trackers(pack, tmp_path):
    spec = pack.spec.pieces.model_copy(update={"trackers": TrackersSpec(
        stats={"health": StatTrackerSpec(style="dial", headroom=0)})})
    dial_pack = type(pack)(pack.root, pack.spec.model_copy(update={"pieces": spec}), pack.cards, pack.game_file,
                           pack.preset_files, pack.map_files, pack.rule_files)
    build = load_build(preset(BOSS_PRESETS[-1]), pack)
    out = tmp_path / "dial.pdf"
    build_pieces_pdf(dial_pack, out, build=build)
    doc = Doc(out)
    (index, label, x, y), = doc.find("pnp:tracker:health:boss:")
    assert ":dial:" in label
    circles = [p for p in doc.paths(index) if p.stroked and p.curved and math.dist(p.centre, (x, y)) < 0.1]
    assert circles, "the dial's cut circle"
    width, height = doc.page_size(index)
    assert all(0 < px < width and 0 < py < height for p in circles for px, py in p.points)


# ---- the board ---------------------------------------------------------------------------------


def test_blank_board_is_tiled_at_true_scale(kit_doc, map_hex_mm):
    doc, _, _ = kit_doc
    (index, label, _, _), = doc.find("pnp:board:")
    assert float(label.split(":")[2]) == pytest.approx(map_hex_mm)
    sheets = int(label.split(":")[3])
    board_pages = range(index, len(doc.pages))
    measured = [f2f for i in board_pages for _, _, f2f in cut_hexes(doc, i)]
    assert sheets >= 1 and measured
    full = [f for f in measured if abs(f - map_hex_mm) < 1.0]
    assert full and all(f == pytest.approx(map_hex_mm, abs=TOL_MM) for f in full)


# ---- the rule, config errors, determinism --------------------------------------------------------


def test_footprint_rule(pack, tmp_path):
    path = tmp_path / "party.yaml"
    path.write_text(LEGAL_PARTY, encoding="utf-8")
    party = load_build(path, pack)
    assert all(footprint_of(pack, party, c) == [(0, 0)] for c in party.characters)
    for name in BOSS_PRESETS:
        build = load_build(preset(name), pack)
        assert set(footprint_of(pack, build, build.characters[0])) == rule_footprint(pack, build)


def test_output_is_deterministic(pack, tmp_path, kit_doc):
    _, _, first = kit_doc
    again = tmp_path / "again.pdf"
    build_pieces_pdf(pack, again)
    assert again.read_bytes() == first.read_bytes()


def test_pieces_config_mistakes_are_reported_with_lines(tmp_path):
    root = tmp_path / "boss_fight"
    shutil.copytree(PACK_DIR, root)
    game = root / "game.yaml"
    text = game.read_text(encoding="utf-8")
    text = text.replace("      card: spawnling\n", "      card: spawnlin\n")
    text = text.replace("{id: dazzled, keyword: dazzled,", "{id: dazzled, keyword: dazled,")
    text = text.replace("      icon: skull\n", "      icon: skul\n")
    text = text.replace("      footprint: size ", "      footprint: slots ")
    game.write_text(text, encoding="utf-8")
    pack = load_pack(root)
    with pytest.raises(InputError) as err:
        build_pieces_pdf(pack, tmp_path / "x.pdf")
    problems = err.value.problems
    lines = text.splitlines()
    messages = {p.message: p for p in problems}
    assert len(problems) == 4, [p.message for p in problems]
    for needle, fix in (("card `spawnlin`", "spawnling"), ("keyword `dazled`", "dazzled"),
                        ("icon `skul`", "skull"), ("`slots` is not a hexes field", None)):
        problem = next(p for m, p in messages.items() if needle in m)
        assert problem.location.file.endswith("game.yaml")
        assert needle.split("`")[1] in lines[problem.location.line - 1]
        if fix:
            assert fix in (problem.fix or "")
    assert not (tmp_path / "x.pdf").exists()


def test_pieces_config_is_strict():
    with pytest.raises(ValidationError):
        PiecesSpec.model_validate({"counters": [{"id": "x", "shape": "triangle"}]})
    with pytest.raises(ValidationError):
        PiecesSpec.model_validate({"counters": [{"id": "x", "colour": "#000000"}]})
