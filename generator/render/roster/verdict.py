"""A roster's verdict: the build's notes, whether it is legal, and each violation with its fix."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reportlab.lib.colors import white
from reportlab.lib.utils import simpleSplit

from generator.core.report import Violation
from generator.render.base.fonts import BOLD, ITALIC, REGULAR
from generator.render.base.pdfout import MM
from generator.render.base.text import draw_layout
from generator.render.roster.parts import (GREY, LEGAL, MAX_VIOLATIONS, NOT_LEGAL, WARNING, Block, hex_color,
                                           plain_text, tint_color)

if TYPE_CHECKING:
    from generator.render.roster.context import RosterContext


class VerdictBlocks:
    """The notes and the validator's verdict, as blocks."""

    def __init__(self, r: RosterContext) -> None:
        self.r = r

    def notes_blocks(self) -> list[Block]:
        """The build's notes (plain text from the players), wrapped under a heading; none without."""
        lines: list[str] = []
        for para in self.r.build.notes.splitlines():
            lines += simpleSplit(para, REGULAR, 9, self.r.width - 8 * MM) or [""]
        if not lines:
            return []
        lead = 4.2 * MM
        height = 6 * MM + lead * len(lines)

        def draw(top: float) -> None:
            self.r.text(self.r.left, top - 4 * MM, "Notes", BOLD, 10)
            for n, line in enumerate(lines):
                self.r.text(self.r.left + 4 * MM, top - 6 * MM - lead * (n + 0.8), line, REGULAR, 9)

        return [Block(height, draw)]

    def verdict_blocks(self) -> list[Block]:
        report = self.r.report
        errors = [v for v in report.sorted_violations() if v.severity == "error"]
        warnings = [v for v in report.sorted_violations() if v.severity == "warning"]
        color = LEGAL if report.legal else NOT_LEGAL
        title = "LEGAL" if report.legal else "NOT LEGAL"
        counts = []
        if errors:
            counts.append(f"{len(errors)} error" + ("s" if len(errors) != 1 else ""))
        counts.append(f"{len(warnings)} warning" + ("s" if len(warnings) != 1 else ""))
        limit = report.points.limit if report.points else None
        how = f" under a limit of {limit} points" if limit is not None else ""
        if errors or warnings:
            summary = f"{title}{how}: " + ", ".join(counts)
        else:
            summary = f"{title}{how}: every rule holds, no warnings"
        blocks = []
        head_h = 8 * MM

        def draw_head(top: float) -> None:
            c = self.r.c
            c.setFillColor(tint_color(color, 0.88))
            c.rect(self.r.left, top - head_h + 1 * MM, self.r.width, head_h - 1 * MM, stroke=0, fill=1)
            c.setFillColor(hex_color(color))
            c.rect(self.r.left, top - head_h + 1 * MM, 1.6 * MM, head_h - 1 * MM, stroke=0, fill=1)
            self.r.text(self.r.left + 4 * MM, top - 5.3 * MM, "Validation", BOLD, 9, GREY)
            self.r.text(self.r.left + 24 * MM, top - 5.3 * MM, summary, BOLD, 10, hex_color(color),
                      width=self.r.width - 28 * MM)

        blocks.append(Block(head_h, draw_head, keep_with_next=bool(errors or warnings)))
        shown = (errors + warnings)[:MAX_VIOLATIONS]
        for v in shown:
            blocks.append(self.violation_block(v))
        hidden = len(errors) + len(warnings) - len(shown)
        if hidden:
            def draw_more(top: float) -> None:
                self.r.text(self.r.left + 4 * MM, top - 3.5 * MM,
                          f"… and {hidden} more: pnp validate {self.r.build.file} lists them all.",
                          ITALIC, 8.5, GREY, width=self.r.width - 8 * MM)
            blocks.append(Block(5.5 * MM, draw_more))
        return blocks

    def violation_block(self, v: Violation) -> Block:
        tag_w = 18 * MM
        x = self.r.left + 4 * MM + tag_w
        width = self.r.width - 4 * MM - tag_w
        message = self.r.fitter.layout(plain_text(v.message), width, 8.5, hyphenate=False)
        fix = self.r.fitter.layout(plain_text("Fix: " + v.fix), width, 7.5, hyphenate=False) if v.fix else None
        where = f"{v.rule} · {v.location}" + (f" · {v.path}" if v.path else "")
        height = message.height + (fix.height + 0.8 * MM if fix else 0) + 4.4 * MM + 1.5 * MM
        color = NOT_LEGAL if v.severity == "error" else WARNING

        def draw(top: float) -> None:
            c = self.r.c
            c.setFillColor(hex_color(color))
            c.roundRect(self.r.left + 4 * MM, top - 4.2 * MM, tag_w - 3 * MM, 3.8 * MM, 0.8 * MM, stroke=0, fill=1)
            self.r.text(self.r.left + 4 * MM + (tag_w - 3 * MM) / 2, top - 3.2 * MM, v.severity.upper(), BOLD, 6.5,
                      white, align="center")
            y = top - 0.6 * MM
            draw_layout(self.r.c, self.r.icons, message, x, y, width, color="#222222")
            y -= message.height + 0.3 * MM
            if fix is not None:
                draw_layout(self.r.c, self.r.icons, fix, x, y, width, color=LEGAL)
                y -= fix.height + 0.5 * MM
            self.r.text(x, y - 2.6 * MM, where, REGULAR, 6.5, GREY, width=width)

        return Block(height, draw)
