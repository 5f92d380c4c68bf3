"""render/base/pdfout.py takes a stream a save of the same document deflated before (a page, a
form, a font) from the cache folder by its sha256, instead of deflating it again: the file's
bytes are those of a save with no cache folder, first time and every time after; what is not
its own (another zlib, a changed stream, a damaged file) is deflated again."""

from __future__ import annotations

import io
import zlib

import pytest

from generator.render.base import pdfout


def _document(words: str = "Boss Fight", pages: int = 3, keep: bool = True) -> bytes:
    out = io.BytesIO()
    c = pdfout.new_canvas(out, (300.0, 400.0), "deflated", "a test document", keep_streams=keep)
    c.beginForm("badge", 0, 0, 40, 40)
    c.circle(20, 20, 15, fill=1)
    c.endForm()
    for n in range(pages):
        c.setFont("PnpSans", 12)
        c.drawString(20, 300, f"{words}: page {n}")
        c.doForm("badge")
        c.showPage()
    c.save()
    return out.getvalue()


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PNP_NO_CACHE", raising=False)
    return tmp_path / "cache"


def _deflations(monkeypatch) -> list:
    made: list = []
    original = zlib.compress
    monkeypatch.setattr(pdfout.zlib, "compress", lambda data, *a: made.append(len(data)) or original(data, *a))
    return made


def test_a_save_deflates_what_it_did_not_keep_before_with_the_same_bytes(folder, monkeypatch):
    monkeypatch.setenv("PNP_NO_CACHE", "1")
    plain = _document()  # no cache folder: every stream deflated, nothing kept
    monkeypatch.delenv("PNP_NO_CACHE")
    made = _deflations(monkeypatch)
    assert _document() == plain
    first = len(made)
    assert first >= 5  # three pages, the form, the font's streams
    assert _document() == plain
    assert len(made) == first  # every stream taken from the folder
    changed = _document(words="Raid Boss")  # the pages changed, the form and font did not
    assert changed != plain and len(made) - first < first
    monkeypatch.setenv("PNP_NO_CACHE", "1")
    assert _document(words="Raid Boss") == changed


def test_another_zlib_a_damaged_file_or_a_full_store_deflate_again(folder, monkeypatch):
    plain = _document()
    assert _document() == plain  # kept
    with monkeypatch.context() as patch:
        made = _deflations(patch)
        patch.setattr(pdfout.zlib, "ZLIB_RUNTIME_VERSION", "0.0.0-other")  # its own file: none yet
        assert _document() == plain and made
    for path in folder.iterdir():  # every kept file damaged: ignored and written again
        path.write_bytes(path.read_bytes()[:-7] + b"garbage")
    with monkeypatch.context() as patch:
        made = _deflations(patch)
        assert _document() == plain and made
        made.clear()
        assert _document() == plain and not made  # written again, and read
    monkeypatch.setattr(pdfout, "MAX_DEFLATED_BYTES", 10)  # too much to keep: nothing written
    files = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert _document(words="something else") != plain
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == files


def test_a_kept_store_of_the_wrong_shape_is_deflated_past(folder):
    store = pdfout.DeflateStore("a document")
    from generator.core import kept

    kept.keep(store.key, pdfout._DEFLATED, b"not marshal")
    assert store.deflate(b"q 1 0 0 1 0 0 cm Q") == zlib.compress(b"q 1 0 0 1 0 0 cm Q")
    other = pdfout.DeflateStore("another")
    import hashlib
    import marshal

    data = b"BT /F1 12 Tf (x) Tj ET"
    kept.keep(other.key, pdfout._DEFLATED, marshal.dumps({hashlib.sha256(data).digest(): "not bytes"}))
    assert other.deflate(data) == zlib.compress(data)


def test_only_a_document_that_asks_keeps_its_streams(folder, monkeypatch):
    """An image of one card or icon (made by the thousand under `pnp serve`, each under its own
    title) keeps nothing; the card sheets ask."""
    _document(keep=False)
    assert not folder.exists() or not any(
        p.read_bytes().startswith(pdfout._DEFLATED) for p in folder.iterdir())
    _document()
    assert any(p.read_bytes().startswith(pdfout._DEFLATED) for p in folder.iterdir())
    from generator.pack.load import load_pack
    from generator.kit import pack_faces
    from generator.render.cards import sheets
    from generator.render.cards.faces import CardShared

    pack = load_pack(sheets.Path("card_data/boss_fight"))
    shared = CardShared(pack)
    faces = pack_faces(pack, shared, copies=False)[:4]
    made: list = []
    original = sheets.new_canvas
    monkeypatch.setattr(sheets, "new_canvas", lambda *a, **k: made.append(k.get("keep_streams")) or original(*a, **k))
    sheets.write_home_sheets(pack, faces, folder.parent / "cards.pdf", shared=shared)
    sheets.write_gutterfold(pack, faces, folder.parent / "fold.pdf", shared=shared)
    sheets.write_print_shop(pack, faces, folder.parent / "shop.pdf", shared=shared)
    assert made == [True, True, True]


def test_past_what_it_may_keep_a_document_deflates_as_reportlab_does(folder, monkeypatch):
    """A document whose streams outgrow MAX_DEFLATED_BYTES (a 9,000-card deck) keeps none, and
    stops hashing them once it knows."""
    monkeypatch.setattr(pdfout, "MAX_DEFLATED_BYTES", 40)
    store = pdfout.DeflateStore("a big document")
    hashed: list = []
    original = pdfout.hashlib.sha256
    monkeypatch.setattr(pdfout.hashlib, "sha256", lambda data=b"": hashed.append(len(data)) or original(data))
    streams = [f"BT /F1 9 Tf 1 0 0 1 {n} 20 Tm (page {n} of a long deck) Tj ET".encode() * 3 for n in range(6)]
    assert [store.deflate(s) for s in streams] == [zlib.compress(s) for s in streams]
    assert 0 < len(hashed) < len(streams)
    store.keep()
    assert not folder.exists() or not any(p.read_bytes().startswith(pdfout._DEFLATED) for p in folder.iterdir())


def test_the_kits_maps_pieces_and_rulebook_take_their_streams_back(folder, monkeypatch, tmp_path):
    """The kit's other big documents ask too: built again, maps.pdf, pieces.pdf and rulebook.pdf
    deflate no stream and are the same bytes; the rulebook `pnp validate` lays out in memory keeps nothing."""
    from pathlib import Path

    from generator.build import run_build
    from generator.export.options import BuildOptions
    from generator.pack.load import load_pack
    from generator.render.rulebook.book import build_rulebook_pdf

    repo = Path(__file__).resolve().parents[1]
    pack = load_pack(repo / "card_data/boss_fight")
    build_rulebook_pdf(pack, io.BytesIO())  # as validate's rulebook check: in memory
    assert not folder.exists() or not any(p.read_bytes().startswith(pdfout._DEFLATED) for p in folder.iterdir())
    made = _deflations(monkeypatch)
    outputs = {}
    for run in ("first", "again"):
        for part in ("maps", "pieces", "rulebook"):
            out = tmp_path / run / part
            list(run_build(pack, None, BuildOptions(only=part), out, parallel=False))
            outputs[run, part] = {p.name: p.read_bytes() for p in out.iterdir() if p.suffix == ".pdf"}
        if run == "first":
            first = len(made)
            assert first > 50
    # nothing deflated the second time but the blank pages of the passes that only measure (the
    # rulebook's contents, the quick reference's sizes), which are never saved
    assert all(n < 64 for n in made[first:]), made[first:]
    assert all(outputs["again", part] == outputs["first", part] for part in ("maps", "pieces", "rulebook"))
