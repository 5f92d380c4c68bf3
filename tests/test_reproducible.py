"""Reproducible, atomic output: identical bytes, SOURCE_DATE_EPOCH dates, qpdf --check,
and a build that fails midway leaves the previous files untouched."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.kit import pack_faces
from generator.pack.load import load_pack
from generator.render.cards.faces import CardPainter, CardShared
from generator.render.cards.sheets import write_calibration, write_home_sheets

PACK = Path("card_data/boss_fight")


@pytest.fixture(scope="module")
def pack():
    return load_pack(PACK)


def _faces(pack):
    shared = CardShared(pack)
    return shared, pack_faces(pack, shared, copies=False)[:12]


def test_source_date_epoch_sets_the_pdf_dates(pack, tmp_path, monkeypatch):
    shared, faces = _faces(pack)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    write_home_sheets(pack, faces, tmp_path / "a.pdf", shared=shared)
    info = PdfReader(tmp_path / "a.pdf").metadata
    assert info["/CreationDate"].startswith("D:20231114221320")
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    write_home_sheets(pack, faces, tmp_path / "b.pdf", shared=CardShared(pack))
    assert PdfReader(tmp_path / "b.pdf").metadata["/CreationDate"].startswith("D:2000")


def test_failed_build_leaves_previous_output_intact(pack, tmp_path, monkeypatch):
    shared, faces = _faces(pack)
    out = tmp_path / "cards.pdf"
    write_home_sheets(pack, faces, out, shared=shared)
    before = out.read_bytes()
    calls = {"n": 0}
    original = CardPainter.draw_face

    def failing(self, face, x, y):
        calls["n"] += 1
        if calls["n"] == 5:
            raise RuntimeError("injected failure halfway through the sheet")
        return original(self, face, x, y)

    monkeypatch.setattr(CardPainter, "draw_face", failing)
    with pytest.raises(RuntimeError):
        write_home_sheets(pack, faces, out, shared=CardShared(pack))
    assert out.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cards.pdf"]  # no temporary left behind


def test_cli_build_failure_keeps_old_kit(tmp_path):
    """A pack broken after a good build: the command fails with exit 2 and the old PDF stays."""
    pack_copy = tmp_path / "pack"
    shutil.copytree(PACK, pack_copy)
    out = tmp_path / "out"
    ok = subprocess.run([sys.executable, "-m", "generator", "build", str(pack_copy), "--only", "cards",
                         "-o", str(out)], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    before = (out / "cards.pdf").read_bytes()
    neutral = pack_copy / "cards" / "neutral.yaml"
    neutral.write_text(neutral.read_text(encoding="utf-8").replace("type: action", "type: acton", 1),
                       encoding="utf-8")
    bad = subprocess.run([sys.executable, "-m", "generator", "build", str(pack_copy), "--only", "cards",
                          "-o", str(out)], capture_output=True, text=True)
    assert bad.returncode == 2
    assert "Traceback" not in bad.stderr + bad.stdout
    assert "did you mean `action`?" in bad.stderr
    assert (out / "cards.pdf").read_bytes() == before


@pytest.mark.skipif(shutil.which("qpdf") is None, reason="qpdf is not installed (make test installs it)")
def test_pdfs_pass_qpdf_check(pack, tmp_path):
    shared, faces = _faces(pack)
    write_home_sheets(pack, faces, tmp_path / "cards.pdf", shared=shared)
    write_calibration(pack, tmp_path / "calibration.pdf")
    for pdf in tmp_path.glob("*.pdf"):
        res = subprocess.run(["qpdf", "--check", str(pdf)], capture_output=True, text=True)
        assert res.returncode == 0, res.stdout + res.stderr
