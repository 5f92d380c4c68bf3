"""Sample hands (a playtest): a character's opening hand dealt as the game deals it (the side's
`deck.draw`: how many cards, of which types: generator.rules.draw_odds, the same reading the
odds use), then the next card and the next, or a new shuffle; the odds beside it. A page of
links, no script: the build is its share code, the shuffle a seed in the address, so a hand can
be dealt again or sent to someone."""

from __future__ import annotations

import secrets
from urllib.parse import quote

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import RedirectResponse

from generator.core.limits import MAX_SHARED_CHARACTERS
from generator.rules.draw_odds import opening_size, pile_counts, sample_draw
from generator.share.codes import build_document, decode
from generator.web.charts import character_name, odds_rows
from generator.web.common import site_of
from generator.web.pages import page
from generator.web.state import clean_document, side_of
from generator.web.words import gettext

router = APIRouter(include_in_schema=False)
MAX_SEED = 2**31 - 1


@router.get("/p/{pack_id}/hand")
def sample_hand(request: Request, pack_id: str, code: str = Query(..., max_length=4000),
                char: int = Query(0, ge=0, le=MAX_SHARED_CHARACTERS), seed: int | None = Query(None, ge=1, le=MAX_SEED),
                drawn: int = Query(0, ge=0, le=100_000)):
    pack = site_of(request).pack(pack_id)
    doc = clean_document(build_document(pack, decode(code.strip(), pack)), pack)
    if char >= len(doc["characters"]):
        raise HTTPException(404, "the build has no such character")
    if seed is None:  # a new shuffle: its seed goes in the address, so the page can be dealt again
        url = request.url.include_query_params(seed=secrets.randbelow(MAX_SEED) + 1, drawn=0)
        return RedirectResponse(str(url), status_code=303)
    side = side_of(pack, doc)
    size = opening_size(side)
    if size is None:
        raise HTTPException(404, f"a {side.name} build deals no opening hand")
    deck = doc["characters"][char].get("deck") or {}
    pile = sum(pile_counts(pack, side, deck).values())
    if pile == 0:
        raise HTTPException(404, "this deck holds no card the opening hand is dealt from")
    opening = min(size, pile)
    drawn = min(drawn, pile - opening)
    hand = sample_draw(pack, side, deck, seed, opening + drawn)
    base = f"/p/{pack_id}/hand?code={quote(code.strip())}&char={char}"
    who = character_name(pack, side, char, doc["characters"][char])
    dealt_from = side.deck.draw.of if side.deck and side.deck.draw else []  # its card types; empty: the whole deck
    return page(request, "hand.html", title=gettext("Sample hand: {who}").format(who=who), pack=pack, doc=doc, who=who,
                cards=[pack.cards[c] for c in hand], opening=opening, pile=pile, drawn=drawn,
                odds=odds_rows(pack, side, deck), shuffle=base, code=code.strip(),
                draw_more=f"{base}&seed={seed}&drawn={drawn + 1}" if opening + drawn < pile else None,
                of=[pack.spec.card_types[t].name for t in dealt_from if t in pack.spec.card_types])
