"""Layout-level preflight: what a card's layout puts where, checked before anything is drawn.

These checks know each card and each layout element by name, so every finding says which
card and which element: text, icons and statistics inside the safe zone (3 mm inside the
trim, measured on the ink each element draws: render/cards/ink.py), text that cannot be
read against the flat colour under it (WCAG contrast ratio), a face with nothing reaching
the bleed edge, and raster art that would print below 300 dpi at the size it is placed.
`pnp build` and `pnp validate` judge them alike (an error stops both: render_check.judged),
`pnp preflight` reports them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import tempfile
from pathlib import Path

from generator.core.papers import DEFAULT_PAPER
from generator.kit import build_faces, pack_faces
from generator.render.base.colors import BAD_CONTRAST, MIN_CONTRAST, contrast_ratio
from generator.render.cards.faces import CardFace, CardShared
from generator.render.cards.ink import FaceInk, face_ink
from generator.render.maps.document import build_maps_pdf

SAFE_MM = 3.0            # PRINT-SPECS.md: keep text 3 mm (1/8 in) inside the trim
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


class _TemplateFailed(Exception):
    """A layout's template failed: the drawing will report it; checking stops at once, so a
    template that runs too long costs its time budget once, not once per card."""


def layout_findings(pack, build=None, shared=None, safe_mm: float = SAFE_MM, faces=None) -> list[Finding]:
    shared = shared or CardShared(pack)
    findings: list[Finding] = []
    try:
        _check_faces(pack, build, shared, safe_mm, findings, faces)
    except _TemplateFailed:
        pass
    return findings


def _check_faces(pack, build, shared, safe_mm: float, findings: list[Finding], faces=None) -> None:
    sides = []  # (name, face, card, context): each distinct face, then its set's and type's back once
    backs_done = set()
    for face in _faces_to_check(pack, shared, build, faces):
        ctx = shared.context(face.card, face.set_id, face.type_id, face.index, face.total)
        sides.append((face.card.id if face.card else face.layout, face, face.card, ctx))
        back_key = pack.back_key(face.set_id, face.type_id, face.card)
        if back_key not in backs_done:
            backs_done.add(back_key)
            back = CardFace(face.card, True, face.index, face.total, face.layout, face.set_id, face.type_id)
            # a type whose cards each have their own back (backs: each) is checked with that card
            sides.append(("back-" + "-".join(back_key), back, face.card if len(back_key) > 2 else None, ctx))
    if not sides:  # a pack with no cards (its rules alone): nothing drawn, nothing to judge
        return
    inks = face_ink(shared, [face for _n, face, _c, _x in sides])
    for (name, face, card, ctx), ink in zip(sides, inks):
        width, height = pack.card_size_mm(face.type_id)
        layout = shared.back_layout(face.type_id) if face.back else shared.layouts.get(face.layout)
        findings += _check_layout(layout, layout.frame + layout.elements, ctx, name, shared, card)
        if ink is not None:
            findings += _check_ink(ink, name, width, height, safe_mm)


def _check_layout(layout, elements, ctx, name, shared, card) -> list[Finding]:
    out = []
    reaches_bleed = False
    for e in elements:
        try:
            if e.when is not None and not layout.evaluate(e.when, ctx, e):
                continue
        except Exception:  # a template that fails (or runs too long) is the renderer's to report
            raise _TemplateFailed from None
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
    paints = []  # everything painted so far, in drawing order
    for drawn in ink.elements:
        kind = drawn.element.kind
        if kind in _PLACED and drawn.bounds is not None:
            x0, y0, x1, y1 = drawn.bounds
            gaps = {"left": x0, "top": y0, "right": width - x1, "bottom": height - y1}
            close = {side: gap for side, gap in gaps.items() if gap < safe_mm - 1e-6}
            if close:
                side, gap = min(close.items(), key=lambda kv: kv[1])
                out.append(Finding("layout.safe-zone", "warning", name,
                                   f"{kind} is drawn {gap:.2f} mm from the {side} trim edge; keep it {safe_mm:g} mm "
                                   f"inside the trim, where the cut cannot touch it", element=drawn.name,
                                   location=ink.layout.where(drawn.element)))
        paints.extend(drawn.paints)
        worst: dict = {}  # (text colour, colour under it): the lowest ratio, once per element
        for run in drawn.texts:
            under = _paint_under(paints, run.box)
            if under is None:
                continue  # an image or a gradient: no flat colour to measure against
            ratio = contrast_ratio(run.color, under)
            if ratio < MIN_CONTRAST - 1e-9:
                worst.setdefault((_hex(run.color), _hex(under)), (ratio, run.text))
        for (fg, bg), (ratio, _text) in worst.items():
            out.append(Finding("text.contrast", "error" if ratio < BAD_CONTRAST else "warning", name,
                               f"text in {fg} on {bg} has a contrast of {ratio:.2f}:1; text needs at least "
                               f"{MIN_CONTRAST:g}:1 to be read (below {BAD_CONTRAST:g}:1 it is an error)",
                               element=drawn.name, location=ink.layout.where(drawn.element)))
    return out


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


def map_findings(pack, paper: str = DEFAULT_PAPER) -> list[Finding]:
    """The contrast of every text on the pack's map pages, drawn into a scratch folder."""
    if not pack.map_files:
        return []
    low: list = []
    with tempfile.TemporaryDirectory(prefix="pnp-maps-") as d:
        build_maps_pdf(pack, Path(d) / "maps.pdf", paper=paper, low_contrast=low)
    return contrast_findings(low)
