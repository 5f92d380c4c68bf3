"""Cut files for the play pieces: the counters' and bases' outlines, read from pieces.pdf.

pieces.pdf draws every piece's cut line the same way (render/pieces_draw.cut_line: a
solid 0.5 pt stroke in #111111, the only stroke exactly on a piece's outline; bases draw
their outer edges as segments in the same style). Reading those strokes back out of the
finished PDF gives outlines that match the print exactly, whatever the piece's shape:
hexes, discs (Bézier curves), squares, the union of a boss base's hexes.

For each page with cut lines that is printed face up (fronts and one-sided pages; a
duplex back page is never the side the blade sees) we write `pieces-pNN.svg` in mm from
the page's top-left, like the card cut files.
"""

from __future__ import annotations

import re
from pathlib import Path

from generator.core.pdfwords import page_words

CUT_WIDTH_PT = 0.5
_NUMERIC = {"cm", "w", "RG", "G", "m", "l", "c", "re"}
CUT_GREY = 0x11 / 255
PT_MM = 25.4 / 72


def _mul(a, b):
    return (a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
            a[2] * b[1] + a[3] * b[3], a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5])


def cut_paths(page) -> list[str]:
    """SVG path data (mm, y down from the page's top) of every cut-line stroke on a page."""
    # deferred: qpdf's native library loads only when a PDF is opened
    import pikepdf
    height = float(page.MediaBox[3]) - float(page.MediaBox[1])
    ctm, lw, dashed = (1, 0, 0, 1, 0, 0), 1.0, False
    grey: float | None = None  # the stroke's grey, while it is one
    stack, path, out = [], [], []

    def pt(x, y):
        X = ctm[0] * x + ctm[2] * y + ctm[4]
        Y = ctm[1] * x + ctm[3] * y + ctm[5]
        return f"{X * PT_MM:.4f},{(height - Y) * PT_MM:.4f}"

    for inst in pikepdf.parse_content_stream(page):
        if isinstance(inst, pikepdf.ContentStreamInlineImage):
            continue
        op = str(inst.operator)
        a = [float(v) for v in inst.operands] if op in _NUMERIC else []
        if op == "q":
            stack.append((ctm, lw, grey, dashed))
        elif op == "Q" and stack:
            ctm, lw, grey, dashed = stack.pop()
        elif op == "cm":
            ctm = _mul(a, ctm)
        elif op == "w":
            lw = a[0]
        elif op == "RG":
            grey = a[0] if abs(a[0] - a[1]) < 1e-6 and abs(a[1] - a[2]) < 1e-6 else None
        elif op == "G":
            grey = a[0]
        elif op == "d":
            dashed = len(inst.operands[0]) > 0
        elif op == "m":
            path.append("M" + pt(a[0], a[1]))
        elif op == "l":
            path.append("L" + pt(a[0], a[1]))
        elif op == "c":
            path.append("C" + " ".join(pt(a[i], a[i + 1]) for i in (0, 2, 4)))
        elif op == "re":
            x, y, w, h = a
            path.append(f"M{pt(x, y)} L{pt(x + w, y)} L{pt(x + w, y + h)} L{pt(x, y + h)} Z")
        elif op == "h":
            path.append("Z")
        elif op in ("S", "s", "B", "B*", "b", "b*", "f", "F", "f*", "n"):
            scale = (abs(ctm[0] * ctm[3] - ctm[1] * ctm[2])) ** 0.5
            stroked = op in ("S", "s", "B", "B*", "b", "b*")
            if (stroked and path and not dashed and grey is not None and abs(grey - CUT_GREY) < 0.002
                    and abs(lw * scale - CUT_WIDTH_PT) < 1e-3):
                out.append(" ".join(path) + (" Z" if op in ("s", "b", "b*") else ""))
            path = []
    return out


def _face_up_pages(pdf_path: Path) -> set[int]:
    """1-based page numbers that are not the back of a duplex sheet (from the page markers)."""
    words = page_words(pdf_path)
    backs = {n for n, ws in words.items() if any(re.match(r"pnp:page:[a-z-]+:back:", w) for w, _ in ws)}
    return set(words) - backs


def write_piece_cuts(pieces_pdf: Path, folder: Path) -> int:
    """pieces-pNN.svg for each face-up page of pieces.pdf with cut lines; returns how many files."""
    # deferred: qpdf's native library loads only when a PDF is opened
    import pikepdf
    face_up = _face_up_pages(pieces_pdf)
    written = 0
    with pikepdf.open(pieces_pdf) as pdf:
        for n, page in enumerate(pdf.pages, 1):
            if n not in face_up:
                continue
            paths = cut_paths(page)
            if not paths:
                continue
            w = (float(page.MediaBox[2]) - float(page.MediaBox[0])) * PT_MM
            h = (float(page.MediaBox[3]) - float(page.MediaBox[1])) * PT_MM
            body = "\n".join(f'  <path d="{d}"/>' for d in paths)
            (Path(folder) / f"pieces-p{n:02d}.svg").write_text(
                f'<?xml version="1.0" encoding="UTF-8"?>\n'
                f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.3f}mm" height="{h:.3f}mm" '
                f'viewBox="0 0 {w:.3f} {h:.3f}">\n<g id="cut" fill="none" stroke="#ff0000" stroke-width="0.1">\n'
                f"{body}\n</g>\n</svg>\n", encoding="utf-8")
            written += 1
    return written
