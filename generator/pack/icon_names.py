"""The names of the built-in icons (`:name:` in card text), and the mark that names one.

They live here, below both the loader and the renderer, so the loader can refuse a `:name:`
that is no icon with file:line:column without importing ReportLab. The renderer registers one
drawing per name and refuses to import when the two lists differ (render/base/icons.py)."""

from __future__ import annotations

import re
from collections.abc import Iterable

BUILTIN_ICONS = ("agility", "anchor", "area", "attack", "boss", "crystal", "d6", "damage", "dazzled", "energy",
                 "fall", "feat", "flame", "health", "height", "hero", "hex", "immobilised", "indirect",
                 "intelligence", "item", "jump", "leaf", "minion", "move", "neutral", "overload", "points",
                 "poisoned", "push", "range", "reach", "sight", "skull", "slot", "strength", "stunned", "token")
# `:name:` in card text; not after a letter, digit or backslash (`10:30:` is a time, not an icon)
ICON_MARK = re.compile(r"(?<![\w\\]):([a-z0-9-]+):")


def pack_icon_names(spec: object) -> set[str]:
    """Every `:name:` a pack's text may use: the built-in icons and game.yaml's `icons:`."""
    return set(BUILTIN_ICONS) | set(getattr(spec, "icons", None) or {})


def registry_matches(registered: Iterable[str]) -> None:
    """Raise at import when the renderer's icons and the names declared here drift apart."""
    if set(BUILTIN_ICONS) != set(registered):
        raise RuntimeError(f"the built-in icons {sorted(registered)} differ from the names declared in "
                           f"generator.pack.icon_names ({sorted(BUILTIN_ICONS)}); add the new name there")
