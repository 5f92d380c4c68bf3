"""Layout-level preflight: what a card's layout puts where, checked before anything is drawn.

These checks know each card and each layout element by name, so every finding says which
card and which element: text, icons and statistics inside the safe zone (3 mm inside the
trim, measured on what each element draws, a text by its word box: render/cards/ink.py,
core/safezone.py, the same measure as `pnp preflight`'s pdf.safe-zone), text that cannot be
read against the flat colour under it (WCAG contrast ratio), a face with nothing reaching
the bleed edge, and raster art that would print below 300 dpi at the size it is placed.
`pnp build` and `pnp validate` judge them alike (an error stops both: render_check.judged),
`pnp preflight` reports them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from generator.core.safezone import SAFE_MM, nearest_trim, too_close
from generator.kit import build_faces, pack_faces
from generator.render.base.colors import BAD_CONTRAST, MIN_CONTRAST, contrast_ratio
from generator.core.typesize import UNREADABLE_PT, floor_pt
from generator.render.cards.faces import CardFace, CardShared
from generator.render.cards.ink import FaceInk, InkLog, Paint, draw_sides, keep_inks, recordable, side_key

MIN_DPI, REJECT_DPI = 300, 150
_PLACED = ("text", "icon", "stats", "hexshape", "squares")


@dataclass(frozen=True)
class Finding:
    rule: str
    severity: str        # "error": a service would reject it or it prints badly; "warning": worth a look;
    #                      "note": a check that could not run here, and why
    card: str            # card id, or the layout name for cards without data (backs, reference)
    message: str
    element: str | None = None
    page: int | None = None
    file: str | None = None
    location: object = field(default=None, compare=False)  # the layout element's Location, when known

    def as_dict(self) -> dict:
        return {k: v for k, v in asdict(self).items() if v is not None and k != "location"}

    def line(self) -> str:
        where = f"card `{self.card}`" + (f" element `{self.element}`" if self.element else "")
        page = f" (page {self.page})" if self.page else ""
        return f"{self.severity} {self.rule}: {where}{page}: {self.message}"


def _faces_to_check(pack, shared, build=None, faces=None):
    """Each distinct face once: of `faces` when given (the build's own, made once), else made here."""
    if faces is None:
        faces = build_faces(pack, build, shared) if build else pack_faces(pack, shared)
    seen, out = set(), []
    for f in faces:
        key = (f.card.id if f.card else f.layout, f.type_id)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


def _sides(pack, shared, build=None, faces=None) -> list:
    """(name, face, card) of each distinct face, then its set's and type's back once."""
    sides = []
    backs_done = set()
    for face in _faces_to_check(pack, shared, build, faces):
        sides.append((face.card.id if face.card else face.layout, face, face.card))
        back_key = pack.back_key(face.set_id, face.type_id, face.card)
        if back_key not in backs_done:
            backs_done.add(back_key)
            back = CardFace(face.card, True, face.index, face.total, face.layout, face.set_id, face.type_id)
            # a type whose cards each have their own back (backs: each) is checked with that card
            sides.append(("back-" + "-".join(back_key), back, face.card if len(back_key) > 2 else None))
    return sides


class _TemplateFailed(Exception):
    """A layout's template failed: the drawing will report it; checking stops at once, so a
    template that runs too long costs its time budget once, not once per card."""


class LayoutChecks:
    """The layout checks of a build's faces, made from the drawing itself: while attached to
    the build's CardShared, the card painter records the first drawing of each distinct side
    (render/cards/ink.py) and each is checked as soon as it is drawn; `findings()` draws on a
    scratch page only the sides the outputs did not draw (backs when printing single-sided),
    and gives the findings in the order of the faces."""

    def __init__(self, pack, shared, build=None, faces=None, safe_mm: float = SAFE_MM):
        self.pack, self.shared, self.safe_mm = pack, shared, safe_mm
        self.build, self.faces = build, faces
        self.found: dict = {}  # side key -> its findings
        self._previous = shared.ink
        shared.ink = InkLog(shared, self._checked)

    def _checked(self, face: CardFace, ink: FaceInk) -> None:
        key = side_key(self.shared, face)
        if face.back:
            back_key = key[1]
            name, card = "back-" + "-".join(back_key), face.card if len(back_key) > 2 else None
        else:
            name, card = (face.card.id if face.card else face.layout), face.card
        width, height = self.pack.card_size_mm(face.type_id)
        found = _check_layout(ink.layout, [(e.element, e.drawn) for e in ink.elements], name, self.shared, card)
        self.found[key] = found + _check_ink(ink, name, width, height, self.safe_mm)

    def findings(self, faces=None) -> list[Finding]:
        """The findings of every side of the faces (those given here, else at the start); stops
        listening to the drawing."""
        out: list[Finding] = []
        try:
            sides = _sides(self.pack, self.shared, self.build, self.faces if faces is None else faces)
            missing = [face for _n, face, _c in sides
                       if side_key(self.shared, face) not in self.found and recordable(self.shared, face)]
            if missing:
                draw_sides(self.shared, missing)  # drawn here once, checked as they are drawn
            for name, face, card in sides:
                key = side_key(self.shared, face)
                if key not in self.found:  # drawn scaled (the reference card) or failing: the layout alone
                    layout = self.shared.back_layout(face.type_id) if face.back else self.shared.layouts.get(face.layout)
                    ctx = self.shared.context(face.card, face.set_id, face.type_id, face.index, face.total)
                    self.found[key] = _check_layout(layout, _when(layout, ctx), name, self.shared, card)
                out += self.found[key]
        except _TemplateFailed:
            pass  # the drawing reports the template; the sides before it keep their findings
        finally:
            self.stop()
        # every face is drawn now: its texts' fits are kept for the next process (render/base/text.py)
        self.shared.fitter.keep_fits()
        keep_inks()  # and the inks of its strings (render/cards/ink.py)
        return out

    def stop(self) -> None:
        """Stop listening to the drawing."""
        self.shared.ink = self._previous


def layout_findings(pack, build=None, shared=None, safe_mm: float = SAFE_MM, faces=None) -> list[Finding]:
    """The layout findings of a pack's (or a build's) faces, each side drawn once here."""
    return LayoutChecks(pack, shared or CardShared(pack), build, faces, safe_mm).findings()


def _when(layout, ctx) -> list:
    """(element, drawn) of a layout's elements, each `when` evaluated here."""
    out = []
    for e in layout.frame + layout.elements:
        try:
            out.append((e, e.when is None or bool(layout.evaluate(e.when, ctx, e))))
        except Exception:  # a template that fails (or runs too long) is the renderer's to report
            raise _TemplateFailed from None
    return out


def _check_layout(layout, elements, name, shared, card) -> list[Finding]:
    """The bleed and the art's resolution, from the elements a side draws ((element, drawn))."""
    out = []
    reaches_bleed = False
    for e, drawn in elements:
        if not drawn:
            continue
        if e.kind == "box" and e.bleed and e.fill:
            reaches_bleed = True
        if e.kind == "image" and card is not None and card.art is not None and card.art.file:
            dpi = _art_dpi(shared, card, e)
            if dpi is not None and dpi < MIN_DPI:
                # a warning: a home printer prints it (blurred); a service's own file is refused
                # below REJECT_DPI by preflight's pdf.image-dpi, where the service looks
                out.append(Finding("art.low-dpi", "warning", name,
                                   f"the art `{card.art.file}` prints at {dpi:.0f} dpi at its placed size "
                                   f"({e.w:g} x {e.h:g} mm); print services want {MIN_DPI} dpi", element=e.id or "image"))
    if not reaches_bleed:
        out.append(Finding("layout.bleed", "warning", name,
                           "nothing on this face reaches the bleed edge: a cut a little off the line shows a white edge; "
                           "give a background box `bleed: true`", element=None))
    return out


def _check_ink(ink: FaceInk, name: str, width: float, height: float, safe_mm: float) -> list[Finding]:
    """The safe zone and the contrast of text, judged on what each element drew."""
    out = []
    paints: list = []  # everything painted so far, in drawing order: (box in points, colour)
    for drawn in ink.elements:
        kind = drawn.element.kind
        if kind in _PLACED and drawn.placed_pt is not None:
            side, gap = nearest_trim(drawn.mm_box(drawn.placed_pt), width, height)
            if too_close(gap, safe_mm):
                out.append(Finding("layout.safe-zone", "warning", name,
                                   f"{kind} is drawn {gap:.2f} mm from the {side} trim edge; keep it {safe_mm:g} mm "
                                   f"inside the trim, where the cut cannot touch it", element=drawn.name,
                                   location=ink.layout.where(drawn.element)))
        paints.extend(drawn.paints_pt)
        if not drawn.strings:
            continue
        out += _check_type_size(ink, drawn, name)
        worst: dict = {}  # (text colour, colour under it): the lowest ratio, once per element
        for color, under in _texts_on_paint(drawn, paints):
            if under is None:
                continue  # an image or a gradient: no flat colour to measure against
            ratio = contrast_ratio(color, under)
            if ratio < MIN_CONTRAST - 1e-9:
                worst.setdefault((_hex(color), _hex(under)), ratio)
        for (fg, bg), ratio in worst.items():
            out.append(Finding("text.contrast", "error" if ratio < BAD_CONTRAST else "warning", name,
                               f"text in {fg} on {bg} has a contrast of {ratio:.2f}:1; text needs at least "
                               f"{MIN_CONTRAST:g}:1 to be read (below {BAD_CONTRAST:g}:1 it is an error)",
                               element=drawn.name, location=ink.layout.where(drawn.element)))
    return out


def _texts_on_paint(drawn, paints: list) -> list:
    """(text colour, flat colour under it) of each run of text of an element, in order. Most
    text lies wholly on one paint, with nothing painted over any of it later: then every run
    lies on it, and each colour is judged once, without working out the runs."""
    x0, y0, x1, y1 = drawn.text_box_pt
    for i in range(len(paints) - 1, -1, -1):
        (px0, py0, px1, py1), color = paints[i]
        if px0 > x1 or px1 < x0 or py0 > y1 or py1 < y0:
            continue  # does not touch the text
        if px0 <= x0 and x1 <= px1 and py0 <= y0 and y1 <= py1:
            return [(c, color) for c in drawn.text_colors]
        break  # covers part of it: each run's own middle decides
    else:
        return [(c, (1.0, 1.0, 1.0)) for c in drawn.text_colors]  # on the paper
    in_mm = [Paint(drawn.mm_box(box), color) for box, color in paints]
    return [(run.color, _paint_under(in_mm, run.box)) for run in drawn.texts]


def _check_type_size(ink: FaceInk, drawn, name: str) -> list[Finding]:
    """The smallest text an element draws, against the floor of its role: rules text 6 pt, a
    label 5 pt (a warning below), anything below 4 pt an error."""
    role = drawn.element.role if drawn.element.kind == "text" else "label"
    floor = floor_pt(role)
    small = round(min(s.size for s in drawn.strings), 2)  # sizes as the text runs round them
    if small >= floor - 0.005:
        return []
    severity = "error" if small < UNREADABLE_PT - 0.005 else "warning"
    hint = "; a caption or tag may be marked `role: label` (5 pt)" if role == "rules" else ""
    return [Finding("type.min-size", severity, name,
                    f"{role} text prints at {small:g} pt, under the {floor:g} pt it needs to be read "
                    f"(below {UNREADABLE_PT:g} pt it is an error){hint}", element=drawn.name, location=ink.layout.where(drawn.element))]


def _paint_under(paints, box) -> tuple[float, float, float] | None:
    """The flat colour under the middle of a text run: the last paint covering it, paper
    white when nothing does, None when that paint is not flat."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    for paint in reversed(paints):
        x0, y0, x1, y1 = paint.box
        if x0 <= cx <= x1 and y0 <= cy <= y1:
            return paint.color
    return (1.0, 1.0, 1.0)


def _hex(rgb) -> str:
    return "#" + "".join(f"{round(v * 255):02x}" for v in rgb)


def _art_dpi(shared, card, e) -> float | None:
    try:
        kind, _obj, iw, ih = shared.art.load(card.art.file, card)
    except Exception:
        return None
    if kind != "raster" or iw <= 0 or ih <= 0:
        return None
    # `cover` scales the image to fill the box, `contain` to fit it: pixels per mm follow
    mm_per_px = max(e.w / iw, e.h / ih) if e.fit == "cover" else min(e.w / iw, e.h / ih)
    return 25.4 / mm_per_px if mm_per_px > 0 else None


def grouped(findings: list[Finding]) -> list[tuple[Finding, str]]:
    """One finding per rule, element and message, with the cards it concerns in words (a
    layout problem repeats on every card of that type: say it once)."""
    groups: dict = {}
    for f in findings:
        groups.setdefault((f.severity, f.rule, f.element, f.message), []).append(f)
    out = []
    for same in groups.values():
        cards = [f.card for f in same]
        shown = ", ".join(f"`{c}`" for c in cards[:4]) + (f" and {len(cards) - 4} more" if len(cards) > 4 else "")
        what = f"card {shown}" if len(cards) == 1 else f"cards {shown}"
        out.append((same[0], what + (f" element `{same[0].element}`" if same[0].element else "")))
    return out


def grouped_lines(findings: list[Finding], prefix: str = "") -> list[str]:
    return [f"{prefix}{f.severity} {f.rule}: {what}: {f.message}" for f, what in grouped(findings)]


def contrast_findings(low, file: str = "maps.pdf") -> list[Finding]:
    """Findings for the (page, TextOnPaint) a drawn document's read-back found below MIN_CONTRAST."""
    out = []
    for page, t in low:
        out.append(Finding("text.contrast", "error" if t.ratio < BAD_CONTRAST else "warning", file,
                           f"text in {_hex(t.color)} on {_hex(t.under)} has a contrast of {t.ratio:.2f}:1; text "
                           f"needs at least {MIN_CONTRAST:g}:1 to be read (below {BAD_CONTRAST:g}:1 it is an error)",
                           element=f"text “{t.text[:30]}”", page=page, file=file))
    return out
