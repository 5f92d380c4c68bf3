"""Drawing ReportLab graphics (SVG art, QR codes) without naming a font we do not embed.

renderPDF starts every drawing by selecting its default font, Helvetica, even when the
drawing has no text; the PDF then names a font it does not embed, which print shops'
preflight checks flag. Here the default is one of our embedded faces while a drawing is
rendered.
"""

from __future__ import annotations

from generator.render.base.fonts import REGULAR, register_fonts


def draw_graphic(drawing, canvas, x: float, y: float) -> None:
    # deferred: reportlab.graphics loads reportlab.platypus (about 40 ms), and only a pack's SVG
    # art or a roster's QR code draws through here
    from reportlab.graphics import renderPDF
    from reportlab.graphics.shapes import STATE_DEFAULTS

    register_fonts()
    before = STATE_DEFAULTS["fontName"]
    STATE_DEFAULTS["fontName"] = REGULAR
    try:
        renderPDF.draw(drawing, canvas, x, y)
    finally:
        STATE_DEFAULTS["fontName"] = before
