"""What every part of one build's roster reads: the canvas, the pack, the build and its
verdict, the share code, the page's measures and the small drawing helpers (text, icons, card
names)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reportlab.pdfbase.pdfmetrics import stringWidth

from generator.pack.buildshape import character_refs
from generator.pack.display import deals_in_points, stat_labels
from generator.pack.model import Card, Character
from generator.render.base.fonts import REGULAR
from generator.render.base.icons import IconSheet, known_icons
from generator.render.base.pdfout import MM
from generator.render.base.text import TextFitter, hyphenation_language
from generator.render.roster.parts import INK, MARGIN, ROW, ellipsize

if TYPE_CHECKING:
    from generator.core.report import Report
    from generator.pack.model import Build, Pack


class RosterContext:
    """One build's roster: its state and drawing helpers, shared by its parts."""

    def __init__(self, canvas, pack: Pack, build: Build, report: Report, code: str | None,
                 code_problem: str | None, digest: str, page_size):
        self.c = canvas
        self.pack = pack
        self.spec = pack.spec
        self.build = build
        self.report = report
        self.code = code
        self.code_problem = code_problem
        self.digest = digest
        self.page_w, self.page_h = page_size
        self.left = MARGIN
        self.width = self.page_w - 2 * MARGIN
        self.icons = IconSheet(canvas)
        self.known_icons = set(known_icons())
        keywords = [k.name for k in self.spec.keywords.values()]
        self.fitter = TextFitter(keywords, hyphenation_language(self.spec.language))
        self.side = self.spec.sides[build.side]
        self.color = next((s.color for s in self.spec.sets.values() if s.side == build.side), "#444444")
        self.slot_rule = next((r for r in self.spec.rules if r.check == "slot_capacity"), None)
        self.qr_info: dict | None = None
        self.row_h, self.stats_h = ROW, 7.5 * MM
        self.char_points = [self.points_of(ch) for ch in build.characters]
        # a game without points (generator.pack.display) prints no points, bar or totals
        self.priced = deals_in_points(pack, self.side)
        self.stat_labels = stat_labels(pack, self.side)

    def points_of(self, char: Character) -> int:
        """A character's points, counted by position (two characters may share a name)."""
        return sum(self.pack.cards[ref.id].points * n for _, ref, n in character_refs(char) if ref.id in self.pack.cards)

    def text(self, x, y, text, font=REGULAR, size=8.0, color=INK, width=None, align="left"):
        if width is not None:
            text = ellipsize(text, font, size, width)
        c = self.c
        c.setFont(font, size)
        c.setFillColor(color)
        if align == "right":
            c.drawRightString(x, y, text)
        elif align == "center":
            c.drawCentredString(x, y, text)
        else:
            c.drawString(x, y, text)
        return stringWidth(text, font, size)

    def icon(self, name, x, y, size, color=None):
        if name in self.known_icons:
            self.icons.draw(name, x, y, size, color)
            return True
        return False

    def card(self, card_id: str) -> Card | None:
        return self.pack.cards.get(card_id)

    def card_name(self, card_id: str) -> str:
        card = self.card(card_id)
        return card.name if card else f"{card_id} (unknown card)"
