"""The paper names a kit is printed on (`--paper`, the web's print form); the page sizes
are render/base/paper.py's, keyed by these names."""

from __future__ import annotations

PAPERS = ("a4", "letter")
DEFAULT_PAPER = "a4"
