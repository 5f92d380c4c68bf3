"""Two builds side by side (two saved builds, two share codes, two versions of a published
build): for each character, the cards added and taken out with their counts; the points, the
limit and the verdict of each, as the editor's own view has them (generator.web.view). A
character is matched by its base cards first (the same hero in both), then by its place."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from generator.pack.buildshape import document_places
from generator.pack.model import Pack
from generator.web.charts import character_name
from generator.web.state import side_of
from generator.web.view import BuildView, build_view


@dataclass
class Line:
    card_id: str
    name: str
    count: int  # copies added or taken out
    place: str


@dataclass
class CharDiff:
    name: str
    status: str  # "same", "changed", "added", "removed"
    added: list[Line] = field(default_factory=list)
    removed: list[Line] = field(default_factory=list)
    points: tuple[int | None, int | None] = (None, None)


@dataclass
class Comparison:
    a: BuildView
    b: BuildView
    chars: list[CharDiff]

    @property
    def same(self) -> bool:
        return all(c.status == "same" for c in self.chars) and self.a.doc.get("side") == self.b.doc.get("side")


def _cards(pack: Pack, doc: dict, char: dict) -> Counter:
    counts: Counter = Counter()
    for place in document_places(side_of(pack, doc), char):
        counts[(place.place, place.card)] += place.copies
    return counts


def _base(pack: Pack, doc: dict, char: dict) -> tuple:
    return tuple(sorted(p.card for p in document_places(side_of(pack, doc), char) if p.place == "base"))


def _pairs(pack: Pack, a: dict, b: dict) -> list[tuple[int | None, int | None]]:
    """Characters of a and b paired: the same base cards first, then in order; the rest alone."""
    left = list(range(len(a["characters"])))
    right = list(range(len(b["characters"])))
    pairs: list[tuple[int | None, int | None]] = []
    for i in list(left):
        key = _base(pack, a, a["characters"][i])
        j = next((j for j in right if _base(pack, b, b["characters"][j]) == key), None)
        if j is not None:
            pairs.append((i, j))
            left.remove(i)
            right.remove(j)
    if a.get("side") == b.get("side"):
        while left and right:
            pairs.append((left.pop(0), right.pop(0)))
    pairs += [(i, None) for i in left] + [(None, j) for j in right]
    return sorted(pairs, key=lambda p: (p[0] if p[0] is not None else 999, p[1] if p[1] is not None else 999))


def _lines(pack: Pack, counts: Counter) -> list[Line]:
    return [Line(cid, pack.cards[cid].name if cid in pack.cards else cid, n, place)
            for (place, cid), n in sorted(counts.items(), key=lambda kv: (kv[0][0] != "base", kv[0][1])) if n > 0]


def compare(pack: Pack, a: dict, b: dict) -> Comparison:
    """The two build documents compared (each as clean_document made it)."""
    va, vb = build_view(pack, a), build_view(pack, b)
    chars = []
    for i, j in _pairs(pack, a, b):
        ca = a["characters"][i] if i is not None else {}
        cb = b["characters"][j] if j is not None else {}
        at = j if j is not None else i if i is not None else 0
        name = character_name(pack, side_of(pack, b if j is not None else a), at, cb or ca)
        ka = _cards(pack, a, ca) if i is not None else Counter()
        kb = _cards(pack, b, cb) if j is not None else Counter()
        status = "added" if i is None else "removed" if j is None else "same" if ka == kb else "changed"
        points = (va.chars[i].points if i is not None else None, vb.chars[j].points if j is not None else None)
        chars.append(CharDiff(name, status, _lines(pack, kb - ka), _lines(pack, ka - kb), points))
    return Comparison(va, vb, chars)
