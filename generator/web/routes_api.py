"""The JSON API under /api/: packs, cards, validation (the `pnp.validation` document of
`pnp validate --format json`), share codes both ways and text deck lists both ways.
/api is a page listing it, made from the OpenAPI document (/openapi.json)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Body, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, Field

from generator.core.limits import MAX_POINTS, MAX_QUERY_CHARS
from generator.rules.engine import validate_build
from generator.core.report import reports_document
from generator.web.pages import page
from generator.web.common import CardFilter, card_fields, card_or_404, site_of
from generator.web.state import clean_document, to_build, to_yaml
from generator.share.codes import build_document, decode, encode
from generator.share.decklist import format_decklist, parse_decklist

router = APIRouter(prefix="/api")

BuildDoc = dict[str, Any]


class CodeIn(BaseModel):
    code: str = Field(..., max_length=4000, description="A share code made by `pnp share` (PNP1-…)")


class TextIn(BaseModel):
    text: str = Field(..., max_length=200_000, description="A plain-text deck list (docs/decklist.md)")


def _card(pack, card) -> dict:
    return {"id": card.id, "name": card.name, "type": card.type, "set": card.set, "points": card.points,
            "text": card.text, "fields": dict(card.fields), "copies": card.copies,
            "image": f"/p/{pack.spec.id}/cards/{card.id}.png", "page": f"/p/{pack.spec.id}/cards/{card.id}"}


@router.get("", include_in_schema=False, response_class=HTMLResponse)
def api_page(request: Request):
    return page(request, "api.html", title="The JSON API", spec=request.app.openapi())


@router.get("/packs", summary="The packs served")
def packs(request: Request):
    return [{"id": p.spec.id, "name": p.spec.name, "version": p.spec.version, "cards": len(p.cards),
             "sides": {k: s.name for k, s in p.spec.sides.items()},
             "points_limits": dict(p.spec.points_limits), "default_points_limit": p.spec.default_points_limit}
            for p in site_of(request).packs.values()]


@router.get("/{pack_id}/cards", summary="Cards, filtered as in the card browser")
def cards(request: Request, pack_id: str, side: str | None = None, set: str | None = None,
          type: str | None = None, min: int | None = Query(None, ge=0, le=MAX_POINTS),
          max: int | None = Query(None, ge=0, le=MAX_POINTS),
          q: str | None = Query(None, max_length=MAX_QUERY_CHARS, description="A card search (the builder's help page "
                                "/p/{pack}/help/search lists the fields)")):
    pack = site_of(request).pack(pack_id)
    return [_card(pack, c) for c in CardFilter(side, set, type, min, max, q, pack).apply(pack)]


@router.get("/{pack_id}/search", summary="The ids of the cards a search finds (the card picker asks this)",
            description="`q` in the card search language; `side`: only the cards that side may take. A search that "
                        "cannot be read gives 422 with the problem in `errors` (its column in `column`).")
def search_ids(request: Request, pack_id: str, q: str = Query("", max_length=MAX_QUERY_CHARS),
               side: str | None = Query(None, max_length=80)):
    pack = site_of(request).pack(pack_id)
    found = CardFilter(side or None, q=q or None, pack=pack).apply(pack)
    return {"ids": [c.id for c in found], "count": len(found)}


@router.get("/{pack_id}/cards/{card_id}", summary="One card")
def card(request: Request, pack_id: str, card_id: str):
    pack = site_of(request).pack(pack_id)
    c = card_or_404(pack, card_id)
    out = _card(pack, c)
    out["fields_text"] = dict(card_fields(pack, c))
    return out


@router.post("/{pack_id}/validate", summary="Validate a build: the pnp.validation document",
             description="The body is a build document (the JSON form of a build YAML file). The answer is the "
                         "document `pnp validate --format json` prints; a build that cannot be read gives 422 "
                         "with the problems in `errors`.")
async def validate(request: Request, pack_id: str, build: BuildDoc = Body(...),
             points: int | None = Query(None, ge=0, le=MAX_POINTS, description="Overrides the build's limit, as --points")):
    # async: a validation takes about a millisecond, less than a hop to a worker thread would
    pack = site_of(request).pack(pack_id)
    doc = clean_document(build, pack, strict=True)
    return JSONResponse(reports_document([validate_build(pack, to_build(doc, pack, "build.json"), points)]))


@router.post("/{pack_id}/share", summary="The share code of a build")
async def share(request: Request, pack_id: str, build: BuildDoc = Body(...)):
    pack = site_of(request).pack(pack_id)
    shared = encode(pack, to_build(clean_document(build, pack, strict=True), pack, "build.json"))
    return {"code": shared.code, "hash": shared.hash, "url": f"/b/{shared.code}"}


@router.post("/{pack_id}/unshare", summary="The build a share code holds")
def unshare(request: Request, pack_id: str, body: CodeIn):
    pack = site_of(request).pack(pack_id)
    doc = clean_document(build_document(pack, decode(body.code.strip(), pack)), pack)
    return {"build": doc, "yaml": to_yaml(doc)}


@router.post("/{pack_id}/decklist", summary="Read a text deck list into a build document")
def read_decklist(request: Request, pack_id: str, body: TextIn):
    pack = site_of(request).pack(pack_id)
    return {"build": clean_document(parse_decklist(body.text, pack, source="decklist"), pack)}


@router.post("/{pack_id}/decklist/text", summary="The text deck list of a build document")
def write_decklist(request: Request, pack_id: str, build: BuildDoc = Body(...)):
    pack = site_of(request).pack(pack_id)
    doc = clean_document(build, pack, strict=True)
    to_build(doc, pack)
    return {"text": format_decklist(doc, pack)}
