"""Compare two builds: `/p/<pack>/compare?a=CODE&b=CODE` (share codes: of two builds, or of two
versions of a published build), what generator.web.compare finds, side by side."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request

from generator.core.errors import InputError
from generator.share.codes import build_document, decode
from generator.web.common import site_of
from generator.web.compare import compare
from generator.web.pages import page
from generator.web.state import clean_document
from generator.web.words import gettext

router = APIRouter(include_in_schema=False)


@router.get("/p/{pack_id}/compare")
def compare_page(request: Request, pack_id: str, a: str = Query("", max_length=4000), b: str = Query("", max_length=4000),
                 a_name: str = Query("", max_length=120), b_name: str = Query("", max_length=120)):
    pack = site_of(request).pack(pack_id)
    result, problems = None, []
    if a.strip() and b.strip():
        try:
            docs = [clean_document(build_document(pack, decode(code.strip(), pack)), pack) for code in (a, b)]
            result = compare(pack, docs[0], docs[1])
        except InputError as exc:
            problems = exc.problems
    names = (a_name.strip() or (result.a.doc["name"] if result else "A"),
             b_name.strip() or (result.b.doc["name"] if result else "B"))
    return page(request, "compare.html", status=422 if problems else 200, title=gettext("Compare builds: {name}").format(name=pack.spec.name),
                pack=pack, result=result, problems=problems, form={"a": a, "b": b}, names=names)
