"""How many copies of a card the print kit makes when the card does not say (`copies:`).

A card type's `kit_copies` is a number, or `table`: enough that the largest table the pack
allows can build any legal decks at once. The largest table is each side's `characters.kit`
(else its `max`): how many characters of that side sit at one table. A card may go in the
deck of every character whose side takes its set, each deck holding at most the pack's copy
limit of it (the `copy_limit` rule's `default`, or the card's own limit in the rule's
`override_field`); a card with an owner (the `owner` rule's field set: "only Vexa may take
it") goes in one deck only. So Boss Fight prints 18 of a hero action card: six heroes at one
table, three in each deck. Everything here is the pack's own data; no rule is run.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from generator.core.errors import Location, Problem

if TYPE_CHECKING:
    from generator.pack.model import Card, GameSpec, RuleSpec


def table_size(spec: GameSpec, side_id: str) -> int | None:
    """How many characters of a side sit at the largest table: `characters.kit`, else `max`."""
    chars = spec.sides[side_id].characters
    return chars.kit if chars.kit is not None else chars.max


def copy_limit(spec: GameSpec) -> RuleSpec | None:
    """The pack's copy-limit rule (check: copy_limit), or None."""
    return next((r for r in spec.rules if r.check == "copy_limit"), None)


def per_deck(spec: GameSpec, fields: dict[str, object]) -> int | None:
    """The most copies of this card one deck may hold, by the pack's copy-limit rule."""
    rule = copy_limit(spec)
    if rule is None:
        return None
    own = fields.get(rule.override_field) if rule.override_field else None
    return own if isinstance(own, int) else rule.default


def owner_of(spec: GameSpec, fields: dict[str, object]) -> str | None:
    """The one character a card belongs to (the `owner` rule's field), if any."""
    for rule in spec.rules:
        if rule.check == "owner" and rule.field and fields.get(rule.field):
            return str(fields[rule.field])
    return None


def takers(spec: GameSpec, set_id: str, fields: dict[str, object]) -> list[tuple[str, int]]:
    """(side, characters at the largest table) of each side whose decks may take the card;
    one character when the card has an owner."""
    sides = [s for s, side in spec.sides.items() if set_id in side.sets]
    if owner_of(spec, fields) is not None:
        return [(sides[0], 1)] if sides else []
    return [(s, table_size(spec, s) or 0) for s in sides]


def default_copies(spec: GameSpec, type_id: str, set_id: str, fields: dict[str, object]) -> int:
    """The copies of a card that states none: its type's `kit_copies`, worked out for `table`."""
    kit = spec.card_types[type_id].kit_copies
    if isinstance(kit, int):
        return kit
    deck = per_deck(spec, fields) or 1
    return max(1, sum(n for _, n in takers(spec, set_id, fields)) * deck)


def why(spec: GameSpec, type_id: str, set_id: str, fields: dict[str, object]) -> str:
    """In words, why the kit prints that many: "6 Hero Party characters × 3 in a deck"."""
    kit = spec.card_types[type_id].kit_copies
    if isinstance(kit, int):
        return f"{kit} of each card of this type"
    deck = per_deck(spec, fields) or 1
    owner = owner_of(spec, fields)
    who = " + ".join(f"{n} {spec.sides[s].name} character{'s' if n != 1 else ''}" for s, n in takers(spec, set_id, fields))
    if owner is not None:
        who = "its one owner"
    return f"{who} at the largest table × {deck} in a deck"


def printed(cards: list[Card], spec: GameSpec) -> str:
    """The kit's copies of some cards, in words, for the rulebook: the most usual count and why,
    then the cards that differ: "18 of each (6 Hero Party characters ... × 3 in a deck); Rally
    Cry 36"."""
    groups: dict[int, list[Card]] = {}
    for card in cards:
        groups.setdefault(card.copies, []).append(card)
    if not groups:
        return "none"
    usual = max(groups, key=lambda n: (len(groups[n]), n))
    first = groups[usual][0]
    out = f"{usual} of each ({why(spec, first.type, first.set, first.fields)})"
    others = [f"{c.name} {n}" for n, cs in sorted(groups.items()) if n != usual for c in cs]
    return out + (f"; {', '.join(others)} (their own deck limits)" if others else "")


def kit_copies_problems(spec: GameSpec, at: Callable[[tuple[str, ...]], Location]) -> list[Problem]:
    """`pack.kit-copies`: a `kit_copies: table` type needs the copy-limit rule's `default` and,
    on every side whose decks take it, how many characters sit at the largest table. `at`
    turns a game.yaml path into its place (file:line)."""
    out = []
    for type_id, type_spec in spec.card_types.items():
        if type_spec.kit_copies != "table":
            continue
        where = at(("card_types", type_id, "kit_copies"))
        limit = copy_limit(spec)
        if limit is None or limit.default is None:
            out.append(Problem("pack.kit-copies", f"`kit_copies: table` of `{type_id}` needs the most copies one deck "
                               "may hold: a `copy_limit` rule with its `default`", where, found="table",
                               expected="a rule `{id: deck.copies, check: copy_limit, default: N}`",
                               fix="add the rule, or give a number of copies"))
        for side_id, side in spec.sides.items():
            if table_size(spec, side_id) is None and type_id in (side.deck.types if side.deck else []):
                out.append(Problem("pack.kit-copies", f"`kit_copies: table` of `{type_id}` needs how many characters "
                                   f"of `{side_id}` sit at the largest table", where, found="table",
                                   expected=f"`characters: {{max: N}}` or `{{kit: N}}` on side `{side_id}`",
                                   fix=f"add `kit: N` to sides.{side_id}.characters (see docs/formats.md)"))
    return out
