"""The checks a card's text passes before it is fitted: invisible characters removed (with
a note), markup balanced, and every character in the font it is set in."""

from __future__ import annotations

from generator.core.errors import InputError, Problem
from generator.core.extras import install_line
from generator.render.base.scripts import missing_glyphs, rtl_missing, strip_invisible, unmatched_markup


def checked_text(shared, e, layout, ctx, text: str) -> str:
    card = ctx.get("card")
    name = f"card `{card.id}` ({card.name})" if card is not None else f"layout `{layout.name}`"
    text, removed = strip_invisible(text)
    if removed:
        shared.notes.add(f"note: {name}: removed {', '.join(removed)} from the `{e.id or 'text'}` text "
                         "(invisible characters that print as empty boxes or reorder text)")
    where_card = card.location if card is not None else layout.where(e)
    lacking = rtl_missing(text)
    if lacking:
        from_layout = card is None or not any(rtl_missing(str(v)) for v in (card.text, card.flavour, card.name))
        raise InputError([Problem(
            "card.rtl", f"{name}: the `{e.id or 'text'}` text reads right to left, and putting it in print order "
            f"needs {lacking}, which this install does not have", layout.where(e) if from_layout else where_card,
            found=text[:60], expected="the `rtl` extra installed",
            fix=f"add the `rtl` extra: {install_line('rtl')}")])
    problem = unmatched_markup(shared.fitter.styler, text)
    if problem:
        from_layout = card is None or "*" not in "".join(str(v) for v in (card.text, card.flavour, card.name))
        raise InputError([Problem(
            "card.markup", f"{name}: {problem} in the `{e.id or 'text'}` text; it would set the rest in "
            "bold or italic", layout.where(e) if from_layout else where_card, found=text[:60],
            expected="`**bold**` and `*italic*` in pairs", fix="close it, or write `\\*` for a literal asterisk")])
    missing = missing_glyphs(shared.fitter, text, e.font)
    if missing:
        chars = sorted({ch for v in missing.values() for ch in v})
        shown = ", ".join(f"{ch} (U+{ord(ch):04X})" for ch in chars[:6]) + (" …" if len(chars) > 6 else "")
        styles = " and ".join(f"`{s}`" for s in missing)
        own = bool(shared.fonts)
        from_layout = card is None or all(ch in (e.text or "") for ch in chars)  # written in the layout
        raise InputError([Problem(
            "card.glyph", f"{name}: the {styles} font has no glyph for {shown} in the `{e.id or 'text'}` text, "
            "so it would print as empty boxes", layout.where(e) if from_layout else where_card,
            found="".join(chars[:20]),
            expected="characters the pack's fonts can print" if own else "characters the built-in font can "
            "print (Latin, Greek and Cyrillic letters, common punctuation)",
            fix=f"replace those characters (a symbol can often be an :icon:), or give game.yaml `fonts:` a "
                f"{styles} TrueType font that has them")])
    return text
