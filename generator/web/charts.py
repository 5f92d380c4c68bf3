"""Numbers and geometry for the small SVG charts of a build (the templates draw them):
points per character and per card type, each deck by the deck cards' first choice field
(Boss Fight's action type) and by copies, and a footprint drawn as hexes."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import NamedTuple

from generator.grids import hexgrid
from generator.pack.model import Pack
from generator.core.report import Report
from generator.maps.checks import footprint_of, footprint_sides
from generator.rules.draw_odds import first_choice_field, opening_odds
from generator.web.common import per_pack
from generator.pack.translations.numbers import number
from generator.web.words import gettext, words_language

BAR_W = 260.0  # the longest bar, in SVG units
ROW_H = 18.0
DECKS_KEPT = 512  # per pack: the decks whose charts are kept (_deck_charts)

# A chart is made of tuples, so it can be the key of its drawn HTML (generator.web.fragments)


class Bar(NamedTuple):
    label: str
    value: int
    y: float
    w: float
    text: str


class Bars(NamedTuple):
    rows: tuple
    height: float
    width: float


class Hex(NamedTuple):
    points: str
    label: str
    cx: float
    cy: float


class Footprint(NamedTuple):
    hexes: tuple
    width: float
    height: float
    size: int


class OddsRow(NamedTuple):
    label: str
    cards: int
    pct: int
    exact: str
    expected: str


class Odds(NamedTuple):
    drawn: int
    pile: int
    by: str
    rows: tuple


def points_text(n: int) -> str:
    """`34 pts`, `1 pt`: a bar's value in the page's language (web/words.py)."""
    return str(gettext("{n} pt") if n == 1 else gettext("{n} pts")).format(n=n)


def cards_text(n: int) -> str:
    return str(gettext("{n} card") if n == 1 else gettext("{n} cards")).format(n=n)


def bars(pairs: list[tuple[str, int]], unit: Callable[[int], str] = str) -> Bars | None:
    """A horizontal bar chart: one row per (label, value), the longest bar BAR_W wide; `unit`
    says a value in words (points_text, cards_text; a bare number by default)."""
    pairs = [(label, value) for label, value in pairs if value]
    if not pairs:
        return None
    top = max(v for _, v in pairs) or 1
    rows = tuple(Bar(label, value, i * ROW_H, max(2.0, BAR_W * value / top), unit(value))
                 for i, (label, value) in enumerate(pairs))
    return Bars(rows, len(rows) * ROW_H, BAR_W)


def deck_field(pack: Pack, side) -> str | None:
    """The first `choice` field of the side's deck card type: what a deck is broken down by."""
    if not side.deck:
        return None
    for type_id in side.deck.types:
        name = choice_field(pack, type_id)
        if name:
            return name
    return None


def choice_field(pack: Pack, type_id: str) -> str | None:
    """The first `choice` field of one card type (a deck of several types breaks each card
    down by its own type's field: a Stage by kind, an Enemy by rank)."""
    return first_choice_field(pack, type_id)


def footprint_hexes(pack: Pack, build) -> Footprint | None:
    """The build's footprint as hex polygons, for sides whose base cards cover hexes."""
    if build is None or build.side not in footprint_sides(pack):
        return None
    return _drawn_footprint(footprint_of(pack, build).hexes)


@functools.lru_cache(maxsize=256)
def _drawn_footprint(hexes: frozenset) -> Footprint:
    """Hex polygons of a set of hexes: a click seldom changes a build's footprint, so the
    most recent are kept."""
    layout = hexgrid.Layout("pointy", 14.0)
    x0, y0, x1, y1 = layout.bounds(hexes)
    polys = []
    for h in sorted(hexes):
        pts = " ".join(f"{x - x0 + 2:.1f},{y - y0 + 2:.1f}" for x, y in layout.corners(h))
        cx, cy = layout.center(h)
        polys.append(Hex(pts, f"{h[0]},{h[1]}", cx - x0 + 2, cy - y0 + 2))
    return Footprint(tuple(polys), x1 - x0 + 4, y1 - y0 + 4, len(hexes))


def build_charts(pack: Pack, doc: dict, report: Report | None, side, build=None) -> dict:
    out: dict = {}
    if report is None:
        return out
    points = report.points
    if points is not None and len(doc["characters"]) > 1:
        names = [character_name(pack, side, i, c) for i, c in enumerate(doc["characters"])]
        totals = points.by_character()  # by position in newer reports, by name in older ones
        out["per_character"] = bars([(names[k] if isinstance(k, int) and k < len(names) else str(k), v)
                                     for k, v in totals.items()], points_text)
    by_type: dict[str, int] = {}
    for line in points.lines if points is not None else []:
        name = pack.spec.card_types[line.kind].name if line.kind in pack.spec.card_types else line.kind
        by_type[name] = by_type.get(name, 0) + line.total
    out["per_type"] = bars(sorted(by_type.items(), key=lambda kv: -kv[1]), points_text)
    field = deck_field(pack, side)
    deck_charts = _deck_charts(pack)
    decks = [dict(deck_charts(doc["side"], tuple(char["deck"].items())), index=i)
             for i, char in enumerate(doc["characters"]) if char.get("deck")]
    out["decks"] = decks
    out["deck_field"] = _field_words(pack)[0](field.replace("_", " ")) if field else None
    out["footprint"] = footprint_hexes(pack, build)
    return {k: v for k, v in out.items() if v}


@per_pack
def _deck_charts(pack: Pack):
    """A deck's charts from its cards and copies, in order: a click changes one deck at most,
    so the others' are kept (per pack, the most recent DECKS_KEPT decks; a value is shared by
    the answers that show it, so never changed)."""

    @functools.lru_cache(maxsize=DECKS_KEPT)
    def of(side_id: str, cards: tuple) -> dict:
        side = pack.spec.sides[side_id]
        deck = dict(cards)
        field = deck_field(pack, side)
        heading, said = _field_words(pack)
        mixed = side.deck is not None and len(side.deck.types) > 1
        by_value: dict[str, int] = {}
        by_copies: dict[int, int] = {}
        fields: list[str] = []  # what this deck was broken down by, in order met
        for card_id, n in deck.items():
            card = pack.cards.get(card_id)
            own = (choice_field(pack, card.type) if mixed else field) if card else None
            if card and own:
                value = said(own, str(card.fields[own])) if card.fields.get(own) else str(gettext("other"))
                label = own.replace("_", " ")
            elif card and mixed:  # a type with no choice field: the type itself says most
                value, label = pack.spec.card_types[card.type].name, "card type"
            else:
                value, label = str(gettext("cards")), "card"
            fields += [label] if label not in fields else []
            by_value[value] = by_value.get(value, 0) + n
            by_copies[n] = by_copies.get(n, 0) + 1
        return {"by_value": bars(sorted(by_value.items(), key=lambda kv: -kv[1])), "field": heading(" / ".join(fields)),
                "by_copies": bars([(f"{n}×", by_copies[n]) for n in sorted(by_copies)], cards_text),
                "by_cost": by_cost(pack, side, deck), "odds": odds_rows(pack, side, deck)}
    return of


def by_cost(pack: Pack, side, deck: dict) -> dict | None:
    """The deck's cards by the side's declared cost field (`deck.cost`), cheapest first."""
    name = side.deck.cost if side.deck is not None else None
    if not name:
        return None
    counts: dict[int, int] = {}
    for card_id, n in deck.items():
        card = pack.cards.get(card_id)
        value = card.fields.get(name) if card else None
        if isinstance(value, int) and isinstance(n, int):
            counts[value] = counts.get(value, 0) + n
    label = pack.spec.card_types[side.deck.types[0]].fields[name].label or name
    chart = bars([(f"{label} {v}", counts[v]) for v in sorted(counts)], cards_text)
    return {"chart": chart, "label": label} if chart else None


def odds_rows(pack: Pack, side, deck: dict) -> Odds | None:
    """The opening draw's odds as rows a table (and its percentage bars) shows."""
    odds = opening_odds(pack, side, deck)
    if odds is None:
        return None
    heading, said = _field_words(pack)
    names = [kind.replace(" ", "_") for kind in odds.by.split(" / ")]
    lang = words_language()  # the table's words are the builder's: its numbers too ("97,4 %" in German)
    rows = tuple(OddsRow(next((said(n, g.label) for n in names if said(n, g.label) != g.label), g.label), g.cards,
                         round(100 * g.at_least_one), number(100 * g.at_least_one, lang, 1), number(g.expected, lang, 1))
                 for g in odds.groups)
    return Odds(odds.drawn, odds.pile, heading(odds.by), rows)


def _field_words(pack: Pack) -> tuple[Callable[[str], str], Callable[[str, str], str]]:
    """What a deck is broken down by ("action type", several joined by " / ") and a card field's
    value ("Attack") as the pack's translation words them: the field's heading and its choice's
    value (the pack's PO entries for the card field), the builder's words for "card type"; as
    written (the field's name, the value) for a pack shown in its own language."""
    words = pack.translation
    if words is None:
        return (lambda by: by), (lambda _field, value: value)
    labels = {name: f.label for ct in pack.spec.card_types.values() for name, f in ct.fields.items() if f.label}

    def heading(by: str) -> str:
        builder = {"card type": str(gettext("card type")), "card": str(gettext("card"))}  # not a field: pnp's words
        return " / ".join(labels.get(kind.replace(" ", "_")) or builder.get(kind, kind) for kind in by.split(" / "))
    return heading, words.pgettext


def character_name(pack: Pack, side, index: int, char: dict) -> str:
    """What the page calls a character: its own name, else its base card's (a hero), else
    the side's word and its position ("deck 2")."""
    if char.get("name"):
        return char["name"]
    base = char.get(side.base.key)
    if isinstance(base, str) and base in pack.cards:
        return pack.cards[base].name
    return f"{side.character_word(1)} {index + 1}"
