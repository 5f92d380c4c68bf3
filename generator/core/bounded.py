"""A dict that keeps at most a given number of entries (the oldest go first): what a long
build remembers per text stays bounded however many cards it draws."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class BoundedCache(dict[K, V]):
    """A dict that forgets its oldest entries past `limit`. Card texts repeat within a kit
    (copies, shared lines) but a 10,000-card deck must not keep 10,000 layouts alive."""

    def __init__(self, limit: int = 256):
        super().__init__()
        self.limit = limit

    def __setitem__(self, key: K, value: V) -> None:
        if len(self) >= self.limit and key not in self:
            del self[next(iter(self))]  # dicts keep insertion order: the first key is the oldest
        super().__setitem__(key, value)
