"""Balanced columns inside a full-width frame. A chapter's body is one `Columns` flowable: it
fills the page's columns one after the other, splits onto the next page when it must, and on
its last page finds the lowest column height that still holds the rest, so the chapter ends
with even columns and the next chapter's title can span the page right below it.

Flowables drawn inside report to the document template (outline, contents, running header)
as if platypus had drawn them itself."""

from __future__ import annotations

import functools

from generator.render.rulebook.platypus import ActionFlowable, Flowable, Frame

Placed = tuple[Flowable, float, float]  # a flowable in a column: it, its top and its height

FUZZ = 1e-6


class Columns(Flowable):
    def __init__(self, content: list, ncols: int = 2, gap: float = 20.0, _placed=None, _height=None):
        super().__init__()
        self.content = list(content)
        self.ncols = ncols
        self.gap = gap
        self._placed = _placed  # fixed columns of a split part: [[(flowable, top, height)]]
        self._fixed_height = _height  # a split part fills its page: nothing goes below it
        self._cols: list[list[Placed]] | None = None  # the columns as laid out by the last wrap
        # what wrap and split found for each room they were given: the rulebook lays its story out
        # twice or more (a measured pass, then the drawn one: MeasureFirst), and the table of contents
        # asks each chapter whether it fits (NewPageUnless) before the frame does; the same room gives
        # the same columns, since what a column holds is wrapped by the column's width alone
        self._wrapped: dict[tuple[float, float, float], tuple[list[list[Placed]] | None, float]] = {}
        self._splits: dict[tuple[float, float, float], list[Columns]] = {}

    def _cw(self, aw: float) -> float:
        return (aw - self.gap * (self.ncols - 1)) / self.ncols

    def _fill(self, cw: float, ah: float, content: list):
        """Greedy fill of `ncols` columns of height `ah`: (columns, what is left over)."""
        cols: list[list[Placed]] = []
        rest = list(content)
        for _ in range(self.ncols):
            placed: list = []
            y = 0.0
            while rest:
                f = rest[0]
                sb = f.getSpaceBefore() if placed else 0.0
                avail = ah - y - sb
                if avail <= FUZZ:
                    break
                if getattr(f, "width_only", False) and f.width == cw:
                    h = f.height  # wrapped at this width already: wrapped again, it would stay as it is
                else:
                    _, h = f.wrapOn(self.canv, cw, avail)
                if h <= avail + FUZZ:
                    placed.append((f, y + sb, h))
                    y += sb + h + f.getSpaceAfter()
                    rest.pop(0)
                    continue
                parts = [] if getattr(f, "keep_whole", False) else f.splitOn(self.canv, cw, avail)
                if parts and parts[0] is not f:
                    _, h = parts[0].wrapOn(self.canv, cw, avail)
                    if h <= avail + FUZZ:
                        placed.append((parts[0], y + sb, h))
                        rest[0:1] = parts[1:]
                        break
                if not placed and not cols and ah >= self._frame_height() - 1.0:
                    # taller than a whole column and unsplittable: place it and let it overhang
                    placed.append((f, 0.0, h))
                    rest.pop(0)
                while len(placed) > 1 and getattr(placed[-1][0], "keep_with_next", False):
                    rest.insert(0, placed.pop()[0])  # a heading goes with what follows it
                break
            cols.append(placed)
        return cols, rest

    def _frame_height(self) -> float:
        frame = getattr(self, "_frame", None)
        return getattr(frame, "_aH", 0.0) if frame is not None else 0.0

    @staticmethod
    def _height(cols) -> float:
        return max((top + h for col in cols for (_, top, h) in col[-1:]), default=0.0)

    def wrap(self, aw, ah):
        self.width = aw
        if self._placed is not None:
            self._cols = self._placed
            self.height = max(self._height(self._placed), min(self._fixed_height or 0.0, ah))
            return aw, self.height
        key = (aw, ah, self._frame_height())
        known = self._wrapped.get(key)
        if known is not None:
            self._cols, height = known
            if self._cols is None:
                return aw, height
            self.height = height
            return aw, self.height
        cw = self._cw(aw)
        cols, rest = self._fill(cw, ah, self.content)
        if rest:
            self._cols = None
            self._wrapped[key] = (None, ah + 1)
            return aw, ah + 1  # more than fits here: the frame will ask for a split
        # the lowest height that still holds everything: even columns on the last page
        lo, hi = 0.0, ah
        total = sum(h for col in cols for (_, _, h) in col)
        lo = max(lo, total / self.ncols - 1.0)
        for _ in range(14):
            if hi - lo < 1.0:
                break
            mid = (lo + hi) / 2
            _, left = self._fill(cw, mid, self.content)
            if left:
                lo = mid
            else:
                hi = mid
        final, left = self._fill(cw, hi, self.content)  # leave every flowable wrapped as drawn
        self._cols = final if not left else self._fill(cw, ah, self.content)[0]
        self.height = self._height(self._cols)
        self._wrapped[key] = (self._cols, self.height)
        return aw, self.height

    def split(self, aw, ah):
        if self._placed is not None:
            return []
        key = (aw, ah, self._frame_height())
        known = self._splits.get(key)
        if known is not None:  # the same parts as the last pass's (their own wraps remembered too)
            return list(known)
        cw = self._cw(aw)
        cols, rest = self._fill(cw, ah, self.content)
        if not any(cols):
            parts = []
        else:
            first = Columns([], self.ncols, self.gap, _placed=cols, _height=ah)
            parts = [first, Columns(rest, self.ncols, self.gap)] if rest else [first]
        self._splits[key] = parts
        return list(parts)

    def draw(self):
        cols = self._cols or []
        cw = self._cw(self.width)
        doc = getattr(self.canv, "_doctemplate", None)
        for i, col in enumerate(cols):
            x = i * (cw + self.gap)
            for f, top, h in col:
                f.drawOn(self.canv, x, self.height - top - h)
                if doc is not None:
                    doc.afterFlowable(f)

    def inside(self) -> list[Flowable]:
        """What `draw` draws, in its order (each reported to the document as it is drawn)."""
        return [f for col in self._cols or [] for f, _top, _h in col]


class NewPageUnless(Flowable):
    """Start a new page unless at least `need` points are left in the frame, or what follows
    (`then`: a chapter's title and body) fits completely in what is left."""

    def __init__(self, need: float, then: list | None = None):
        super().__init__()
        self.need = need
        self.then = then or []

    def _fits(self, aw, ah) -> bool:
        used = 0.0
        for i, f in enumerate(self.then):
            _, h = f.wrapOn(self.canv, aw, ah - used)
            used += h + (f.getSpaceBefore() if i else 0.0)
            if used > ah + FUZZ:
                return False
        return True

    def wrap(self, aw, ah):
        frame = getattr(self, "_frame", None)
        full = getattr(frame, "_aH", None) if frame is not None else None
        if ah < self.need and (full is None or ah < full - 1.0) and not self._fits(aw, ah):
            return aw, ah + 1
        return aw, 0

    def split(self, aw, ah):
        return []

    def draw(self):
        pass


class BookFrame(Frame):
    """A platypus frame that, while its document only measures (`doc.measuring` set: a pass
    that finds where everything falls, on a canvas that is never saved), places each flowable
    without drawing it. The document still hears of each one as if it had been drawn (what
    `Columns` holds included), so the outline and the contents' page numbers of a measured pass
    are those of a drawn one: the rulebook measures until its contents are settled and draws once
    (MeasureFirst), the quick reference measures each size it tries (quickref.py)."""

    def add(self, flowable, canv, trySplit=0):
        doc = getattr(canv, "_doctemplate", None)
        if doc is None or not getattr(doc, "measuring", False):
            return super().add(flowable, canv, trySplit)
        flowable.drawOn = functools.partial(_placed, flowable, doc)  # shadows the method for this one call
        try:
            return super().add(flowable, canv, trySplit)
        finally:
            del flowable.drawOn


def _placed(flowable, doc, canvas, x, y, _sW=0) -> None:
    """A flowable's drawOn in a measured pass: what it would have drawn inside is reported, not drawn."""
    for inner in flowable.inside() if isinstance(flowable, Columns) else ():
        _placed(inner, doc, canvas, x, y)
        doc.afterFlowable(inner)


MEASURED_PASSES = 4  # the rulebook's contents settle in one (their entries known beforehand: book.expected_contents)


class MeasureFirst(ActionFlowable):
    """First in a story that platypus lays out until its indexing flowables (the table of
    contents) are satisfied (multiBuild): the passes that only find the page numbers are
    measured, not drawn (`doc.measuring`, BookFrame), and the pass after they settle is drawn,
    and is the last one, its page numbers being those found. Stands nowhere on the page (an
    action that does nothing) and tells multiBuild, as an indexing flowable, whether the drawn
    pass has been made. A story that has not settled after MEASURED_PASSES is drawn at every
    pass after that, as multiBuild does by itself: the same pages, only slower."""

    def __init__(self, doc, story: list):
        super().__init__()
        self.doc = doc
        self.others = [f for f in story if f.isIndexing()]
        self.limit = MEASURED_PASSES
        self.measured = 0  # passes laid out without drawing
        self.drawn = 0  # passes drawn (one, unless the measured ones did not settle)
        self.settled = False

    def apply(self, doc) -> None:
        pass

    def isIndexing(self):
        return 1

    def notify(self, kind, stuff) -> None:
        pass

    def beforeBuild(self) -> None:
        self.doc.measuring = not self.settled and self.measured < self.limit

    def afterBuild(self) -> None:
        if self.doc.measuring:
            self.measured += 1
            # an indexing flowable may know sooner that the next pass will be laid out as this one
            self.settled = all(getattr(f, "settled", f.isSatisfied)() for f in self.others)
        else:
            self.drawn += 1
        self.doc.measuring = False

    def isSatisfied(self):
        return self.drawn > 0
