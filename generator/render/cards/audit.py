"""Warnings about a pack's layouts that print, but not as meant: a layout named after no card
type (never used; usually a misspelt type id). `pnp validate` and `pnp build` report them.
(A `:name:` in card text that names no icon is an error of the loader: pack/load.py.)"""

from __future__ import annotations

import re
from pathlib import Path

from generator.core.errors import Location, did_you_mean
from generator.core.report import Violation
from generator.core.yamlio import display_path
from generator.pack.model import Pack

SPECIAL_LAYOUTS = {"base", "back", "reference"}


def stray_layouts(pack: Pack) -> list[Violation]:
    """A layout in the pack's templates/cards/ named after no card type is never used
    (unless another layout extends it): usually a misspelt type id."""
    folder = Path(pack.root) / "templates" / "cards"
    if not folder.is_dir():
        return []
    types = set(pack.spec.card_types)
    files = sorted(folder.glob("*.yaml"))
    extended = set()
    for f in files:
        try:
            m = re.search(r"^extends:\s*['\"]?([A-Za-z0-9_.-]+)", f.read_text(encoding="utf-8"), re.MULTILINE)
        except (OSError, UnicodeDecodeError):
            continue
        if m:
            extended.add(m.group(1))
    out = []
    for f in files:
        name = f.stem
        target = name[5:] if name.startswith("back-") else name
        if name in SPECIAL_LAYOUTS or target in types or target == "reference" or name in extended:
            continue
        guess = did_you_mean(target, types)
        out.append(Violation("layout.unused", "warning", f"the layout `{name}` is for a card type `{target}` "
                             f"that {pack.spec.name} does not have, so it is never used",
                             Location(display_path(f)), name, observed=target, expected=f"one of: {', '.join(sorted(types))}",
                             fix=f"did you mean `{'back-' if name.startswith('back-') else ''}{guess}`?" if guess
                             else "rename the file after a card type, or remove it"))
    return out
