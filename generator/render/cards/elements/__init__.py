"""render.cards.elements: the card layout element kinds, one module each (box, line, text, icon,
stats, image, squares, hexshape, pattern). Each module has its KIND, the Element FIELDS it reads and its
`draw(painter, element, layout, ctx, left, top, w, h, ox, oy)`; ELEMENTS maps kinds to their
draw functions. A new kind: a new module here, listed in KINDS below, and its name in
generator.render.base.layout.ELEMENT_KINDS (which the layout files are checked against).

May import: core, grids, pack, render.base, render.maps."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from generator.render.base.layout import ELEMENT_KINDS, Element, Layout
from generator.render.cards.elements import box, hexshape, icon, image, line, pattern, squares, stats, text

if TYPE_CHECKING:
    from generator.render.cards.faces import CardPainter


class Draw(Protocol):
    def __call__(self, p: CardPainter, e: Element, layout: Layout, ctx: dict[str, Any], left: float, top: float,
                 w: float, h: float, ox: float, oy: float) -> None: ...


class ElementKind(Protocol):
    """What each module of this package is; mypy holds every module of KINDS to it."""
    @property
    def KIND(self) -> str: ...
    @property
    def FIELDS(self) -> tuple[str, ...]: ...
    @property
    def draw(self) -> Draw: ...


KINDS: tuple[ElementKind, ...] = (box, line, text, icon, stats, image, squares, hexshape, pattern)
ELEMENTS: dict[str, Draw] = {kind.KIND: kind.draw for kind in KINDS}

if set(ELEMENTS) != set(ELEMENT_KINDS):
    raise RuntimeError(f"card element kinds {sorted(ELEMENTS)} differ from ELEMENT_KINDS {sorted(ELEMENT_KINDS)}")
for kind in KINDS:
    unknown = set(kind.FIELDS) - set(Element.model_fields)
    if unknown:
        raise RuntimeError(f"element kind `{kind.KIND}` reads fields Element lacks: {sorted(unknown)}")
