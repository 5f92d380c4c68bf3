"""Low-ink greyscale fill patterns for counter faces (the same vocabulary as map terrain:
dots, hatch, crosshatch, waves, bricks, grass). The caller clips them to a shape."""

from __future__ import annotations

from generator.render.base.operators import LinePath
from generator.render.base.pdfout import MM
from generator.render.base.recording import RecordingCanvas


def pattern(c, kind: str | None, x0: float, y0: float, x1: float, y1: float, step: float, ink: float = 0.45) -> None:
    """Fill the box (mm) with a low-ink greyscale pattern; the caller clips it to a shape. A
    pattern's marks (a counter's hatching: dozens of lines) are gathered and written at once, the
    text ReportLab's line, circle and path calls write (RecordingCanvas.separate_lines and dots,
    LinePath)."""
    if not kind or kind == "none":
        return
    segments: list[tuple[float, float, float, float]] = []  # lines, drawn in one go below
    line = segments.append
    c.saveState()
    c.setStrokeGray(ink)
    c.setFillGray(ink)
    c.setLineWidth(max(0.25, step * 0.09) * MM)
    c.setLineCap(1)
    w, h = x1 - x0, y1 - y0
    if kind == "dots":
        centres = []
        j = 0
        y = y0
        while y <= y1 + step:
            x = x0 + (step / 2 if j % 2 else 0)
            while x <= x1 + step:
                centres.append((x * MM, y * MM))
                x += step
            y += step * 0.87
            j += 1
        if isinstance(c, RecordingCanvas):
            c.dots(centres, step * 0.16 * MM, stroke=0, fill=1)
        else:
            for cx, cy in centres:
                c.circle(cx, cy, step * 0.16 * MM, stroke=0, fill=1)
    elif kind in ("hatch", "crosshatch"):
        spacing = step * (1.0 if kind == "hatch" else 1.3)
        k = -h
        while k <= w + h:  # 45-degree lines, and for crosshatch their mirror images
            line(((x0 + k) * MM, y0 * MM, (x0 + k + h) * MM, y1 * MM))
            if kind == "crosshatch":
                line(((x0 + k) * MM, y1 * MM, (x0 + k + h) * MM, y0 * MM))
            k += spacing
    elif kind == "bricks":
        course = step * 1.1
        j = 0
        y = y0
        while y <= y1:
            line((x0 * MM, y * MM, x1 * MM, y * MM))
            x = x0 + (course if j % 2 else 0)
            while x <= x1:
                line((x * MM, y * MM, x * MM, (y + course) * MM))
                x += course * 2
            y += course
            j += 1
    elif kind == "waves":
        amp, wl = step * 0.3, step * 2.2
        y = y0
        while y <= y1 + step:
            p = LinePath()  # (its text made at once)
            x = x0 - wl
            p.moveTo(x * MM, y * MM)
            while x < x1 + wl:
                p.curveTo((x + wl / 6) * MM, (y + amp * 1.3) * MM, (x + wl / 3) * MM, (y + amp * 1.3) * MM,
                          (x + wl / 2) * MM, y * MM)
                p.curveTo((x + wl * 2 / 3) * MM, (y - amp * 1.3) * MM, (x + wl * 5 / 6) * MM, (y - amp * 1.3) * MM,
                          (x + wl) * MM, y * MM)
                x += wl
            c.drawPath(p.path(), stroke=1, fill=0)
            y += step * 1.3
    elif kind == "grass":
        tuft = step * 0.45
        j = 0
        y = y0
        while y <= y1 + step:
            x = x0 + (step * 0.9 if j % 2 else 0)
            while x <= x1 + step:
                for lean in (-0.5, 0.0, 0.5):
                    line((x * MM, y * MM, (x + lean * tuft) * MM, (y + tuft) * MM))
                x += step * 1.8
            y += step * 1.6
            j += 1
    if isinstance(c, RecordingCanvas):
        c.separate_lines(segments)
    else:
        for segment in segments:
            c.line(*segment)
    c.restoreState()
