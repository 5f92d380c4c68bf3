"""The rules in the browser: contents, one page per chapter or reference page, the quick
reference, and a search that works as a plain GET form (generator.web.rulebook)."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import Response

from generator.web.common import site_of
from generator.web.pages import page
from generator.web.rulebook import icon_picture, rule_book, search
from generator.web.words import gettext

router = APIRouter(include_in_schema=False)


@router.get("/p/{pack_id}/rules")
def contents(request: Request, pack_id: str):
    pack = site_of(request).pack(pack_id)
    return page(request, "rules_index.html", title=gettext("{name}: rules").format(name=pack.spec.name), pack=pack, book=rule_book(pack))


@router.get("/p/{pack_id}/rules/search")
def rules_search(request: Request, pack_id: str, q: str = Query("", max_length=200)):
    pack = site_of(request).pack(pack_id)
    book = rule_book(pack)
    hits = search(book, q)
    return page(request, "rules_search.html", title=f"{pack.spec.name}: rules search", pack=pack, book=book,
                q=q.strip(), hits=hits)


@router.get("/p/{pack_id}/rules/{slug}")
def rules_page(request: Request, pack_id: str, slug: str):
    pack = site_of(request).pack(pack_id)
    book = rule_book(pack)
    found = book.page(slug)
    if found is None:
        raise HTTPException(404, "no such rules page in this pack")
    at = book.pages.index(found)
    return page(request, "rules_page.html", title=f"{found.title} · {pack.spec.name}", pack=pack, book=book,
                rp=found, prev=book.pages[at - 1] if at else None,
                next=book.pages[at + 1] if at + 1 < len(book.pages) else None)


@router.get("/p/{pack_id}/icons/{icon}.png")
def icon_png(request: Request, pack_id: str, icon: str):
    """An inline icon of the rules pages, as the cards and the rulebook draw it."""
    pack = site_of(request).pack(pack_id)
    data = icon_picture(pack, icon) if len(icon) <= 64 else None
    if data is None:
        raise HTTPException(404, "no such icon in this pack")
    return Response(data, media_type="image/png", headers={"Cache-Control": "public, max-age=3600"})
