"""Drawing card faces and backs from layouts. A CardPainter serves one PDF document:
frames, backs and icons become PDF forms the first time they are needed, text fitting
is cached, and images are read once. When the layout checks ask (`CardShared.ink`, an
InkLog), the first drawing of each side records what each of its elements puts on paper
(render/base/drawn.py), so the checks read the drawing the sheets print."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.lib.colors import Color
from reportlab.lib.rl_accel import fp_str
from reportlab.lib.units import mm

from generator.core import progress
from generator.core.errors import InputError, Problem
from generator.core.resources import TEMPLATES
from generator.core.yamlio import display_path
from generator.pack.art import PackIcon
from generator.pack.load import pack_font_paths
from generator.pack.model import Card, Pack
from generator.pack.translations.table import words_for
from generator.render.base.art import ArtLibrary
from generator.render.base.drawn import Recorder
from generator.render.base.colors import hex_color
from generator.render.base.fonts import BOLD, BOLD_ITALIC, DISPLAY, ITALIC, REGULAR, register_pack_fonts
from generator.render.base.iconart import keep_outlines
from generator.render.base.icons import IconSheet, known_icons
from generator.render.base.layout import Element, FaceContext, Layout, LayoutSet, run_within_budget
from generator.render.base.pack_icons import pack_icons
from generator.render.base.recording import left_out, place_form
from generator.render.base.text import TextFitter, hyphenation_language
from generator.render.cards.elements import ELEMENTS
from generator.render.cards.elements.box import MAX_BLEED_MM
from generator.render.cards.fit import check_inside, layout_fits, wrong_size
from generator.render.rulebook.templating import reference_card_context

if TYPE_CHECKING:
    from generator.render.cards.ink import InkLog  # ink.py imports this module

FONTS = {"regular": REGULAR, "bold": BOLD, "italic": ITALIC, "bold-italic": BOLD_ITALIC, "display": DISPLAY}


class BadColour(ValueError):
    """A layout gave something that is not a colour; reported at the element that did."""


@dataclass(frozen=True)
class CardFace:
    """One face to print: a card (None for a reference or blank face), which side, its number."""

    card: Card | None
    back: bool
    index: int
    total: int
    layout: str
    set_id: str
    type_id: str


class CardShared:
    """What every document of one build shares: layouts, the text fitter and its cache, art."""

    def __init__(self, pack: Pack):
        self.pack = pack
        folders = [Path(pack.root) / "templates" / "cards", TEMPLATES / "cards"]
        self.layouts = LayoutSet([f for f in folders if f.is_dir()] or [TEMPLATES / "cards"], pack.documents)
        self.looked_up: set = set()  # card ids `name_of` read (pnp watch redraws a sheet naming a renamed card)

        def name_of(cid):
            self.looked_up.add(cid)
            return pack.cards[cid].name if cid in pack.cards else str(cid)
        self.layouts.env.filters["name_of"] = name_of
        names = [k.name for k in pack.spec.keywords.values() if k.kind in ("status", "action-type", "term")]
        self.fonts = self._pack_fonts(pack)  # style -> registered name of the pack's own TTF
        self.art = ArtLibrary(Path(pack.root), pack.spec.art_styles)
        self.custom_icons = pack_icons(pack, self.art)
        keep_outlines(drawn_icons(pack))  # read from the cache folder where a process made them before
        self.fitter = TextFitter(names, hyphenation_language(pack.spec.language), fonts=self.fonts,
                                 icons=known_icons() + sorted(self.custom_icons), kept=True)
        self.notes: set[str] = set()  # things changed on the way to print, told after the build
        self.ink: InkLog | None = None  # an InkLog (render/cards/ink.py) while the layout checks record the drawing
        self.base_context = {
            "pack": {"id": pack.spec.id, "name": pack.spec.name, "version": pack.spec.version,
                     "emblem": pack.spec.emblem, "back_pattern": pack.spec.back_pattern},
            "stats": {k: v for k, v in pack.spec.stats.items()},
            "keywords": {k: v for k, v in pack.spec.keywords.items()},
        }
        self.base_context.update(reference_card_context(pack))
        self.base_context.update(words_for(pack.translation))  # _('Hero'), pgettext('piece_type', ...)
        self._set_type: dict = {}  # (set, type) -> their values in a face's context

    @classmethod
    def of(cls, pack: Pack) -> CardShared:
        """The CardShared prepare_cards made for this pack, in this process or the one that forked
        it (its layouts resolved and compiled: a kit's cards worker starts with them), the first
        time it is asked for; else a new one."""
        made = _prepared.pop(id(pack), None)
        return made[1] if made is not None and made[0] is pack else cls(pack)

    @staticmethod
    def _pack_fonts(pack: Pack) -> dict:
        if not getattr(pack.spec, "fonts", None):
            return {}
        return register_pack_fonts(pack_font_paths(pack.spec, Path(pack.root)))

    def layout_for(self, type_id: str) -> Layout:
        name = type_id if self.layouts.path_of(type_id) else "base"
        return self.layouts.get(name)

    def back_layout(self, type_id: str | None = None) -> Layout:
        """The back of a card type: the layout `back-<type>` if the templates have one (a
        type with its own card size needs a back drawn to that size), else `back`."""
        if type_id and self.layouts.path_of(f"back-{type_id}"):
            return self.layouts.get(f"back-{type_id}")
        return self.layouts.get("back")

    def context(self, card: Card | None, set_id: str, type_id: str, index: int = 0, total: int = 0) -> FaceContext:
        ctx = FaceContext(self.base_context)
        # the set's and type's values, made once each: every face of a set sees the same dict
        # (templates cannot change it: the sandbox is immutable)
        values = self._set_type.get((set_id, type_id))
        if values is None:
            spec = self.pack.spec
            type_spec = spec.card_types.get(type_id)
            values = self._set_type[set_id, type_id] = (
                {"id": set_id, **spec.sets[set_id].model_dump()} if set_id in spec.sets else {"id": set_id},
                {"id": type_id, "name": type_spec.name if type_spec else type_id.title()})
        ctx["set"], ctx["type"] = values
        ctx["card"] = card
        ctx["index"] = index
        ctx["total"] = total
        return ctx


def drawn_icons(pack: Pack) -> list[str]:
    """The icons of the bundled set the cards draw: their art, and the pack's icons named after them."""
    names = [card.art.icon for card in pack.cards.values() if card.art is not None and card.art.icon]
    names += [icon.icon for icon in pack.spec.icons.values() if isinstance(icon, PackIcon)]
    return sorted(set(names))


def prepare_cards(pack: Pack) -> None:
    """Read now what each process drawing the pack's cards reads first, and keep it where a
    process forked later finds it: the outline text of its icons, the layouts' files (the pack's
    parsed documents), resolved and compiled, and the hyphenation dictionary of its language
    (unless its text fits are kept: TextFitter.read_hyphenation), in a
    CardShared the cards' part takes (CardShared.of). A whole kit's build does it in its parent while the
    first parts draw (kit.preload_drawing), so the cards' worker starts with them read; a layout
    that fails here fails again where the cards are drawn, which reports it."""
    shared = CardShared(pack)
    for type_id in sorted({card.type for card in pack.cards.values()} | {"reference"}):  # (kit.reference_faces)
        for layout in (shared.layout_for(type_id), shared.back_layout(type_id)):
            layout.compile_all(RENDERED, EVALUATED)
    shared.fitter.read_hyphenation()
    _prepared.clear()  # one pack's at a time: the process that prepares never takes it (its forked worker does)
    _prepared[id(pack)] = (pack, shared)


# the fields of an element its kind renders as a template, and evaluates as an expression
# (cards/elements/*.py); prepare_cards compiles them all ahead
RENDERED = ("text", "fill", "stroke", "color", "keyword_color", "emblem", "name")
EVALUATED = ("when", "items", "hexes", "cells")
_prepared: dict = {}  # id(pack) -> (pack, the CardShared prepare_cards made for it, unused yet)


class CardPainter:
    """Draws faces onto one canvas; forms are per canvas, so one painter per document."""

    def __init__(self, canvas, shared: CardShared):
        self.canvas = canvas
        self.shared = shared
        # every form this canvas defines is noted: a face the checks record may place it later
        # (render/base/recording.py; on a plain ReportLab canvas the attribute does nothing)
        canvas.notes_forms = True
        self.icons = IconSheet(canvas, shared.custom_icons)
        self.forms: set = set()
        self.form_elements: dict = {}  # form name -> its elements' records, made as it was defined
        self.recording: list | None = None  # the face being recorded: [(element, drawn, Recorder)]
        self.width_mm, self.height_mm = shared.pack.card_size_mm()
        self.memos: dict = {}  # side (back?) -> (card, layout, set, type, what its templates gave)
        self._stamp: tuple | None = None  # the markers' operators with origin and label left out, and a text object to encode labels
        self._inside: dict = {}  # id(element) -> (element, card size) it was found inside (elements are frozen)

    # ---- public ---------------------------------------------------------------------
    def draw_face(self, face: CardFace, x: float, y: float, tick: bool = True) -> None:
        """Draw a face with its trim's bottom-left corner at (x, y) points; all its templates
        together run within one time budget."""
        run_within_budget(lambda: self._draw_face(face, x, y))
        if tick and not face.back:
            progress.tick()  # one card more of the part being made (core/progress.py)

    def _draw_face(self, face: CardFace, x: float, y: float) -> None:
        shared = self.shared
        card_mm = shared.pack.card_size_mm(face.type_id)
        self.width_mm, self.height_mm = card_mm
        layout = shared.back_layout(face.type_id) if face.back else shared.layouts.get(face.layout)
        ctx = shared.context(face.card, face.set_id, face.type_id, face.index, face.total)
        ctx.memo = self._memo(face)
        if not layout_fits(layout, card_mm):
            if face.card is not None:
                raise wrong_size(layout, face.type_id, card_mm, face.back, display_path(shared.pack.root))
            self._draw_scaled(face, layout, ctx, x, y, card_mm)  # the reference card: sized to the pack
        elif shared.ink is not None and shared.ink.wants(face):
            self.recording = []
            try:
                self._draw_layout(face, layout, ctx, x, y)
                shared.ink.drawn(face, layout, card_mm, self.recording)
            finally:
                self.recording = None
        else:
            self._draw_layout(face, layout, ctx, x, y)
        self._marker(face, x, y)

    def _memo(self, face: CardFace) -> dict | None:
        """What the templates gave the face last drawn on this side, if it was a copy of the
        same card (a kit's copies are drawn one after another; Layout.render)."""
        if face.card is None:
            return None
        last = self.memos.get(face.back)
        if last is None or last[0] is not face.card or last[1:4] != (face.layout, face.set_id, face.type_id):
            last = self.memos[face.back] = (face.card, face.layout, face.set_id, face.type_id, {})
        return last[4]

    def _draw_layout(self, face: CardFace, layout: Layout, ctx: dict, x: float, y: float, tag: str = "") -> None:
        if face.back:
            key = self.shared.pack.back_key(face.set_id, face.type_id, face.card)
            form = self._form("back-" + "-".join(key) + tag, layout.frame + layout.elements, layout, ctx)
            self._place_form(form, x, y)
            return
        if layout.frame:
            form = self._form(f"frame-{layout.name}-{face.set_id}{tag}", layout.frame, layout, ctx)
            self._place_form(form, x, y)
        if self.recording is not None:
            self.recording.extend(self._recorded(element, layout, ctx, x, y) for element in layout.elements)
            return
        for element in layout.elements:
            self._draw_element(element, layout, ctx, x, y)

    def _draw_scaled(self, face: CardFace, layout: Layout, ctx: dict, x: float, y: float, card_mm) -> None:
        """A card-less face (the reference card) whose layout is drawn for another size: scaled
        evenly to fit the pack's card and centred on the set colour, so it stays readable."""
        c = self.canvas
        assert layout.size is not None  # a layout without a size fits every card and is never scaled
        (lw, lh), (cw, ch) = layout.size, card_mm
        scale = min(cw / lw, ch / lh)
        b = MAX_BLEED_MM * mm
        c.saveState()
        c.setFillColor(self.color(str(ctx["set"].get("color") or "#ffffff")))
        c.rect(x - b, y - b, cw * mm + 2 * b, ch * mm + 2 * b, fill=1, stroke=0)
        c.translate(x + (cw - lw * scale) / 2 * mm, y + (ch - lh * scale) / 2 * mm)
        c.scale(scale, scale)
        self.width_mm, self.height_mm = lw, lh
        try:
            self._draw_layout(face, layout, ctx, 0.0, 0.0, tag=f"-{lw:g}x{lh:g}")
        finally:
            self.width_mm, self.height_mm = card_mm
            c.restoreState()

    # ---- forms ----------------------------------------------------------------------
    def _form(self, name: str, elements: list[Element], layout: Layout, ctx: dict) -> str:
        if name not in self.forms:
            c = self.canvas
            b = MAX_BLEED_MM * mm
            c.beginForm(name, -b, -b, self.width_mm * mm + b, self.height_mm * mm + b)
            if self.shared.ink is not None:  # the checks read each element of a frame or back from its form
                self.form_elements[name] = [self._recorded(element, layout, ctx, 0.0, 0.0, name) for element in elements]
            else:
                for element in elements:
                    self._draw_element(element, layout, ctx, 0.0, 0.0)
            c.endForm()
            self.forms.add(name)
        if self.recording is not None:  # None: the form was made before anything recorded (not this side's)
            self.recording.extend(self.form_elements.get(name, [None]))
        return name

    def _recorded(self, e: Element, layout: Layout, ctx: dict, ox: float, oy: float, form: str | None = None) -> tuple:
        """Draw an element while recording what it paints, in points from the card's trim corner
        (`form`: the form it is drawn into, placed on every face that uses it)."""
        canvas = self.canvas
        recorder = Recorder((1.0, 0.0, 0.0, 1.0, -ox, -oy))
        recorder.form_name = form
        canvas.record(recorder)
        try:
            drawn = self._draw_element(e, layout, ctx, ox, oy)
        finally:
            canvas.stop_recording()
        return (e, drawn, recorder)

    def _place_form(self, name: str, x: float, y: float) -> None:
        place_form(self.canvas, name, 1, 0, 0, 1, x, y)  # what translate(x, y) writes

    def _marker(self, face: CardFace, x: float, y: float) -> None:
        """Invisible text naming the card at its trim corner: lets tests and tools find
        which card sits where on a sheet without affecting print."""
        if face.card is None:
            label = f"pnp:{'back' if face.back else 'face'}:{face.layout}:{face.index}"
        else:
            label = f"pnp:{'back' if face.back else 'face'}:{face.card.id}:{face.index}"
        c = self.canvas
        recording = getattr(c, "ink", True) is not None  # (True: not a RecordingCanvas)
        stamp = self._stamp
        if stamp is not None and not recording:  # the operators of the first marker, its origin and label replaced
            stamp[1].setFont(REGULAR, 1)  # the label's encoding begins with the font's subset, as in a new object
            c.addLiteral(stamp[0] % (fp_str(x, y), stamp[1].encoded(label)))
            return
        t = c.beginText(x, y)
        t.setTextRenderMode(3)
        t.setFont(REGULAR, 1)
        t.textOut(label)
        t.setTextRenderMode(0)  # the render mode outlives the text object: restore it
        if recording or not hasattr(t, "encoded"):
            c.drawText(t)
            return
        code = t.getCode()
        c.addLiteral(code)  # what drawText writes for a text object that records nothing
        keeper = c.beginText()
        keeper.setFont(REGULAR, 1)
        origin, encoded = fp_str(x, y), keeper.encoded(label)
        template = left_out(code, f"BT 1 0 0 1 {origin} Tm", encoded)
        if template is not None:
            template = template.replace("%s", "BT 1 0 0 1 %s Tm", 1)
            if template % (origin, encoded) == code:
                self._stamp = (template, keeper)

    # ---- elements -------------------------------------------------------------------
    def draw_element(self, e: Element, layout: Layout, ctx: dict, ox: float, oy: float) -> None:
        """One element alone, its card's trim at (ox, oy) points: for measuring what it draws
        (render/cards/ink.py). Set `width_mm`, `height_mm` to the card's size first."""
        self._draw_element(e, layout, ctx, ox, oy)

    def _draw_element(self, e: Element, layout: Layout, ctx: dict, ox: float, oy: float) -> bool:
        """Draw one element (False: its `when` left it out). A layout may come from a stranger:
        any value it computes that cannot be drawn (a colour that is not one, stats that are not
        pairs, hexes that are not numbers) is an input error at the element, naming the card,
        never a traceback."""
        try:
            return self._draw_element_unchecked(e, layout, ctx, ox, oy)
        except InputError:
            raise
        except (ValueError, TypeError, KeyError, IndexError, AttributeError, ArithmeticError) as exc:
            card = ctx.get("card")
            named = f" for card `{card.id}` ({card.location})" if card is not None else ""
            bad_colour = isinstance(exc, BadColour)
            raise InputError([Problem(
                "layout.color" if bad_colour else "layout.element",
                f"layout `{layout.name}` element `{e.id or e.kind}`{named}: "
                + (str(exc) if bad_colour else f"cannot draw it ({type(exc).__name__}: {exc})"),
                layout.where(e), expected="#rrggbb" if bad_colour else f"values a `{e.kind}` element can draw",
                fix=f"check the layout file {layout.where(e).file}")]) from None

    def _draw_element_unchecked(self, e: Element, layout: Layout, ctx: dict, ox: float, oy: float) -> bool:
        if e.when is not None and not layout.evaluate(e.when, ctx, e):
            return False
        size = (self.width_mm, self.height_mm)
        inside = self._inside.get(id(e))
        if inside is None or inside[0] is not e or inside[1] != size:  # the same element on the same card: inside
            check_inside(e, layout, size, ctx["type"]["id"], ctx.get("card"))
            self._inside[id(e)] = (e, size)
        left = ox + e.x * mm
        top = oy + (self.height_mm - e.y) * mm
        ELEMENTS[e.kind](self, e, layout, ctx, left, top, e.w * mm, e.h * mm, ox, oy)
        return True

    def color(self, value: str) -> Color:
        """A layout's colour value, or BadColour (reported at the element)."""
        value = (value or "").strip()
        try:
            return hex_color(value)
        except (ValueError, TypeError):
            raise BadColour(f"`{value}` is not a colour") from None
