"""No hidden system tools: with poppler (pdftotext) and Ghostscript gone, the TTS save still
has every counter and base, the cut profile writes every piece cut file (and none for a
duplex back page), and preflight says on stderr and in its JSON report that the rendered
ink check was skipped and why."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.core.pdfwords import page_words
from generator.export.cut import export_cut
from generator.export.tts_pieces import export_tts_pieces
from generator.kit import pack_faces
from generator.pack.load import load_pack
from generator.render.cards.faces import CardShared

REPO = Path(__file__).resolve().parents[1]
HIDDEN = {"pdftotext", "pdftoppm", "pdfinfo", "gs", "gswin64c", "qpdf", "mutool"}


@pytest.fixture
def no_tools(monkeypatch):
    """shutil.which finds none of HIDDEN, and running one fails as on a machine without it."""
    real_which, real_run, real_popen = shutil.which, subprocess.run, subprocess.Popen

    def which(cmd, *a, **k):
        return None if Path(str(cmd)).name in HIDDEN else real_which(cmd, *a, **k)

    def guard(argv):
        name = Path(str(argv[0] if isinstance(argv, (list, tuple)) else str(argv).split()[0])).name
        if name in HIDDEN:
            raise FileNotFoundError(2, "No such file or directory", name)

    def run(argv, *a, **k):
        guard(argv)
        return real_run(argv, *a, **k)

    class Popen(real_popen):
        def __init__(self, argv, *a, **k):
            guard(argv)
            super().__init__(argv, *a, **k)

    monkeypatch.setattr(shutil, "which", which)
    monkeypatch.setattr(subprocess, "run", run)
    monkeypatch.setattr(subprocess, "Popen", Popen)
    monkeypatch.setenv("PATH", "/nonexistent")


@pytest.fixture(scope="module")
def boss_fight():
    return load_pack(REPO / "card_data" / "boss_fight")


def test_tts_pieces_without_poppler(tmp_path, boss_fight, no_tools):
    index = export_tts_pieces(boss_fight, tmp_path)
    assert sum(c["count"] for c in index["counters"]) == 99  # 14 spare base hexes since #41 (were 10)
    assert len(index["bases"]) == 17
    assert all(c["front"] for c in index["counters"]) and sum(bool(c["back"]) for c in index["counters"]) == 7
    for c in index["counters"]:
        assert (tmp_path / "pieces" / c["front"]).stat().st_size > 0
    assert json.loads((tmp_path / "pieces" / "pieces.json").read_text(encoding="utf-8")) == index


def test_piece_cut_files_without_poppler(tmp_path, boss_fight, no_tools):
    """Every face-up pieces page with cut lines gets a file; duplex back pages none."""
    shared = CardShared(boss_fight)
    info = export_cut(boss_fight, pack_faces(boss_fight, shared, copies=False)[:1], tmp_path / "cut", "silhouette",
                      "a4", shared=shared, pieces=True)
    files = sorted(p.name for p in (tmp_path / "cut").glob("pieces-p*.svg"))
    assert files == [f"pieces-p{n:02d}.svg" for n in (2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)]
    assert info["piece cut files"] == 11  # the largest table's pieces (#41) run to a 13th page
    words = page_words(tmp_path / "cut" / "pieces.pdf")
    backs = {n for n, ws in words.items() if any(re.match(r"pnp:page:[a-z-]+:back:", w) for w, _ in ws)}
    assert backs == {3}  # the one duplex back page: never a cut file


def test_page_words_reads_markers_and_hyphenated_words(tmp_path):
    """Words between white space, boxes from the page's top-left in points; a line-end hyphen ends its word."""
    from reportlab.pdfgen import canvas
    c = canvas.Canvas(str(tmp_path / "w.pdf"), pagesize=(200, 100))
    c.setFont("Helvetica", 10)
    c.drawString(20, 70, "alpha beta")
    t = c.beginText(50, 30)
    t.setTextRenderMode(3)
    t.setFont("Helvetica", 1)
    t.textOut("pnp:face:card-1:0")
    c.drawText(t)
    c.showPage()
    c.drawString(10, 50, "")
    c.showPage()
    c.save()
    words = page_words(tmp_path / "w.pdf")
    assert set(words) == {1, 2} and words[2] == []
    by = dict(words[1])
    assert list(by) == ["alpha", "beta", "pnp:face:card-1:0"]
    x0, y0, x1, y1 = by["alpha"]
    assert x0 == pytest.approx(20, abs=0.05) and y1 > 100 - 70 > y0  # baseline between top and bottom
    assert x1 - x0 == pytest.approx(10 * 0.001 * sum((556, 222, 556, 556, 556)), abs=0.1)  # Helvetica widths
    mx0, _, _, my1 = by["pnp:face:card-1:0"]
    assert mx0 == pytest.approx(50, abs=0.05) and my1 == pytest.approx(70 + 0.207, abs=0.1)  # descent below


def _card(path: Path) -> None:
    """One poker-card page with 1/8 in bleed, boxes set, filled edge to edge in CMYK."""
    from reportlab.lib.units import mm
    from reportlab.pdfgen import canvas
    b, w, h = 25.4 / 8 * mm, 63.5 * mm, 88.9 * mm
    c = canvas.Canvas(str(path), pagesize=(w + 2 * b, h + 2 * b))
    c.setTrimBox((b, b, w + b, h + b))
    c.setBleedBox((0, 0, w + 2 * b, h + 2 * b))
    c.setFillColorCMYK(0.2, 0.1, 0.1, 0.1)
    c.rect(0, 0, w + 2 * b, h + 2 * b, fill=1, stroke=0)
    c.showPage()
    c.save()


def test_preflight_says_the_ink_render_was_skipped(tmp_path, no_tools):
    _card(tmp_path / "card.pdf")
    result = CliRunner().invoke(main, ["preflight", str(tmp_path / "card.pdf"), "--service", "dtc", "--format", "json"])
    doc = json.loads(result.stdout)
    notes = [f for f in doc["findings"] if f["severity"] == "note"]
    assert [n["rule"] for n in notes] == ["pdf.ink-render"] and doc["notes"] == 1
    assert "Ghostscript" in notes[0]["message"] and "skipped" in notes[0]["message"]
    assert re.search(r"^note: card\.pdf: skipped the total-ink check .*Ghostscript", result.stderr, re.M)
    text = CliRunner().invoke(main, ["preflight", str(tmp_path / "card.pdf"), "--service", "dtc"])
    assert "note:" not in text.stdout and "note: card.pdf" in text.stderr
    assert text.exit_code == result.exit_code == (1 if doc["errors"] else 0)


@pytest.mark.skipif(shutil.which("gs") is None, reason="needs Ghostscript to show the note is absent with it")
def test_preflight_has_no_note_with_ghostscript(tmp_path):
    _card(tmp_path / "card.pdf")
    result = CliRunner().invoke(main, ["preflight", str(tmp_path / "card.pdf"), "--service", "dtc", "--format", "json"])
    doc = json.loads(result.stdout)
    assert "notes" not in doc and not any(f["severity"] == "note" for f in doc["findings"])
    assert result.stderr == ""
