"""`pnp watch`'s quick path for cards.pdf: an edit to some cards redraws only the sheets they
are on (fronts and backs) and splices those pages into the last file, which comes out
byte-identical to a whole new build (render/base/pdfpatch.py says how, and what it refuses)."""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from generator.core.papers import DEFAULT_PAPER
from generator.core.files import atomic_output
from generator.render.base.pdfout import new_canvas
from generator.render.base.pdfpatch import PageLog, SavedPdf, new_objects, same_objects, same_state, seed
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
    """What a quick rebuild did: the sheets redrawn (1-based), the changed faces on them and
    how many pages changed."""
    sheets: list[int]
    faces: list[CardFace]
    pages_changed: int
    pages: int


class SheetMemory:
    """The last cards.pdf of a watch session: its bytes by object, the document state after
    each page, each sheet's faces and the cards their layouts named (`name_of`)."""

    def __init__(self):
        self.reason = "no build yet"  # why the last quick rebuild was refused
        self._log: PageLog | None = None
        self._start = None
        self._lookups: list[set] = []
        self.saved: SavedPdf | None = None
        self.documents: dict = {}  # the card files parsed by the last load (pack/load.py's load_pack)

    # ---- while write_home_sheets draws the whole document ----------------------------
    def begin(self, canvas, shared: CardShared) -> None:
        self._context = shared.base_context
        self._log = canvas.page_log = PageLog()
        self._start = self._log.start(canvas)
        self._lookups = []
        self.saved = None

    def sheet_done(self, looked_up: set) -> None:
        self._lookups.append(set(looked_up))

    def remember(self, canvas, data: bytes, out: Path, plans: list, options: tuple) -> None:
        """After the save: the sheets' plans (render/cards/sheets.py's home_plans)."""
        faces = [f for *_, chunk in plans for f in chunk]
        self.plans = plans
        doc = canvas._doc
        self.saved = SavedPdf(data, doc)
        self.contents = [page.Contents.__InternalName__ for page in doc.Pages.pages]
        self.out, self.options = Path(out), options
        self.keys = [_face_key(f) for f in faces]  # in the order of the sheets
        self.names = {f.card.id: f.card.name for f in faces if f.card is not None}
        self.log, self.start, self.lookups = self._log, self._start, self._lookups
        self.context = self._context

    # ---- an edit ---------------------------------------------------------------------
    def new_faces(self, faces: list[CardFace]) -> list[CardFace]:
        """The faces the last file does not hold as they are now (all of them before a first build)."""
        known = {repr(k) for k in self.keys} if self.saved is not None else set()  # a card's fields: unhashable
        return [f for f in faces if repr(_face_key(f)) not in known]

    def redraw(self, pack: Pack, faces: list[CardFace], shared: CardShared, out: Path, sheet: str = DEFAULT_PAPER,
               duplex: str = "long-edge", back_offset=(0.0, 0.0), title: str | None = None) -> Redrawn | None:
        """Write `out` redrawing only the sheets whose cards changed, or None (and `reason`)
        when the whole document must be built: nothing remembered, other options, another
        number of cards, or a changed sheet that uses something no page before it did."""
        if self.saved is None:
            return self._refuse("no earlier build in this session")
        if Path(out) != self.out or (sheet, duplex, tuple(back_offset), title) != self.options:
            return self._refuse("other options than the last build")
        if len(faces) != len(self.keys):
            return self._refuse(f"{len(self.keys)} cards before, {len(faces)} now")
        spec = load_sheet(sheet)
        plans = home_plans(pack, faces, spec, duplex, back_offset)
        per_sheet = 1 if duplex == "none" else 2
        if len(plans) * per_sheet != len(self.contents):
            return self._refuse("another number of pages")
        keys = [_face_key(f) for *_, chunk in plans for f in chunk]
        changed, edited = self._changed_sheets(plans, keys, shared.base_context != self.context)
        c = new_canvas(io.BytesIO(), *home_document(pack, faces, spec, duplex, plans, title))
        painter = CardPainter(c, shared)
        pages: dict[int, object] = {}
        lookups: dict[int, set] = {}  # the cards each redrawn sheet's layouts named
        for n in changed:
            first = (n - 1) * per_sheet
            before = self.log.states[first - 1] if first else self.start
            known = seed(c, self.saved.doc, before, first + 1)
            painter.forms |= known
            painter.icons.defined |= {k for k in known if k.startswith("icon-")}
            log = c.page_log = PageLog()
            shared.looked_up.clear()
            draw_home_sheet(c, painter, spec, plans, n, duplex)
            lookups[n] = set(shared.looked_up)
            problem = self._differs(c, log, first, before[0])
            if problem:
                return self._refuse(f"sheet {n} {problem}")
            for i, page in enumerate(c._doc.Pages.pages[-per_sheet:]):
                pages[first + i] = page.Contents
        saved = self.saved
        new_chunks = {self.contents[i]: saved.object_bytes(self.contents[i], s) for i, s in pages.items()}
        changed_pages = sum(saved.replace(name, chunk) for name, chunk in new_chunks.items())
        with atomic_output(out) as tmp:
            Path(tmp).write_bytes(saved.data())
        self.keys = keys
        for n, named in lookups.items():
            self.lookups[n - 1] = named
        self.names = {f.card.id: f.card.name for f in faces if f.card is not None}
        self.context, self.plans = shared.base_context, plans
        self.reason = ""
        return Redrawn(changed, edited, changed_pages, len(self.contents))

    def forget(self, reason: str) -> None:
        """Drop the last file: the next build is whole."""
        self.saved, self.reason = None, reason

    def _refuse(self, reason: str) -> None:
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

    def _differs(self, c, log: PageLog, first: int, counter: int) -> str:
        """Why the sheet just redrawn cannot replace its old pages ('' when it can)."""
        made = new_objects(c._doc, counter)
        old_after = self.log.states[first + len(log.states) - 1][0]
        old = [self.saved.doc.numberToId[k] for k in range(counter + 1, old_after + 1)]
        if made != old or not same_objects(c._doc, self.saved.doc, made):
            return "makes other objects (a form, image or font first used there)"
        for i, (resources, state) in enumerate(zip(log.resources, log.states)):
            if resources != self.log.resources[first + i]:
                return "uses other page resources (forms, images, transparency)"
            if not same_state(state, self.log.states[first + i]):
                return "uses characters or fonts first used there"
        return ""
