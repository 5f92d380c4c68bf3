"""The safe zone: how far inside the trim text and placed marks must stay, and how that
distance is measured. One home for the rule that the layout check (preflight/layout.py,
`layout.safe-zone`, run by `pnp build` and `pnp validate` on the drawing) and the finished-PDF
check (preflight/pdfcheck.py, `pdf.safe-zone`, run by `pnp preflight`) both apply, so the two
can never drift apart.

A text is measured by its word box, as a printer's safe zone means it and as a PDF reader
gives it: each letter from its pen position to its advance, from the font's descent to its
ascent (PDFium's loose character box, render/base/glyphs.py), not the tighter outline of its
ink, which sits 0.1-0.3 mm further in.
"""

from __future__ import annotations

SAFE_MM = 3.0  # PRINT-SPECS.md: keep text 3 mm (1/8 in) inside the trim
# PDFium measures in 32-bit floats: a box placed exactly on the line may read a hair inside it
_SLACK_MM = 1e-4


def nearest_trim(box_mm: tuple[float, float, float, float], width_mm: float, height_mm: float) -> tuple[str, float]:
    """(side, gap in mm) of the trim edge nearest a box given in mm from the trim's top-left,
    y down (a negative gap: the box reaches past the trim, into the bleed)."""
    x0, y0, x1, y1 = box_mm
    side, gap = "left", x0  # on a tie the first side in this order, as min() gives it
    if y0 < gap:
        side, gap = "top", y0
    if width_mm - x1 < gap:
        side, gap = "right", width_mm - x1
    if height_mm - y1 < gap:
        side, gap = "bottom", height_mm - y1
    return side, gap


def too_close(gap_mm: float, safe_mm: float = SAFE_MM) -> bool:
    """Does a box this far from the trim leave the safe zone?"""
    return gap_mm < safe_mm - _SLACK_MM
