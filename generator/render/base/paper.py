"""The papers every document prints on: their sizes, once."""

from __future__ import annotations

from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.units import mm

# portrait width × height in points, as ReportLab defines them (US Letter is exactly 612 × 792)
PAPERS_PT = {"a4": A4, "letter": LETTER}
PAPERS_MM = {name: (w / mm, h / mm) for name, (w, h) in PAPERS_PT.items()}
PAPERS = tuple(PAPERS_PT)


def page_size_pt(paper: str) -> tuple[float, float]:
    """The paper's portrait size in points."""
    return PAPERS_PT[paper]
