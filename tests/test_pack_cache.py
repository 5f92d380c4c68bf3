"""Pack.loaded: values made once per run under typed slots, made again when their files change,
and carried to worker processes (pickled) with the pack."""

from __future__ import annotations

import pickle

from generator.pack.cache import PackCache, Slot

COUNT: Slot[list[int]] = Slot("count")


def test_a_value_is_made_once_and_again_when_its_files_change():
    cache, made = PackCache(), []

    def make() -> list[int]:
        made.append(1)
        return [len(made)]
    assert cache.fresh(COUNT, ("a", 1), make) == [1]
    assert cache.fresh(COUNT, ("a", 1), make) == [1] and len(made) == 1
    assert cache.fresh(COUNT, ("a", 2), make) == [2]  # a file changed: made anew
    assert cache.get(COUNT) == [2]


def test_the_cache_travels_pickled_and_a_copy_can_drop_a_slot():
    cache = PackCache()
    cache.made(COUNT, lambda: [7])
    other: Slot[str] = Slot("other")
    cache.put(other, "x")
    back = pickle.loads(pickle.dumps(cache))
    assert back.get(COUNT) == [7] and back.get(Slot[list[int]]("count")) == [7]  # a slot is its name
    assert back.without(COUNT).names() == {"other"} and cache.names() == {"count", "other"}
