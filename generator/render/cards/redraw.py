"""`pnp watch`'s quick path for cards.pdf: an edit to some cards redraws only the sheets they
are on (fronts and backs), in a small document of their own, and puts those pages in place of
the old ones (render/base/pdfsplice.py, through pikepdf): every page is the same as a whole new
build's, pixel for pixel, though the file's bytes are not."""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from generator.core.papers import DEFAULT_PAPER
from generator.core.files import atomic_output
from generator.render.base.pdfout import new_canvas
from generator.render.base.pdfsplice import splice_pages
from generator.render.base.sheets import load_sheet
from generator.render.cards.faces import CardFace, CardPainter
from generator.render.cards.sheets import draw_home_sheet, home_document, home_plans

if TYPE_CHECKING:
    from generator.pack.model import Card, Pack
    from generator.render.cards.faces import CardShared

_NOT_DRAWN = ("location", "field_locations")  # where a card stands in its file: never printed


def _drawn(card: Card | None):
    """What of a card its face may show (all but where it stands in its file)."""
    if card is None:
        return None
    return tuple((k, v) for k, v in vars(card).items() if k not in _NOT_DRAWN)


def _face_key(face: CardFace):
    return (_drawn(face.card), face.back, face.index, face.total, face.layout, face.set_id, face.type_id)


@dataclass
class Redrawn:
    """What a quick rebuild did: the sheets redrawn (1-based), the changed faces on them, how
    many pages were drawn again and how many the file has."""
    sheets: list[int]
    faces: list[CardFace]
    pages_redrawn: int
    pages: int


class SheetMemory:
    """The last cards.pdf of a watch session: its bytes, each sheet's faces and the cards
    their layouts named (`name_of`)."""

    def __init__(self) -> None:
        self.reason = "no build yet"  # why the last quick rebuild was refused
        self.data: bytes | None = None
        self._lookups: list[set] = []
        self.documents: dict = {}  # the card files parsed by the last load (pack/load.py's load_pack)

    # ---- while write_home_sheets draws the whole document ----------------------------
    def begin(self, canvas, shared: CardShared) -> None:
        self._context = shared.base_context
        self._lookups = []
        self.data = None

    def sheet_done(self, looked_up: set) -> None:
        self._lookups.append(set(looked_up))

    def remember(self, canvas, data: bytes, out: Path, plans: list, options: tuple) -> None:
        """After the save: the file and the sheets' plans (render/cards/sheets.py's home_plans)."""
        faces = [f for *_, chunk in plans for f in chunk]
        self.plans = plans
        self.data = data
        self.out, self.options = Path(out), options
        self.pages = len(plans) * (1 if options[1] == "none" else 2)
        self.keys = [_face_key(f) for f in faces]  # in the order of the sheets
        self.names = {f.card.id: f.card.name for f in faces if f.card is not None}
        self.lookups = self._lookups
        self.context = self._context

    # ---- an edit ---------------------------------------------------------------------
    def new_faces(self, faces: list[CardFace]) -> list[CardFace]:
        """The faces the last file does not hold as they are now (all of them before a first build)."""
        known = {repr(k) for k in self.keys} if self.data is not None else set()  # a card's fields: unhashable
        return [f for f in faces if repr(_face_key(f)) not in known]

    def redraw(self, pack: Pack, faces: list[CardFace], shared: CardShared, out: Path, sheet: str = DEFAULT_PAPER,
               duplex: str = "long-edge", back_offset=(0.0, 0.0), title: str | None = None) -> Redrawn | None:
        """Write `out` redrawing only the sheets whose cards changed, or None (and `reason`)
        when the whole document must be built: nothing remembered, other options, another
        number of cards or of pages."""
        if self.data is None:
            return self._refuse("no earlier build in this session")
        if Path(out) != self.out or (sheet, duplex, tuple(back_offset), title) != self.options:
            return self._refuse("other options than the last build")
        if len(faces) != len(self.keys):
            return self._refuse(f"{len(self.keys)} cards before, {len(faces)} now")
        spec = load_sheet(sheet)
        plans = home_plans(pack, faces, spec, duplex, back_offset)
        per_sheet = 1 if duplex == "none" else 2
        if len(plans) * per_sheet != self.pages:
            return self._refuse("another number of pages")
        keys = [_face_key(f) for *_, chunk in plans for f in chunk]
        changed, edited = self._changed_sheets(plans, keys, shared.base_context != self.context)
        lookups: dict[int, set] = {}  # the cards each redrawn sheet's layouts named
        if changed:
            buffer = io.BytesIO()
            c = new_canvas(buffer, *home_document(pack, faces, spec, duplex, plans, title))
            painter = CardPainter(c, shared)
            for n in changed:
                shared.looked_up.clear()
                draw_home_sheet(c, painter, spec, plans, n, duplex)
                lookups[n] = set(shared.looked_up)
            c.save()
            places = {k * per_sheet + i: (n - 1) * per_sheet + i
                      for k, n in enumerate(changed) for i in range(per_sheet)}
            self.data = splice_pages(self.data, buffer.getvalue(), places)
            with atomic_output(out) as tmp:
                Path(tmp).write_bytes(self.data)
        self.keys = keys
        for n, named in lookups.items():
            self.lookups[n - 1] = named
        self.names = {f.card.id: f.card.name for f in faces if f.card is not None}
        self.context, self.plans = shared.base_context, plans
        self.reason = ""
        return Redrawn(changed, edited, len(changed) * per_sheet, self.pages)

    def forget(self, reason: str) -> None:
        """Drop the last file: the next build is whole."""
        self.data, self.reason = None, reason

    def _refuse(self, reason: str) -> Redrawn | None:  # None: no redraw (see `reason`)
        self.reason = reason
        return None

    def _changed_sheets(self, plans: list, keys: list, new_context: bool) -> tuple[list[int], list[CardFace]]:
        """Sheets holding a changed face, a layout naming a renamed card, or (when the pack's
        context for layouts changed) a card-less face: the reference card; and the changed faces."""
        faces = [f for *_, chunk in plans for f in chunk]
        names = {f.card.id: f.card.name for f in faces if f.card is not None}
        renamed = {k for k in names.keys() | self.names.keys() if names.get(k) != self.names.get(k)}
        sheets, edited, i = [], [], 0
        for n, (_grid, _back, chunk) in enumerate(plans, 1):
            here = [f for k, f in enumerate(chunk, i) if keys[k] != self.keys[k]]
            if here or self.lookups[n - 1] & renamed or (new_context and any(f.card is None for f in chunk)):
                sheets.append(n)
                edited.extend(here)
            i += len(chunk)
        return sheets, edited
