"""Recent answers of one worker, kept for a document that comes back (an undo, a redo, a
card added and taken out again, the same preset opened by many players): a bounded map from a
key to the answer's bytes (UTF-8), the least recently used dropped first once they pass a
budget. Nothing in it is needed: a worker that never saw a key makes the text anew,
so workers share nothing.

A key names everything the text is made from (the pack, the document as JSON, what else the
page sends), and is hashed (SHA-256) so a large document costs a small key."""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict

MAX_BYTES = 8 * 1024 * 1024  # per worker and app: about 350 editor answers of 23 kB (boss_fight's mean)
MAX_ENTRY = MAX_BYTES // 16  # an answer bigger than this is made each time rather than push out 16 others


def digest(*parts) -> bytes:
    """A key for values read from JSON: the same values in the same order give the same key;
    a dict's key order counts (a deck's order is part of what the page shows). NaN and Infinity,
    which Python's JSON reader takes from a request, are written as such, not refused."""
    text = json.dumps(parts, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).digest()


class Recent:
    """A least-recently-used map of answers (bytes, or text: generator.web.fragments), at most `max_bytes` of them (keys and the
    map's own bookkeeping, about 200 bytes an entry, not counted), safe to share between the
    threads of one worker (the editor answers on the event loop; other routes run on FastAPI's thread pool).
    `cost` says what a value counts against the budget: its length, or with `counted` one
    (values of any kind that never change for their key: generator.community's cache)."""

    def __init__(self, max_bytes: int = MAX_BYTES, max_entry: int = MAX_ENTRY, cost=len):
        self.max_bytes, self.max_entry, self.cost = max_bytes, max_entry, cost
        self._items: OrderedDict = OrderedDict()  # key -> bytes or str
        self._size = 0
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def get(self, key) -> bytes | str | None:
        with self._lock:
            text = self._items.get(key)
            if text is None:
                self.misses += 1
                return None
            self._items.move_to_end(key)
            self.hits += 1
            return text

    @classmethod
    def counted(cls, entries: int) -> Recent:
        """At most `entries` values, whatever their size."""
        return cls(entries, 1, cost=_one)

    def get_or_make(self, key, make):
        """The value kept for `key`, else `make()`, kept. Made outside the lock: two threads may
        both make it, and either result is right (a value never changes for its key)."""
        value = self.get(key)
        if value is None:
            value = make()
            self.put(key, value)
        return value

    def put(self, key, text: bytes | str) -> None:
        size = self.cost(text)
        if size > self.max_entry:
            return
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._size -= self.cost(old)
            self._items[key] = text
            self._size += size
            while self._size > self.max_bytes:
                _, dropped = self._items.popitem(last=False)
                self._size -= self.cost(dropped)

    def __len__(self) -> int:
        return len(self._items)

    @property
    def size(self) -> int:
        return self._size


def _one(value) -> int:
    return 1
