"""The components issue #27 added to two packs, read back from the PDFs:

- Raid Boss: four hero dice printed as cross-shaped nets (`pieces.dice`), a turn tracker with
  the six steps of a hero's turn (`pieces.trackers.phases`), core abilities framed green, blue
  and red on the hero cards;
- Battle Bosses: the Arena Mode dashboard on the back of every dashboard (arena versions of
  abilities marked), extra costs in their own blue box, the pack's damage symbol in card text.
"""

from __future__ import annotations

import shutil

import pytest
from pypdf import PdfReader

from conftest import REPO
from generator.build import build_folder
from generator.core.errors import InputError
from generator.export.options import BuildOptions
from generator.core.pdfwords import page_words
from generator.pack.load import load_pack
from generator.render.pieces.dice import TAB_MM
from generator.render.pieces.document import build_pieces_pdf
from generator.render.pieces.model import check_pieces
from test_pieces import Doc

RAID = REPO / "card_data" / "raid_boss"
BB = REPO / "card_data" / "battle_bosses"


@pytest.fixture(scope="module")
def raid_pieces(tmp_path_factory):
    out = tmp_path_factory.mktemp("raid") / "pieces.pdf"
    build_pieces_pdf(load_pack(RAID), out)
    return out


def test_four_hero_dice_print_as_nets_of_the_stated_size(raid_pieces):
    doc = Doc(raid_pieces)
    dice = doc.find("pnp:die:hero-die:")
    assert [label.split(":")[3] for _, label, _, _ in dice] == ["1", "2", "3", "4"]
    # and the red ability dice and white bonus dice the design names, six and four
    assert len(doc.find("pnp:die:ability-die:")) == 6 and len(doc.find("pnp:die:bonus-die:")) == 4
    assert {label.split(":", 4)[4] for _, label, _, _ in dice} == {"size=18:faces=1|2|6|5|3|4"}
    (page,) = {i for i, *_ in dice}
    assert doc.find("pnp:page:dice:1")[0][0] == page
    e = 18.0
    for _, _, mx, my in dice:
        # the stroked cut line round the net: 3 faces wide, 4 faces and a glue tab tall
        pts = [p for path in doc.paths(page) if path.op == "S" for p in path.points
               if abs(p[0] - mx) < 2 * e and -2.5 * e - TAB_MM - 1 < p[1] - my < 1.5 * e + 1]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        assert max(xs) - min(xs) == pytest.approx(3 * e, abs=0.05)
        assert max(ys) - min(ys) == pytest.approx(4 * e + TAB_MM, abs=0.05)
        assert (min(xs) + max(xs)) / 2 == pytest.approx(mx, abs=0.05)


def test_the_turn_tracker_names_the_six_steps_in_order(raid_pieces):
    doc = Doc(raid_pieces)
    ((page, label, _, _),) = doc.find("pnp:phase-tracker:")
    assert label == "pnp:phase-tracker:turn:6"
    words = [w for w, _ in page_words(raid_pieces)[page + 1]]
    text = " ".join(words)
    order = [text.index(step) for step in ("Start", "Reveal", "Roll", "Abilities", "Boss Turn", "End")]
    assert order == sorted(order)
    assert "Turn tracker: a hero's turn" in text


def test_a_phase_tracker_naming_no_turn_section_is_refused_at_its_line(tmp_path):
    root = tmp_path / "raid_boss"
    shutil.copytree(RAID, root)
    game = root / "game.yaml"
    game.write_text(game.read_text().replace("phases: {section: turn,", "phases: {section: turns,"))
    (problem,) = check_pieces(load_pack(root))
    assert problem.code == "pieces.reference" and problem.found == "turns"
    assert problem.location.line == next(i for i, ln in enumerate(game.read_text().splitlines(), 1) if "section: turns" in ln)
    assert "did you mean `turn`" in problem.fix


def test_a_die_needs_exactly_six_faces(tmp_path):
    root = tmp_path / "raid_boss"
    shutil.copytree(RAID, root)
    game = root / "game.yaml"
    game.write_text(game.read_text().replace('faces: ["1", "2", "6", "5", "3", "4"]', 'faces: ["1", "2", "6", "5", "3"]', 1))
    with pytest.raises(InputError) as err:
        load_pack(root)
    (problem,) = err.value.problems
    assert problem.location.file.endswith("game.yaml") and "faces" in str(problem.message) + str(problem.expected)


def test_hero_abilities_are_framed_green_blue_red():
    import yaml
    layout = yaml.safe_load((RAID / "templates" / "cards" / "hero.yaml").read_text())
    boxes = {e["id"]: e for e in layout["frame"]}
    assert [boxes[f"ability-{n}-cost-box"]["fill"] for n in (1, 2, 3)] == ["#1b5e20", "#1565c0", "#b3261e"]
    assert [boxes[f"ability-{n}-panel"]["stroke"] for n in (1, 2, 3)] == ["#1b5e20", "#1565c0", "#b3261e"]


@pytest.fixture(scope="module")
def bb_cards(tmp_path_factory):
    out = tmp_path_factory.mktemp("bb")
    list(build_folder(BB, options=BuildOptions.make("home", only="cards"), out_dir=out, parallel=False))
    return out / "cards.pdf"


def test_each_dashboard_back_is_its_arena_mode_dashboard(bb_cards):
    pages = page_words(bb_cards)
    raw = PdfReader(str(bb_cards))
    texts = {n: " ".join(w for w, _ in words) for n, words in pages.items()}
    backs = [n for n in texts if "ARENA MODE" in texts[n]]
    assert backs, "no Arena Mode side printed"
    back = texts[backs[0]]
    # Vexa 14 and Thorvald 15 share the first back sheet; Firestorm and Deep Roots are arena versions
    assert "Arena Health" in back and "14" in back and "15" in back
    assert back.count("(arena version)") == 2
    assert "Firestorm (arena version)" in back and "Deep Roots (arena version)" in back
    assert "Stride:" in back  # an ability that does not change is printed as on the front
    contents = raw.pages[backs[0] - 1].get_contents().get_data()
    assert b"(pnp:back:vexa:" in contents and b"(pnp:back:thorvald:" in contents


def test_extra_costs_sit_in_their_own_box_and_not_in_the_ability_text(bb_cards):
    front = " ".join(w for w, _ in page_words(bb_cards)[1])
    assert front.count("EXTRA COST") == 3  # Vexa's Flare Up, Thorvald's Deep Roots and Take Root
    assert "destroy an Imp" in front and "(also" not in front


def test_damage_in_card_text_carries_the_packs_damage_symbol():
    import re
    assert "hit" in load_pack(BB).spec.icons
    texts = [p.read_text(encoding="utf-8") for p in sorted((BB / "cards").glob("*.yaml"))]
    assert not [t for t in texts if re.search(r"\b\d+ damage", t)]  # every number of damage has the symbol
    assert sum(t.count(":hit: damage") for t in texts) == 33  # six bosses' fronts, their cards and arena versions


def test_battle_bosses_prints_four_resource_dice_per_player_with_the_tables_faces(tmp_path):
    out = tmp_path / "pieces.pdf"
    build_pieces_pdf(load_pack(BB), out)
    labels = [label for _, label, _, _ in Doc(out).find("pnp:die:resource-die:")]
    assert len(labels) == 4 * 6  # four for each player of the largest table, the 3 v 3 arena
    faces = labels[0].split("faces=")[1].split("|")
    # the resource table: 1-2 energy, 3 two energy, 4 crystal, 5 energy and crystal, 6 overload
    assert sorted(faces) == sorted(["Energy", "Energy", "2 Energy", "Crystal", "Energy + Crystal", "Energy + Overload"])
