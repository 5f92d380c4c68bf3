"""Balanced columns inside a full-width frame. A chapter's body is one `Columns` flowable: it
fills the page's columns one after the other, splits onto the next page when it must, and on
its last page finds the lowest column height that still holds the rest, so the chapter ends
with even columns and the next chapter's title can span the page right below it.

Flowables drawn inside report to the document template (outline, contents, running header)
as if platypus had drawn them itself."""

from __future__ import annotations

from reportlab.platypus import Flowable

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
        cw = self._cw(aw)
        cols, rest = self._fill(cw, ah, self.content)
        if rest:
            self._cols = None
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
        return aw, self.height

    def split(self, aw, ah):
        if self._placed is not None:
            return []
        cw = self._cw(aw)
        cols, rest = self._fill(cw, ah, self.content)
        if not any(cols):
            return []
        first = Columns([], self.ncols, self.gap, _placed=cols, _height=ah)
        return [first, Columns(rest, self.ncols, self.gap)] if rest else [first]

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
