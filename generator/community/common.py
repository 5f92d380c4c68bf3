"""What the community's routes share: the store and settings of the app, who is asking."""

from __future__ import annotations

import threading
from collections import OrderedDict

from fastapi import HTTPException, Request

from generator.community.dbbuilds import Asker, asker
from generator.community.store import Store


def store_of(request: Request) -> Store:
    return request.app.state.community_store


class Recent:
    """A worker's bounded cache (least recently used goes first) of values that never change
    for their key, such as what a published build's text gives: nothing in it is state another
    worker needs, so workers still share nothing but the database."""

    def __init__(self, size: int = 2048):
        self.size, self.items, self.lock = size, OrderedDict(), threading.Lock()

    def get(self, key, make):
        with self.lock:
            if key in self.items:
                self.items.move_to_end(key)
                return self.items[key]
        value = make()  # outside the lock: two threads may both make it, and either result is right
        with self.lock:
            self.items[key] = value
            while len(self.items) > self.size:
                self.items.popitem(last=False)
        return value


def cache_of(request: Request) -> Recent:
    return request.app.state.community_cache


def pages_of(request: Request):
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
