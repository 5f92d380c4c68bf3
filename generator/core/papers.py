"""The paper names a kit is printed on (`--paper`, the web's print form, every document's
default) and the press sheets a sheet imposition may name; the page sizes are
render/base/paper.py's, keyed by these names (it refuses to load if the two disagree)."""

from __future__ import annotations

PAPERS = ("a4", "letter")
DEFAULT_PAPER = "a4"
# sheet impositions (templates/sheets/*.yaml) may also use PrintPlayGames' 12 x 18 in press sheet
PRESS_SHEETS = ("12x18",)
SHEET_PAPERS = PAPERS + PRESS_SHEETS
_TITLES = {"a4": "A4", "letter": "Letter", "12x18": "12 × 18 in"}


def paper_title(name: str) -> str:
    """The paper's name as printed on a page ("A4", "Letter")."""
    return _TITLES.get(name, name)
