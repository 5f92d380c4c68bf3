"""The content of a roster sheet: text and icon helpers, one block per character (statistics,
cards with their equipment, abilities and deck), the verdict with each violation, and the share
block with its code and QR. `RosterSheet` (generator.render.roster.sheet) adds the pages."""

from __future__ import annotations

import math

from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing
from reportlab.lib.colors import white
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth

from generator.core.report import Violation, character_key
from generator.pack.model import Card, Character
from generator.render.base.graphics import draw_graphic
from generator.render.base.fonts import BOLD, ITALIC, REGULAR
from generator.render.base.pdfout import MM
from generator.render.base.text import draw_layout
from generator.rules.params import parameter
from generator.render.roster.parts import (CODE_GROUP, CODE_LEADING, CODE_SIZE, COLUMN_GAP, GREY, INK, LEGAL,
                                           MAX_VIOLATIONS, NOT_LEGAL, QR_BORDER, QR_LEVEL, QR_SIZE, RULE,
                                           WARNING, Block, Row, ellipsize, hex_color, plain_text, tint_color)


class RosterBlocks:
    """The blocks of one build's roster; the state is set up by RosterSheet.__init__."""

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

    # ---- what a character holds ---------------------------------------------------------
    def detail(self, card: Card | None, with_slots: bool = False) -> str:
        """A few words about a card from its type's own fields: choices, stats it uses, slots."""
        if card is None:
            return ""
        parts = []
        fields = self.spec.card_types[card.type].fields
        if with_slots and self.slot_rule and parameter(self.slot_rule, "usage_field") in fields:
            used = card.fields.get(parameter(self.slot_rule, "usage_field"))
            if isinstance(used, int):
                parts.append(f"{used} slot" + ("s" if used != 1 else ""))
        for name, spec in fields.items():
            value = card.fields.get(name)
            if value is None:
                continue
            if spec.type == "choice":
                parts.append(str(value))
            elif spec.type == "stat" and value in self.spec.stats:
                parts.append(self.spec.stats[value].name)
        return " · ".join(parts)

    def keyword_icon(self, card: Card | None) -> str | None:
        """The icon of a keyword a card's choice field names (an action's type), if any."""
        if card is None:
            return None
        for name, spec in self.spec.card_types[card.type].fields.items():
            if spec.type == "choice":
                value = str(card.fields.get(name) or "").lower()
                kw = self.spec.keywords.get(value)
                if kw and kw.icon in self.known_icons:
                    return kw.icon
        return None

    def points_text(self, card: Card | None, copies: int = 1) -> str:
        if card is None or card.points == 0:
            return ""
        return f"{card.points * copies}"

    def rows_of(self, char: Character) -> list[Row]:
        side = self.side
        rows: list[Row] = []
        base_type = self.spec.card_types[side.base.type].name
        label = side.base.key.replace("_", " ").capitalize()
        attach_base = side.equipment is not None and side.equipment.attach == "base"
        heading = f"{label} · {len(char.bases)}" if side.base.many else base_type
        if attach_base:
            heading += " + equipment"
        rows.append(Row("heading", heading))
        for entry in char.bases:
            card = self.card(entry.card.id)
            rows.append(Row("item", self.card_name(entry.card.id), self.detail(card), self.points_text(card)))
            for eq in entry.equipment:
                eq_card = self.card(eq.id)
                rows.append(Row("attached", self.card_name(eq.id), self.detail(eq_card, True),
                                self.points_text(eq_card)))
        if side.equipment is not None and side.equipment.attach == "character":
            rows.append(Row("heading", "Equipment (carried)"))
            for eq in char.equipment:
                eq_card = self.card(eq.id)
                rows.append(Row("item", self.card_name(eq.id), self.detail(eq_card, True),
                                self.points_text(eq_card)))
            if not char.equipment:
                rows.append(Row("more", "none"))
        if side.abilities is not None:
            rows.append(Row("heading", "Abilities"))
            for ab in char.abilities:
                ab_card = self.card(ab.id)
                rows.append(Row("item", self.card_name(ab.id), self.detail(ab_card), self.points_text(ab_card)))
            if not char.abilities:
                rows.append(Row("more", "none"))
        if side.deck is not None:
            total = sum(d.copies for d in char.deck)
            rows.append(Row("heading", f"Deck · {total} card" + ("s" if total != 1 else "")))
            for entry in char.deck:
                card = self.card(entry.card.id)
                rows.append(Row("item", f"{entry.copies} × {self.card_name(entry.card.id)}", "",
                                self.points_text(card, entry.copies), self.keyword_icon(card)))
            if not char.deck:
                rows.append(Row("more", "empty"))
        return rows

    @staticmethod
    def split_columns(rows: list[Row], columns: int) -> list[list[Row]]:
        """Rows into `columns` columns of nearly equal length; a heading never ends a column,
        and attached equipment stays with its base card."""
        target = max(1, math.ceil(len(rows) / columns))
        out: list[list[Row]] = [[]]
        for i, row in enumerate(rows):
            col = out[-1]
            if len(col) >= target and len(out) < columns and row.kind != "attached":
                out.append([])
            elif (len(out) < columns and col and row.kind == "heading"
                  and len(col) >= target - 1 and i + 1 < len(rows)):
                out.append([])
            out[-1].append(row)
        return out

    def stat_items(self, char: Character) -> list[tuple[str | None, str, str]]:
        """(icon, value, label) for the stats row: the pack's stats, then slots and the other
        sums the validator reports (the pack's `totals:`)."""
        stats = self.report.stats.get(character_key(char.path[-1]), {})  # by position, never by name
        items = []
        for stat_id, stat in self.spec.stats.items():
            if stat_id in self.stat_labels:  # only the stats this side's cards can carry
                items.append((stat.icon, str(stats.get(stat_id, 0)), stat.name))
        base_fields = self.spec.card_types[self.side.base.type].fields
        if self.slot_rule and parameter(self.slot_rule, "capacity_field") in base_fields:
            cap_field, use_field = parameter(self.slot_rule, "capacity_field"), parameter(self.slot_rule, "usage_field")
            capacity = sum(self._int(self.card(b.card.id), cap_field) for b in char.bases)
            equipment = [e for b in char.bases for e in b.equipment] + list(char.equipment)
            used = sum(self._int(self.card(e.id), use_field) for e in equipment)
            label = base_fields[cap_field].label or cap_field.replace("_", " ").capitalize()
            items.append(("slot", f"{used}/{capacity}", label))
        # the pack's other totals (game.yaml `totals:`) under their field's label and icon; a
        # `hexes` field is a count of hexes (Boss Fight: feat cost, size; Raid Boss: Base HP, Dice)
        done = {parameter(self.slot_rule, "capacity_field") if self.slot_rule else None}
        for name in self.spec.totals:
            if name not in stats or name in done or name in self.spec.stats:
                continue
            spec = base_fields.get(name)
            hexes = spec is not None and spec.type == "hexes"
            icon = spec.icon if spec is not None and spec.icon else ("hex" if hexes else None)
            label = self.stat_labels[name]  # the field's label (generator.pack.display)
            items.append((icon, str(stats[name]), label + (" (hexes)" if hexes else "")))
        return items

    @staticmethod
    def _int(card: Card | None, name: str | None) -> int:
        value = card.fields.get(name) if card is not None and name else None
        return value if isinstance(value, int) else 0

    # ---- blocks ---------------------------------------------------------------------------
    def character_block(self, index: int, char: Character, max_height: float, columns: int) -> Block:
        rows = self.rows_of(char)
        head_h, stats_h, pad, row_h = 6.5 * MM, self.stats_h, 2.5 * MM, self.row_h
        if not self.stat_items(char):  # nothing to count (a deck of shared cards): no empty band
            stats_h = 1 * MM
        split = self.split_columns(rows, columns)
        room = max_height - head_h - stats_h - 2 * pad
        if max(len(c) for c in split) * row_h > room:
            columns += 1  # a very large character: one more, narrower column
            split = self.split_columns(rows, columns)
        fit_rows = max(1, int(room // row_h))
        if max(len(c) for c in split) > fit_rows:  # still too tall: cut, and say so
            keep = fit_rows * columns - 1
            rows = rows[:keep] + [Row("more", f"… and {len(rows) - keep} more lines (see the build file)")]
            split = [rows[i * fit_rows:(i + 1) * fit_rows] for i in range(columns)]
        height = head_h + stats_h + max(len(c) for c in split) * row_h + 2 * pad
        points = self.char_points[index]

        def draw(top: float) -> None:
            c = self.c
            x0, w = self.left, self.width
            # frame and title bar
            c.setStrokeColor(hex_color(self.color))
            c.setLineWidth(0.8)
            c.rect(x0, top - height, w, height, stroke=1, fill=0)
            c.setFillColor(hex_color(self.color))
            c.rect(x0, top - head_h, w, head_h, stroke=0, fill=1)
            base_icon = self.side.base.type if self.side.base.type in self.known_icons else None
            symbol = next((s.symbol for s in self.spec.sets.values() if s.side == self.build.side), None)
            tx = x0 + 2.5 * MM
            if symbol and self.icon(symbol, tx, top - head_h + 1.5 * MM, 3.6 * MM, "#ffffff"):
                tx += 5 * MM
            elif base_icon:
                self.icon(base_icon, tx, top - head_h + 1.5 * MM, 3.6 * MM, "#ffffff")
                tx += 5 * MM
            pts = f"{points} points" if self.priced else ""
            pts_w = stringWidth(pts, BOLD, 10)
            self.text(tx, top - head_h + 2 * MM, f"{index + 1}. {char.name}", BOLD, 11, white,
                      width=w - (tx - x0) - pts_w - 8 * MM)
            self.text(x0 + w - 2.5 * MM, top - head_h + 2 * MM, pts, BOLD, 10, white, align="right")
            # stats row
            y = top - head_h - stats_h + 0.8 * MM
            items = self.stat_items(char)
            step = w / max(len(items), 1)
            for i, (icon, value, label) in enumerate(items):
                x = x0 + 2.5 * MM + i * step
                if icon and self.icon(icon, x, y - 0.3 * MM, 4 * MM):
                    x += 5 * MM
                vw = self.text(x, y, value, BOLD, 11)
                self.text(x + vw + 1.2 * MM, y, label, REGULAR, 7, GREY, width=step - vw - 8 * MM)
            c.setStrokeColor(RULE)
            c.setLineWidth(0.4)
            line_y = top - head_h - stats_h
            c.line(x0 + 2 * MM, line_y, x0 + w - 2 * MM, line_y)
            # columns of rows
            inner = w - 5 * MM
            col_w = (inner - COLUMN_GAP * (columns - 1)) / columns
            for ci, col in enumerate(split):
                cx = x0 + 2.5 * MM + ci * (col_w + COLUMN_GAP)
                ry = line_y - pad - row_h + 1.1 * MM
                for row in col:
                    self.draw_row(row, cx, ry, col_w)
                    ry -= row_h

        return Block(height, draw)

    def draw_row(self, row: Row, x: float, y: float, width: float) -> None:
        c = self.c
        if row.kind == "heading":
            self.text(x, y, row.text.upper(), BOLD, 7, hex_color(self.color), width=width)
            c.setStrokeColor(tint_color(self.color, 0.6))
            c.setLineWidth(0.4)
            c.line(x, y - 1.0 * MM, x + width, y - 1.0 * MM)
            return
        if row.kind == "more":
            self.text(x, y, row.text, ITALIC, 7.5, GREY, width=width)
            return
        indent = 0.0
        if row.kind == "attached":  # a hook from the base card above
            c.setStrokeColor(GREY)
            c.setLineWidth(0.5)
            c.line(x + 1.2 * MM, y + 2.6 * MM, x + 1.2 * MM, y + 0.9 * MM)
            c.line(x + 1.2 * MM, y + 0.9 * MM, x + 2.8 * MM, y + 0.9 * MM)
            indent = 3.6 * MM
        if row.icon and self.icon(row.icon, x + indent, y - 0.2 * MM, 2.9 * MM):
            indent += 3.7 * MM
        pts_w = 0.0
        if row.points:
            pts_w = self.text(x + width, y, row.points, BOLD, 8, INK, align="right") + 1.5 * MM
        room = width - indent - pts_w
        name_font = ITALIC if row.kind == "attached" else REGULAR
        name = ellipsize(row.text, name_font, 8, room)
        nw = self.text(x + indent, y, name, name_font, 8)
        parts = row.detail.split(" · ") if row.detail else []
        while parts:  # as many of the detail's parts as fit whole, never a cut word
            detail = " · ".join(parts)
            if stringWidth(detail, REGULAR, 6.5) <= room - nw - 1.5 * MM:
                self.text(x + indent + nw + 1.5 * MM, y + 0.1 * MM, detail, REGULAR, 6.5, GREY)
                break
            parts.pop()

    def notes_blocks(self) -> list[Block]:
        """The build's notes (plain text from the players), wrapped under a heading; none without."""
        lines = []
        for para in self.build.notes.splitlines():
            lines += simpleSplit(para, REGULAR, 9, self.width - 8 * MM) or [""]
        if not lines:
            return []
        lead = 4.2 * MM
        height = 6 * MM + lead * len(lines)

        def draw(top: float) -> None:
            self.text(self.left, top - 4 * MM, "Notes", BOLD, 10)
            for n, line in enumerate(lines):
                self.text(self.left + 4 * MM, top - 6 * MM - lead * (n + 0.8), line, REGULAR, 9)

        return [Block(height, draw)]

    def verdict_blocks(self) -> list[Block]:
        report = self.report
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
            c = self.c
            c.setFillColor(tint_color(color, 0.88))
            c.rect(self.left, top - head_h + 1 * MM, self.width, head_h - 1 * MM, stroke=0, fill=1)
            c.setFillColor(hex_color(color))
            c.rect(self.left, top - head_h + 1 * MM, 1.6 * MM, head_h - 1 * MM, stroke=0, fill=1)
            self.text(self.left + 4 * MM, top - 5.3 * MM, "Validation", BOLD, 9, GREY)
            self.text(self.left + 24 * MM, top - 5.3 * MM, summary, BOLD, 10, hex_color(color),
                      width=self.width - 28 * MM)

        blocks.append(Block(head_h, draw_head, keep_with_next=bool(errors or warnings)))
        shown = (errors + warnings)[:MAX_VIOLATIONS]
        for v in shown:
            blocks.append(self.violation_block(v))
        hidden = len(errors) + len(warnings) - len(shown)
        if hidden:
            def draw_more(top: float) -> None:
                self.text(self.left + 4 * MM, top - 3.5 * MM,
                          f"… and {hidden} more: pnp validate {self.build.file} lists them all.",
                          ITALIC, 8.5, GREY, width=self.width - 8 * MM)
            blocks.append(Block(5.5 * MM, draw_more))
        return blocks

    def violation_block(self, v: Violation) -> Block:
        tag_w = 18 * MM
        x = self.left + 4 * MM + tag_w
        width = self.width - 4 * MM - tag_w
        message = self.fitter.layout(plain_text(v.message), width, 8.5, hyphenate=False)
        fix = self.fitter.layout(plain_text("Fix: " + v.fix), width, 7.5, hyphenate=False) if v.fix else None
        where = f"{v.rule} · {v.location}" + (f" · {v.path}" if v.path else "")
        height = message.height + (fix.height + 0.8 * MM if fix else 0) + 4.4 * MM + 1.5 * MM
        color = NOT_LEGAL if v.severity == "error" else WARNING

        def draw(top: float) -> None:
            c = self.c
            c.setFillColor(hex_color(color))
            c.roundRect(self.left + 4 * MM, top - 4.2 * MM, tag_w - 3 * MM, 3.8 * MM, 0.8 * MM, stroke=0, fill=1)
            self.text(self.left + 4 * MM + (tag_w - 3 * MM) / 2, top - 3.2 * MM, v.severity.upper(), BOLD, 6.5,
                      white, align="center")
            y = top - 0.6 * MM
            draw_layout(self.c, self.icons, message, x, y, width, color="#222222")
            y -= message.height + 0.3 * MM
            if fix is not None:
                draw_layout(self.c, self.icons, fix, x, y, width, color=LEGAL)
                y -= fix.height + 0.5 * MM
            self.text(x, y - 2.6 * MM, where, REGULAR, 6.5, GREY, width=width)

        return Block(height, draw)

    def points_table(self, x: float, y: float, table_w: float, names: list[str], points) -> None:
        """The points per character against the limit, with the total."""
        c = self.c
        self.text(x, y, "POINTS", BOLD, 7, hex_color(self.color))
        right = x + table_w
        for name, value in zip(names, self.char_points):
            y -= 4.2 * MM
            self.text(x, y, name, REGULAR, 8.5, width=table_w - 12 * MM)
            self.text(right, y, str(value), REGULAR, 8.5, align="right")
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
        self.text(x, y, summary, BOLD, 8.5, width=table_w - 9 * MM)
        over = limit is not None and total > limit
        self.text(right, y, str(total), BOLD, 8.5, hex_color(NOT_LEGAL) if over else INK, align="right")

    def share_block(self) -> Block:
        """Three zones side by side: the points against the limit, the share code, its QR code."""
        qr_w = QR_SIZE
        gap = 6 * MM
        table_w = 55 * MM
        code_x = self.left + table_w + gap
        code_w = self.width - table_w - qr_w - 2 * gap
        points = self.report.points
        names = [ch.name for ch in self.build.characters]
        code_lines = self.code_lines(code_w) if self.code else []
        table_h = 6 * MM + (len(names) + 1) * 4.2 * MM
        code_h = 6 * MM + len(code_lines) * CODE_LEADING + 8 * MM
        height = max(qr_w + 1 * MM, table_h, code_h)

        def draw(top: float) -> None:
            c = self.c
            x = self.left
            c.setStrokeColor(RULE)
            c.setLineWidth(0.4)
            c.line(x, top, x + self.width, top)
            y = top - 4.5 * MM
            if not self.priced:  # no points: the line-up, in its order
                self.text(x, y, self.side.name.upper(), BOLD, 7, hex_color(self.color))
                for i, name in enumerate(names, 1):
                    y -= 4.2 * MM
                    self.text(x, y, f"{i}. {name}", REGULAR, 8.5, width=table_w - 4 * MM)
            else:
                self.points_table(x, y, table_w, names, points)
            # the share code, in groups for reading aloud, and its QR code
            y = top - 4.5 * MM
            self.text(code_x, y, "SHARE CODE", BOLD, 7, hex_color(self.color))
            if not self.code:
                self.text(code_x, y - 5 * MM, "No share code:", ITALIC, 8, hex_color(NOT_LEGAL))
                layout = self.fitter.layout(plain_text(self.code_problem or ""), code_w, 7.5, hyphenate=False)
                draw_layout(c, self.icons, layout, code_x, y - 6.5 * MM, code_w, color=NOT_LEGAL)
                return
            y -= 1.5 * MM
            for line in code_lines:
                y -= CODE_LEADING
                gx = code_x
                for group in line:
                    self.text(gx, y, group, BOLD, CODE_SIZE, INK)
                    gx += self.group_width(group)
            y -= 5 * MM
            self.text(code_x, y, "pnp unshare CODE -o build.yaml gives this build back;", ITALIC, 7, GREY,
                      width=code_w)
            self.text(code_x, y - 3.2 * MM, f"build hash {self.digest}", ITALIC, 7, GREY, width=code_w)
            self.draw_qr(self.left + self.width - qr_w, top - 0.5 * MM - qr_w, qr_w)

        return Block(height, draw)

    @staticmethod
    def group_width(group: str) -> float:
        return stringWidth(group, BOLD, CODE_SIZE) + 2 * MM

    def code_lines(self, width: float) -> list[list[str]]:
        """The code in groups of CODE_GROUP characters, as many groups to a line as fit."""
        code = self.code or ""
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
        widget = QrCodeWidget(self.code, barLevel=QR_LEVEL, barBorder=QR_BORDER, barWidth=size, barHeight=size)
        drawing = Drawing(size, size)
        drawing.add(widget)
        draw_graphic(drawing, self.c, x, y)
        modules = widget.qr.getModuleCount()
        self.qr_info = {"page": None, "x": x / MM, "y": y / MM, "size": size / MM, "modules": modules,
                        "border": QR_BORDER, "level": QR_LEVEL}
