"""Trackers and the blank board.

- A stat tracker per character (e.g. health): `clip` style numbers the edge of a card
  clockwise from 0, to be marked with a sliding paper clip; `dial` style is a numbered disc
  with a pointer disc on top, joined through the centres with a split pin. The track runs
  to the largest value any character of that side starts with (plus `headroom`), or when a
  build is printed, to that character's actual value.
- The round tracker: rounds along its edge, and with `initiative` a turn-order ladder for
  the chips printed among the counters.
- The blank board: a hex grid at true scale, tiled over sheets by the map renderer, with
  the same overlaps, cut lines and alignment crosses as the maps.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from collections.abc import Callable
from typing import TYPE_CHECKING

from generator.grids import hexgrid
from generator.maps.model import HexMap
from generator.pack.translations.own import Say, words_of
from generator.render.base.fonts import BOLD, REGULAR
from generator.core.typesize import RULES_PT
from generator.render.base.pdfout import MM
from generator.render.maps.document import plan_sheets, render_maps
from generator.render.pieces.draw import (BLEED_MM, PagePlan, centred_lines, color, cut_line, fit_lines,
                                          marker, page_frame, shelf_pack, text, tint)
from generator.render.pieces.model import most_characters, pieces_spec

if TYPE_CHECKING:
    from generator.pack.pieces_spec import NamedTrackerSpec
    from generator.render.pieces.draw import Kit
    from generator.render.pieces.model import Figure

MIN_CARD_MM = (88.9, 60.0)  # room for the name inside the track; four rows fit an A4 page
CELL_MM = 7.5
DIAL_STEP_MM = 5.6  # arc length per number on a dial


@dataclass(frozen=True)
class Tracker:
    stat: str
    fig: Figure | None  # None: a write-in tracker, or a named one
    side: str  # a side id; "" for a named tracker
    start: int | None
    max: int
    style: str
    named: NamedTrackerSpec | None = None  # a tracker of something that is not a character


def trackers_for(kit: Kit, figures: list[Figure], build) -> list[Tracker]:
    spec = pieces_spec(kit.pack)
    out = []
    for stat, tspec in spec.trackers.stats.items():
        for side_id in kit.pack.spec.sides:
            figs = [f for f in figures if f.side == side_id]
            if not figs:
                continue
            if isinstance(tspec.max, int):
                top = tspec.max
            elif build is not None:
                top = None  # each character's own value
            else:
                top = max(f.stats.get(stat, 0) for f in figs) + tspec.headroom
            for fig in figs:
                start = fig.stats.get(stat, 0)
                out.append(Tracker(stat, fig, side_id, start, max(1, top if top is not None else start), tspec.style))
            if build is None and any(f.source == "preset" for f in figs):
                out.append(Tracker(stat, None, side_id, None, max(1, top or 1), tspec.style))
    if build is None:  # the whole kit: every named tracker, as many as it asks for
        for named in spec.trackers.named:
            style = spec.trackers.stats[named.stat].style if named.stat in spec.trackers.stats else "clip"
            out += [Tracker(named.stat, None, "", named.start, named.max, style, named)] * named.count
    return out


# ---- clip tracker ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ClipTrack:
    """A clip tracker card: its size, its numbered cells clockwise from the top-left (x, y,
    w, h mm from the card's bottom-left) and the free box inside for the name."""

    width: float
    height: float
    cells: tuple[tuple[float, float, float, float], ...]
    inner: tuple[float, float, float, float]


def clip_track(n_cells: int) -> ClipTrack:
    """Up to 12 numbers run along the top edge; up to 24 along the top and back along the
    bottom; more go round the whole edge, with cells as square as the card allows."""
    cw_min = CELL_MM
    if n_cells <= 12:
        w = max(MIN_CARD_MM[0], n_cells * cw_min)
        cw = w / n_cells
        ch = min(cw, 11.0)
        h = MIN_CARD_MM[1] * 0.75
        cells = [(i * cw, h - ch, cw, ch) for i in range(n_cells)]
        return ClipTrack(w, h, tuple(cells), (2.0, 2.0, w - 4.0, h - ch - 4.0))
    if n_cells <= 24:
        nc = math.ceil(n_cells / 2)
        w = max(MIN_CARD_MM[0], nc * cw_min)
        cw = w / nc
        ch = min(cw, 10.0)
        h = MIN_CARD_MM[1]
        cells = [(i * cw, h - ch, cw, ch) for i in range(nc)] + \
                [(w - (i + 1) * cw, 0.0, cw, ch) for i in range(nc)]
        return ClipTrack(w, h, tuple(cells), (2.0, ch + 2.0, w - 4.0, h - 2 * ch - 4.0))
    k = math.ceil(n_cells / 2)
    best = None
    for nc in range(3, k):
        nr = k - nc
        w = max(MIN_CARD_MM[0], nc * cw_min)
        h = max(MIN_CARD_MM[1], (nr + 2) * cw_min)
        score = (abs(w / nc - h / (nr + 2)) + 0.002 * w * h, nc)
        if best is None or score < best[0]:
            best = (score, w, h, nc, nr)
    assert best is not None  # at least one layout was tried
    _, w, h, nc, nr = best
    cw, ch = w / nc, h / (nr + 2)
    sh = (h - 2 * ch) / nr
    cells = [(i * cw, h - ch, cw, ch) for i in range(nc)]
    cells += [(w - cw, h - ch - (j + 1) * sh, cw, sh) for j in range(nr)]
    cells += [(w - (i + 1) * cw, 0.0, cw, ch) for i in range(nc)]
    cells += [(0.0, ch + j * sh, cw, sh) for j in range(nr)]
    return ClipTrack(w, h, tuple(cells), (cw + 2.0, ch + 1.5, w - 2 * cw - 4.0, h - 2 * ch - 3.0))


def tracker_box(kit: Kit, t: Tracker) -> tuple[float, float]:
    if t.style == "dial":
        r, rt = _dial_radii(t.max)
        wide = 2 * r + 4 + 2 * rt + 2 * BLEED_MM
        left, _, right, _ = kit.area()
        if wide <= right - left:
            return wide, 2 * r + 2 * BLEED_MM
        return 2 * r + 2 * BLEED_MM, 2 * r + 4 + 2 * rt + 2 * BLEED_MM
    track = clip_track(t.max + 1)
    return track.width + 2 * BLEED_MM, track.height + 2 * BLEED_MM


def _names(kit: Kit, t: Tracker) -> tuple[str, str, str, str]:
    stat = kit.pack.spec.stats[t.stat]
    if t.named is not None:
        return t.named.label, "", stat.name, t.named.color or "#555555"
    side = kit.pack.spec.sides[t.side].name
    name = t.fig.name if t.fig else f"Your {side.lower()}: ______________"
    colour = t.fig.color if t.fig else next((s.color for s in kit.pack.spec.sets.values() if s.side == t.side),
                                            "#555555")
    return name, side, stat.name, colour


def draw_clip(kit: Kit, t: Tracker, left: float, top: float) -> None:
    c = kit.canvas
    track = clip_track(t.max + 1)
    w, h = track.width, track.height
    x0, y0 = left + BLEED_MM, top - BLEED_MM - h
    name, side, stat_name, colour = _names(kit, t)
    stat = kit.pack.spec.stats[t.stat]
    c.saveState()
    c.setFillColor(tint(colour, 0.35))
    c.rect((x0 - BLEED_MM) * MM, (y0 - BLEED_MM) * MM, (w + 2 * BLEED_MM) * MM, (h + 2 * BLEED_MM) * MM,
           stroke=0, fill=1)
    c.setFillColor(color("#ffffff"))
    c.rect(x0 * MM, y0 * MM, w * MM, h * MM, stroke=0, fill=1)
    cells = track.cells
    c.setLineWidth(0.4)
    c.setStrokeColor(tint(colour, 0.6))
    for value, (cx, cy, cw, ch) in enumerate(cells):
        used = value <= t.max
        start = t.start is not None and value == t.start
        c.setFillColor(color(colour) if start else (tint(colour, 0.12 if value % 5 else 0.25) if used
                                                    else color("#eeeeee")))
        c.rect((x0 + cx) * MM, (y0 + cy) * MM, cw * MM, ch * MM, stroke=1, fill=1)
        if used:
            size = min(cw, ch) * (0.5 if value < 100 else 0.4) * 72 / 25.4
            ink = "#ffffff" if start else ("#7a1f1f" if value == 0 else "#222222")
            text(c, x0 + cx + cw / 2, y0 + cy + ch / 2 - size * 0.35 / MM, str(value), size,
                 BOLD if start or value % 5 == 0 else REGULAR, ink, "centre")
    # the middle: whose tracker, which stat, where it starts
    ix, iy, iw, ih = track.inner
    ix0, iy0 = x0 + ix, y0 + iy
    icon = min(ih * 0.42, 14.0)
    if stat.icon:
        kit.icon_sheet.draw(stat.icon, (ix0 + 1) * MM, (iy0 + ih - icon - 1) * MM, icon * MM)
    text(c, ix0 + icon + 3, iy0 + ih - icon * 0.55, stat_name, 9, BOLD, "#333333")
    text(c, ix0 + icon + 3, iy0 + ih - icon * 0.55 - 3.6, side, 6.5, REGULAR, "#555555")
    size_pt, lines = fit_lines(name, BOLD, iw, 12.0, 5.5, 2)
    centred_lines(c, lines, BOLD, size_pt, ix0 + iw / 2, iy0 + ih - icon - 2.5, "#222222")
    say = words_of(kit.pack)  # pnp's own words in the pack's language
    starts = say("Starts at {start}.").format(start=t.start) if t.start is not None else say("Mark your start value.")
    # a named tracker (a base, a wild monster) says what it is for in the pack's own words
    what = (t.named.text or "") if t.named is not None else say("Slide a paper clip along the edge; at 0 the character falls.")
    hint = f"{starts} {what}".strip()
    size_pt, lines = fit_lines(hint, REGULAR, iw, 6.5, RULES_PT, 4)
    centred_lines(c, lines, REGULAR, size_pt, ix0 + iw / 2, iy0 + len(lines) * size_pt * 1.12 / MM + 0.5, "#444444")
    c.restoreState()
    p = c.beginPath()
    p.rect(x0 * MM, y0 * MM, w * MM, h * MM)
    cut_line(c, p)
    key = t.fig.key if t.fig else (t.named.id if t.named else "write-in")
    marker(c, f"pnp:tracker:{t.stat}:{t.side}:{key}:clip:max={t.max}:start={t.start}", x0 + w / 2, y0 + h / 2)


# ---- dial tracker ------------------------------------------------------------------------------


def _dial_radii(maximum: int) -> tuple[float, float]:
    r = max(32.0, (maximum + 1) * DIAL_STEP_MM / (2 * math.pi) + 8.0)
    return r, r - 9.0


def draw_dial(kit: Kit, t: Tracker, left: float, top: float) -> None:
    c = kit.canvas
    r, rt = _dial_radii(t.max)
    name, side, stat_name, colour = _names(kit, t)
    stat = kit.pack.spec.stats[t.stat]
    box_w, _ = tracker_box(kit, t)
    cx, cy = left + BLEED_MM + r, top - BLEED_MM - r
    if box_w > 2 * r + 2 * BLEED_MM + 1e-6:
        tx, ty = cx + r + 4 + rt, cy
    else:
        tx, ty = cx, cy - r - 4 - rt
    c.saveState()
    c.setFillColor(tint(colour, 0.35))
    c.circle(cx * MM, cy * MM, (r + BLEED_MM) * MM, stroke=0, fill=1)
    c.circle(tx * MM, ty * MM, (rt + BLEED_MM) * MM, stroke=0, fill=1)
    c.setFillColor(color("#ffffff"))
    c.circle(cx * MM, cy * MM, r * MM, stroke=0, fill=1)
    c.setFillColor(tint(colour, 0.15))
    c.circle(tx * MM, ty * MM, rt * MM, stroke=0, fill=1)
    n = t.max + 1
    size = min(3.4, (2 * math.pi * (r - 4.5) / n) * 0.55) * 72 / 25.4
    for v in range(n):
        a = math.pi / 2 - 2 * math.pi * v / n  # clockwise from the top
        x, y = cx + (r - 4.5) * math.cos(a), cy + (r - 4.5) * math.sin(a)
        c.saveState()
        c.translate(x * MM, y * MM)
        c.rotate(math.degrees(a) - 90)
        start = t.start is not None and v == t.start
        text(c, 0, -size * 0.35 / MM, str(v), size, BOLD if start or v % 5 == 0 else REGULAR,
             colour if start else ("#7a1f1f" if v == 0 else "#222222"), "centre")
        c.restoreState()
    # the top disc: a pointer, the name, the stat
    c.setFillColor(color(colour))
    p = c.beginPath()
    p.moveTo((tx - 3) * MM, (ty + rt - 5) * MM)
    p.lineTo((tx + 3) * MM, (ty + rt - 5) * MM)
    p.lineTo(tx * MM, (ty + rt - 0.8) * MM)
    p.close()
    c.drawPath(p, stroke=0, fill=1)
    if stat.icon:
        kit.icon_sheet.draw(stat.icon, (tx - 5) * MM, (ty + rt * 0.25) * MM, 10 * MM)
    size_pt, lines = fit_lines(name, BOLD, rt * 1.5, 10.0, 5.0, 2)
    centred_lines(c, lines, BOLD, size_pt, tx, ty + 1, "#222222")
    text(c, tx, ty - rt * 0.45, f"{stat_name} · {side}", 6, REGULAR, "#444444", "centre")
    for x, y in ((cx, cy), (tx, ty)):  # where the split pin goes
        c.setLineWidth(0.4)
        c.setStrokeColor(color("#222222"))
        c.line((x - 2) * MM, y * MM, (x + 2) * MM, y * MM)
        c.line(x * MM, (y - 2) * MM, x * MM, (y + 2) * MM)
    text(c, cx, cy - 5, "pierce here, join the discs", 5, REGULAR, "#555555", "centre")
    text(c, cx, cy - 7.2, "with a split pin", 5, REGULAR, "#555555", "centre")
    c.restoreState()
    for x, y, radius in ((cx, cy, r), (tx, ty, rt)):
        p = c.beginPath()
        p.circle(x * MM, y * MM, radius * MM)
        cut_line(c, p)
    key = t.fig.key if t.fig else (t.named.id if t.named else "write-in")
    marker(c, f"pnp:tracker:{t.stat}:{t.side}:{key}:dial:max={t.max}:start={t.start}", cx, cy)


# ---- round tracker -----------------------------------------------------------------------------


def _strip(c, left: float, top: float, bw: float, bh: float) -> tuple[float, float, float, float]:
    """A tracker strip's grey bleed and white face (the state saved: the caller restores it);
    the face's x, y, width and height in mm."""
    x0, y0, w, h = left + BLEED_MM, top - bh + BLEED_MM, bw - 2 * BLEED_MM, bh - 2 * BLEED_MM
    c.saveState()
    c.setFillColor(color("#9a9a9a"))
    c.rect((x0 - BLEED_MM) * MM, (y0 - BLEED_MM) * MM, bw * MM, bh * MM, stroke=0, fill=1)
    c.setFillColor(color("#ffffff"))
    c.rect(x0 * MM, y0 * MM, w * MM, h * MM, stroke=0, fill=1)
    return x0, y0, w, h


def round_box(kit: Kit) -> tuple[float, float]:
    left, _, right, _ = kit.area()
    spec = pieces_spec(kit.pack).trackers.round
    return right - left, (58.0 if spec and spec.initiative else 30.0)


def draw_round(kit: Kit, left: float, top: float) -> None:
    c = kit.canvas
    spec = pieces_spec(kit.pack).trackers.round
    assert spec is not None  # drawn only when the pack asks for a round tracker
    bw, bh = round_box(kit)
    x0, y0, w, h = _strip(c, left, top, bw, bh)
    cell_w, cell_h = min(15.0, (w - 24) / spec.rounds), 11.0
    say = words_of(kit.pack)  # pnp's own words in the pack's language
    text(c, x0 + 3, y0 + h - 7.5, say("Round"), 11, BOLD)
    cx0 = x0 + w - spec.rounds * cell_w
    c.setLineWidth(0.4)
    c.setStrokeColor(color("#777777"))
    for i in range(spec.rounds):
        c.setFillColor(tint("#555555", 0.08 if i % 2 else 0.16))
        c.rect((cx0 + i * cell_w) * MM, (y0 + h - cell_h) * MM, cell_w * MM, cell_h * MM, stroke=1, fill=1)
        text(c, cx0 + (i + 0.5) * cell_w, y0 + h - cell_h / 2 - 1.6, str(i + 1), 12, BOLD, "#222222", "centre")
    text(c, x0 + 3, y0 + h - cell_h - 5, say("Slide a paper clip along the top edge at the start of each round."),
         7, REGULAR, "#444444")
    if spec.initiative:
        stat = kit.pack.spec.stats[spec.initiative]
        slots = min(most_characters(kit.pack), int((w - 6) // 23))
        size = min(22.0, (w - 6) / slots - 2)
        text(c, x0 + 3, y0 + h - cell_h - 11.5, say("Turn order: lay the chips by current {stat}, highest first, "
                                                    "at the start of every round.").format(stat=stat.name),
             7.5, BOLD, "#333333")
        sx0 = x0 + (w - slots * (size + 2) + 2) / 2
        for i in range(slots):
            sx = sx0 + i * (size + 2)
            c.setFillColor(tint("#555555", 0.06))
            c.setDash([1.5, 1.2])
            c.rect(sx * MM, (y0 + 6) * MM, size * MM, size * MM, stroke=1, fill=1)
            c.setDash([])
            text(c, sx + size / 2, y0 + 2, _ordinal(i + 1, say), 7, BOLD, "#444444", "centre")
    c.restoreState()
    p = c.beginPath()
    p.rect(x0 * MM, y0 * MM, w * MM, h * MM)
    cut_line(c, p)
    marker(c, f"pnp:round-tracker:{spec.rounds}", x0 + w / 2, y0 + h / 2)


# ---- phase tracker -----------------------------------------------------------------------------


def phase_box(kit: Kit) -> tuple[float, float]:
    left, _, right, _ = kit.area()
    return right - left, 36.0


def draw_phases(kit: Kit, left: float, top: float) -> None:
    """The steps of one turn section in order, numbered, each in a cell a marker sits on."""
    c = kit.canvas
    spec = pieces_spec(kit.pack).trackers.phases
    assert spec is not None  # drawn only when the pack asks for a phase tracker
    section = next(s for s in kit.pack.spec.reference.turn if s.id == spec.section)
    steps = section.steps
    bw, bh = phase_box(kit)
    x0, y0, w, h = _strip(c, left, top, bw, bh)
    text(c, x0 + 3, y0 + h - 6.5, spec.title or section.title, 11, BOLD)
    say = words_of(kit.pack)  # pnp's own words in the pack's language
    text(c, x0 + 3, y0 + 2.5, say("Put a marker (or a paper clip on the edge) on the step being played."),
         7, REGULAR, "#444444")
    cell_w, cell_h = (w - 6) / len(steps), 19.0
    c.setLineWidth(0.4)
    c.setStrokeColor(color("#777777"))
    for i, step in enumerate(steps):
        cx = x0 + 3 + i * cell_w
        c.setFillColor(tint("#555555", 0.08 if i % 2 else 0.16))
        c.rect(cx * MM, (y0 + 7) * MM, cell_w * MM, cell_h * MM, stroke=1, fill=1)
        text(c, cx + cell_w / 2, y0 + 7 + cell_h - 6.5, str(i + 1), 13, BOLD, "#222222", "centre")
        size_pt, lines = fit_lines(step.name, BOLD, cell_w - 2, 9.0, 5.0, 2)
        centred_lines(c, lines, BOLD, size_pt, cx + cell_w / 2, y0 + 7 + cell_h - 9, "#333333")
    c.restoreState()
    p = c.beginPath()
    p.rect(x0 * MM, y0 * MM, w * MM, h * MM)
    cut_line(c, p)
    marker(c, f"pnp:phase-tracker:{spec.section}:{len(steps)}", x0 + w / 2, y0 + h / 2)


def _ordinal(n: int, say: Say) -> str:
    """`1st`, `2nd`: each ending is a word of its own, so a language says its ordinals (German `1.`)."""
    ending = 4 if 10 <= n % 100 <= 20 else {1: 1, 2: 2, 3: 3}.get(n % 10, 4)
    return {1: say("{n}st"), 2: say("{n}nd"), 3: say("{n}rd"), 4: say("{n}th")}[ending].format(n=n)


# ---- pages -------------------------------------------------------------------------------------


def tracker_pages(kit: Kit, figures: list[Figure], build, extra=()) -> list[PagePlan]:
    """Trackers packed over pages; `extra` boxes ((w, h), draw(left, top)) share them."""
    spec = pieces_spec(kit.pack)
    trackers = trackers_for(kit, figures, build)
    boxes: list[tuple[float, float]] = []
    draws: list[Callable[..., None]] = []  # each box's drawing, given its left and top
    if spec.trackers.round is not None and build is None:
        boxes.append(round_box(kit))
        draws.append(lambda l, t: draw_round(kit, l, t))
    if spec.trackers.phases is not None and build is None:
        boxes.append(phase_box(kit))
        draws.append(lambda l, t: draw_phases(kit, l, t))
    for tr in trackers:
        boxes.append(tracker_box(kit, tr))
        draws.append(lambda l, t, tr=tr: (draw_dial if tr.style == "dial" else draw_clip)(kit, tr, l, t))
    for box, fn in extra:
        boxes.append(box)
        draws.append(fn)
    if not boxes:
        return []
    pages = shelf_pack(boxes, kit.area())
    plans = []
    for n, page in enumerate(pages, 1):
        def draw(c, page=page, n=n):
            say = words_of(kit.pack)  # pnp's own words in the pack's language
            page_frame(kit, say("Trackers and counters") if extra else say("Trackers"),
                       say("Cut on the solid lines. Mark the value with a paper clip on the edge "
                           "(dials: join the two discs with a split pin)."),
                       f"{kit.title} · " + say("trackers {n} of {total} · single-sided").format(n=n, total=len(pages)))
            for index, left, top in page:
                draws[index](left, top)
            marker(c, f"pnp:page:trackers:{n}", 0, 0)
        plans.append(PagePlan("trackers", "single", draw, "health and round trackers"))
    return plans


# ---- the blank board ---------------------------------------------------------------------------


def board_map(kit: Kit):
    """The blank board as a map with no obstacles, terrain or zones."""
    spec = pieces_spec(kit.pack).board
    assert spec is not None  # drawn only when the pack asks for a blank board
    say = words_of(kit.pack)  # pnp's own words in the pack's language
    if spec.shape == "hexagon":
        cells = hexgrid.hexagon(spec.radius)
        shape = say("A blank board of a hexagon of radius {radius}.").format(radius=spec.radius)
    else:
        cells = hexgrid.rectangle(spec.columns, spec.rows, kit.orientation)
        shape = say("A blank board of {columns} × {rows} hexes.").format(columns=spec.columns, rows=spec.rows)
    return HexMap(id="blank-board", file="game.yaml", title=spec.title,
                  notes=shape + " " + say("Lay obstacle and terrain tokens on it to build maps of your own; the "
                                          "coordinates on each hex are the [q, r] that map files use."),
                  orientation=kit.orientation, hex_size=kit.hex_mm, hexes=frozenset(cells), obstacles=frozenset(),
                  terrain={}, zones={}, terrain_specs=dict(kit.pack.spec.terrain),
                  line_of_sight=kit.pack.spec.line_of_sight)


def board_pages(kit: Kit) -> list[PagePlan]:
    if pieces_spec(kit.pack).board is None:
        return []
    board = board_map(kit)
    sheets = len(plan_sheets(board, kit.paper).windows)
    count = 1 + (1 if sheets > 1 else 0) + sheets

    def draw(c):
        marker(c, f"pnp:board:{kit.hex_mm:g}:{sheets}", 0, 0)
        render_maps(c, [board], kit.pack, kit.paper)

    return [PagePlan("board", "single", draw, f"blank board, {sheets} sheets",
                     extra={"pages": count, "self_paged": True})]
