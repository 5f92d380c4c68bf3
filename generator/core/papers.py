"""The paper names a kit is printed on (`--paper`, the web's print form, every document's
default) and the press sheets a sheet imposition may name; the page sizes are
render/base/paper.py's, keyed by these names (it refuses to load if the two disagree)."""

from __future__ import annotations

from typing import Final, Literal, get_args

Paper = Literal["a4", "letter"]
# sheet impositions (templates/sheets/*.yaml) may also use PrintPlayGames' 12 x 18 in press sheet
PressSheet = Literal["12x18"]
SheetPaper = Literal[Paper, PressSheet]  # what a sheet imposition's `paper:` may name (mypy and pydantic read it)
PAPERS: tuple[str, ...] = get_args(Paper)
DEFAULT_PAPER: Final = "a4"
PRESS_SHEETS: tuple[str, ...] = get_args(PressSheet)
SHEET_PAPERS = PAPERS + PRESS_SHEETS
_TITLES = {"a4": "A4", "letter": "Letter", "12x18": "12 × 18 in"}


def paper_title(name: str) -> str:
    """The paper's name as printed on a page ("A4", "Letter")."""
    return _TITLES.get(name, name)
