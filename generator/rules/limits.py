"""Which points limit is in force for a build, and where it comes from.

A limit comes from the command line (`--points N` or `--points none`), else the build's own
`points_limit:` (a number, a named limit, or `none`), else the pack's `default_points_limit`.
`none` is a real choice (the players agreed to play without a limit), never a missing value:
the points are still totalled and broken down, only the `points.limit` rule has nothing to check.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from generator.core.limits import MAX_POINTS, NotANumber, whole_number

if TYPE_CHECKING:
    from generator.pack.model import Build, Pack

NO_LIMIT = "none"  # the word a build or the command line uses for "no points limit"

SOURCE_COMMAND_LINE = "command line"
SOURCE_BUILD = "build"
SOURCE_PACK_DEFAULT = "pack default"


@dataclass(frozen=True)
class LimitInForce:
    value: int | None  # None: no limit
    source: str | None  # one of the SOURCE_* words; None when nothing sets a limit at all

    @property
    def text(self) -> str:
        return "no limit" if self.value is None else str(self.value)


def limit_in_force(pack: Pack, build: Build, override: int | str | None = None) -> LimitInForce:
    """`override` is the command line's value: a number, NO_LIMIT, or None (not given)."""
    if override is not None:
        return LimitInForce(None if override == NO_LIMIT else int(override), SOURCE_COMMAND_LINE)
    if getattr(build, "unlimited", False):
        return LimitInForce(None, SOURCE_BUILD)
    if build.points_limit is not None:
        return LimitInForce(build.points_limit, SOURCE_BUILD)
    default = pack.limit_value(pack.spec.default_points_limit)
    if default is not None:
        return LimitInForce(default, SOURCE_PACK_DEFAULT)
    return LimitInForce(None, None)


def parse_points(text: str | int | None) -> int | str | None:
    """The `--points` option: a whole number 0-MAX_POINTS (99999), or `none` for no limit."""
    if text is None or isinstance(text, int):
        return text
    word = str(text).strip().lower()
    if word in (NO_LIMIT, "no-limit", "unlimited"):
        return NO_LIMIT
    try:
        return whole_number(word, MAX_POINTS)
    except NotANumber:
        raise ValueError(f"expected a whole number of points (0 to {MAX_POINTS}) or `none`, got `{text}`") from None
