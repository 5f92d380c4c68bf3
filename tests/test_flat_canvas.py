"""FlatCanvas compresses each page as it closes (flat memory over a long deck) and writes
the same bytes as ReportLab's own canvas, which compresses every page at save()."""

import io

from reportlab.pdfgen import canvas as rl_canvas

from generator.render.base.fonts import register_fonts
from generator.render.base.pdfout import FlatCanvas, new_canvas


def _draw(c, pages: int) -> None:
    for i in range(pages):
        c.setFont("PnpSans", 9)
        c.drawString(40, 700, f"page {i + 1}: Ünïcode – text")
        c.setFillColorRGB(0.2, 0.4, 0.6)
        c.rect(40, 40 + i, 200, 300, fill=1)
        c.showPage()
    c.setFont("PnpSans", 9)
    c.drawString(40, 40, "left open: save() closes it")


def _bytes(cls, pages: int) -> tuple[bytes, object]:
    register_fonts()
    buf = io.BytesIO()
    c = cls(buf, pagesize=(595, 842), invariant=1, pageCompression=1, initialFontName="PnpSans")
    _draw(c, pages)
    doc = c._doc
    c.save()
    return buf.getvalue(), doc


def test_flat_canvas_writes_reportlabs_bytes():
    ours, doc = _bytes(FlatCanvas, 5)
    plain, _ = _bytes(rl_canvas.Canvas, 5)
    assert ours == plain
    assert ours.count(b"/FlateDecode") >= 6


def test_closed_pages_keep_only_compressed_streams():
    register_fonts()
    c = FlatCanvas(io.BytesIO(), pagesize=(595, 842), invariant=1, pageCompression=1, initialFontName="PnpSans")
    _draw(c, 3)
    pages = c._doc.Pages.pages
    assert len(pages) == 3
    assert all(p.stream is None and isinstance(p.Contents.content, bytes) for p in pages)


def test_new_canvas_is_flat(tmp_path):
    c = new_canvas(tmp_path / "x.pdf", (595, 842), "t")
    assert isinstance(c, FlatCanvas)
