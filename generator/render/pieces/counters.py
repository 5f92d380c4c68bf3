"""Counter sheets: every counter the pack declares, expanded to copies, packed densely on
the page (hexes and discs on a honeycomb lattice, squares on a grid) with a cut line round
each, and for two-sided counters a back page whose faces sit exactly behind their fronts
when the sheet is printed double-sided."""

from __future__ import annotations

import math
from dataclasses import dataclass
from collections.abc import Callable
from typing import TYPE_CHECKING

from generator.core.duplex import back_page_shift, flip_axis
from generator.maps.load import load_pack_maps
from generator.pack.translations.own import Say, as_written, words_of
from generator.render.base.fonts import BOLD
from generator.render.pieces.draw import (BLEED_MM, GAP_MM, Face, PagePlan, draw_face, extent, marker,
                                          page_frame, text)
from generator.render.pieces.model import largest_footprint, most_characters, pieces_spec

if TYPE_CHECKING:
    from generator.grids import hexgrid
    from generator.pack.model import Build, CounterFace, CounterSpec
    from generator.render.pieces.draw import Kit
    from generator.render.pieces.model import Figure

SQUARE_CHIP_MM = 20.0  # initiative chips: a two-line name at 5 pt; they lie in the round tracker's 22 mm slots
DEFAULT_ROUND_MM = 20.0
GROUP_HEAD_MM = 5.0


@dataclass(frozen=True)
class CounterItem:
    kind: str  # the counter id
    number: int  # 1-based, within its kind
    shape: str
    size: float  # mm: flat to flat, diameter or side
    front: Face
    back: Face | None
    name: str  # what the heading calls this kind of counter


# ---- what to print -----------------------------------------------------------------------------


def _map_need(kit: Kit, feature: str) -> int:
    """The most hexes of `feature` (obstacles or a terrain id) any shipped map has."""
    if not kit.pack.map_files:
        return 0
    best = 0
    for m in load_pack_maps(kit.pack):
        if feature == "obstacles":
            best = max(best, len(m.obstacles))
        else:
            best = max(best, sum(1 for t in m.terrain.values() if t == feature))
    return best


def count_of(kit: Kit, spec: CounterSpec) -> int:
    if isinstance(spec.count, int):
        return spec.count
    rule = spec.count
    need = _map_need(kit, rule.per_map) if rule.per_map else 0
    if rule.per_character:
        need += rule.per_character * most_characters(kit.pack)
    if rule.per_footprint:
        need += largest_footprint(kit.pack, rule.per_footprint)
    return max(rule.min, need + rule.extra)


def _resolve_face(kit: Kit, spec: CounterFace, index: int, path: tuple, base: Face | None = None,
                  card=None, keyword=None, terrain=None) -> Face:
    """A face with its defaults filled in from the card, keyword or terrain it stands for."""
    label = spec.label or (card.name if card else None) or (keyword.name if keyword else None) or \
        (terrain.name if terrain else None) or ""
    icon = spec.icon or (keyword.icon if keyword else None)
    art = spec.art or (card.art if card else None)
    owner = card if (card is not None and not spec.art) else kit.owner(("pieces", "counters", index) + path,
                                                                       label or "counter")
    colour = spec.color or (base.color if base else None) or \
        (kit.pack.spec.sets[card.set].color if card and card.set in kit.pack.spec.sets else None) or "#555555"
    pattern = spec.pattern or (terrain.pattern if terrain else None)
    return Face(label=label, text=spec.text or "", icon=icon, color=colour, art=art, art_owner=owner, pattern=pattern)


def _size(kit: Kit, spec: CounterSpec) -> float:
    if spec.size is not None:
        return float(spec.size)
    return kit.hex_mm if spec.shape == "hex" else DEFAULT_ROUND_MM


def expand_counters(kit: Kit, figures: list[Figure], build: Build | None) -> list[CounterItem]:
    """Every counter copy to print. A build prints only the counters that name its
    characters (`for_each` its side) and their initiative chips."""
    spec = pieces_spec(kit.pack)
    pack_spec = kit.pack.spec
    items: list[CounterItem] = []
    for index, counter in enumerate(spec.counters):
        size = _size(kit, counter)
        card = kit.pack.cards.get(counter.card) if counter.card else None
        keyword = pack_spec.keywords.get(counter.keyword) if counter.keyword else None
        terrain = pack_spec.terrain.get(counter.terrain) if counter.terrain else None
        front = _resolve_face(kit, counter, index, (), None, card, keyword, terrain)
        if counter.for_each is not None:
            if build is not None and build.side != counter.for_each:
                continue
            copies = counter.count if isinstance(counter.count, int) else 1
            number = 0
            for fig in (f for f in figures if f.side == counter.for_each):
                face = Face(label=fig.name, text=counter.text or counter.label or "", icon=front.icon,
                            color=counter.color or fig.color, art=counter.art or fig.art,
                            art_owner=front.art_owner if counter.art else fig.art_owner, pattern=front.pattern)
                back = _back(kit, counter, index, face, card, keyword, terrain)
                for _ in range(copies):
                    number += 1
                    items.append(CounterItem(counter.id, number, counter.shape, size, face, back,
                                             f"{counter.label or counter.id} (one per "
                                             f"{pack_spec.sides[counter.for_each].name.lower()} character)"))
            continue
        if build is not None:
            continue
        back = _back(kit, counter, index, front, card, keyword, terrain)
        total = count_of(kit, counter)
        for n in range(1, total + 1):
            items.append(CounterItem(counter.id, n, counter.shape, size, front, back, front.label or counter.id))
    items.extend(_initiative_chips(kit, figures, build))
    return items


def _back(kit, counter: CounterSpec, index: int, front: Face, card, keyword, terrain) -> Face | None:
    if counter.back is None:
        return None
    if counter.back == "same":
        return front
    return _resolve_face(kit, counter.back, index, ("back",), front, None, None, None)


def _initiative_chips(kit: Kit, figures: list[Figure], build: Build | None) -> list[CounterItem]:
    """A square chip per character for the turn-order ladder of the round tracker."""
    round_spec = pieces_spec(kit.pack).trackers.round
    if round_spec is None or round_spec.initiative is None:
        return []
    stat = kit.pack.spec.stats[round_spec.initiative]
    say = words_of(kit.pack)  # pnp's own words in the pack's language
    chips = say("turn order chips (for the {stat} ladder of the round tracker)").format(stat=stat.name)
    items = []
    for n, fig in enumerate(figures, 1):
        face = Face(label=fig.name, text=kit.pack.spec.sides[fig.side].name, icon=fig.symbol, color=fig.color)
        items.append(CounterItem("initiative", n, "square", SQUARE_CHIP_MM, face, None, chips))
    if build is None:  # write-in chips for characters of one's own
        for side_id, side in kit.pack.spec.sides.items():
            color = next((f.color for f in figures if f.side == side_id), "#555555")
            # the side and an invitation, no icon: the whole invitation fits, the middle left to write in
            face = Face(label="", text=say("{side}: write a name").format(side=side.name), icon=None, color=color)
            items.append(CounterItem("initiative", len(items) + 1, "square", SQUARE_CHIP_MM, face, None, chips))
    return items


# ---- packing -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Lattice:
    """Where copies of one counter go: hexes and discs on a honeycomb (every second row, or
    column for flat-top hexes, shifted by half a pitch), squares on a plain grid."""

    w: float  # the piece's extent, mm
    h: float
    pitch: float  # centre to centre of neighbours, mm
    kind: str  # rows | columns | grid
    cols: int

    @classmethod
    def make(cls, shape: str, orientation: hexgrid.Orientation, size: float, width: float) -> "Lattice":
        w, h = extent(shape, orientation, size)
        pitch = size + GAP_MM  # the gap is measured between parallel edges / between discs
        if shape == "square":
            kind = "grid"
            cols = max(1, int((width - w) // pitch) + 1)
        elif shape == "hex" and orientation == "flat":
            kind = "columns"
            cols = max(1, int((width - w) // (pitch * math.sqrt(3) / 2)) + 1)
        else:
            kind = "rows"
            cols = max(1, int((width - w - pitch / 2) // pitch) + 1)
        return cls(w, h, pitch, kind, cols)

    @property
    def row_pitch(self) -> float:
        return self.pitch * math.sqrt(3) / 2 if self.kind == "rows" else self.pitch

    def height(self, rows: int) -> float:
        extra = self.pitch / 2 if self.kind == "columns" and self.cols > 1 else 0.0
        return self.h + (rows - 1) * self.row_pitch + extra

    def width(self, cols: int, rows: int) -> float:
        if self.kind == "columns":
            return self.w + (cols - 1) * self.pitch * math.sqrt(3) / 2
        extra = self.pitch / 2 if self.kind == "rows" and rows > 1 else 0.0
        return self.w + (cols - 1) * self.pitch + extra

    def centre(self, col: int, row: int) -> tuple[float, float]:
        """Offset (dx right, dy down) of a piece's centre from the block's top-left, mm."""
        if self.kind == "columns":
            return (self.w / 2 + col * self.pitch * math.sqrt(3) / 2,
                    self.h / 2 + row * self.pitch + (self.pitch / 2 if col % 2 else 0.0))
        shift = self.pitch / 2 if self.kind == "rows" and row % 2 else 0.0
        return self.w / 2 + col * self.pitch + shift, self.h / 2 + row * self.row_pitch


def _groups(items: list[CounterItem]) -> list[list[CounterItem]]:
    """Runs of counters that share a shape and size: each run is packed as one block."""
    out: list[list[CounterItem]] = []
    for item in items:
        if out and (out[-1][0].shape, out[-1][0].size) == (item.shape, item.size):
            out[-1].append(item)
        else:
            out.append([item])
    return out


def heading(items: list[CounterItem], continued: bool, say: Say = as_written) -> str:
    """`Obstacle × 20, Spawnling × 4 · hex 25.4 mm flat to flat · two-sided`, in the pack's language."""
    counts: dict[str, int] = {}
    for item in items:
        counts[item.name] = counts.get(item.name, 0) + 1
    first = items[0]
    shapes = {"hex": say("hex {size} mm flat to flat"), "square": say("square {size} mm"),
              "round": say("round {size} mm")}
    shape = shapes.get(first.shape, first.shape + " {size} mm").format(size=f"{first.size:g}")
    kinds = ", ".join(f"{name} × {n}" for name, n in counts.items())
    return f"{kinds} · {shape}" + (" · " + say("two-sided") if first.back is not None else "") + \
        (" " + say("(continued)") if continued else "")


def pack_counters(kit: Kit, items: list[CounterItem]) -> list[list[tuple[CounterItem, float, float, str | None]]]:
    """Pages of (item, centre x, centre y, group heading or None), centres in page mm."""
    left, bottom, right, top = kit.area()
    width = right - left
    pages: list[list] = [[]]
    y = top
    for group in _groups(items):
        first = group[0]
        lat = Lattice.make(first.shape, kit.orientation, first.size, width)
        queue = list(group)
        continued = False
        while queue:
            room = y - bottom - GROUP_HEAD_MM
            rows = 0
            while rows < math.ceil(len(queue) / lat.cols) and lat.height(rows + 1) + 2 * BLEED_MM <= room + 1e-6:
                rows += 1
            if rows == 0:
                if pages[-1]:
                    pages.append([])
                    y = top
                    continue
                raise ValueError(f"counter `{first.kind}` ({first.size:g} mm) does not fit on the paper")
            take = min(len(queue), rows * lat.cols)
            used_rows = math.ceil(take / lat.cols)
            block_w = lat.width(min(lat.cols, take), used_rows)
            x0 = left + (width - block_w) / 2
            y0 = y - GROUP_HEAD_MM - BLEED_MM
            head = heading(queue[:take], continued, words_of(kit.pack))
            continued = True
            for k, item in enumerate(queue[:take]):
                col, row = (k // used_rows, k % used_rows) if lat.kind == "columns" else (k % lat.cols, k // lat.cols)
                dx, dy = lat.centre(col, row)
                pages[-1].append((item, x0 + dx, y0 - dy, head if k == 0 else None))
            queue = queue[take:]
            y = y0 - lat.height(used_rows) - BLEED_MM - GAP_MM
            if queue:
                pages.append([])
                y = top
    return [p for p in pages if p]


def counter_blocks(kit: Kit, items: list[CounterItem]) -> list[tuple[tuple[float, float], Callable[..., None]]]:
    """Single-sided counters as boxes for a shared page: one block (heading and lattice)
    per run of same-shaped counters, as (w, h) and draw(left, top)."""
    left, _, right, _ = kit.area()
    width = right - left
    out = []
    for group in _groups(items):
        first = group[0]
        lat = Lattice.make(first.shape, kit.orientation, first.size, width - 2 * BLEED_MM)
        rows = math.ceil(len(group) / lat.cols)
        cols = min(lat.cols, len(group))
        head = heading(group, False, words_of(kit.pack))
        block_w = max(lat.width(cols, rows) + 2 * BLEED_MM, min(width, len(head) * 1.45))
        block_h = GROUP_HEAD_MM + lat.height(rows) + 2 * BLEED_MM

        def draw(bl, bt, group=group, lat=lat, rows=rows, cols=cols, head=head, block_w=block_w):
            text(kit.canvas, bl, bt - 3.2, head, 7, BOLD, "#333333")
            x0 = bl + (block_w - lat.width(cols, rows)) / 2
            y0 = bt - GROUP_HEAD_MM - BLEED_MM
            for k, item in enumerate(group):
                col, row = (k // rows, k % rows) if lat.kind == "columns" else (k % lat.cols, k // lat.cols)
                dx, dy = lat.centre(col, row)
                draw_face(kit, item.front, item.shape, x0 + dx, y0 - dy, item.size)
                marker(kit.canvas, f"pnp:counter:{item.kind}:{item.number}:front:{item.shape}:{item.size:g}",
                       x0 + dx, y0 - dy)
        out.append(((block_w, block_h), draw))
    return out


def mirror(kit: Kit, x: float, y: float) -> tuple[float, float]:
    """Where the back of a piece centred at (x, y) goes on the back page."""
    w, h = kit.page_mm
    axis = flip_axis(kit.duplex, w, h)
    dx, dy = back_page_shift(kit.back_offset, axis)  # back_offset: the calibration page's reading
    if axis == "rows":
        return x + dx, h - y + dy
    return w - x + dx, y + dy


# ---- pages -------------------------------------------------------------------------------------


def counter_pages(kit: Kit, items: list[CounterItem], single: bool = True) -> list[PagePlan]:
    """Two-sided counters first (each sheet's fronts, then its backs), then, unless
    `single` is False (they go elsewhere), the one-sided ones."""
    two = [i for i in items if i.back is not None]
    one = [i for i in items if i.back is None] if single else []
    plans: list[PagePlan] = []
    sheets_two = pack_counters(kit, two) if two else []
    for n, page in enumerate(sheets_two, 1):
        flip = kit.duplex.replace("-", " ")
        plans.append(PagePlan("counters-duplex", "front", _front(kit, page, n, len(sheets_two), True),
                              f"print double-sided, flip on the {flip}"))
        plans.append(PagePlan("counters-duplex", "back", _backs(kit, page, n, len(sheets_two)),
                              "backs of the page before"))
    sheets_one = pack_counters(kit, one) if one else []
    for n, page in enumerate(sheets_one, 1):
        plans.append(PagePlan("counters", "single", _front(kit, page, n, len(sheets_one), False), "single-sided"))
    return plans


def _front(kit: Kit, page, n: int, total: int, duplex: bool):
    def draw(c):
        say = words_of(kit.pack)  # pnp's own words in the pack's language
        title = say("Counters · double-sided") if duplex else say("Counters")
        note = ((say("Print this page and the next double-sided (flip on the long edge), at 100 %. Cut on the "
                     "solid lines.") if kit.duplex == "long-edge" else
                 say("Print this page and the next double-sided (flip on the short edge), at 100 %. Cut on the "
                     "solid lines.")) if duplex else say("Single-sided. Cut on the solid lines."))
        footer = (say("counters {n} of {total} · fronts") if duplex else say("counters {n} of {total}")).format(
            n=n, total=total)
        page_frame(kit, title, note, f"{kit.title} · {footer}")
        for item, _x, y, head in page:
            if head:
                top = y + extent(item.shape, kit.orientation, item.size)[1] / 2 + BLEED_MM + 1.2
                text(c, kit.area()[0], top, head, 7, BOLD, "#333333")
        for item, x, y, _ in page:
            draw_face(kit, item.front, item.shape, x, y, item.size)
            marker(c, f"pnp:counter:{item.kind}:{item.number}:front:{item.shape}:{item.size:g}", x, y)
        marker(c, f"pnp:page:counters:{'front' if duplex else 'single'}:{n}", 0, 0)
    return draw


def _backs(kit: Kit, page, n: int, total: int):
    def draw(c):
        say = words_of(kit.pack)  # pnp's own words in the pack's language
        page_frame(kit, say("Counters · backs"),
                   say("The backs of the page before: they land behind their fronts when printed double-sided, "
                       "flip on the long edge.") if kit.duplex == "long-edge" else
                   say("The backs of the page before: they land behind their fronts when printed double-sided, "
                       "flip on the short edge."),
                   f"{kit.title} · " + say("counters {n} of {total} · backs").format(n=n, total=total))
        for item, x, y, _ in page:
            bx, by = mirror(kit, x, y)
            draw_face(kit, item.back, item.shape, bx, by, item.size)
            marker(c, f"pnp:counter:{item.kind}:{item.number}:back:{item.shape}:{item.size:g}", bx, by)
        marker(c, f"pnp:page:counters:back:{n}", 0, 0)
    return draw
