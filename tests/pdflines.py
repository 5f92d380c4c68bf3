"""Reading the straight lines a PDF page draws, for the geometry tests of cards, guides and
calibration pages (one reader, so every test measures lines the same way)."""

from __future__ import annotations

from pypdf.generic import ContentStream


def with_widths(page):
    """Each operation of the page's own content stream as (operands, operator, line width in
    force), the width tracked through `w` and q/Q."""
    width, stack = 1.0, []
    for operands, op in ContentStream(page.get_contents(), page.pdf).operations:
        if op == b"q":
            stack.append(width)
        elif op == b"Q":
            width = stack.pop() if stack else 1.0
        elif op == b"w":
            width = float(operands[0])
        yield operands, op, width


def segments(page) -> list[tuple[float, float, float, float, float]]:
    """Straight lines drawn on the page itself (not inside forms): (x1, y1, x2, y2, line width)."""
    out, start = [], None
    for operands, op, width in with_widths(page):
        if op == b"m":
            start = tuple(float(v) for v in operands)
        elif op == b"l" and start is not None:
            out.append((*start, *(float(v) for v in operands), width))
            start = None
    return out
