"""A roster's share block: the points per character against the limit, the share code in groups
and its QR code."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing
from reportlab.pdfbase.pdfmetrics import stringWidth

from generator.render.base.fonts import BOLD, ITALIC, REGULAR
from generator.render.base.graphics import draw_graphic
from generator.render.base.pdfout import MM
from generator.render.base.text import draw_layout
from generator.render.roster.parts import (CODE_GROUP, CODE_LEADING, CODE_SIZE, GREY, INK, NOT_LEGAL, QR_BORDER,
                                           QR_LEVEL, QR_SIZE, RULE, Block, hex_color, plain_text)

if TYPE_CHECKING:
    from generator.render.roster.context import RosterContext


class ShareBlock:
    """The last block of a roster: points, share code, QR code."""

    def __init__(self, r: RosterContext) -> None:
        self.r = r

    def points_table(self, x: float, y: float, table_w: float, names: list[str], points) -> None:
        """The points per character against the limit, with the total."""
        c = self.r.c
        self.r.text(x, y, "POINTS", BOLD, 7, hex_color(self.r.color))
        right = x + table_w
        for name, value in zip(names, self.r.char_points):
            y -= 4.2 * MM
            self.r.text(x, y, name, REGULAR, 8.5, width=table_w - 12 * MM)
            self.r.text(right, y, str(value), REGULAR, 8.5, align="right")
        y -= 4.2 * MM
        total = points.total if points else 0
        limit = points.limit if points else None
        c.setStrokeColor(INK)
        c.setLineWidth(0.5)
        c.line(x, y + 3.2 * MM, right, y + 3.2 * MM)
        if limit is None:
            summary = "Total (no points limit)"
        else:
            left = limit - total
            summary = f"Total · limit {limit} · " + (f"{left} left" if left >= 0 else f"{-left} over")
        self.r.text(x, y, summary, BOLD, 8.5, width=table_w - 9 * MM)
        over = limit is not None and total > limit
        self.r.text(right, y, str(total), BOLD, 8.5, hex_color(NOT_LEGAL) if over else INK, align="right")

    def share_block(self) -> Block:
        """Three zones side by side: the points against the limit, the share code, its QR code."""
        qr_w = QR_SIZE
        gap = 6 * MM
        table_w = 55 * MM
        code_x = self.r.left + table_w + gap
        code_w = self.r.width - table_w - qr_w - 2 * gap
        points = self.r.report.points
        names = [ch.name for ch in self.r.build.characters]
        code_lines = self.code_lines(code_w) if self.r.code else []
        table_h = 6 * MM + (len(names) + 1) * 4.2 * MM
        code_h = 6 * MM + len(code_lines) * CODE_LEADING + 8 * MM
        height = max(qr_w + 1 * MM, table_h, code_h)

        def draw(top: float) -> None:
            c = self.r.c
            x = self.r.left
            c.setStrokeColor(RULE)
            c.setLineWidth(0.4)
            c.line(x, top, x + self.r.width, top)
            y = top - 4.5 * MM
            if not self.r.priced:  # no points: the line-up, in its order
                self.r.text(x, y, self.r.side.name.upper(), BOLD, 7, hex_color(self.r.color))
                for i, name in enumerate(names, 1):
                    y -= 4.2 * MM
                    self.r.text(x, y, f"{i}. {name}", REGULAR, 8.5, width=table_w - 4 * MM)
            else:
                self.points_table(x, y, table_w, names, points)
            # the share code, in groups for reading aloud, and its QR code
            y = top - 4.5 * MM
            self.r.text(code_x, y, "SHARE CODE", BOLD, 7, hex_color(self.r.color))
            if not self.r.code:
                self.r.text(code_x, y - 5 * MM, "No share code:", ITALIC, 8, hex_color(NOT_LEGAL))
                layout = self.r.fitter.layout(plain_text(self.r.code_problem or ""), code_w, 7.5, hyphenate=False)
                draw_layout(c, self.r.icons, layout, code_x, y - 6.5 * MM, code_w, color=NOT_LEGAL)
                return
            y -= 1.5 * MM
            for line in code_lines:
                y -= CODE_LEADING
                gx = code_x
                for group in line:
                    self.r.text(gx, y, group, BOLD, CODE_SIZE, INK)
                    gx += self.group_width(group)
            y -= 5 * MM
            self.r.text(code_x, y, "pnp unshare CODE -o build.yaml gives this build back;", ITALIC, 7, GREY,
                      width=code_w)
            self.r.text(code_x, y - 3.2 * MM, f"build hash {self.r.digest}", ITALIC, 7, GREY, width=code_w)
            self.draw_qr(self.r.left + self.r.width - qr_w, top - 0.5 * MM - qr_w, qr_w)

        return Block(height, draw)

    @staticmethod
    def group_width(group: str) -> float:
        return stringWidth(group, BOLD, CODE_SIZE) + 2 * MM

    def code_lines(self, width: float) -> list[list[str]]:
        """The code in groups of CODE_GROUP characters, as many groups to a line as fit."""
        code = self.r.code or ""
        lines: list[list[str]] = [[]]
        used = 0.0
        for i in range(0, len(code), CODE_GROUP):
            group = code[i:i + CODE_GROUP]
            w = self.group_width(group)
            if lines[-1] and used + w - 2 * MM > width:
                lines.append([])
                used = 0.0
            lines[-1].append(group)
            used += w
        return lines

    def draw_qr(self, x: float, y: float, size: float) -> None:
        widget = QrCodeWidget(self.r.code, barLevel=QR_LEVEL, barBorder=QR_BORDER, barWidth=size, barHeight=size)
        drawing = Drawing(size, size)
        drawing.add(widget)
        draw_graphic(drawing, self.r.c, x, y)
        modules = widget.qr.getModuleCount()
        self.r.qr_info = {"page": None, "x": x / MM, "y": y / MM, "size": size / MM, "modules": modules,
                        "border": QR_BORDER, "level": QR_LEVEL}
