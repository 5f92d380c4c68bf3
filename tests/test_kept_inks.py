"""String inks kept between processes (render/base/glyphs.py: string_ink, KEPT, MEASURED;
render/cards/ink.py: read_inks, keep_inks): the layout checks measure where each string of a
card puts ink, and the next process reads those measures from the user's cache folder instead
of measuring again. A kept ink is the ink: the same numbers for every string of the shipped
pack's faces in English and German; an entry that is not one is measured again."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from generator.kit import pack_faces
from generator.pack.load import load_pack
from generator.preflight.layout import LayoutChecks
from generator.render.base import glyphs
from generator.render.base.fonts import BOLD, register_fonts
from generator.render.base.pdfout import new_canvas
from generator.render.cards.faces import CardPainter, CardShared
from generator.render.cards.ink import keep_inks, read_inks

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    """A process of its own, as far as string inks go: nothing measured, kept or cached yet; the
    cache folder in tmp_path; `made` lists each ink measured (not read)."""
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    made: list = []
    real = glyphs._measured

    def measuring(font_name, text):
        made.append((font_name, text))
        return real(font_name, text)

    monkeypatch.setattr(glyphs, "_measured", measuring)

    def restart():
        monkeypatch.setattr(glyphs, "KEPT", {})
        monkeypatch.setattr(glyphs, "MEASURED", {})
        glyphs.string_ink.cache_clear()

    restart()
    yield made, restart
    glyphs.string_ink.cache_clear()


def _checked(pack) -> None:
    """Every side of the pack drawn on a scratch page and checked, as pnp validate does."""
    shared = CardShared(pack)
    faces = pack_faces(pack, shared, copies=False)
    checks = LayoutChecks(pack, shared, faces=faces)
    canvas = new_canvas(io.BytesIO(), (600, 600), "check")
    canvas.scratch = True
    painter = CardPainter(canvas, shared)
    for face in faces:
        painter.draw_face(face, 0.0, 0.0, tick=False)
    checks.findings()


@pytest.mark.parametrize("lang", [None, "de"])
def test_every_kept_ink_of_a_shipped_pack_is_the_ink(fresh, lang):
    made, restart = fresh
    pack = load_pack(REPO / "card_data" / "boss_fight", lang=lang)
    _checked(pack)
    measured = {(font, text) for font, texts in glyphs.MEASURED.items() for text in texts}
    assert len(made) == len(measured) > 500
    restart()
    made.clear()
    _checked(pack)
    assert made == []  # every string's ink read, none measured
    read = {(font, text): glyphs.string_ink(font, text) for font, text in measured}
    assert all(ink == glyphs._measured(font, text) for (font, text), ink in read.items())
    assert any(ink.box is not None and ink.word != ink.box for ink in read.values())


def test_a_kept_ink_that_is_not_one_is_measured_again(fresh):
    made, restart = fresh
    register_fonts()
    read_inks([BOLD])
    right = glyphs.string_ink(BOLD, "Stun 3")
    keep_inks()
    for wrong in (("box",), 7, None):
        restart()
        read_inks([BOLD])
        assert glyphs.KEPT[BOLD]["Stun 3"] == tuple(right)
        glyphs.KEPT[BOLD]["Stun 3"] = wrong
        assert glyphs.string_ink(BOLD, "Stun 3") == right
    assert len(made) == 4  # measured the first time, and again past each entry that was not an ink


def test_the_inks_of_two_languages_are_kept_side_by_side(fresh):
    """pnp validate checks each language in a worker of its own: what one keeps does not push
    out what the other kept (each would measure everything again at every run)."""
    made, restart = fresh
    packs = [load_pack(REPO / "card_data" / "boss_fight", lang=lang) for lang in (None, "de")]
    for pack in packs:
        restart()
        _checked(pack)
    made.clear()
    for pack in packs:
        restart()
        _checked(pack)
    assert made == []
