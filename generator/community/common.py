"""What the community's routes share: the store and settings of the app, who is asking."""

from __future__ import annotations

from fastapi import HTTPException, Request

from generator.community.dbbuilds import Asker, asker
from generator.community.store import Store
from generator.web.memo import Recent


def store_of(request: Request) -> Store:
    return request.app.state.community_store


def cache_of(request: Request) -> Recent:
    """This worker's values that never change for their key (a pack's choices, a published
    build's document): generator.web.memo.Recent, counted by entries."""
    return request.app.state.community_cache


def pages_of(request: Request) -> Recent:
    """The published builds' pages this worker drew (a generator.web.memo.Recent), kept under
    the generation they were drawn at (routes_published._kept)."""
    return request.app.state.community_pages


def accounts_on(request: Request) -> bool:
    return request.app.state.community_keys is not None


def signed_in(request: Request) -> Asker:
    who = asker.get()
    if who.anonymous:
        raise HTTPException(401, "sign in first (Sign in, at the top of the page)")
    return who


def designer(request: Request) -> Asker:
    who = signed_in(request)
    if who.role != "designer":
        raise HTTPException(403, "only the designer (the site's admin) sees this")
    return who
