"""The roster sheet of a build: one page (two when a big party needs it) a player brings to
the table. Each character with statistics, base cards with their attached equipment,
abilities and deck; the points against the limit; the validator's verdict with every
violation and its fix; the pack and version, a short build hash, the share code and its QR.

The page is laid out as a column of blocks (characters, the verdict, the share block);
each block knows its height, blocks flow onto pages, and nothing is drawn twice."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.lib.colors import white
from reportlab.pdfbase.pdfmetrics import stringWidth

from generator.core.errors import InputError, Location, Problem
from generator.core.files import atomic_output
from generator.core.papers import DEFAULT_PAPER
from generator.render.base.fonts import BOLD, REGULAR
from generator.render.base.paper import PAPERS, page_size_pt
from generator.render.base.pdfout import MM, new_canvas
from generator.render.roster.characters import CharacterBlocks
from generator.render.roster.context import RosterContext
from generator.render.roster.parts import (COLUMNS, GREY, INK, LEGAL, MARGIN, NOT_LEGAL, PALE, ROW, ROW_DENSE, RULE,
                                           WARNING, Page, hex_color, tint_color)
from generator.render.roster.sharing import ShareBlock
from generator.render.roster.verdict import VerdictBlocks
from generator.rules.engine import validate_build
from generator.share.codes import build_hash, build_signature, encode

if TYPE_CHECKING:
    from generator.pack.model import Build, Pack
    from generator.render.roster.parts import Block


def write_roster(pack: Pack, build: Build, out_path: Path, paper: str = DEFAULT_PAPER,
                 points_override: int | None = None) -> dict:
    """Draw the roster of `build` to `out_path` (written atomically). Returns what was made:
    path, pages, paper, legal, points, limit, code, hash and where the QR code sits."""
    if paper not in PAPERS:
        raise InputError([Problem("roster.paper", f"unknown paper `{paper}`", Location("roster"),
                                  found=paper, expected=", ".join(sorted(PAPERS)))])

    report = validate_build(pack, build, points_override)
    try:
        shared = encode(pack, build)
        code, digest, code_problem = shared.code, shared.hash, None
    except InputError as exc:  # a build naming cards the pack lacks still gets its roster
        code, code_problem = None, exc.problems[0].message
        digest = build_hash(repr(build_signature(build)).encode("utf-8"))
    size = page_size_pt(paper)
    out_path = Path(out_path)
    with atomic_output(out_path) as tmp:
        canvas = new_canvas(str(tmp), size, title=f"Roster: {build.name}",
                            subject=f"{pack.spec.name} {pack.spec.version} roster sheet")
        sheet = RosterSheet(RosterContext(canvas, pack, build, report, code, code_problem, digest, size))
        info = sheet.draw()
        canvas.save()
    points = report.points
    return {
        "path": str(out_path), "pages": info["pages"], "paper": paper, "legal": report.legal,
        "points": points.total if points else 0, "limit": points.limit if points else None,
        "errors": sum(1 for v in report.violations if v.severity == "error"),
        "warnings": sum(1 for v in report.violations if v.severity == "warning"),
        "code": code, "hash": digest, "qr": info["qr"],
    }


class RosterSheet:
    """One build's roster: the blocks of its parts (characters, verdict, share block) flowed onto
    pages with a header and a footer."""

    def __init__(self, r: RosterContext) -> None:
        self.r = r
        self.characters = CharacterBlocks(r)
        self.verdict = VerdictBlocks(r)
        self.sharing = ShareBlock(r)

    def header_height(self, first: bool) -> float:
        return 35 * MM if first else 11 * MM

    def footer_height(self) -> float:
        return 8 * MM

    def draw_header(self, first: bool, page: int, pages: int) -> None:
        c = self.r.c
        top = self.r.page_h - MARGIN
        x, w = self.r.left, self.r.width
        spec = self.r.spec
        if not first:
            self.r.text(x, top - 4 * MM, self.r.build.name, BOLD, 11, width=w - 50 * MM)
            self.r.text(x + w, top - 4 * MM, f"roster, continued · page {page} of {pages}", REGULAR, 8, GREY,
                      align="right")
            c.setStrokeColor(hex_color(self.r.color))
            c.setLineWidth(0.8)
            c.line(x, top - 6.5 * MM, x + w, top - 6.5 * MM)
            return
        report = self.r.report
        badge_w = 48 * MM
        self.r.text(x, top - 3 * MM, f"ROSTER SHEET · {spec.name.upper()} {spec.version}", BOLD, 7.5,
                  hex_color(self.r.color))
        self.r.text(x, top - 11 * MM, self.r.build.name, BOLD, 20, width=w - badge_w - 6 * MM)
        n = len(self.r.build.characters)
        sub = f"{self.r.side.name} · {n} {self.r.side.character_word(n)} · {self.r.build.file}"
        self.r.text(x, top - 16.5 * MM, sub, REGULAR, 8.5, GREY, width=w - badge_w - 6 * MM)
        # verdict badge
        color = LEGAL if report.legal else NOT_LEGAL
        bx = x + w - badge_w
        c.setFillColor(hex_color(color))
        c.roundRect(bx, top - 11.5 * MM, badge_w, 10 * MM, 1.5 * MM, stroke=0, fill=1)
        self.r.text(bx + badge_w / 2, top - 8.2 * MM, "LEGAL" if report.legal else "NOT LEGAL", BOLD, 15, white,
                  align="center")
        points = report.points
        total = points.total if points else 0
        limit = points.limit if points else None
        if not self.r.priced:
            line = ""
        elif limit is None:
            line = f"{total} points · no limit"
        else:
            left = limit - total
            line = f"{total} / {limit} points · " + (f"{left} left" if left >= 0 else f"{-left} over")
        self.r.text(bx + badge_w / 2, top - 16 * MM, line, BOLD, 9, INK, align="center")
        warnings = sum(1 for v in report.violations if v.severity == "warning")
        errors = sum(1 for v in report.violations if v.severity == "error")
        note = []
        if errors:
            note.append(f"{errors} error" + ("s" if errors != 1 else ""))
        note.append(f"{warnings} warning" + ("s" if warnings != 1 else ""))
        self.r.text(bx + badge_w / 2, top - 19.5 * MM, ", ".join(note), REGULAR, 7.5,
                  hex_color(WARNING) if warnings and report.legal else GREY, align="center")
        if self.r.priced:
            self.points_bar(x, top - 27.5 * MM, w, 5 * MM)

    def points_bar(self, x: float, y: float, w: float, h: float) -> None:
        """Each character's points as a segment of a bar scaled to the limit; the limit is marked."""
        c = self.r.c
        points = self.r.report.points
        if points is None:
            return
        total, limit = points.total, points.limit
        scale_max = max(total, limit or 0, 1)
        c.setFillColor(PALE)
        c.setStrokeColor(RULE)
        c.setLineWidth(0.4)
        c.rect(x, y, w, h, stroke=1, fill=1)
        cx = x
        for i, char in enumerate(self.r.build.characters):
            value = self.r.char_points[i]
            seg = w * value / scale_max
            c.setFillColor(tint_color(self.r.color, 0.15 + 0.5 * (i % 2)))
            c.rect(cx, y, seg, h, stroke=0, fill=1)
            label = f"{char.name} {value}"
            if stringWidth(label, BOLD, 7) > seg - 2 * MM:
                label = str(value)
            if stringWidth(label, BOLD, 7) <= seg - 1 * MM:
                self.r.text(cx + seg / 2, y + h / 2 - 2.4, label, BOLD, 7, white if i % 2 == 0 else INK,
                          align="center")
            cx += seg
        if limit is not None:
            lx = x + w * limit / scale_max
            if total > limit:  # the part over the limit, underlined in red
                c.setFillColor(hex_color(NOT_LEGAL))
                c.rect(lx, y - 1.0 * MM, x + w * total / scale_max - lx, 1.0 * MM, stroke=0, fill=1)
            c.setStrokeColor(hex_color(NOT_LEGAL) if total > limit else INK)
            c.setLineWidth(1.2)
            c.line(lx, y - 1.2 * MM, lx, y + h + 1.2 * MM)
            label = f"limit {limit}"
            label_w = stringWidth(label, BOLD, 6.5)
            color = hex_color(NOT_LEGAL) if total > limit else INK
            if lx - label_w < x + 30 * MM:  # a limit near the left end: label to the right of the mark
                self.r.text(lx + 1.2 * MM, y - 3.8 * MM, label, BOLD, 6.5, color)
                return
            self.r.text(min(lx, x + w), y - 3.8 * MM, label, BOLD, 6.5, color, align="right")
        self.r.text(x, y - 3.8 * MM, f"points: {total}" + (f" of {limit}" if limit is not None else ""),
                  REGULAR, 6.5, GREY, width=28 * MM)

    def draw_footer(self, page: int, pages: int) -> None:
        c = self.r.c
        y = MARGIN - 2 * MM
        c.setStrokeColor(RULE)
        c.setLineWidth(0.4)
        c.line(self.r.left, y + 3.5 * MM, self.r.left + self.r.width, y + 3.5 * MM)
        left = f"{self.r.spec.name} {self.r.spec.version} · {self.r.build.name} · build hash {self.r.digest}"
        self.r.text(self.r.left, y, left, REGULAR, 7, GREY, width=self.r.width - 30 * MM)
        self.r.text(self.r.left + self.r.width, y, f"page {page} of {pages}", REGULAR, 7, GREY, align="right")

    def paginate(self, blocks: list[Block]) -> list[Page]:
        gap = 3 * MM
        pages = [Page()]
        room = self.r.page_h - 2 * MARGIN - self.header_height(True) - self.footer_height()
        i = 0
        while i < len(blocks):
            block = blocks[i]
            need = block.height
            if block.keep_with_next and i + 1 < len(blocks):
                need += gap + blocks[i + 1].height
            page = pages[-1]
            if page.blocks and need > room:
                pages.append(Page())
                room = self.r.page_h - 2 * MARGIN - self.header_height(False) - self.footer_height()
            pages[-1].blocks.append(block)
            room -= block.height + gap
            i += 1
        return pages

    def draw(self) -> dict:
        # the smaller room (under the first page's big header): a block then fits on any page
        full_room = self.r.page_h - 2 * MARGIN - self.header_height(True) - self.footer_height()
        tail = self.verdict.notes_blocks() + self.verdict.verdict_blocks() + [self.sharing.share_block()]
        pages = None
        # roomy first; a fourth column, then tighter rows, only when they save a page
        for columns, row_h, stats_h in ((COLUMNS, ROW, 7.5 * MM), (COLUMNS + 1, ROW, 7.5 * MM),
                                        (COLUMNS + 1, ROW_DENSE, 6.5 * MM)):
            self.r.row_h, self.r.stats_h = row_h, stats_h
            blocks = [self.characters.character_block(i, ch, full_room, columns) for i, ch in enumerate(self.r.build.characters)]
            candidate = self.paginate(blocks + tail)
            if pages is None or len(candidate) < len(pages):
                pages = candidate
        assert pages is not None  # the loop above tries three layouts
        qr_page = None
        for number, page in enumerate(pages, 1):
            first = number == 1
            self.draw_header(first, number, len(pages))
            top = self.r.page_h - MARGIN - self.header_height(first)
            for block in page.blocks:
                before = self.r.qr_info
                block.draw(top)
                if self.r.qr_info is not None and before is None:
                    qr_page = number - 1
                top -= block.height + 3 * MM
            self.draw_footer(number, len(pages))
            self.r.c.showPage()
        qr = dict(self.r.qr_info, page=qr_page) if self.r.qr_info else None
        return {"pages": len(pages), "qr": qr}
