"""Decks a choice decides: a character whose base card leaves one legal deck (a Raid Boss boss
and its 21-card boss deck), so the builder can fill it in one click.

No game is named: the pack's own rules say it. The `owner` rule ties cards to the base card
they belong to, the `copy_limit` rule says how many of each a deck may hold, the `deck_size`
rule how many in all. When the cards a base card owns, each at its most, add up to the deck's
size, no other deck is legal; the deck is also checked by the validator before it is offered
(every rule of the pack, on a build of that one character)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generator.core.errors import InputError
from generator.core.yamlio import Document
from generator.pack.buildshape import character_document
from generator.pack.load import build_from_document
from generator.pack.model import Pack, SideSpec
from generator.rules.checks import copy_limit_of
from generator.rules.draw_odds import first_choice_field
from generator.rules.engine import validate_build
from generator.rules.params import parameter


@dataclass(frozen=True)
class DecidedDeck:
    base: str  # the base card that decides it
    deck: dict[str, int]  # card id -> copies, in the pack's order
    size: int
    split: tuple[tuple[str, int], ...]  # by the deck cards' first choice field: ("Easy", 6), …

    def words(self, pack: Pack) -> str:
        """`Gearhold's 21 cards (Easy 6, Medium 6, Hard 6, Last Stand 3)`."""
        name = pack.cards[self.base].name if self.base in pack.cards else self.base
        parts = ", ".join(f"{k} {n}" for k, n in self.split)
        return f"{name}'s {self.size} cards" + (f" ({parts})" if parts else "")


_DECIDED: dict[int, tuple[Pack, dict[tuple[str, str], DecidedDeck]]] = {}


def decided_deck(pack: Pack, side_id: str, base_card: str) -> DecidedDeck | None:
    """The one legal deck of a character of `side_id` whose base card is `base_card`, or None."""
    hit = _DECIDED.get(id(pack))
    if hit is None or hit[0] is not pack:
        hit = _DECIDED[id(pack)] = (pack, _all_decided(pack))
    return hit[1].get((side_id, base_card))


def _applies(rule_side: str | None, side_id: str) -> bool:
    return rule_side is None or rule_side == side_id


def _all_decided(pack: Pack) -> dict[tuple[str, str], DecidedDeck]:
    out: dict[tuple[str, str], DecidedDeck] = {}
    rules = pack.spec.rules
    for side_id, side in pack.spec.sides.items():
        if side.deck is None or side.base.many:
            continue
        sizes = [parameter(r, "size") for r in rules if r.check == "deck_size" and _applies(r.side, side_id)]
        owners = [str(parameter(r, "field")) for r in rules if r.check == "owner" and _applies(r.side, side_id)]
        copies = [r for r in rules if r.check == "copy_limit" and _applies(r.side, side_id)]
        if len(sizes) != 1 or not isinstance(sizes[0], int) or not owners or not copies:
            continue
        owned: dict[str, dict[str, int]] = {}
        for card in pack.cards.values():
            owner = next((card.fields.get(f) for f in owners if isinstance(card.fields.get(f), str)), None)
            if owner is None or card.set not in side.sets or card.type not in side.deck.types:
                continue
            owned.setdefault(owner, {})[card.id] = min(copy_limit_of(card, r) for r in copies)
        for base_id, deck in owned.items():
            base = pack.cards.get(base_id)
            if base is None or base.type != side.base.type or sum(deck.values()) != sizes[0]:
                continue
            if _legal(pack, side_id, side, base_id, deck):
                out[(side_id, base_id)] = DecidedDeck(base_id, deck, sizes[0], _split(pack, deck))
    return out


def _split(pack: Pack, deck: dict[str, int]) -> tuple[tuple[str, int], ...]:
    counts: dict[str, int] = {}
    for card_id, n in deck.items():
        card = pack.cards[card_id]
        field = first_choice_field(pack, card.type)
        value = card.fields.get(field) if field else None
        if value is None:
            return ()
        counts[str(value)] = counts.get(str(value), 0) + n
    return tuple(counts.items())


def _legal(pack: Pack, side_id: str, side: SideSpec, base_id: str, deck: dict[str, int]) -> bool:
    """The deck passes every rule of the pack on its character (a build of that one character)."""
    char: dict[str, Any] = character_document(side, None, base_id, [], [], dict(deck))
    try:
        build = build_from_document(Document("decided", {"pack": pack.spec.id, "name": "decided", "side": side_id,
                                                          "characters": [char]}), pack)
    except InputError:
        return False
    report = validate_build(pack, build)
    return not any(v.severity == "error" and v.path.startswith("characters[0]") for v in report.violations)
