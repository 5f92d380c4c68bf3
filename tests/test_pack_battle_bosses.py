"""The Battle Bosses pack: it validates with the stated counts, its own deck rules pass a legal
deck and name every broken rule of an illegal one, its map tiles print at the stated hex size
(read back from maps.pdf to 0.05 mm) with a cut line round each, and the whole kit builds."""

from __future__ import annotations

import math

import pypdf
import pytest
from click.testing import CliRunner

from conftest import REPO
from generator.cli import main
from generator.pack.load import load_build, load_pack, load_presets
from generator.maps import load_pack_maps
from generator.render.cards.faces import CardShared
from generator.render.base.pdfout import MM
from generator.rules.engine import validate_build
from generator.validate.checks import pack_report
from generator.validate.packs import validate_pack
from test_maps import hexagons, painted

PACK_DIR = REPO / "card_data" / "battle_bosses"
REGIONS = ["Alpha Base", "Alpha Spawn", "Cool Zone", "The Wastes", "Hot Zone", "Omega Spawn", "Omega Base"]
HEX_MM = 25.4  # PRINT-SPECS.md: 1 in flat to flat, the usual hex for 25-28 mm bases
BOSSES = (("vexa", "cinder"), ("thorvald", "grove"), ("sable", "gale"), ("mortimer", "blight"), ("brask", "foundry"),
          ("seraphine", "glass"))
TOLERANCE_MM = 0.05


@pytest.fixture(scope="module")
def bb():
    return load_pack(PACK_DIR)


# ---- the pack ----------------------------------------------------------------------------------


def test_the_pack_validates_with_its_counts(bb):
    report = pack_report(bb)
    assert report.legal and not report.violations
    by_type: dict = {}
    for card in bb.cards.values():
        by_type[card.type] = by_type.get(card.type, 0) + 1
    assert by_type == {"dashboard": 6, "effect": 29, "upgrade": 19, "pet": 3}
    assert report.stats["cards"] == 57 and report.stats["presets"] == 6
    # every pet is the reward of a wild-camp counter, and has its pet tile
    counters = {c.id: c for c in bb.spec.pieces.counters}
    for pet in bb.cards_of("pet"):
        assert pet.fields["stats"]["health"] >= 1 and pet.fields["abilities"], pet.id
        assert f"pet-{pet.id}" in counters and f"camp-{pet.id}" in counters, pet.id
        assert "becomes your pet" in counters[f"camp-{pet.id}"].text
    for boss, set_id in BOSSES:
        own = [c for c in bb.cards.values() if c.fields.get("boss") == boss]
        assert len(own) == 7 and all(c.set == set_id for c in own)
        assert len(bb.cards[boss].fields["abilities"]) == 4
        assert all(a["cost"] >= 0 and a["text"] for a in bb.cards[boss].fields["abilities"])
    maps = load_pack_maps(bb)
    tiles = [m for m in maps if m.tile is not None]
    assert len(maps) == 20 and len(tiles) == 18
    for letter in "AB":  # each player's nine tiles, one home tile with a start space
        mine = [m for m in tiles if m.tile.label.startswith(letter)]
        assert sorted(m.tile.label for m in mine) == [f"{letter}{n}" for n in range(1, 10)]
        assert len({m.tile.set for m in mine}) == 1 and len({m.tile.color for m in mine}) == 1
        assert [m.tile.label for m in mine if m.zones.get("boss")] == [f"{letter}1"]
        assert all(len(m.hexes) == 6 and m.hex_size == HEX_MM for m in mine)
    arenas = {len(m.hexes): m for m in maps if m.tile is None}
    assert sorted(arenas) == [91, 127]  # the four-player and the six-player board
    for size, arena in arenas.items():
        assert [arena.region_names[r] for r in arena.regions] == REGIONS
        every = [h for r in arena.regions.values() for h in r]
        assert len(every) == len(set(every)) == size  # every space in exactly one region
        base = {h for h, terrain in arena.terrain.items() if terrain == "base"}
        spawn = set(arena.zones["boss"])
        assert base and not base & spawn  # a boss never waits to spawn inside a base
        assert base == set(arena.regions["alpha-base"]) | set(arena.regions["omega-base"])
        assert spawn <= set(arena.regions["alpha-spawn"]) | set(arena.regions["omega-spawn"])


def test_pnp_validate_exits_0_and_every_report_is_legal(bb, in_repo):
    result = CliRunner().invoke(main, ["validate", "card_data/battle_bosses"])
    assert result.exit_code == 0, result.output
    assert "all legal" in result.output
    reports = validate_pack(bb)
    assert len(reports) == 1 + 6 + 20 and all(r.legal for r in reports)


def test_six_different_bosses_for_the_three_a_side_arena(bb):
    """Issue 41 item 1: the 3 v 3 arena needs six different bosses. Each new one is built like
    the first three (a move, a minion maker, a special token, an ultimate; an Arena Health below
    its Health; seven cards of its own with a promotion and two one-per-deck cards; a preset),
    and stays within their range: Health 18 to 24, Arena Health 12 to 16, the move at 1 or 2
    energy, the ultimate at 4 to 6."""
    dashboards = bb.cards_of("dashboard")
    assert len(dashboards) == 6 and len({d.set for d in dashboards}) == 6
    assert bb.spec.sides["boss"].characters.kit == 6  # the largest table the kit prints for
    for d in dashboards:
        f = d.fields
        assert 18 <= f["stats"]["health"] <= 24 and 12 <= f["arena_health"] <= 16, d.id
        abilities = f["abilities"]
        assert abilities[0]["cost"] in (1, 2) and "Move" in abilities[0]["text"], d.id
        assert "Make a" in abilities[1]["text"], d.id
        assert 4 <= abilities[-1]["cost"] <= 6, d.id
        assert f["token"] and f["minion"] and len(f["minion_abilities"]) == 2 and f["arena_abilities"], d.id
        arena = {a["name"] for a in f["arena_abilities"]}
        assert arena <= {a["name"] for a in abilities}, d.id  # an arena version replaces a boss ability
        own = [c for c in bb.cards.values() if c.fields.get("boss") == d.id]
        assert sum(1 for c in own if c.type == "upgrade" and c.fields.get("promotion")) == 1, d.id
        assert sum(1 for c in own if c.fields.get("deck_limit") == 1) == 2, d.id
        counters = {c.id: c for c in bb.spec.pieces.counters}
        minion = next(c for c in counters.values() if c.label.casefold() == d.fields["minion"].split()[-1].casefold())
        assert minion.color == bb.spec.sets[d.set].color and minion.count == 12, d.id
        assert any(c.label.casefold() == f["token"].casefold() for c in counters.values()), d.id
    presets = {b.characters[0].bases[0].card.id for b in load_presets(bb)}
    assert presets == {d.id for d in dashboards}
    # six decks at once: every common card is printed twice for each of the six bosses
    for card in bb.cards.values():
        if card.set == "common":
            assert card.copies == 12, card.id
        elif card.type in ("effect", "upgrade"):
            assert card.copies == (card.fields.get("deck_limit") or 2), card.id
    needed: dict = {}
    for build in load_presets(bb):
        for entry in build.characters[0].deck:
            needed[entry.card.id] = needed.get(entry.card.id, 0) + entry.copies
    assert all(n <= bb.cards[cid].copies for cid, n in needed.items())  # all six presets from one kit


def test_dashboards_are_large_cards_with_their_own_layout_and_back(bb):
    assert bb.card_size_mm("dashboard") == (180.0, 120.0)
    assert bb.card_size_mm("effect") == (63.5, 88.9)
    shared = CardShared(bb)
    assert shared.layout_for("dashboard").name == "dashboard"
    assert shared.back_layout("dashboard").name == "back-dashboard"
    assert shared.back_layout("effect").name == "back"
    assert shared.layout_for("upgrade").name == "upgrade"


# ---- the pack's own deck rules -------------------------------------------------------------------


LEGAL_DECK = """\
pack: battle_bosses
name: Test Court
side: boss
characters:
  - boss: vexa
    deck:
      flashfire: 2
      imp-swarm: 2
      ember-rain: 2
      furnace-heart: 2
      crown-of-cinders: 1
      blazing-imps: 2
      pyre-of-the-queen: 1
      power-surge: 2
      war-banner: 2
"""

# 17 cards, three Flashfires, two of a one-per-deck card, a card of another boss, a dashboard
# in the deck, and only three Upgrades.
ILLEGAL_DECK = """\
pack: battle_bosses
name: Test Mess
side: boss
characters:
  - boss: vexa
    deck:
      flashfire: 3
      imp-swarm: 2
      ember-rain: 2
      furnace-heart: 2
      pyre-of-the-queen: 2
      power-surge: 2
      second-wind: 2
      barkskin: 1
      thorvald: 1
"""


def _check(bb, tmp_path, text):
    path = tmp_path / "deck.yaml"
    path.write_text(text, encoding="utf-8")
    return validate_build(bb, load_build(path, bb)), text


def _line(text, needle):
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_a_legal_deck_and_every_preset_pass(bb, tmp_path):
    report, _ = _check(bb, tmp_path, LEGAL_DECK)
    assert report.legal and report.violations == [], [v.message for v in report.violations]
    for preset in bb.preset_files:
        assert validate_build(bb, load_build(preset, bb)).legal


def test_an_illegal_deck_names_every_broken_rule_at_its_line(bb, tmp_path):
    report, text = _check(bb, tmp_path, ILLEGAL_DECK)
    assert not report.legal
    got = {(v.rule, v.location.line) for v in report.violations}
    assert got == {
        ("deck.size", _line(text, "deck:")),
        ("deck.copies", _line(text, "flashfire: 3")),
        ("deck.copies", _line(text, "pyre-of-the-queen: 2")),
        ("deck.owner", _line(text, "barkskin")),
        ("card.kind", _line(text, "thorvald: 1")),
        ("deck.upgrades", _line(text, "- boss: vexa")),
    }
    by_rule = {v.rule: v for v in report.violations}
    assert by_rule["deck.size"].message == "Vexa's deck has 17 cards; it must have exactly 16"
    assert by_rule["deck.owner"].message == "Barkskin belongs to Thorvald; Vexa may not use it"
    assert by_rule["deck.owner"].fix == "remove Barkskin: only Thorvald may take it"
    assert by_rule["card.kind"].expected == "effect or upgrade"  # a deck of two card types
    assert "takes Effect or Upgrade cards" in by_rule["card.kind"].message
    assert (by_rule["deck.upgrades"].observed, by_rule["deck.upgrades"].expected) == (3, "at least 4")
    pyre = [v for v in report.violations if v.rule == "deck.copies" and "Pyre" in v.message]
    assert pyre and pyre[0].expected == "at most 1"  # the card's own deck_limit


def test_effects_and_upgrades_both_count_as_deck_cards(bb, tmp_path):
    """`deck: {type: [effect, upgrade]}`: either type is at home in the deck, no card.kind."""
    report, _ = _check(bb, tmp_path, LEGAL_DECK)
    kinds = {bb.cards[line.id].type for line in report.points.lines} | {"effect", "upgrade"}
    assert not [v for v in report.violations if v.rule == "card.kind"] and "upgrade" in kinds


# ---- map tiles in maps.pdf -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def maps_pdf(bb, tmp_path_factory):
    from generator.render.maps.document import build_maps_pdf
    out = tmp_path_factory.mktemp("bb-maps") / "maps.pdf"
    info = build_maps_pdf(bb, out)
    return out, pypdf.PdfReader(str(out)), info


def _markers(page) -> list[tuple[str, float, float]]:
    found = []

    def visit(text, cm, tm, font, size):
        if text.startswith("pnp:"):
            a, b, c, d, e, f = cm
            found.append((text, a * tm[4] + c * tm[5] + e, b * tm[4] + d * tm[5] + f))

    page.extract_text(visitor_text=visit)
    return found


def test_every_tile_is_printed_once_on_tile_sheets(maps_pdf):
    out, reader, info = maps_pdf
    assert info["tiles"] == 18 and info["maps"] == 2  # the two arena boards
    tiles = [m for page in reader.pages for m in _markers(page) if m[0].startswith("pnp:tile:")]
    ids = sorted(label.split(":")[2] for label, _, _ in tiles)
    assert ids == sorted([f"tile-a{n}" for n in range(1, 10)] + [f"tile-b{n}" for n in range(1, 10)])
    assert all(label.endswith(f":1:{HEX_MM:g}:6") for label, _, _ in tiles)


def test_tile_hexes_print_at_the_stated_size_with_a_cut_line_round_each(maps_pdf):
    out, reader, info = maps_pdf
    checked = 0
    for page in reader.pages:
        tiles = [m for m in _markers(page) if m[0].startswith("pnp:tile:")]
        if not tiles:
            continue
        paths = painted(page, reader)
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        grid = [h for h in hexagons(paths) if min(h[1]) > HEX_MM * 0.95]
        assert len(grid) >= 6 * len(tiles)
        for _centre, flats, edges, _ in grid:
            for flat in flats:
                assert abs(flat - HEX_MM) <= TOLERANCE_MM, flat
            for edge in edges:
                assert abs(edge - HEX_MM / math.sqrt(3)) <= TOLERANCE_MM, edge
        # the cut lines: closed 18-corner outlines of a 3 x 2 brick, every side one hex edge long
        outlines = [pts for op, clip, subs in paths if not clip and op in (b"S", b"s")
                    for pts in subs if len(pts) == 18]
        cut = {}
        for pts in outlines:
            sides = [math.dist(pts[i], pts[(i + 1) % 18]) / MM for i in range(18)]
            assert all(abs(s - HEX_MM / math.sqrt(3)) <= TOLERANCE_MM for s in sides), sides
            box = (round(min(p[0] for p in pts), 1), round(min(p[1] for p in pts), 1),
                   round(max(p[0] for p in pts), 1), round(max(p[1] for p in pts), 1))
            cut[box] = pts
        for label, x, y in tiles:  # each tile's hex (0, 0) lies inside exactly one outline
            inside = [b for b in cut if b[0] < x < b[2] and b[1] < y < b[3]]
            assert len(inside) == 1, label
            box = inside[0]
            # the whole tile stays 10 mm inside the paper, clear of home printers' dead edge
            assert box[0] >= 10 * MM - 0.5 and box[1] >= 10 * MM - 0.5
            assert box[2] <= width - 10 * MM + 0.5 and box[3] <= height - 10 * MM + 0.5
        boxes = list(cut)
        for i, a in enumerate(boxes):  # cut lines of neighbouring tiles at least 4 mm apart
            for b in boxes[i + 1:]:
                apart = max(b[0] - a[2], a[0] - b[2], b[1] - a[3], a[1] - b[3])
                assert apart >= 4 * MM - 0.5, (a, b)
        checked += len(tiles)
    assert checked == 18


def test_the_arena_prints_as_a_tiled_board_with_its_regions(maps_pdf):
    out, reader, info = maps_pdf
    raw = b"".join(page.get_contents().get_data() for page in reader.pages)
    assert b"(The Sundered Arena, six players)" in raw and b"(The Sundered Arena, four players)" in raw
    assert raw.count(b"This bar must measure 100 mm") == info["sheets"]
    assert b"(ALPHA BASE)" in raw and b"(THE WASTES)" in raw  # region names on the true-scale sheets


# ---- the kit -------------------------------------------------------------------------------------


def test_the_whole_kit_builds(tmp_path):
    from generator.build import build_folder
    lines = list(build_folder(PACK_DIR, out_dir=tmp_path, parallel=False))
    for name in ("cards.pdf", "calibration.pdf", "pieces.pdf", "maps.pdf", "rulebook.pdf", "quick-reference.pdf"):
        assert (tmp_path / name).is_file() and any(name in line for line in lines), name
    cards = pypdf.PdfReader(str(tmp_path / "cards.pdf"))
    raw = b"".join(page.get_contents().get_data() for page in cards.pages)
    for boss, _set in BOSSES:
        assert f"(pnp:face:{boss}:".encode() in raw and f"(pnp:back:{boss}:".encode() in raw
    pieces = pypdf.PdfReader(str(tmp_path / "pieces.pdf"))
    labels = [m[0] for page in pieces.pages for m in _markers(page)]
    for kind, n in (("cinder-imp", 12), ("sproutling", 12), ("deckhand", 12), ("rotling", 12), ("drone", 12),
                    ("wisp", 12), ("smoulder", 6), ("bramble", 6), ("loot", 5), ("miasma", 6), ("turret", 4),
                    ("mirror", 4), ("energy", 40), ("crystal", 40)):
        assert sum(1 for lb in labels if lb.startswith(f"pnp:counter:{kind}:") and ":front:" in lb) == n, kind
    assert sum(1 for lb in labels if lb.startswith("pnp:standee:boss:")) == 6
    assert sum(1 for lb in labels if lb.startswith("pnp:tracker:health:boss:")) == 6
    # the arena's trackers: each team's base (20; 15 in 2 v 2) and four for wild monsters and pets
    named = [lb for lb in labels if lb.startswith("pnp:tracker:health::")]
    assert sorted(lb.split(":")[4] for lb in named) == ["base-alpha", "base-omega"] + ["wild"] * 4
    assert all("max=20:start=20" in lb for lb in named if "base-" in lb)
    assert all("max=8:" in lb for lb in named if ":wild:" in lb)  # the Thornback's 8 Health fits
    assert max(p.fields["stats"]["health"] for p in load_pack(PACK_DIR).cards_of("pet")) <= 8
    assert sum(1 for lb in labels if lb.startswith("pnp:die:resource-die:")) == 24  # four for each of six players
    rulebook = pypdf.PdfReader(str(tmp_path / "rulebook.pdf"))
    assert len(rulebook.pages) >= 10


# ---- the general capabilities the pack uses, refusing bad input ---------------------------------


@pytest.fixture
def pack_copy(tmp_path):
    import shutil
    target = tmp_path / "battle_bosses"
    shutil.copytree(PACK_DIR, target, ignore=shutil.ignore_patterns("maps", "rules"))
    return target


def test_an_ability_without_a_cost_is_an_input_error_at_its_line(pack_copy):
    from generator.core.errors import InputError
    path = pack_copy / "cards" / "dashboards.yaml"
    text = path.read_text().replace("{name: Kindle, cost: 2,", "{name: Kindle,")
    path.write_text(text)
    with pytest.raises(InputError) as caught:
        load_pack(pack_copy)
    (problem,) = caught.value.problems
    assert problem.location.line == _line(text, "name: Kindle") and "cost" in problem.message


def test_a_deck_type_list_naming_an_unknown_type_is_refused(pack_copy):
    from generator.core.errors import InputError
    path = pack_copy / "game.yaml"
    original = path.read_text()
    text = original.replace("deck: {type: [effect, upgrade]", "deck: {type: [effect, upgrad]")
    assert text != original  # the edit applies to the shipped game.yaml
    path.write_text(text)
    with pytest.raises(InputError) as caught:
        load_pack(pack_copy)
    (problem,) = caught.value.problems
    assert problem.code == "pack.reference" and problem.fix == "did you mean `upgrade`?"
    assert problem.location.line == _line(text, "upgrad]")
