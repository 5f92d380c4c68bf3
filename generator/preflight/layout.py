"""Layout-level preflight: what a card's layout puts where, checked before anything is drawn.

These checks know each card and each layout element by name, so every finding says which
card and which element: text, icons and statistics inside the safe zone (3 mm inside the
trim), a face with nothing reaching the bleed edge, and raster art that would print below
300 dpi at the size it is placed. `pnp build` prints them as warnings on every build.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from generator.kit import build_faces, pack_faces
from generator.render.cards.faces import CardShared

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

    def as_dict(self) -> dict:
        return {k: v for k, v in asdict(self).items() if v is not None}

    def line(self) -> str:
        where = f"card `{self.card}`" + (f" element `{self.element}`" if self.element else "")
        page = f" (page {self.page})" if self.page else ""
        return f"{self.severity} {self.rule}: {where}{page}: {self.message}"


def _element_rect(e, size_mm: float | None = None) -> tuple[float, float, float, float]:
    if e.kind == "icon":
        return (e.x, e.y, e.size, e.size)
    return (e.x, e.y, e.w, e.h)


def _faces_to_check(pack, shared, build=None):
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


def layout_findings(pack, build=None, shared=None, safe_mm: float = SAFE_MM) -> list[Finding]:
    shared = shared or CardShared(pack)
    findings: list[Finding] = []
    try:
        _check_faces(pack, build, shared, safe_mm, findings)
    except _TemplateFailed:
        pass
    return findings


def _check_faces(pack, build, shared, safe_mm: float, findings: list[Finding]) -> None:
    backs_done = set()
    for face in _faces_to_check(pack, shared, build):
        name = face.card.id if face.card else face.layout
        width, height = pack.card_size_mm(face.type_id)
        ctx = shared.context(face.card, face.set_id, face.type_id, face.index, face.total)
        layout = shared.layouts.get(face.layout)
        findings += _check_layout(layout, layout.frame + layout.elements, ctx, name, width, height, safe_mm, shared,
                                  face.card)
        back_key = pack.back_key(face.set_id, face.type_id, face.card)
        if back_key not in backs_done:
            backs_done.add(back_key)
            back = shared.back_layout(face.type_id)
            findings += _check_layout(back, back.frame + back.elements, ctx, "back-" + "-".join(back_key),
                                      width, height, safe_mm, shared, face.card if len(back_key) > 2 else None)


def _check_layout(layout, elements, ctx, name, width, height, safe_mm, shared, card) -> list[Finding]:
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
        if e.kind in _PLACED:
            try:
                if e.kind == "text" and not layout.render(e.text or "", ctx, e).strip():
                    continue
                if e.kind == "icon" and not layout.render(e.name or "hex", ctx, e).strip():
                    continue
            except Exception:  # the renderer reports a broken template, with its own message
                raise _TemplateFailed from None
            x, y, w, h = _element_rect(e)
            gaps = {"left": x, "top": y, "right": width - (x + w), "bottom": height - (y + h)}
            close = {side: gap for side, gap in gaps.items() if gap < safe_mm - 1e-6}
            if close:
                side, gap = min(close.items(), key=lambda kv: kv[1])
                out.append(Finding("layout.safe-zone", "warning", name,
                                   f"{e.kind} reaches {gap:.2f} mm from the {side} trim edge; keep it {safe_mm:g} mm "
                                   f"inside the trim, where the cut cannot touch it", element=e.id or e.kind))
        if e.kind == "image" and card is not None and getattr(card, "art", None):
            dpi = _art_dpi(shared, card, e)
            if dpi is not None and dpi < MIN_DPI:
                out.append(Finding("art.low-dpi", "error" if dpi < REJECT_DPI else "warning", name,
                                   f"the art `{card.art}` prints at {dpi:.0f} dpi at its placed size "
                                   f"({e.w:g} x {e.h:g} mm); print services want {MIN_DPI} dpi", element=e.id or "image"))
    if not reaches_bleed:
        out.append(Finding("layout.bleed", "warning", name,
                           "nothing on this face reaches the bleed edge: a cut a little off the line shows a white edge; "
                           "give a background box `bleed: true`", element=None))
    return out


def _art_dpi(shared, card, e) -> float | None:
    try:
        kind, _obj, iw, ih = shared.art.load(card.art, card)
    except Exception:
        return None
    if kind != "raster" or iw <= 0 or ih <= 0:
        return None
    # `cover` scales the image to fill the box, `contain` to fit it: pixels per mm follow
    mm_per_px = max(e.w / iw, e.h / ih) if e.fit == "cover" else min(e.w / iw, e.h / ih)
    return 25.4 / mm_per_px if mm_per_px > 0 else None


def grouped_lines(findings: list[Finding], prefix: str = "") -> list[str]:
    """One line per rule, element and message, naming the cards it concerns (a layout
    problem repeats on every card of that type: say it once)."""
    groups: dict = {}
    for f in findings:
        groups.setdefault((f.severity, f.rule, f.element, f.message), []).append(f.card)
    lines = []
    for (severity, rule, element, message), cards in groups.items():
        shown = ", ".join(f"`{c}`" for c in cards[:4]) + (f" and {len(cards) - 4} more" if len(cards) > 4 else "")
        what = f"card {shown}" if len(cards) == 1 else f"cards {shown}"
        lines.append(f"{prefix}{severity} {rule}: {what}" + (f" element `{element}`" if element else "") + f": {message}")
    return lines


def layout_warning_lines(pack, build=None, shared=None):
    """For `pnp build`: the layout findings as warnings, grouped."""
    for line in grouped_lines(layout_findings(pack, build, shared)):
        yield "warning: " + line.split(" ", 1)[1] if line.startswith(("warning ", "error ")) else line
