"""`pnp list`: every card of a pack with its id, name, set, type, points and key statistics.

The statistics come from the fields game.yaml declares for each card type, so the list works
for any pack:

- a `stats` field gives one column per stat of the pack (`health`, `strength`, ...; 0 when the
  card leaves a stat out); another stats field such as `bonus` gives `bonus_<stat>` for the
  stats it names;
- `int`, `choice`, `stat` and `bool` fields give their value (`slots`, `feat_cost`,
  `piece_type`, `combat_stat`, `action_type`, `deck_limit`, ...);
- a `hexes` field gives its hex count (`size`);
- an `attacks` field gives `<kind>_damage` and `<kind>_range` for each attack it has;
- `requirements` become a short text (`strength ≥ 5`, `piece_type Head × 2`), a `feat` its name,
  `card-refs` the ids; text fields with a `pattern` (short codes such as `B2`) and `pair`
  fields (`4/2`) their value; a `counts` field its keys and numbers (`Easy 7, Hard 4`); free
  text fields are left out.

Order: by set, then card type (both in game.yaml order), then points, then name. Formats:
`text` (a table per card type, columns aligned), `json` (a versioned document, `LIST_SCHEMA`:
the pack and its cards as flat objects, only the keys that apply to each card, and each card's
`art`) and `csv` (one header row with every column; empty where a column does not apply).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from generator.pack.fieldtypes import FIELD_KINDS
from generator.pack.schemas import ATTACK_KINDS
from generator.pack.query import search

if TYPE_CHECKING:
    from generator.pack.model import Card, Pack

COMMON = ("id", "name", "set", "type", "points")
# /1: `{"schema", "pack", "cards"}`, each card with `art` (the icon's name or the file's path; null:
# the placeholder) and `art_kind` (`icon`, `file` or null); docs/formats.md, "pnp list --format json".
# (Before it, the output was the bare list of cards.)
LIST_SCHEMA = "pnp.cards/1"
# one card's line of the list: column -> value (the field types' list_values: numbers, texts, yes/no)
Row = dict[str, Any]


def card_order(pack: Pack) -> list[Card]:
    """Set order, then type order as game.yaml declares them, then file order."""
    sets = {s: i for i, s in enumerate(pack.spec.sets)}
    types = {t: i for i, t in enumerate(pack.spec.card_types)}
    return sorted(pack.cards.values(), key=lambda c: (sets.get(c.set, 99), types.get(c.type, 99), c.order))


def sorted_cards(pack: Pack) -> list[Card]:
    set_order = {s: i for i, s in enumerate(pack.spec.sets)}
    type_order = {t: i for i, t in enumerate(pack.spec.card_types)}
    return sorted(pack.cards.values(), key=lambda c: (set_order.get(c.set, 99), type_order.get(c.type, 99),
                                                      c.points, c.name.casefold(), c.id))


def card_statistics(pack: Pack, card: Card) -> Row:
    """The key statistics of a card, flat and in its type's field order."""
    out: Row = {}
    for fname, fspec in pack.spec.card_types[card.type].fields.items():
        out.update(FIELD_KINDS[fspec.type].list_values(pack, fname, fspec, card.fields.get(fname)))
    return out


def card_rows(pack: Pack) -> list[Row]:
    rows = []
    for card in sorted_cards(pack):
        row: Row = {"id": card.id, "name": card.name, "set": card.set, "type": card.type, "points": card.points}
        row.update(card_statistics(pack, card))
        rows.append(row)
    return rows


def list_document(pack: Pack, rows: list[Row] | None = None) -> dict[str, object]:
    """`pnp list --format json`: the cards as rows, with their art, under a schema id."""
    art = {card.id: card.art for card in pack.cards.values()}
    cards = []
    for row in rows if rows is not None else card_rows(pack):
        source = art[row["id"]]
        cards.append({**row, "art": source.name if source is not None else None,
                      "art_kind": None if source is None else "icon" if source.icon is not None else "file"})
    return {"schema": LIST_SCHEMA, "pack": {"id": pack.spec.id, "name": pack.spec.name, "version": pack.spec.version},
            "cards": cards}


def all_columns(pack: Pack, type_ids: Collection[str] | None = None) -> list[str]:
    """Every column a card of the pack (or of the given types) can have, in a fixed order:
    the common ones, then each type's fields in game.yaml order."""
    columns = list(COMMON)
    for type_id, type_spec in pack.spec.card_types.items():
        if type_ids is not None and type_id not in type_ids:
            continue
        for fname, fspec in type_spec.fields.items():
            keys = FIELD_KINDS[fspec.type].list_columns(fname, pack.spec)
            columns.extend(k for k in keys if k not in columns)
    return columns


def _columns(pack: Pack, rows: list[Row]) -> list[str]:
    present = {key for row in rows for key in row}
    known = all_columns(pack)
    return [c for c in known if c in present] + sorted(present - set(known))


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def render_card_list(pack: Pack, fmt: str = "text", query: str | None = None) -> str:
    """The card list in `fmt`; `query`: only the cards a card search finds (generator.pack.query,
    the language of the builder's search boxes; InputError for one that cannot be read)."""
    rows = card_rows(pack)
    if query:
        found = {c.id for c in search(pack, query)}
        rows = [r for r in rows if r["id"] in found]
    if fmt == "json":
        return json.dumps(list_document(pack, rows), indent=2, ensure_ascii=False) + "\n"
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=_columns(pack, rows), restval="", lineterminator="\r\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: _cell(v) for k, v in row.items()})
        return buffer.getvalue()
    if fmt == "text":
        return _text(pack, rows)
    raise ValueError(f"unknown format {fmt!r}: use text, json or csv")


def _text(pack: Pack, rows: list[Row]) -> str:
    lines = [f"{pack.spec.name} {pack.spec.version}: {len(rows)} card{'' if len(rows) == 1 else 's'}"]
    for type_id, type_spec in pack.spec.card_types.items():
        of_type = [_compact(pack, r) for r in rows if r["type"] == type_id]
        if not of_type:
            continue
        columns = [c for c in _text_columns(pack, type_id, of_type) if c != "type"]
        table = [columns] + [[_cell(r.get(c)) for c in columns] for r in of_type]
        widths = [max(len(line[i]) for line in table) for i in range(len(columns))]
        numeric = [all(_is_number(r.get(c)) for r in of_type if r.get(c) is not None) and c not in ("id", "name")
                   for c in columns]
        lines.append("")
        lines.append(f"{type_spec.name} ({len(of_type)})")
        for i, line in enumerate(table):
            cells = [(cell.rjust(w) if numeric[j] and i > 0 else cell.ljust(w))
                     for j, (cell, w) in enumerate(zip(line, widths))]
            lines.append("  ".join(cells).rstrip())
            if i == 0:
                lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines) + "\n"


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _stats_fields(pack: Pack) -> set[str]:
    """Names of `stats` fields other than `stats` itself (bonus fields: `bonus_health`); a
    plain number field such as `arena_health` is not one of them."""
    return {n for t in pack.spec.card_types.values() for n, f in t.fields.items()
            if FIELD_KINDS[f.type].holds_stats and n != "stats"}


def _compact(pack: Pack, row: Row) -> Row:
    """For the text table: one column per attack (`3 r2`: damage 3, range 2) and one per bonus
    field (`health+3 strength+1`), so a table fits a terminal."""
    out: Row = {}
    for key, value in row.items():
        kind, _, part = key.rpartition("_")
        if kind in ATTACK_KINDS and part in ("damage", "range"):
            if part == "damage":
                out[kind] = f"{value} r{row.get(kind + '_range')}"
            continue
        field, _, stat = key.partition("_")
        if stat in pack.spec.stats and field in _stats_fields(pack):
            sign = "+" if value >= 0 else ""
            out[field] = (out.get(field, "") + f" {stat}{sign}{value}").strip()
            continue
        out[key] = value
    return out


def _text_columns(pack: Pack, type_id: str, rows: list[Row]) -> list[str]:
    order = []
    for column in all_columns(pack, [type_id]):
        kind, _, part = column.rpartition("_")
        if kind in ATTACK_KINDS:
            column = kind
        else:
            field, _, stat = column.partition("_")
            if stat in pack.spec.stats and field in _stats_fields(pack):
                column = field
        if column not in order:
            order.append(column)
    present = {key for row in rows for key in row}
    return [c for c in order if c in present] + sorted(present - set(order))
