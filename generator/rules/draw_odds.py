"""Draw odds: from a side's declared opening draw (`deck.draw` in game.yaml), the chance that
the opening draw holds at least one card of each group (a choice field's value, or a card
type), by the hypergeometric distribution over the deck as built. Exact, in integers. And a
sample hand dealt from the same pile, shuffled by a seed (the builder's playtest)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from generator.pack.model import Pack, SideSpec


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


def pile_counts(pack: Pack, side: SideSpec, deck: dict[str, int]) -> dict[str, int]:
    """The cards the side's opening draw is dealt from ({card id: copies}): the deck's cards of
    the draw's types (`of`, all when empty); empty when the side declares no draw. What the
    odds count and what a sample hand is dealt from, the one reading of `deck.draw`."""
    draw = side.deck.draw if side.deck is not None else None
    if draw is None:
        return {}
    out: dict[str, int] = {}
    for card_id, n in deck.items():
        card = pack.cards.get(card_id)
        if card is None or not isinstance(n, int) or n <= 0 or (draw.of and card.type not in draw.of):
            continue
        out[card_id] = n
    return out


def opening_size(side: SideSpec) -> int | None:
    """How many cards the side's opening draw deals (None: it declares none)."""
    draw = side.deck.draw if side.deck is not None else None
    return draw.opening if draw is not None else None


def sample_draw(pack: Pack, side: SideSpec, deck: dict[str, int], seed: int, cards: int) -> list[str]:
    """The first `cards` cards of the pile shuffled by `seed`, as the table deals them from the
    top: the same seed deals the same hand, whatever the machine."""
    pile = [card_id for card_id, n in pile_counts(pack, side, deck).items() for _ in range(n)]
    random.Random(seed).shuffle(pile)
    return pile[:max(0, cards)]


def opening_odds(pack: Pack, side: SideSpec, deck: dict[str, int]) -> DrawOdds | None:
    """The odds of the side's opening draw from `deck` ({card id: copies}); None when the side
    declares no draw or the pile is empty."""
    draw = side.deck.draw if side.deck is not None else None
    if draw is None:
        return None
    groups: dict[str, int] = {}
    kinds: list[str] = []
    pile = 0
    for card_id, n in pile_counts(pack, side, deck).items():
        card = pack.cards[card_id]
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
