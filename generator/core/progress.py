"""Progress of long work, reported for whoever shows it (the CLI's bar on a terminal).

The engine never prints progress; it reports it here. A piece of work (one output file of a
build) runs inside `part(name, total)`, where total is the number of cards it will draw (or
None); the card painter calls `tick()` once per card front it draws. A listener, when one
is set, receives events: ("begin", name, total), ("tick", name, n), ("end", name). With no
listener (the web server, tests, output to a pipe) each call is one lookup and nothing else.

A build's worker processes report through a queue that the parent drains into its own
listener (build.py), so one display shows every part whichever process draws it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

Event = tuple[Any, ...]  # (kind, part, ...): what a long piece of work reports
_listener: Callable[[Event], None] | None = None
_part: str | None = None


def set_listener(listener: Callable[[Event], None] | None) -> Callable[[Event], None] | None:
    """Set (or clear, with None) the listener of this process; returns the previous one."""
    global _listener
    previous, _listener = _listener, listener
    return previous


def listener() -> Callable[[Event], None] | None:
    return _listener


def active() -> bool:
    return _listener is not None


@contextlib.contextmanager
def listening(listener: Callable[[Event], None] | None) -> Iterator[None]:
    previous = set_listener(listener)
    try:
        yield
    finally:
        set_listener(previous)


@contextlib.contextmanager
def part(name: str, total: int | None = None) -> Iterator[None]:
    """The work of the block is the part `name` (of `total` cards, or an unknown amount)."""
    global _part
    outer, _part = _part, name
    if _listener is not None:
        _listener(("begin", name, total))
    try:
        yield
    finally:
        _part = outer
    if _listener is not None:
        _listener(("end", name))


def tick(n: int = 1) -> None:
    """`n` more cards of the current part are drawn (nothing outside a part)."""
    if _listener is not None and _part is not None:
        _listener(("tick", _part, n))
