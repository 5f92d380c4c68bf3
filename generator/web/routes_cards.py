"""The card browser: every card as an image with filters, a page per card, card images."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse

from generator.core.errors import InputError
from generator.core.limits import MAX_POINTS, MAX_QUERY_CHARS
from generator.pack.query import query_fields
from generator.web.search import search_examples

from generator.web.pages import page
from generator.web.common import CardFilter, card_fields, card_or_404, number_field, preset_uses, site_of
from generator.export.cardimage import card_image
from generator.web.picker import THUMB_DPI
from generator.web.words import gettext

router = APIRouter(include_in_schema=False)
PAGE_SIZE = 48


@router.get("/p/{pack_id}/cards")
def browser(request: Request, pack_id: str, side: str = "", set: str = "", type: str = "",
            min: str = "", max: str = "", q: str = Query("", max_length=MAX_QUERY_CHARS), page_no: int = Query(1, alias="page", ge=1, le=10000)):
    pack = site_of(request).pack(pack_id)
    problems: list = []
    bounds: list[int | None] = []
    for field, value in (("min", min), ("max", max)):
        try:
            bounds.append(number_field(value, field, MAX_POINTS, -MAX_POINTS))
        except InputError as exc:  # said beside the form, as a search that cannot be read is
            bounds.append(None)
            problems += exc.problems
    low, high = bounds
    try:
        flt = CardFilter(side or None, set or None, type or None, low, high, q.strip() or None, pack)
        cards = [] if problems else flt.apply(pack)
    except InputError as exc:  # a search that cannot be read: said beside the search box, the form kept
        flt, cards = CardFilter(side or None, set or None, type or None, low, high), []
        problems += exc.problems
    pages = max_page = (len(cards) + PAGE_SIZE - 1) // PAGE_SIZE or 1
    page_no = page_no if page_no <= max_page else max_page
    shown = cards[(page_no - 1) * PAGE_SIZE: page_no * PAGE_SIZE]
    query = {k: v for k, v in dict(side=side, set=set, type=type, min=min, max=max, q=q).items() if v}
    return page(request, "cards.html", title=gettext("{name}: cards").format(name=pack.spec.name), pack=pack, cards=shown, total=len(cards),
                flt=flt, query=query, page_no=page_no, pages=pages, raw={"min": min, "max": max, "q": q},
                problems=problems, status=422 if problems else 200)


@router.get("/p/{pack_id}/cards/{card_id}.png")
def card_png(request: Request, pack_id: str, card_id: str, face: str = Query("front", pattern="^(front|back)$"),
             thumb: bool = False):
    site = site_of(request)
    pack = site.pack(pack_id)
    card_or_404(pack, card_id)
    # a thumbnail (the editor's card picker) is drawn once at a low resolution and cached too
    path = card_image(pack, card_id, site.cache_dir, face=face, **({"dpi": THUMB_DPI} if thumb else {}))
    # the file name carries the hash of what the card depends on: the URL is stable per content
    return FileResponse(path, media_type="image/png", headers={"Cache-Control": "public, max-age=300"})


@router.get("/p/{pack_id}/cards/{card_id}")
def card_page(request: Request, pack_id: str, card_id: str):
    pack = site_of(request).pack(pack_id)
    card = card_or_404(pack, card_id)
    sides = [s for s in pack.spec.sides.values() if card.set in s.sets]
    return page(request, "card.html", title=card.name, pack=pack, card=card, fields=card_fields(pack, card),
                used_by=preset_uses(pack).get(card.id, []), sides=sides)


@router.get("/p/{pack_id}/help/search")
def search_help(request: Request, pack_id: str):
    """How to search for cards, with this pack's own fields and examples that find its cards."""
    pack = site_of(request).pack(pack_id)
    return page(request, "search_help.html", title=gettext("Searching for cards: {name}").format(name=pack.spec.name), pack=pack,
                fields=list(query_fields(pack).values()), examples=search_examples(pack))
