"""A fresh pack is clean, at every card size `pnp new --size` takes: no blank reference card
and no empty quick-reference page in any output (cards, DTC, TTS, PNG); the rulebook's
generated pages only for what the pack has, naming nothing it lacks; gutterfold lays large
cards on their side, two to a half; `pnp preflight --service mpc` accepts the PNGs `pnp build
--service mpc` made. And the other way round: a pack with status effects gets its reference
card and quick reference."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from reportlab.lib.units import mm

from generator.cli import main
from generator.core.pdfwords import page_words
from generator.pack.model import CARD_SIZES_MM
from generator.pack.scaffold import create_pack
from generator.render.cards import sheets as cardsheets

REPO = Path(__file__).resolve().parents[1]
SIZES = sorted(CARD_SIZES_MM)
# what a fresh pack has not: none of it may be named in its rulebook
ABSENT = re.compile(r"Presets|Map Catalogue|hex grid|action deck|status effect|deck size|Round and Turn|Combat",
                    re.I)


def _build(pack: Path, out: Path, *args: str):
    result = CliRunner().invoke(main, ["build", str(pack), "-q", "-o", str(out), *args])
    assert result.exit_code == 0, result.output
    return result


def _faces(pdf: Path) -> list[str]:
    return [w for words in page_words(pdf).values() for w, _ in words if w.startswith(("pnp:face:", "pnp:back:"))]


@pytest.fixture(scope="module", params=SIZES)
def fresh(request, tmp_path_factory):
    root = tmp_path_factory.mktemp(f"fresh-{request.param}")
    return request.param, create_pack("Fresh Game", root, request.param)


def test_kit_has_no_blank_reference_card_nor_empty_quick_reference(fresh, tmp_path):
    _, pack = fresh
    result = _build(pack, tmp_path)
    written = {Path(line.split()[1]).name for line in result.stdout.splitlines()}
    assert written == {"cards.pdf", "calibration.pdf", "rulebook.pdf"}
    assert not (tmp_path / "quick-reference.pdf").exists()
    assert "note: no quick-reference.pdf" in result.stderr and "note: no reference card" in result.stderr
    faces = _faces(tmp_path / "cards.pdf")
    assert faces and all(":first-unit:" in f for f in faces)  # the one card, front and back; no reference
    text = " ".join(w for words in page_words(tmp_path / "rulebook.pdf").values() for w, _ in words)
    assert "Card List" in text and "Glossary" in text and "Credits" in text
    assert not ABSENT.search(text), ABSENT.search(text)


def test_print_services_have_no_reference_card(fresh, tmp_path):
    _, pack = fresh
    _build(pack, tmp_path, "--service", "dtc")
    (deck,) = (tmp_path / "dtc").glob("*.pdf")
    assert all(":first-unit:" in f for f in _faces(deck)) and _faces(deck)
    _build(pack, tmp_path, "--profile", "tts")
    decks = json.loads((tmp_path / "tts" / "decks.json").read_text(encoding="utf-8"))["decks"]
    assert [i for d in decks for i in d["ids"]] == ["first-unit", "first-unit"]
    _build(pack, tmp_path, "--service", "mpc")
    rows = json.loads((tmp_path / "png-mpc" / "manifest.json").read_text(encoding="utf-8"))["rows"]
    assert [r["card"] for r in rows] == ["first-unit"]
    assert sorted(p.name for p in (tmp_path / "png-mpc").glob("*.png")) == sorted(
        {rows[0]["face_file"], rows[0]["back_file"]})


def test_preflight_accepts_the_mpc_pngs_build_made(fresh, tmp_path):
    size, pack = fresh
    _build(pack, tmp_path, "--service", "mpc")
    result = CliRunner().invoke(main, ["preflight", str(tmp_path / "png-mpc"), "--service", "mpc", "--format", "json"])
    doc = json.loads(result.stdout)
    assert result.exit_code == 0 and doc["verdict"] == "ok" and doc["errors"] == 0, doc
    # the illegal case: the same card at another service's size is refused, naming the size wanted
    result = CliRunner().invoke(main, ["preflight", str(tmp_path / "png-mpc"), "--service", "tgc"])
    assert result.exit_code == 1 and f"for a{'n' if size[0] in 'aeiou' else ''} {size} card" in result.stdout


# laid on their side where more fit to a half sheet that way: a tarot card is taller than half
# an A4 or Letter landscape sheet (one a sheet upright, two on its side); mini-european cards
# go 8 on their side instead of 6 upright on A4
ON_SIDE = {("tarot", "a4"), ("tarot", "letter"), ("mini-european", "a4")}


def test_gutterfold_lays_large_cards_on_their_side(fresh, tmp_path, monkeypatch):
    size, pack = fresh
    placed = []
    draw = cardsheets._draw_faces

    def record(canvas, painter, faces, slots, turn=0):
        placed.extend((f.back, turn, s.w / mm, s.h / mm) for f, s in zip(faces, slots))
        return draw(canvas, painter, faces, slots, turn)

    monkeypatch.setattr(cardsheets, "_draw_faces", record)
    for paper in ("a4", "letter"):
        placed.clear()
        result = _build(pack, tmp_path / paper, "--profile", "gutterfold", "--paper", paper)
        assert "(1 page, 2 cards" in result.stdout  # both copies on one sheet: never one card a sheet
        w, h = CARD_SIZES_MM[size]
        on_side = (size, paper) in ON_SIDE
        assert len(placed) == 4
        for back, turn, sw, sh in placed:
            assert turn == ((-90 if back else 90) if on_side else 0)
            want = (h, w) if on_side else (w, h)
            assert sw == pytest.approx(want[0], abs=0.05) and sh == pytest.approx(want[1], abs=0.05)
        faces = _faces(tmp_path / paper / "cards-gutterfold.pdf")
        assert sorted(f.split(":")[1] for f in faces) == ["back", "back", "face", "face"]


def test_a_pack_with_status_effects_gets_its_reference_card_and_sheet(tmp_path):
    pack = create_pack("Status Game", tmp_path, "tarot")
    game = pack / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace(
        "keywords:\n", "keywords:\n  dazed: {name: Dazed, kind: status, text: Skip your next action.}\n"),
        encoding="utf-8")
    result = _build(pack, tmp_path / "out")
    assert "note:" not in result.stderr
    assert (tmp_path / "out" / "quick-reference.pdf").is_file()
    assert any(f.startswith("pnp:face:reference:") for f in _faces(tmp_path / "out" / "cards.pdf"))
    words = [w for ws in page_words(tmp_path / "out" / "quick-reference.pdf").values() for w, _ in ws]
    assert "Dazed:" in words or "Dazed" in words
    text = " ".join(w for ws in page_words(tmp_path / "out" / "rulebook.pdf").values() for w, _ in ws)
    assert "Status Effects" in text and "status effects)" in text  # the page, and the credits' list


def test_generated_pages_follow_what_the_pack_has():
    """boss_fight has presets with points and action decks; tactics' presets have no decks;
    battle_bosses prices nothing: the Presets intro and the Card List say only that."""
    from generator.pack.load import load_pack
    from generator.render.rulebook.book import book_context
    from generator.render.rulebook.templating import render_template
    from generator.render.rulebook.book import read_template

    def page(name, template):
        pack = load_pack(REPO / "card_data" / name)
        env, ctx = book_context(pack, [])
        return render_template(env, read_template(pack, template)[1], ctx, template), ctx

    text, ctx = page("boss_fight", "presets.md")
    assert ctx["preset_summary"] == {"count": 10, "points": True, "decks": True}
    assert "every card that costs points, its total" in text and "action deck of every character" in text
    text, ctx = page("tactics", "presets.md")
    assert ctx["preset_summary"]["decks"] is False and "action deck" not in text and "costs points" in text
    text, ctx = page("battle_bosses", "card-list.md")
    assert ctx["priced"] is False and "points" not in text
    text, _ = page("boss_fight", "maps.md")
    assert text.strip() == ""  # no maps passed in: no Map Catalogue at all
