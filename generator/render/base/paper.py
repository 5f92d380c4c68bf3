"""The papers every document prints on: their sizes, once."""

from __future__ import annotations

from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.units import mm

from generator.core.papers import PAPERS, PRESS_SHEETS

# portrait width × height in points, as ReportLab defines them (US Letter is exactly 612 × 792)
PAPERS_PT = {"a4": A4, "letter": LETTER}
PAPERS_MM = {name: (w / mm, h / mm) for name, (w, h) in PAPERS_PT.items()}
PRESS_SHEETS_MM = {"12x18": (304.8, 457.2)}  # PrintPlayGames' 12 x 18 in press sheet
if tuple(PAPERS_PT) != PAPERS or tuple(PRESS_SHEETS_MM) != PRESS_SHEETS:  # one list of names: core/papers.py
    raise RuntimeError(f"render/base/paper.py sizes {list(PAPERS_PT) + list(PRESS_SHEETS_MM)} do not match "
                       f"core/papers.py's names {list(PAPERS + PRESS_SHEETS)}")


def page_size_pt(paper: str) -> tuple[float, float]:
    """The paper's portrait size in points."""
    return PAPERS_PT[paper]
