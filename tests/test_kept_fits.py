"""Text fits kept between processes (render/base/text.py: TextFitter(kept=True), keep_fits): a
card's text fitted by one `pnp build` or `pnp validate` is read by the next instead of fitted
again, in the user's cache folder (render/base/templatecache.py). A kept fit is the fit: the
same lines, runs, widths and sizes as fitting gives, for every text of the shipped packs in
their languages; a text that does not fit stays an error with the same numbers; a font file
changed is fitted afresh."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from generator.kit import pack_faces
from generator.pack.load import load_pack
from generator.render.base import text as textmod
from generator.render.base.fonts import REGULAR, register_fonts, register_pack_fonts
from generator.render.base.pdfout import new_canvas
from generator.render.base.text import FitError, TextFitter
from generator.render.cards.faces import CardPainter, CardShared

REPO = Path(__file__).resolve().parents[1]


def _counting(monkeypatch) -> list:
    """Every fit worked out (not read): a list that grows by one each."""
    made: list = []
    real = TextFitter._fitted_now

    def counting(self, *args):
        made.append(args[0])
        return real(self, *args)

    monkeypatch.setattr(TextFitter, "_fitted_now", counting)
    return made


def _fits(pack, monkeypatch) -> list:
    """Every face and back of the pack drawn on a scratch page: each fit it asked for, with what
    the fitter gave, in order."""
    asked: list = []
    real = TextFitter.fit

    def fit(self, *args, **kwargs):
        asked.append((args, kwargs, real(self, *args, **kwargs)))
        return asked[-1][2]

    monkeypatch.setattr(TextFitter, "fit", fit)
    shared = CardShared(pack)
    canvas = new_canvas(io.BytesIO(), (600, 600), "check")
    canvas.scratch = True
    painter = CardPainter(canvas, shared)
    for face in pack_faces(pack, shared, copies=False):
        painter.draw_face(face, 0.0, 0.0, tick=False)
    shared.fitter.keep_fits()
    monkeypatch.setattr(TextFitter, "fit", real)
    return asked


@pytest.mark.parametrize("lang", [None, "de"])
def test_every_kept_fit_of_a_shipped_pack_is_the_fit(tmp_path, monkeypatch, lang):
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    pack = load_pack(REPO / "card_data" / "boss_fight", lang=lang)
    made = _counting(monkeypatch)
    fitted = _fits(pack, monkeypatch)
    assert len(made) == len({(args[0], args[1:]) for args, _kw, _lay in fitted}) > 600
    assert any(len(lay.lines) > 2 for _a, _k, lay in fitted)  # rules text of several lines
    assert any(lay.size < 8 for _a, _k, lay in fitted)  # and shrunk to fit
    if lang == "de":  # words broken at their hyphenation points
        assert any(run.value.endswith("-") for _a, _k, lay in fitted for ln in lay.lines for run in ln.runs)
    count = len(made)
    read = _fits(pack, monkeypatch)
    assert len(made) == count  # nothing fitted: every fit read
    assert read == fitted  # the same lines, runs, fonts, colours, offsets, widths, sizes and heights
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "other"))
    assert _fits(pack, monkeypatch) == fitted and len(made) == 2 * count  # and without the file: fitted alike


def test_a_text_that_does_not_fit_is_kept_as_the_same_error(tmp_path, monkeypatch):
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path))
    made = _counting(monkeypatch)
    said = []
    for _ in range(2):
        fitter = TextFitter(["Stun"], kept=True)
        with pytest.raises(FitError) as caught:
            fitter.fit("Deal 3 damage to every enemy. Stun the boss until your next turn.", 40, 12, 8, 6)
        said.append((caught.value.needed_lines, caught.value.size, caught.value.overflow_pt))
        assert fitter.fit("Stun", 120, 40, 8, 6).size == 8
        fitter.keep_fits()
    assert said[0] == said[1] and said[0][0] > 1 and len(made) == 2  # fitted once, read the second time


def test_a_fitter_without_kept_reads_and_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    for _ in range(2):
        fitter = TextFitter([])
        fitter.fit("Draw two cards.", 120, 40, 8, 6)
        fitter.keep_fits()
    assert not (tmp_path / "cache").exists() or list((tmp_path / "cache").iterdir()) == []


def test_a_font_file_changed_is_fitted_afresh(tmp_path, monkeypatch):
    register_fonts()
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    from reportlab.pdfbase.pdfmetrics import getFont
    font = tmp_path / "Own.ttf"
    shutil.copyfile(getFont(REGULAR).face.filename, font)
    made = _counting(monkeypatch)

    def fitted() -> None:
        name = register_pack_fonts({"regular": font})["regular"]
        fitter = TextFitter([], fonts={"regular": name}, kept=True)
        fitter.fit("Draw two cards, then discard one.", 120, 40, 8, 6)
        fitter.keep_fits()

    fitted()
    fitted()
    assert len(made) == 1  # read the second time
    with font.open("ab") as f:
        f.write(b"\0" * 4)  # the file changed: another font to ReportLab (pack_font_name), fitted again
    fitted()
    assert len(made) == 2


def test_a_kept_fit_that_is_not_one_is_fitted_again(tmp_path, monkeypatch):
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path))
    made = _counting(monkeypatch)
    fitter = TextFitter([], kept=True)
    right = fitter.fit("Draw two cards, then discard one.", 120, 40, 8, 6)
    fitter.keep_fits()
    fitter = TextFitter([], kept=True)
    kept = fitter._kept_fits()
    (key,) = kept
    for wrong in (("layout", "lines"), ("layout",), ("error", 1), 7):
        kept[key] = wrong
        fitter.cache.clear()
        fitter._fitted.clear()
        assert fitter.fit("Draw two cards, then discard one.", 120, 40, 8, 6) == right
    assert len(made) == 5
    assert textmod.unpacked(textmod.packed(right)) == right


def test_the_dictionary_is_read_ahead_only_where_no_fits_are_kept(tmp_path, monkeypatch):
    # a kit's parent reads the dictionary ahead for its cards worker (faces.prepare_cards): with
    # fits kept by an earlier process no word is broken again unless a text is new, so it waits
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path))
    read: list = []
    real = textmod.hyphenator
    monkeypatch.setattr(textmod, "hyphenator", lambda lang: read.append(lang) or real(lang))
    made = _counting(monkeypatch)
    fitter = TextFitter([], kept=True)
    fitter.read_hyphenation()
    assert read == ["en_GB"]  # nothing kept yet
    fitter.fit("Draw two cards, then discard one.", 120, 40, 8, 6)
    fitter.keep_fits()
    read.clear()
    fitter = TextFitter([], kept=True)
    fitter.read_hyphenation()
    assert read == []  # its fits are kept
    fitter.fit("Draw two cards, then discard one.", 120, 40, 8, 6)
    assert len(made) == 1 and read == []  # the kept fit taken, nothing fitted or read
    # a new text that needs breaking reads the dictionary when it needs it
    layout = fitter.fit("Incomprehensibilities", 30, 40, 8, 8)
    assert read == ["en_GB"] and layout.lines[0].runs[-1].value.endswith("-")
    read.clear()
    TextFitter([]).read_hyphenation()  # a fitter that keeps nothing reads it
    TextFitter(["Other"], kept=True).read_hyphenation()  # nor one whose fits are another's
    assert read == ["en_GB", "en_GB"]
