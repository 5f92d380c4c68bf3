"""Likes, comments and descriptions of published builds (generator.community.social): each a
form on the build's page, answered with a redirect back to it. Signed-in players like (not
their own builds) and comment; the author describes; the designer hides a comment."""

from __future__ import annotations

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import RedirectResponse

from generator.core.limits import MAX_COMMENT, MAX_DESCRIPTION
from generator.web.common import site_of
from generator.community.common import designer, signed_in, store_of
from generator.community.routes_published import publication
from generator.community.social import add_comment, like, set_comment_hidden, set_description, unlike

router = APIRouter(include_in_schema=False)


def _back(pack_id: str, public_id: str, anchor: str = "") -> RedirectResponse:
    return RedirectResponse(f"/p/{pack_id}/published/{public_id}{anchor}", status_code=303)


@router.post("/p/{pack_id}/published/{public_id}/like")
def like_build(request: Request, pack_id: str, public_id: str):
    site_of(request).pack(pack_id)
    who = signed_in(request)
    p = publication(request, pack_id, public_id)
    if p.owner_key == who.owner:
        raise HTTPException(403, "your own build: others like it")
    like(store_of(request), p.id, who.owner)  # a second like of the same account changes nothing
    return _back(pack_id, p.public_id)


@router.post("/p/{pack_id}/published/{public_id}/unlike")
def unlike_build(request: Request, pack_id: str, public_id: str):
    site_of(request).pack(pack_id)
    who = signed_in(request)
    p = publication(request, pack_id, public_id)
    unlike(store_of(request), p.id, who.owner)
    return _back(pack_id, p.public_id)


@router.post("/p/{pack_id}/published/{public_id}/comments")
def comment(request: Request, pack_id: str, public_id: str, body: str = Form(..., max_length=MAX_COMMENT + 500)):
    site_of(request).pack(pack_id)
    who = signed_in(request)
    p = publication(request, pack_id, public_id)
    cid = add_comment(store_of(request), p.id, who.owner, who.name, body)
    return _back(pack_id, p.public_id, f"#comment-{cid}")


@router.post("/p/{pack_id}/published/{public_id}/comments/{comment_id}/{action}")
def moderate(request: Request, pack_id: str, public_id: str, comment_id: int, action: str):
    site_of(request).pack(pack_id)
    designer(request)
    if action not in ("hide", "show"):
        raise HTTPException(404, "a comment is hidden or shown")
    p = publication(request, pack_id, public_id)
    if not set_comment_hidden(store_of(request), p.id, comment_id, action == "hide"):
        raise HTTPException(404, "no such comment on this build")
    return _back(pack_id, p.public_id, f"#comment-{comment_id}")


@router.post("/p/{pack_id}/published/{public_id}/description")
def describe(request: Request, pack_id: str, public_id: str,
             description: str = Form("", max_length=MAX_DESCRIPTION + 500)):
    site_of(request).pack(pack_id)
    who = signed_in(request)
    p = publication(request, pack_id, public_id)
    if not set_description(store_of(request), p.public_id, who.owner, description):
        raise HTTPException(403, "only its author describes a published build")
    return _back(pack_id, p.public_id)
