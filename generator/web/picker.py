"""The editor's card picker: the cards a side may use, grouped by the place they go, each with
what the page needs to show, filter, sort and count it (type, set, owner, points, the most
copies the pack's rules allow, the thumbnail's size). The rules themselves stay the
validator's: the page's limits only save a player a click the validator would refuse."""

from __future__ import annotations

from dataclasses import dataclass

from generator.pack.model import Pack
from generator.rules.checks import copy_limit_of
from generator.web.common import per_pack
from generator.web.state import owner_of, place_of, side_cards
from generator.web.rulebook import card_terms
from generator.web.view import card_tag

THUMB_WIDTH = 56  # CSS px of a thumbnail; its height follows the card's shape
THUMB_DPI = 50  # the thumbnail PNG's resolution: 63 mm is 124 px, sharp at 2× on a 56 px box
ORDER = ("base", "equipment", "abilities", "deck")


@dataclass
class PickCard:
    card: object
    place: str
    tag: str
    type_name: str
    set_name: str
    owner: str  # the name of the card it belongs to, or ""
    owner_id: str  # its id, or ""
    most: int | None  # copies the rules allow per character (per build for base cards), None: no limit
    width: int
    height: int
    order: int
    terms: list  # the glossary terms its text uses, (term, link), but not a word its tag says already


def copy_most(pack: Pack, side_id: str, card, place: str) -> int | None:
    """The most copies of a card the pack's rules allow where it goes: the copy rule's own
    limit for the card (or its default) in a deck, 1 where a unique rule counts that place."""
    most = None
    for rule in pack.spec.rules:
        if rule.side is not None and rule.side != side_id:
            continue
        value = None
        if rule.check == "copy_limit" and place == "deck":
            value = copy_limit_of(card, rule)
        elif rule.check == "unique_cards" and place in (rule.places or ()):
            value = 1
        if value is not None:
            most = value if most is None else min(most, value)
    return most


def _place_heading(pack: Pack, side, place: str) -> str:
    types = {"base": [side.base.type], "equipment": [side.equipment.type] if side.equipment else [],
             "abilities": list(side.abilities.types) if side.abilities else [],
             "deck": list(side.deck.types) if side.deck else []}[place]
    return ", ".join(pack.spec.card_types[t].name for t in types)


def picker(pack: Pack, side_id: str) -> dict:
    return _picker(pack)[side_id]


@per_pack
def _picker(pack: Pack) -> dict:
    """Per side: `groups` [(place, heading, [PickCard])], and the filter choices `types`,
    `sets`, `owners` (id, name), `priced` (any card costs points)."""
    out = {}
    for side_id, side in pack.spec.sides.items():
        groups: dict[str, list] = {p: [] for p in ORDER}
        for n, card in enumerate(side_cards(pack, side_id)):
            place = place_of(pack, side_id, card.type)
            if place is None:  # never: side_cards holds only the cards a place takes
                continue
            w, h = pack.card_size_mm(card.type)
            owner_id = owner_of(pack, card)
            holder = pack.cards.get(owner_id) if owner_id else None
            tag = card_tag(pack, card, owner=True)
            said = {w.strip().casefold() for w in tag.split("·")}  # "Walk · Move · Move": the tag says Move
            terms = [(t, href) for t, href in card_terms(card.text, pack) if t.casefold() not in said]
            groups[place].append(PickCard(
                card, place, tag, pack.spec.card_types[card.type].name,
                pack.spec.sets[card.set].name if card.set in pack.spec.sets else card.set,
                holder.name if holder else (owner_id or ""), owner_id or "", copy_most(pack, side_id, card, place),
                THUMB_WIDTH, round(THUMB_WIDTH * h / w), n, terms))
        cards = [pc for p in ORDER for pc in groups[p]]
        out[side_id] = {
            "groups": [(p, _place_heading(pack, side, p), groups[p]) for p in ORDER if groups[p]],
            "types": sorted({(pc.card.type, pc.type_name) for pc in cards}, key=lambda t: t[1]),
            "sets": sorted({(pc.card.set, pc.set_name) for pc in cards}, key=lambda t: t[1]),
            "owners": sorted({pc.owner for pc in cards if pc.owner}),
            "priced": any(pc.card.points for pc in cards),
        }
    return out
