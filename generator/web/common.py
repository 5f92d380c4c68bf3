"""Helpers the route modules share: the site of a request, card filters, presets."""

from __future__ import annotations

import copy

from dataclasses import dataclass
from pathlib import Path

from fastapi import HTTPException, Request

from generator.core.errors import InputError, Location, Problem, did_you_mean
from generator.core.limits import NotANumber, whole_number
from generator.pack.buildshape import character_refs
from generator.pack.fieldtypes import FIELD_KINDS, label
from generator.pack.load import load_build, pack_document
from generator.pack.model import Build, Card, Pack
from generator.pack.query import Query, parse_query
from generator.web.site import Site
from generator.web.state import clean_document


def per_pack(fn):
    """Cache a function of a pack for the life of the process (packs are loaded once; the
    Pack dataclass is not hashable, so the cache is keyed by identity and keeps the pack)."""
    cache: dict[int, tuple] = {}

    def wrapper(pack):
        hit = cache.get(id(pack))
        if hit is None or hit[0] is not pack:
            hit = cache[id(pack)] = (pack, fn(pack))
        return hit[1]

    wrapper.__doc__ = fn.__doc__
    return wrapper


def number_field(value: str | None, field: str, at_most: int, at_least: int = 0) -> int | None:
    """A number a request gives in a query or form field (empty: None), by the one parser of
    such numbers (core.limits.whole_number); anything else is a 422 that names the field."""
    if value is None or not value.strip():
        return None
    try:
        return whole_number(value, at_most, at_least)
    except NotANumber as exc:
        error = InputError([Problem("request.number", f"`{field}` is not a usable number", Location("request"),
                                    found=value.strip()[:20], expected=exc.expected,
                                    fix=f"give `{field}` as digits 0-9, e.g. `{max(at_least, min(at_most, 100))}`")])
        error.status = 422
        raise error from None


def site_of(request: Request) -> Site:
    return request.app.state.site


def card_or_404(pack: Pack, card_id: str) -> Card:
    card = pack.cards.get(card_id)
    if card is None:
        guess = did_you_mean(card_id, pack.cards)
        raise HTTPException(404, f"no card with the id `{card_id}` in {pack.spec.name}"
                                 + (f"; did you mean `{guess}`?" if guess else ""))
    return card


@dataclass
class CardFilter:
    """The card browser's and the API's filters: side, set, type and points as fields, and `q`
    in the card search language (generator.pack.query, the one parser every page uses). A query
    that cannot be read raises InputError when the filter is made."""

    side: str | None = None
    set: str | None = None
    type: str | None = None
    min: int | None = None
    max: int | None = None
    q: str | None = None
    pack: Pack | None = None  # the query is read for this pack, once

    def __post_init__(self) -> None:
        self.query: Query | None = parse_query(self.q, self.pack) if self.q and self.pack is not None else None

    def match(self, pack: Pack, card: Card) -> bool:
        if self.side and self.side in pack.spec.sides and card.set not in pack.spec.sides[self.side].sets:
            return False
        if self.set and card.set != self.set:
            return False
        if self.type and card.type != self.type:
            return False
        if self.min is not None and card.points < self.min:
            return False
        if self.max is not None and card.points > self.max:
            return False
        if self.q and self.query is None:
            self.query = parse_query(self.q, pack)
        return self.query is None or self.query.matches(card, pack)

    def apply(self, pack: Pack) -> list[Card]:
        return [c for c in pack.cards.values() if self.match(pack, c)]


def card_fields(pack: Pack, card: Card) -> list[tuple[str, str]]:
    """A card's typed fields as (label, text) for its page and the API: the field's own label
    (or its name in words) and its value in words (the field type's `page_text`)."""
    spec = pack.spec.card_types[card.type]
    rows = []
    for name, field_spec in spec.fields.items():
        value = card.fields.get(name)
        if value in (None, [], {}, ""):
            continue
        rows.append((label(name, field_spec), FIELD_KINDS[field_spec.type].page_text(pack, value)))
    return rows


@per_pack
def preset_docs(pack: Pack) -> dict[str, tuple[dict, Build]]:
    """The pack's presets that load: stem -> (build document, Build)."""

    out = {}
    for path in pack.preset_files:
        try:
            build = load_build(Path(path), pack)
            # through the pack's parse: a preset of a pack in another language is named in it
            out[Path(path).stem] = (clean_document(copy.deepcopy(pack_document(pack, Path(path)).data), pack), build)
        except InputError:
            continue
    return out


@per_pack
def preset_uses(pack: Pack) -> dict[str, list[str]]:
    """card id -> names of the presets that use it."""
    uses: dict[str, list[str]] = {}
    for _doc, build in preset_docs(pack).values():
        ids = {ref.id for char in build.characters for _, ref, _ in character_refs(char)}
        for cid in ids:
            uses.setdefault(cid, []).append(build.name)
    return uses
