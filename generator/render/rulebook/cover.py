"""The rulebook's cover: the game's name on a band of the pack's colour over a faint hex
grid, the sets as hexes with their emblems, the stats, the summary, what the kit holds and
the credits. Everything comes from game.yaml."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.platypus import Flowable

from generator.pack.translations.own import words_of
from generator.render.base.colors import tint
from generator.render.base.fonts import BOLD, REGULAR
from generator.render.base.text import draw_layout

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
                pts = [(cx + size * math.cos(math.radians(30 + 60 * i)), cy + size * math.sin(math.radians(30 + 60 * i)))
                       for i in range(6)]
                p = c.beginPath()
                p.moveTo(*pts[0])
                for pt in pts[1:]:
                    p.lineTo(*pt)
                p.close()
                c.drawPath(p, fill=0, stroke=1)
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
        # the sets as a row of hexes with their emblems
        sets = list(spec.sets.values())
        hs = 17 * mm
        r = hs / math.sqrt(3)
        total = len(sets) * hs + (len(sets) - 1) * 4 * mm
        x0 = (W - total) / 2 + hs / 2
        cy = H - band - 4 * mm - r
        for i, s in enumerate(sets):
            cx = x0 + i * (hs + 4 * mm)
            pts = [(cx + r * math.cos(math.radians(30 + 60 * k)), cy + r * math.sin(math.radians(30 + 60 * k)))
                   for k in range(6)]
            p = c.beginPath()
            p.moveTo(*pts[0])
            for pt in pts[1:]:
                p.lineTo(*pt)
            p.close()
            c.setFillColor(HexColor(s.color))
            c.setStrokeColor(HexColor("#ffffff"))
            c.setLineWidth(2.2)
            c.drawPath(p, fill=1, stroke=1)
            if s.symbol:
                icons.draw(s.symbol, cx - hs * 0.27, cy - hs * 0.27, hs * 0.54, "#ffffff")
            c.setFillColor(HexColor(st.muted))
            c.setFont(BOLD, 7.5)
            c.drawCentredString(cx, cy - r - 10, s.name)
        # stats as a line of icons
        y = cy - r - 30
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
