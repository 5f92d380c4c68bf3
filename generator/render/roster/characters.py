"""A roster's character blocks: each character's statistics, its base cards with their equipment,
abilities and deck, in columns."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from reportlab.lib.colors import white
from reportlab.pdfbase.pdfmetrics import stringWidth

from generator.core.report import character_key
from generator.pack.model import Card, Character
from generator.render.base.fonts import BOLD, ITALIC, REGULAR
from generator.render.base.pdfout import MM
from generator.render.roster.parts import COLUMN_GAP, GREY, INK, RULE, Block, Row, ellipsize, hex_color, tint_color
from generator.rules.params import parameter

if TYPE_CHECKING:
    from generator.render.roster.context import RosterContext


class CharacterBlocks:
    """One block per character of the build."""

    def __init__(self, r: RosterContext) -> None:
        self.r = r

    def detail(self, card: Card | None, with_slots: bool = False) -> str:
        """A few words about a card from its type's own fields: choices, stats it uses, slots."""
        if card is None:
            return ""
        parts = []
        fields = self.r.spec.card_types[card.type].fields
        if with_slots and self.r.slot_rule and parameter(self.r.slot_rule, "usage_field") in fields:
            used = card.fields.get(parameter(self.r.slot_rule, "usage_field"))
            if isinstance(used, int):
                parts.append(f"{used} slot" + ("s" if used != 1 else ""))
        for name, spec in fields.items():
            value = card.fields.get(name)
            if value is None:
                continue
            if spec.type == "choice":
                parts.append(str(value))
            elif spec.type == "stat" and value in self.r.spec.stats:
                parts.append(self.r.spec.stats[value].name)
        return " · ".join(parts)

    def keyword_icon(self, card: Card | None) -> str | None:
        """The icon of a keyword a card's choice field names (an action's type), if any."""
        if card is None:
            return None
        for name, spec in self.r.spec.card_types[card.type].fields.items():
            if spec.type == "choice":
                value = str(card.fields.get(name) or "").lower()
                kw = self.r.spec.keywords.get(value)
                if kw and kw.icon in self.r.known_icons:
                    return kw.icon
        return None

    def points_text(self, card: Card | None, copies: int = 1) -> str:
        if card is None or card.points == 0:
            return ""
        return f"{card.points * copies}"

    def rows_of(self, char: Character) -> list[Row]:
        side = self.r.side
        rows: list[Row] = []
        base_type = self.r.spec.card_types[side.base.type].name
        label = side.base.key.replace("_", " ").capitalize()
        attach_base = side.equipment is not None and side.equipment.attach == "base"
        heading = f"{label} · {len(char.bases)}" if side.base.many else base_type
        if attach_base:
            heading += " + equipment"
        rows.append(Row("heading", heading))
        for entry in char.bases:
            card = self.r.card(entry.card.id)
            rows.append(Row("item", self.r.card_name(entry.card.id), self.detail(card), self.points_text(card)))
            for eq in entry.equipment:
                eq_card = self.r.card(eq.id)
                rows.append(Row("attached", self.r.card_name(eq.id), self.detail(eq_card, True),
                                self.points_text(eq_card)))
        if side.equipment is not None and side.equipment.attach == "character":
            rows.append(Row("heading", "Equipment (carried)"))
            for eq in char.equipment:
                eq_card = self.r.card(eq.id)
                rows.append(Row("item", self.r.card_name(eq.id), self.detail(eq_card, True),
                                self.points_text(eq_card)))
            if not char.equipment:
                rows.append(Row("more", "none"))
        if side.abilities is not None:
            rows.append(Row("heading", "Abilities"))
            for ab in char.abilities:
                ab_card = self.r.card(ab.id)
                rows.append(Row("item", self.r.card_name(ab.id), self.detail(ab_card), self.points_text(ab_card)))
            if not char.abilities:
                rows.append(Row("more", "none"))
        if side.deck is not None:
            total = sum(d.copies for d in char.deck)
            rows.append(Row("heading", f"Deck · {total} card" + ("s" if total != 1 else "")))
            for dealt in char.deck:
                card = self.r.card(dealt.card.id)
                rows.append(Row("item", f"{dealt.copies} × {self.r.card_name(dealt.card.id)}", "",
                                self.points_text(card, dealt.copies), self.keyword_icon(card)))
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
        stats = self.r.report.stats.get(character_key(char.path[-1]), {})  # by position, never by name
        items = []
        for stat_id, stat in self.r.spec.stats.items():
            if stat_id in self.r.stat_labels:  # only the stats this side's cards can carry
                items.append((stat.icon, str(stats.get(stat_id, 0)), stat.name))
        base_fields = self.r.spec.card_types[self.r.side.base.type].fields
        if self.r.slot_rule and parameter(self.r.slot_rule, "capacity_field") in base_fields:
            cap_field, use_field = parameter(self.r.slot_rule, "capacity_field"), parameter(self.r.slot_rule, "usage_field")
            capacity = sum(self._int(self.r.card(b.card.id), cap_field) for b in char.bases)
            equipment = [e for b in char.bases for e in b.equipment] + list(char.equipment)
            used = sum(self._int(self.r.card(e.id), use_field) for e in equipment)
            label = base_fields[cap_field].label or cap_field.replace("_", " ").capitalize()
            items.append(("slot", f"{used}/{capacity}", label))
        # the pack's other totals (game.yaml `totals:`) under their field's label and icon; a
        # `hexes` field is a count of hexes (Boss Fight: feat cost, size; Raid Boss: Base HP, Dice)
        done = {parameter(self.r.slot_rule, "capacity_field") if self.r.slot_rule else None}
        for name in self.r.spec.totals:
            if name not in stats or name in done or name in self.r.spec.stats:
                continue
            spec = base_fields.get(name)
            hexes = spec is not None and spec.type == "hexes"
            icon = spec.icon if spec is not None and spec.icon else ("hex" if hexes else None)
            label = self.r.stat_labels[name]  # the field's label (generator.pack.display)
            items.append((icon, str(stats[name]), label + (" (hexes)" if hexes else "")))
        return items

    @staticmethod
    def _int(card: Card | None, name: str | None) -> int:
        value = card.fields.get(name) if card is not None and name else None
        return value if isinstance(value, int) else 0

    def character_block(self, index: int, char: Character, max_height: float, columns: int) -> Block:
        rows = self.rows_of(char)
        head_h, stats_h, pad, row_h = 6.5 * MM, self.r.stats_h, 2.5 * MM, self.r.row_h
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
        points = self.r.char_points[index]

        def draw(top: float) -> None:
            c = self.r.c
            x0, w = self.r.left, self.r.width
            # frame and title bar
            c.setStrokeColor(hex_color(self.r.color))
            c.setLineWidth(0.8)
            c.rect(x0, top - height, w, height, stroke=1, fill=0)
            c.setFillColor(hex_color(self.r.color))
            c.rect(x0, top - head_h, w, head_h, stroke=0, fill=1)
            base_icon = self.r.side.base.type if self.r.side.base.type in self.r.known_icons else None
            symbol = next((s.symbol for s in self.r.spec.sets.values() if s.side == self.r.build.side), None)
            tx = x0 + 2.5 * MM
            if symbol and self.r.icon(symbol, tx, top - head_h + 1.5 * MM, 3.6 * MM, "#ffffff"):
                tx += 5 * MM
            elif base_icon:
                self.r.icon(base_icon, tx, top - head_h + 1.5 * MM, 3.6 * MM, "#ffffff")
                tx += 5 * MM
            pts = f"{points} points" if self.r.priced else ""
            pts_w = stringWidth(pts, BOLD, 10)
            self.r.text(tx, top - head_h + 2 * MM, f"{index + 1}. {char.name}", BOLD, 11, white,
                      width=w - (tx - x0) - pts_w - 8 * MM)
            self.r.text(x0 + w - 2.5 * MM, top - head_h + 2 * MM, pts, BOLD, 10, white, align="right")
            # stats row
            y = top - head_h - stats_h + 0.8 * MM
            items = self.stat_items(char)
            step = w / max(len(items), 1)
            for i, (icon, value, label) in enumerate(items):
                x = x0 + 2.5 * MM + i * step
                if icon and self.r.icon(icon, x, y - 0.3 * MM, 4 * MM):
                    x += 5 * MM
                vw = self.r.text(x, y, value, BOLD, 11)
                self.r.text(x + vw + 1.2 * MM, y, label, REGULAR, 7, GREY, width=step - vw - 8 * MM)
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
        c = self.r.c
        if row.kind == "heading":
            self.r.text(x, y, row.text.upper(), BOLD, 7, hex_color(self.r.color), width=width)
            c.setStrokeColor(tint_color(self.r.color, 0.6))
            c.setLineWidth(0.4)
            c.line(x, y - 1.0 * MM, x + width, y - 1.0 * MM)
            return
        if row.kind == "more":
            self.r.text(x, y, row.text, ITALIC, 7.5, GREY, width=width)
            return
        indent = 0.0
        if row.kind == "attached":  # a hook from the base card above
            c.setStrokeColor(GREY)
            c.setLineWidth(0.5)
            c.line(x + 1.2 * MM, y + 2.6 * MM, x + 1.2 * MM, y + 0.9 * MM)
            c.line(x + 1.2 * MM, y + 0.9 * MM, x + 2.8 * MM, y + 0.9 * MM)
            indent = 3.6 * MM
        if row.icon and self.r.icon(row.icon, x + indent, y - 0.2 * MM, 2.9 * MM):
            indent += 3.7 * MM
        pts_w = 0.0
        if row.points:
            pts_w = self.r.text(x + width, y, row.points, BOLD, 8, INK, align="right") + 1.5 * MM
        room = width - indent - pts_w
        name_font = ITALIC if row.kind == "attached" else REGULAR
        name = ellipsize(row.text, name_font, 8, room)
        nw = self.r.text(x + indent, y, name, name_font, 8)
        parts = row.detail.split(" · ") if row.detail else []
        while parts:  # as many of the detail's parts as fit whole, never a cut word
            detail = " · ".join(parts)
            if stringWidth(detail, REGULAR, 6.5) <= room - nw - 1.5 * MM:
                self.r.text(x + indent + nw + 1.5 * MM, y + 0.1 * MM, detail, REGULAR, 6.5, GREY)
                break
            parts.pop()
