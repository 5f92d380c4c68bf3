"""Raid Boss as its design says: core abilities as often as a hero can pay, bonus dice kept
until assigned, Overshield / Lock / Steal in the glossary, and the default schedule of extra
ability dice for a boss that does not state its own."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader
from reportlab.lib.units import mm

from generator.cli import main
from generator.pack.load import load_pack
from generator.render.base.pdfout import new_canvas
from generator.render.cards.faces import CardFace, CardPainter, CardShared

REPO = Path(__file__).resolve().parents[1]
PACK_DIR = REPO / "card_data" / "raid_boss"
DEFAULT = [10, 20, 30, 40, 70, 80, 90, 100]


@pytest.fixture(scope="module")
def pack():
    return load_pack(PACK_DIR)


def face_text(pack, card_id: str) -> str:
    """Draw one card face on its own page and read its text back."""
    card = pack.cards[card_id]
    shared = CardShared(pack)
    w, h = pack.card_size_mm(card.type)
    buf = io.BytesIO()
    canvas = new_canvas(buf, (w * mm, h * mm), "test", "front")
    painter = CardPainter(canvas, shared)
    painter.draw_face(CardFace(card, False, 1, 1, shared.layout_for(card.type).name, card.set, card.type), 0, 0)
    canvas.showPage()
    canvas.save()
    return PdfReader(io.BytesIO(buf.getvalue())).pages[0].extract_text()


def award_marks(text: str) -> int:
    """The +1 tags of the ×10 track (each on its own line, after a P2 tag on the phase box)."""
    return len(re.findall(r"^(?:P2 )?\+1$", text, re.M))


def test_a_boss_that_states_its_step_marks_every_multiple(pack):
    text = face_text(pack, "ossuan")  # 120 HP, a die every 30: at 30, 60, 90
    assert award_marks(text) == 3 and "every 30 damage" in text.replace("\n", " ")


def test_a_boss_that_states_nothing_follows_the_default_schedule(pack):
    """Karrun, the first boss, states no step: the design's schedule (issue 41 item 7: no shipped
    boss had used it)."""
    karrun = pack.cards["karrun"]
    assert karrun.fields["die_every"] is None and karrun.fields["dice_at"] == "10, 20, 30, 40, 70, 80, 90, 100"
    text = face_text(pack, "karrun")
    assert award_marks(text) == len([d for d in DEFAULT if d < karrun.fields["hp"]]) == 8
    assert "10, 20, 30, 40, 70, 80, 90, 100" in text.replace("\n", " ")


def test_every_hero_starts_with_two_ability_dice_and_max_sits_above_max_hp(pack):
    """The design: every hero takes two ability dice at setup (Quill had three), and the Max HP
    marker goes on the box one above the hero's Max HP (it sat on the Max HP box)."""
    heroes = pack.cards_of("hero")
    assert len(heroes) == 12 and {h.fields["ability_dice"] for h in heroes} == {2}
    for hero in heroes:
        text = face_text(pack, hero.id)
        lines = text.splitlines()
        assert "BASE" in lines and "MAX" in lines, hero.id
        assert "BASE·MAX" not in text  # never on one box: MAX is above Max HP, BASE at most Max HP
    # the tag placement, by the layout's own conditions (the text is read back above)
    shared = CardShared(pack)
    layout = shared.layout_for("hero")
    for hero in heroes:
        ctx = shared.context(hero, hero.set, hero.type)
        shown = {e.id for e in layout.elements if e.id and e.id.startswith("hp-") and e.id.endswith("-tag")
                 and layout.evaluate(e.when, ctx, e)}
        assert shown == {f"hp-{hero.fields['base_hp']}-tag", f"hp-{hero.fields['max_hp'] + 1}-tag"}, hero.id


def test_the_default_schedule_is_stated_once_in_game_yaml(pack):
    default = pack.spec.card_types["boss"].fields["dice_at"].default
    assert [int(x) for x in default.split(",")] == DEFAULT


@pytest.fixture(scope="module")
def texts(pack, tmp_path_factory):
    out = tmp_path_factory.mktemp("raid-rules")
    result = CliRunner().invoke(main, ["build", str(PACK_DIR), "-o", str(out), "--only", "rulebook"])
    assert result.exit_code == 0, result.output
    read = lambda name: " ".join(p.extract_text() for p in PdfReader(out / name).pages)  # noqa: E731
    return {name: re.sub(r"\s+", " ", read(name)) for name in ("rulebook.pdf", "quick-reference.pdf")}


def test_core_abilities_are_not_limited_to_once_a_turn(texts):
    for name, text in texts.items():
        assert not re.search(r"(each|every) (core )?ability (may be used )?(at most )?once", text, re.I), name
        assert "once per turn" not in text.replace("Once per turn, when you move", ""), name
    assert "as often as you can pay" in texts["quick-reference.pdf"]
    assert "again and again in one turn" in texts["rulebook.pdf"]


def test_bonus_dice_are_kept_until_assigned(texts):
    rules = texts["rulebook.pdf"]
    assert "spent only when you assign it" in rules
    assert "once rolled they are spent" not in rules


@pytest.mark.parametrize("term", ["Overshield", "Lock", "Steal", "Core ability"])
def test_the_glossary_defines_the_designs_terms(pack, texts, term):
    assert term in [g.term for g in pack.spec.reference.glossary]
    assert term in texts["rulebook.pdf"]
