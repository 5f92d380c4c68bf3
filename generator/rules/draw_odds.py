"""Draw odds: from a side's declared opening draw (`deck.draw` in game.yaml), the chance that
the opening draw holds at least one card of each group (a choice field's value, or a card
type), by the hypergeometric distribution over the deck as built. Exact, in integers."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb

from generator.pack.model import Pack


@dataclass(frozen=True)
class GroupOdds:
    label: str
    cards: int            # cards of the group in the pile drawn from
    at_least_one: float   # 0..1
    expected: float       # cards of the group in the draw, on average


@dataclass(frozen=True)
class DrawOdds:
    drawn: int            # cards drawn (the declared draw, or the pile if smaller)
    pile: int             # cards drawn from
    by: str               # what the groups are: "action type", "card type"
    groups: list[GroupOdds]


def at_least_one(pile: int, successes: int, drawn: int) -> Fraction:
    """P(at least one of `successes` cards among `drawn` cards drawn from `pile`)."""
    if not 0 <= successes <= pile or not 0 <= drawn <= pile:
        raise ValueError("need 0 <= successes, drawn <= pile")
    if pile == 0:
        return Fraction(0)
    return 1 - Fraction(comb(pile - successes, drawn), comb(pile, drawn))


def first_choice_field(pack: Pack, type_id: str) -> str | None:
    """The first `choice` field of a card type (what its cards are grouped by by default)."""
    spec = pack.spec.card_types.get(type_id)
    return next((name for name, f in (spec.fields.items() if spec else []) if f.type == "choice"), None)


def opening_odds(pack: Pack, side, deck: dict[str, int]) -> DrawOdds | None:
    """The odds of the side's opening draw from `deck` ({card id: copies}); None when the side
    declares no draw or the pile is empty."""
    draw = side.deck.draw if side.deck is not None else None
    if draw is None:
        return None
    groups: dict[str, int] = {}
    kinds: list[str] = []
    pile = 0
    for card_id, n in deck.items():
        card = pack.cards.get(card_id)
        if card is None or not isinstance(n, int) or n <= 0 or (draw.of and card.type not in draw.of):
            continue
        field = draw.by if draw.by and draw.by in pack.spec.card_types[card.type].fields \
            else first_choice_field(pack, card.type)
        if field and card.fields.get(field) is not None:
            label, kind = str(card.fields[field]), field.replace("_", " ")
        else:
            label, kind = pack.spec.card_types[card.type].name, "card type"
        kinds += [kind] if kind not in kinds else []
        groups[label] = groups.get(label, 0) + n
        pile += n
    if pile == 0:
        return None
    drawn = min(draw.opening, pile)
    rows = [GroupOdds(label, k, float(at_least_one(pile, k, drawn)), drawn * k / pile)
            for label, k in sorted(groups.items(), key=lambda kv: (-kv[1], kv[0]))]
    return DrawOdds(drawn, pile, " / ".join(kinds), rows)
