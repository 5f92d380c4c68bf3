"""The rulebook's cover: the game's name on a band of the pack's colour over a faint hex
grid, the sets as hexes with their emblems, the stats, the summary, what the kit holds and
the credits. Everything comes from game.yaml."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from generator.render.rulebook.platypus import Flowable

from generator.pack.translations.own import words_of
from generator.render.base.colors import tint
from generator.render.base.fonts import REGULAR
from generator.render.base.text import FitError, draw_layout

if TYPE_CHECKING:
    from generator.pack.model import Pack
    from generator.render.rulebook.text import Book

class Cover(Flowable):
    """A full page: the title on a band of the pack's colour over a faint hex grid, a cluster
    of hexes in the sets' colours with their emblems, the summary and the credits."""

    def __init__(self, book: Book, pack: Pack, geometry=None):
        super().__init__()
        self.book, self.pack, self.geometry = book, pack, geometry

    def wrap(self, aw, ah):
        self.width, self.height = aw, ah
        return aw, ah

    def draw(self):
        c = self.canv
        st = self.book.style
        spec = self.pack.spec
        W, H = self.width, self.height
        band = H * 0.46
        c.saveState()
        c.setFillColor(HexColor(st.accent))
        c.rect(0, H - band, W, band, fill=1, stroke=0)
        # a faint hex grid on the band
        c.saveState()
        clip = c.beginPath()
        clip.rect(0, H - band, W, band)
        c.clipPath(clip, stroke=0, fill=0)
        c.setStrokeColor(HexColor(tint(st.accent, 0.16)))
        c.setLineWidth(0.7)
        size = 15 * mm / math.sqrt(3)
        for row in range(-1, int(band / (1.5 * size)) + 2):
            for col in range(-1, int(W / (math.sqrt(3) * size)) + 2):
                cx = col * math.sqrt(3) * size + (row % 2) * math.sqrt(3) * size / 2
                cy = H - band + row * 1.5 * size
                c.drawPath(_hex_path(c, cx, cy, size), fill=0, stroke=1)
        c.restoreState()
        margin = 22 * mm
        icons = self.book.icons(c)
        # title block
        lay = self.book.fitter.fit(f"**{spec.name}**", W - 2 * margin, 70, 60, 24, 1.05, False, font="display")
        draw_layout(c, icons, lay, margin, H - band * 0.30, W - 2 * margin, "left", "#ffffff")
        y = H - band * 0.30 - lay.height - 6 * mm
        c.setFillColor(HexColor("#ffffff"))
        c.setFont(self.book.display, 15)
        say = words_of(self.pack)  # pnp's own words in the pack's language
        c.drawString(margin, y, " ".join(say("RULEBOOK")))
        c.setFont(REGULAR, 10)
        c.setFillColor(HexColor(tint(st.accent, 0.75)))
        c.drawString(margin, y - 16, say("Version {version} · print-and-play edition").format(version=spec.version))
        # the sets as rows of hexes with their emblems, each captioned in a column of its own
        # (two lines at most, never under 6 pt) so neighbouring names never run into each other
        sets = list(spec.sets.values())
        hs = 17 * mm
        r = hs / math.sqrt(3)
        pitch = 30 * mm  # a hex and its caption's column, with a gap
        per_row = max(1, min(len(sets), int((W - 2 * margin + 2 * mm) // pitch)))
        caption_w = pitch - 3 * mm
        row_h = 2 * r + 16 * mm
        cy = H - band - 4 * mm - r
        for start in range(0, len(sets), per_row):
            group = sets[start:start + per_row]
            x0 = (W - len(group) * pitch) / 2 + pitch / 2
            for i, s in enumerate(group):
                cx = x0 + i * pitch
                self._set_hex(c, icons, s, cx, cy, r, hs)
                caption = self._caption(s.name, caption_w)
                draw_layout(c, icons, caption, cx - caption_w / 2, cy - r - 3, caption_w, "center", st.muted)
            cy -= row_h
        cy += row_h
        # stats as a line of icons
        y = cy - r - 16 * mm
        stats = [s for s in spec.stats.values() if s.icon]
        if stats:
            text = "   ".join(f":{s.icon}: {s.name}" for s in stats)
            lay = self.book.layout(text, W - 2 * margin, 10, 1.2, False)
            draw_layout(c, icons, lay, margin, y, W - 2 * margin, "center", st.muted)
            y -= lay.height + 8 * mm
        if spec.summary:
            lay = self.book.layout(spec.summary, W - 2 * margin - 20 * mm, 11.5, 1.4, False)
            draw_layout(c, icons, lay, margin + 10 * mm, y, W - 2 * margin - 20 * mm, "center", st.ink)
            y -= lay.height + 10 * mm
        kit = [say("**{count}** cards").format(count=len(self.pack.cards))]
        for n, what in ((len(self.pack.rule_files), say("**{count}** chapters of rules")),
                        (len(self.pack.preset_files), say("**{count}** ready-made presets")),
                        (len(self.pack.map_files), say("**{count}** maps"))):
            if n:
                kit.append(what.format(count=n))
        lay = self.book.layout(" · ".join(kit), W - 2 * margin, 10, 1.3, False)
        draw_layout(c, icons, lay, margin, y, W - 2 * margin, "center", st.accent)
        c.setStrokeColor(HexColor(st.rule))
        c.setLineWidth(0.5)
        c.line(margin, 26 * mm, W - margin, 26 * mm)
        credits = " · ".join(spec.credits)
        if credits:
            lay = self.book.layout(credits, W - 2 * margin, 7.5, 1.3)
            draw_layout(c, icons, lay, margin, 22 * mm, W - 2 * margin, "center", st.muted)
        c.restoreState()
        c.bookmarkHorizontal("cover", 0, H)

    def _caption(self, name: str, width: float):
        """A set's name in up to two lines of its column, 7.5 pt down to 6 pt."""
        try:
            return self.book.fitter.fit(f"**{name}**", width, 7.5 * 1.15 * 2, 7.5, 6.0, 1.15, False)
        except FitError:  # a very long name: 6 pt, in as many lines as it takes
            return self.book.layout(f"**{name}**", width, 6.0, 1.15, False)

    @staticmethod
    def _set_hex(c, icons, s, cx: float, cy: float, r: float, hs: float) -> None:
        c.setFillColor(HexColor(s.color))
        c.setStrokeColor(HexColor("#ffffff"))
        c.setLineWidth(2.2)
        c.drawPath(_hex_path(c, cx, cy, r), fill=1, stroke=1)
        if s.symbol:
            icons.draw(s.symbol, cx - hs * 0.27, cy - hs * 0.27, hs * 0.54, "#ffffff")


def _hex_path(c, cx: float, cy: float, r: float):
    """A pointy-top hexagon of corner radius r round (cx, cy), in points."""
    p = c.beginPath()
    for k in range(6):
        x, y = cx + r * math.cos(math.radians(30 + 60 * k)), cy + r * math.sin(math.radians(30 + 60 * k))
        if k:
            p.lineTo(x, y)
        else:
            p.moveTo(x, y)
    p.close()
    return p
