"""A build's shape, both ways: a character's places (base cards with their equipment,
equipment, abilities, deck) as the cards on the table, and as the document a build file,
a share code and the web page write.

- `character_refs(character)`: (place, card reference, copies) of every card a character puts
  on the table, in table order; the print kit (`kit.build_refs`), the roster's points, the
  share code's unknown-card check and the web's preset index read a character through it.
- `character_document(side, ...)`: a character's places as the build document's keys, the
  side's `base.key` a list of entries (or one id) and `equipment`, `abilities`, `deck` where
  the side has them; `pnp unshare`, the web editor's page document and a parsed deck list
  write it.
- `document_places(side, character)`: that document read back, every card as a `Place` with
  its path inside the character, in table order; the loader (`pack.load.build_from_document`)
  makes a build's `Character` from it and the deck-list parser places its line numbers by it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from generator.core.yamlio import PathT
    from generator.pack.model import Character, Ref, SideSpec

PLACES = ("base", "equipment", "abilities", "deck")
# A build document and one of its characters, as a file, a form or a share code gives them (JSON's values):
# what each key holds is checked by the side's build model (pack/schemas.py) at run time, not by the code
BuildDoc = dict[str, Any]
CharacterDoc = dict[str, Any]


def character_refs(character: Character) -> list[tuple[str, Ref, int]]:
    """Every card of a character in table order: each base card then its own equipment, the
    character's equipment, abilities, then the deck with its copies."""
    refs: list[tuple[str, Ref, int]] = []
    for entry in character.bases:
        refs.append(("base", entry.card, 1))
        refs.extend(("equipment", e, 1) for e in entry.equipment)
    refs.extend(("equipment", e, 1) for e in character.equipment)
    refs.extend(("abilities", a, 1) for a in character.abilities)
    refs.extend(("deck", d.card, d.copies) for d in character.deck)
    return refs


def character_document(side: SideSpec, name: str | None, bases: Sequence[tuple[str, Sequence[str]]] | str | None,
                       equipment: Sequence[str], abilities: Sequence[str], deck: Mapping[str, int],
                       empty_base_equipment: bool = False) -> CharacterDoc:
    """One character as a build document writes it. `bases`: (card id, equipment ids) per base
    card for a side with many, or the one card id (None: not chosen yet); an entry's empty
    equipment list is written only with `empty_base_equipment` (the editor keeps the key)."""
    out: CharacterDoc = {}
    if name is not None:
        out["name"] = name
    base = side.base
    if base.many:
        item_key = base.item_key or "card"
        items = []
        for card_id, equips in bases if not isinstance(bases, str) and bases else []:  # a side with many: entries
            item: dict[str, str | list[str]] = {item_key: card_id}
            if equips or (empty_base_equipment and side.equipment and side.equipment.attach == "base"):
                item["equipment"] = list(equips)
            items.append(item)
        out[base.key] = items
    elif bases is not None:
        out[base.key] = bases
    if side.equipment and side.equipment.attach == "character":
        out["equipment"] = list(equipment)
    if side.abilities:
        out["abilities"] = list(abilities)
    if side.deck:
        out["deck"] = dict(deck)
    return out


def base_entries(side: SideSpec, value: list[Any] | None) -> list[tuple[Any, list[Any]]]:
    """A document's base cards of a side with many, read back: (card id, equipment ids) per
    entry, an entry written as a bare id or as `{item_key: id, equipment: [...]}`."""
    key = side.base.item_key or "card"
    return [(item, []) if isinstance(item, str) else (item.get(key), list(item.get("equipment") or []))
            for item in value or []]


class Place(NamedTuple):
    """One card of a character document: its place, id, path inside the character (the id's
    own path: for a deck entry, its key), copies, and for equipment fixed to a base card that
    base's index among the character's base entries."""

    place: str
    card: str
    path: PathT
    copies: int = 1
    base: int | None = None


def document_places(side: SideSpec, character: CharacterDoc) -> list[Place]:
    """Every card of a character document (shaped as `character_document` writes it and the
    side's build model accepts) in table order: each base card then the equipment fixed to it,
    the character's equipment, abilities, then the deck with its copies."""
    places: list[Place] = []
    base = side.base
    if base.many:
        key = base.item_key or "card"
        for bi, item in enumerate(character.get(base.key) or []):
            at = (base.key, bi)
            if isinstance(item, str):
                places.append(Place("base", item, at))
                continue
            places.append(Place("base", item.get(key), at + (key,)))
            places.extend(Place("equipment", e, at + ("equipment", ei), 1, bi)
                          for ei, e in enumerate(item.get("equipment") or []))
    elif character.get(base.key) is not None:
        places.append(Place("base", character[base.key], (base.key,)))
    for part in ("equipment", "abilities"):
        places.extend(Place(part, card, (part, i)) for i, card in enumerate(character.get(part) or []))
    places.extend(Place("deck", card, ("deck", card), copies)
                  for card, copies in (character.get("deck") or {}).items())
    return places
