"""The bundled icon set: the 4,134 icons of game-icons.net, each with its author and licence.

Two files of package data (`data/`, written by tools/vendor_icons.py): the catalogue (names,
authors, aliases; 23 kB, read when a pack names an icon or `pnp icons` searches) and the
outlines (1.2 MB, decompressed once per process when the first icon's outline is made: 7 ms; a
pack's icons' outline text is kept in the cache folder, render/base/iconart.py). Names are the
iconify names (`@iconify-json/game-icons`), which are the repository's file names; where two
authors drew an icon of the same name the set carries one, and the catalogue credits that one.
"""

from __future__ import annotations

import gzip
import json
import re
from dataclasses import dataclass
from typing import Any
from functools import cache, cached_property
from pathlib import Path

from generator.core.errors import did_you_mean
from generator.pack.iconpath import Outlines, Segment, drawn_segments

# beside this module, in a wheel as in a checkout (what importlib.resources.files gives for a package
# on disk, without loading importlib.resources: a few ms at every start)
DATA = Path(__file__).parent / "data"
SET_NAME = "game-icons.net"
OUTLINES = DATA / "game-icons.paths.zlib"  # the outlines of every icon (pack/iconpath.py: Outlines)


@dataclass(frozen=True)
class Author:
    id: str         # the author's folder in the game-icons/icons repository
    name: str
    url: str
    licence: str    # "CC BY 3.0", "CC0 1.0" or "public domain"


class IconSet:
    """The catalogue; `outline(name)` reads an icon's drawing from the outlines file."""

    def __init__(self, catalogue: dict[str, Any]):
        self.info = {k: v for k, v in catalogue.items() if k not in ("names", "author", "authors")}
        self.names: tuple[str, ...] = tuple(catalogue["names"])
        self._number = {name: i for i, name in enumerate(self.names)}
        authors = [Author(a["id"], a["name"], a["url"], a["licence"]) for a in catalogue["authors"]]
        self._author = [authors[i] for i in catalogue["author"]]
        self.aliases: dict[str, str] = catalogue.get("aliases", {})
        self.hidden = frozenset(catalogue.get("hidden", ()))
        self.licence: str = catalogue["licence"]
        self.licence_url: str = catalogue["licence_url"]
        self.url: str = catalogue["url"]
        width, height = catalogue.get("size", (512, 512))
        self.size: tuple[int, int] = (int(width), int(height))
        self._drawn: dict[str, tuple[str, list[float]]] = {}

    def __len__(self) -> int:
        return len(self.names)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.resolve(name) is not None

    def resolve(self, name: str) -> str | None:
        """The set's name for `name` (an old name the set still answers to gives its new one)."""
        if name in self._number:
            return name
        return self.aliases.get(name)

    def author(self, name: str) -> Author:
        author: Author = self._author[self._number[self.resolve(name) or name]]
        return author

    def suggest(self, name: str) -> str | None:
        """The closest name, for "did you mean"."""
        word = str(name).strip().lower().replace("_", "-").replace(" ", "-")
        if word in self:
            return self.resolve(word)
        return did_you_mean(word, self.names)

    def search(self, words: str, limit: int | None = None) -> list[str]:
        """Names holding every word given (`skull lantern`), whole words first, then the shortest."""
        terms = [t for t in re.split(r"[\s,]+", words.strip().lower().replace("_", "-")) if t]
        if not terms:
            return []

        def whole(name: str, term: str) -> bool:
            return term in name.split("-")

        hits = [n for n in self.names if n not in self.hidden and all(t in n for t in terms)]
        hits.sort(key=lambda n: (-sum(whole(n, t) for t in terms), len(n), n))
        return hits[:limit] if limit else hits

    def page(self, name: str) -> str:
        """The icon's page on game-icons.net."""
        key = self.resolve(name) or name
        return f"{self.url}/1x1/{self.author(key).id}/{key}.html"

    @cached_property
    def _outlines(self) -> Outlines:
        return Outlines(OUTLINES.read_bytes())

    def drawing(self, name: str) -> tuple[str, list[float]]:
        """The icon's drawing in its 512-unit box, y down as SVG has it: its segments' letters
        (M, L, C and Z) and their numbers in order (Outlines.drawing; don't change the list)."""
        key = self.resolve(name)
        if key is None:
            raise KeyError(name)
        drawn = self._drawn.get(key)
        if drawn is None:
            drawn = self._drawn[key] = self._outlines.drawing(self._number[key])
        return drawn

    def outline(self, name: str) -> tuple[Segment, ...]:
        """The icon's drawing as M, L, C and Z segments: ("C", x1, y1, x2, y2, x, y) and so on."""
        letters, numbers = self.drawing(name)
        return tuple(drawn_segments(letters, numbers))


@cache
def icon_set() -> IconSet:
    """The bundled set, read once per process (shipped data, never changed while running)."""
    return IconSet(json.loads(gzip.decompress((DATA / "game-icons.json.gz").read_bytes())))


def _number(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".") or "0"


def svg_text(name: str) -> str:
    """The icon as an SVG file (its outline as drawn, black on transparent), credited inside."""
    icons = icon_set()
    key = icons.resolve(name) or name
    parts = []
    for seg in icons.outline(key):
        parts.append(seg[0] + " ".join(_number(v) for v in seg[1:]))
    author = icons.author(key)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {icons.size[0]} {icons.size[1]}">\n'
            f"<!-- {key} by {author.name}, {author.licence}, from {icons.page(key)} -->\n"
            f'<path fill="#000000" d="{"".join(parts)}"/>\n</svg>\n')
