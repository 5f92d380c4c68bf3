"""Reference pages generated from the pack's data: the Card List (columns from each card
type's fields), the presets with their points breakdown and deck lists, and the map
catalogue. Nothing here knows a particular game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from generator.render.rulebook.platypus import Flowable

from generator.core.errors import InputError
from generator.grids.hexgrid import Layout as HexLayout
from generator.pack.cardlist import sorted_cards
from generator.pack.display import deals_in_points, pack_in_points, stat_labels
from generator.pack.fieldkind import BookColumn
from generator.pack.fieldtypes import FIELD_KINDS, label as field_label, stat_text
from generator.pack.load import preset_results
from generator.pack.translations.numbers import number, numbers_of
from generator.pack.translations.own import words_of
from generator.render.rulebook.tables import rich_table
from generator.render.rulebook.text import Heading, RichText
from generator.rules.engine import validate_build
from generator.core.report import character_key

if TYPE_CHECKING:
    from generator.pack.model import Card, Pack
    from generator.render.rulebook.text import Book


def _keep(flowable: Flowable) -> Flowable:
    """Keep with the next flowable when columns break."""
    flowable.keep_with_next = True
    return flowable


def card_columns(pack: Pack, type_id: str, cards: list[Card]) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the Card List table of one card type: name and points (in a game that
    prices its cards), then one or more columns per field the type declares; columns empty for
    every card are left out."""
    type_spec = pack.spec.card_types[type_id]
    say = words_of(pack)  # pnp's own words in the pack's language
    columns: list[BookColumn] = [(say("Card"), lambda c: c.name)]
    if pack_in_points(pack):
        columns.append((say("Points"), lambda c: str(c.points)))
    for fname, fspec in type_spec.fields.items():
        def get(c, fname=fname):
            return c.fields.get(fname)

        columns.extend(FIELD_KINDS[fspec.type].rulebook_columns(pack, fname, fspec, get))
    rows = [[fn(c) for _, fn in columns] for c in cards]
    keep = [i for i in range(len(columns)) if i < 2 or any(r[i] not in ("", "–") for r in rows)]
    return [columns[i][0] for i in keep], [[r[i] for i in keep] for r in rows]


def card_list(book: Book, pack: Pack, width: float, key: str) -> list[Flowable]:
    st = book.style
    say = words_of(pack)  # pnp's own words in the pack's language
    out: list[Flowable] = []
    cards = sorted_cards(pack)
    n = 0
    for set_id, set_spec in pack.spec.sets.items():
        of_set = [c for c in cards if c.set == set_id]
        if not of_set:
            continue
        n += 1
        out.append(Heading(book, say("{set} ({count} cards)").format(set=set_spec.name, count=len(of_set)),
                           st.h2, level=1, key=f"{key}-set{n}",
                           toc=True, reserve=st.line * 7, space_before=st.body * 1.2, space_after=st.body * 0.3))
        for type_id, type_spec in pack.spec.card_types.items():
            of_type = [c for c in of_set if c.type == type_id]
            if not of_type:
                continue
            n += 1
            out.append(Heading(book, f"{type_spec.name} · {len(of_type)}", st.h3, level=2, key=f"{key}-t{n}",
                               reserve=st.line * 5, space_before=st.body * 0.8, space_after=st.body * 0.3))
            header, rows = card_columns(pack, type_id, of_type)
            table = rich_table(book, [header] + rows, width, st.table)
            table.spaceAfter = st.body * 0.5
            table._pnp_cards = of_type  # a row too tall for a page names its card (errors.layout_error)
            out.append(table)
    return out


# ---- presets -----------------------------------------------------------------------------------


def _summary(pack: Pack, stats: dict, base_type: str | None, shown: dict | None = None) -> str:
    """`shown`: the statistics this side's characters can carry (generator.pack.display)."""
    parts = []
    fields = pack.spec.card_types[base_type].fields if base_type in pack.spec.card_types else {}
    stats = {k: v for k, v in stats.items() if shown is None or k in shown or k not in pack.spec.stats}
    for key, value in stats.items():
        if key in pack.spec.stats:
            parts.append(f"{stat_text(pack, key, False)} {value}")
    for key, value in stats.items():
        if key not in pack.spec.stats and key != "name":  # the report names the character; not a stat
            label = field_label(key, fields[key]) if key in fields else key.replace("_", " ").capitalize()
            parts.append(f"{label} {value}")
    return " · ".join(parts)


def presets(book: Book, pack: Pack, width: float, key: str) -> list[Flowable]:
    """Each preset: its total against its limit, then per character the cards that cost
    points with their subtotal, the statistics they add up to, and the action deck. A game
    without points (generator.pack.display) gets the line-up, the statistics and the decks."""
    st = book.style
    out: list[Flowable] = []
    for n, (_path, build, stopped) in enumerate(preset_results(pack), 1):  # built once per run
        if build is None:
            raise InputError(stopped)
        report = validate_build(pack, build)
        points = report.points
        assert points is not None  # validate_build always totals the build
        side = pack.spec.sides[build.side]
        priced = deals_in_points(pack, side)  # a game without points prints the cards alone
        out.append(Heading(book, build.name, st.h2, level=1, key=f"{key}-p{n}", toc=True, reserve=st.line * 6,
                           space_before=st.body * 1.4, space_after=st.body * 0.2))
        say = words_of(pack)  # pnp's own words in the pack's language
        legal = "" if report.legal else " · " + say("*does not pass validation: run* `pnp validate`")
        total = "" if not priced else " · " + (
            say("**Total {total}** of {limit} points").format(total=points.total, limit=points.limit)
            if points.limit is not None else say("**Total {total}** points").format(total=points.total))
        out.append(_keep(RichText(book, f"{side.name} · {len(build.characters)} "
                                        f"{side.character_word(len(build.characters))}{total}{legal}",
                                  st.body, color=st.muted, space_after=st.body * 0.4)))
        by_char = points.by_character()
        for index, character in enumerate(build.characters):  # by position: two may share a name
            lines = [ln for ln in points.lines if ln.index == index]
            if len(build.characters) > 1:  # without points, the numbers are the line-up's order
                head = (say("{name} · {points} points").format(name=character.name, points=by_char.get(index, 0)) if priced
                        else f"{index + 1}. {character.name}")
                out.append(Heading(book, head, st.h3, level=None, key=None, reserve=st.line * 4,
                                   space_before=st.body * 0.6, space_after=st.body * 0.2))
            summary = _summary(pack, report.stats.get(character_key(index), {}), side.base.type,
                               stat_labels(pack, side))
            if summary:
                out.append(_keep(RichText(book, summary, st.table, color=st.muted, space_after=st.body * 0.3)))
            if not priced:  # no points table: name the base card(s) of a lone character instead
                names = [pack.cards[b.card.id].name for b in character.bases if b.card.id in pack.cards]
                if len(build.characters) == 1 and names:
                    out.append(RichText(book, f"**{pack.spec.card_types[side.base.type].name}:** "
                                        + ", ".join(names), st.table, space_after=st.body * 0.3))
            else:
                rows = [[say("Card"), say("Type"), say("Points")]]
                for ln in lines:
                    type_name = pack.spec.card_types[ln.kind].name if ln.kind in pack.spec.card_types else ln.kind
                    count = f"{ln.count} × {ln.points} = " if ln.count > 1 else ""
                    rows.append([ln.name, type_name, f"{count}{ln.total}"])
                rows.append([say("**Total**"), "", f"**{sum(ln.total for ln in lines)}**"])
                table = rich_table(book, rows, width, st.table, ["left", "left", "right"])
                table.spaceAfter = st.body * 0.4
                out.append(table)
            deck = [(pack.cards[d.card.id].name if d.card.id in pack.cards else d.card.id, d.copies)
                    for d in character.deck]
            if deck:
                listing = ", ".join(f"{copies}× {name}" for name, copies in deck)
                out.append(RichText(book, say("**Deck ({count}):** {cards}").format(count=sum(c for _, c in deck),
                                                                                  cards=listing), st.table,
                                    space_after=st.body * 0.6))
    return out


# ---- maps ---------------------------------------------------------------------------------------


class MapThumbnail(Flowable):
    """A map drawn small with the map helper when it is available, else an outline of its hexes."""

    def __init__(self, book: Book, hexmap, height: float, draw_fn=None):
        super().__init__()
        self.book, self.hexmap, self.box_height, self.draw_fn = book, hexmap, height, draw_fn
        self.spaceAfter = book.style.body * 0.3

    def wrap(self, aw, ah):
        self.width, self.height = aw, self.box_height
        return aw, self.height

    def draw(self):
        c = self.canv
        c.saveState()
        c.setStrokeColor(HexColor(self.book.style.rule))
        c.setLineWidth(0.5)
        c.rect(0, 0, self.width, self.height, fill=0, stroke=1)
        c.restoreState()
        if self.draw_fn is not None:
            # the map helper works in millimetres
            self.draw_fn(c, self.hexmap, 3 / mm, 3 / mm, (self.width - 6) / mm, (self.height - 6) / mm)
            return
        _outline(c, self.hexmap, 6, 6, self.width - 12, self.height - 12, self.book.style)


def _outline(c, hexmap, x, y, w, h, st) -> None:
    """Fallback thumbnail: the map's hexes, obstacles filled (no terrain patterns)."""
    lay = HexLayout.from_flat_to_flat(hexmap.orientation, 1.0)
    minx, miny, maxx, maxy = lay.bounds(hexmap.hexes)
    scale = min(w / max(maxx - minx, 1e-6), h / max(maxy - miny, 1e-6))
    ox = x + (w - (maxx - minx) * scale) / 2
    oy = y + (h - (maxy - miny) * scale) / 2
    c.saveState()
    c.setLineWidth(0.3)
    c.setStrokeColor(HexColor("#8a8171"))
    for hx in sorted(hexmap.hexes):
        corners = lay.corners(hx)
        p = c.beginPath()
        for i, (px, py) in enumerate(corners):
            X, Y = ox + (px - minx) * scale, oy + (maxy - py) * scale
            p.moveTo(X, Y) if i == 0 else p.lineTo(X, Y)
        p.close()
        blocked = not hexmap.walkable(hx)
        c.setFillColor(HexColor("#5a5246" if blocked else "#ffffff"))
        c.drawPath(p, fill=1, stroke=1)
    c.restoreState()


def _cells(m, say, what: str, count: int) -> str:
    """`**Obstacles:** 6 hexes`, or `tiles` for a square map (in the pack's language)."""
    hexes = getattr(m, "cell_word", "hex") == "hex"
    if what == "obstacles":
        words = say("**Obstacles:** {count} hexes") if hexes else say("**Obstacles:** {count} tiles")
    else:
        words = say("**Impassable:** {count} hexes") if hexes else say("**Impassable:** {count} tiles")
    return words.format(count=count)


def map_size(hexmap, say=str, num=number) -> str:
    if hasattr(hexmap, "size_text"):  # a square map (generator.maps.square) describes itself
        return hexmap.size_text()
    lay = HexLayout.from_flat_to_flat(hexmap.orientation, hexmap.hex_size)
    minx, miny, maxx, maxy = lay.bounds(hexmap.hexes)
    return say("{count} hexes · {width} × {height} cm printed ({size} mm hexes)").format(
        count=len(hexmap.hexes), width=f"{(maxx - minx) / 10:.0f}", height=f"{(maxy - miny) / 10:.0f}",
        size=num(hexmap.hex_size))  # 25.4, or 25,4 in a German kit


def map_catalogue(book: Book, pack: Pack, width: float, key: str, maps: list, draw_fn) -> list[Flowable]:
    st = book.style
    out: list[Flowable] = []
    for n, m in enumerate(maps, 1):
        out.append(Heading(book, m.title, st.h2, level=1, key=f"{key}-m{n}", toc=True,
                           reserve=width * 0.7 + st.line * 2, space_before=st.body * 1.2, space_after=st.body * 0.3))
        out.append(_keep(MapThumbnail(book, m, width * 0.7, draw_fn)))
        say = words_of(pack)  # pnp's own words in the pack's language
        details = [say("**Size:** {size}").format(size=map_size(m, say, numbers_of(pack)))]
        blocked = sum(1 for h in m.hexes if not m.walkable(h))
        if m.obstacles:
            details.append(_cells(m, say, "obstacles", len(m.obstacles)))
        terrain = [m.terrain_specs[t].name if t in m.terrain_specs else t for t in m.terrain_ids_in_use()]
        if terrain:
            details.append(say("**Terrain:** {names}").format(names=", ".join(terrain)))
        if blocked and not m.obstacles:
            details.append(_cells(m, say, "impassable", blocked))
        out.append(RichText(book, " · ".join(details), st.table, space_after=st.body * 0.3))
        if m.notes:
            _keep(out[-1])
            out.append(RichText(book, m.notes, st.table, color=st.muted, space_after=st.body * 0.6))
    return out
