"""render.cards.elements: the card layout element kinds, one module each (box, line, text, icon,
stats, image, squares, hexshape, pattern). Each module has its KIND, the Element FIELDS it reads and its
`draw(painter, element, layout, ctx, left, top, w, h, ox, oy)`; ELEMENTS maps kinds to their
draw functions. A new kind: a new module here, listed in KINDS below, and its name in
generator.render.base.layout.ELEMENT_KINDS (which the layout files are checked against).

May import: core, grids, pack, render.base, render.maps."""

from __future__ import annotations

from generator.render.base.layout import ELEMENT_KINDS, Element
from generator.render.cards.elements import box, hexshape, icon, image, line, pattern, squares, stats, text

KINDS = (box, line, text, icon, stats, image, squares, hexshape, pattern)
ELEMENTS = {kind.KIND: kind.draw for kind in KINDS}

if set(ELEMENTS) != set(ELEMENT_KINDS):
    raise RuntimeError(f"card element kinds {sorted(ELEMENTS)} differ from ELEMENT_KINDS {sorted(ELEMENT_KINDS)}")
for kind in KINDS:
    unknown = set(kind.FIELDS) - set(Element.model_fields)
    if unknown:
        raise RuntimeError(f"element kind `{kind.KIND}` reads fields Element lacks: {sorted(unknown)}")
