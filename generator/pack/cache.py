"""What the loaders make from a loaded pack once per run (its presets, its maps, its share-code
tables), kept on the pack (`Pack.loaded`) so every stage and every worker process reuses them.

Three layers write here (pack, maps, share) and none may name another's types, so each declares
its own typed `Slot` next to the code that fills it, and mypy checks what goes in and comes out of
that slot. A value made from files is kept with their key (path, modification time and size):
`fresh` makes it again when a file changed. The cache travels with the pack, pickled, to the
build's worker processes; a slot is known by its name there too."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Slot(Generic[T]):
    """A place in the cache for values of type T, declared once by the module that fills it."""
    name: str


class PackCache:
    """A pack's values made once, each under its slot."""

    def __init__(self) -> None:
        self._values: dict[str, Any] = {}
        self._made_for: dict[str, Hashable] = {}  # the files a `fresh` value was made from

    def get(self, slot: Slot[T]) -> T | None:
        return self._values.get(slot.name)

    def put(self, slot: Slot[T], value: T) -> T:
        self._values[slot.name] = value
        return value

    def made(self, slot: Slot[T], make: Callable[[], T]) -> T:
        """The slot's value, made by `make` the first time it is asked for."""
        if slot.name not in self._values:
            self._values[slot.name] = make()
        value: T = self._values[slot.name]
        return value

    def fresh(self, slot: Slot[T], key: Hashable, make: Callable[[], T]) -> T:
        """The slot's value if it was made for `key` (the files it was read from), else made anew."""
        if slot.name not in self._values or self._made_for.get(slot.name) != key:
            self._values[slot.name] = make()
            self._made_for[slot.name] = key
        value: T = self._values[slot.name]
        return value

    def without(self, *slots: Slot[Any]) -> PackCache:
        """A copy without the given slots (a pack copied with other files must make those anew)."""
        copy = PackCache()
        names = {slot.name for slot in slots}
        copy._values = {k: v for k, v in self._values.items() if k not in names}
        copy._made_for = {k: v for k, v in self._made_for.items() if k not in names}
        return copy

    def names(self) -> set[str]:
        return set(self._values)
