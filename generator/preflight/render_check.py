"""What `pnp build` would fail on, found by `pnp validate` without writing a file: every card
face and back is drawn into memory (layouts, sizes, text that does not fit, glyphs, markup),
the rulebook is laid out into memory (chapter templates, blocks too big for a page), and a
pack that would print nothing is refused. Warnings: `:icons:` no icon has, and layouts for
card types the pack does not have."""

from __future__ import annotations

import io

from generator.core.papers import DEFAULT_PAPER
from generator.core.errors import InputError, Location, Problem
from generator.core.report import Violation
from generator.kit import pack_faces
from generator.pack.model import Pack
from generator.preflight.layout import Finding, LayoutChecks, contrast_findings
from generator.preflight.verdict import judged
from generator.render.base.pdfout import new_canvas
from generator.render.cards.audit import stray_layouts
from generator.render.cards.faces import CardFace, CardPainter, CardShared
from generator.render.maps.document import maps_text_on_paint
from generator.render.rulebook.book import Geometry, pack_book, rulebook_story
from generator.render.rulebook.errors import check_story
from generator.render.rulebook.kept import keep_all


def render_problems(pack: Pack) -> tuple[list[Problem], list[Violation]]:
    """(errors build would stop on, warnings) for a whole pack."""
    problems: list[Problem] = []
    warnings: list[Violation] = []
    try:
        shared = CardShared(pack)
    except InputError as exc:
        return exc.problems, warnings
    faces = pack_faces(pack, shared, copies=False)
    if (not any(f.card is not None for f in faces) and not pack.map_files and not pack.rule_files
            and pack.spec.pieces is None):  # as build.check_not_empty: play pieces print too
        problems.append(Problem("build.empty", f"{pack.spec.name} has no cards, maps, rules chapters or pieces: "
                                "`pnp build` would print nothing", Location(pack.game_file),
                                expected="cards in cards/*.yaml, maps in maps/, chapters in rules/ or `pieces:`",
                                fix="add a card to cards/ (see docs/formats.md)"))
    checks = LayoutChecks(pack, shared, faces=faces)  # the drawing below is what they read
    canvas = new_canvas(io.BytesIO(), (600, 600), "check")
    canvas.scratch = True  # never saved: what it draws is read by the checks alone
    painter = CardPainter(canvas, shared)
    seen_backs: set = set()
    for face in faces:
        sides = [face]
        back_key = pack.back_key(face.set_id, face.type_id, face.card)  # set and type, or the card
        if back_key not in seen_backs:
            seen_backs.add(back_key)
            sides.append(CardFace(face.card, True, face.index, face.total, face.layout, face.set_id, face.type_id))
        for side in sides:
            try:
                painter.draw_face(side, 0.0, 0.0)
            except InputError as exc:
                problems.extend(exc.problems)
    if problems:
        checks.stop()
    else:  # what the drawing put on paper: the safe zone, the contrast of text, bleed, art
        drawn = checks.findings()
        try:
            drawn += map_findings(pack)  # the text on the map pages, judged as they are drawn
        except InputError:
            pass  # a broken map: its own check reports it
        errors, found = judged(drawn, pack)
        problems.extend(errors)
        warnings.extend(found)
    warnings.extend(stray_layouts(pack))
    if pack.rule_files:
        try:
            problems.extend(rulebook_problems(pack))
        except InputError as exc:
            problems.extend(exc.problems)
    unique = {(p.code, str(p.location), p.message): p for p in problems}
    return list(unique.values()), warnings


def rulebook_problems(pack: Pack) -> list[Problem]:
    """Chapter templates rendered and every block measured against a column (fast: no full layout)."""
    geometry = Geometry.of(DEFAULT_PAPER)
    story, _counts = rulebook_story(pack, pack_book(pack), geometry)
    canvas = new_canvas(io.BytesIO(), (geometry.width, geometry.height), "check")
    height = geometry.height - geometry.margin_top - geometry.margin_bottom
    problems = check_story(story, canvas, geometry.column_width, height)
    keep_all()  # what it laid out and measured, for the next check or kit (render/rulebook/kept.py)
    return problems


def map_findings(pack, paper: str = DEFAULT_PAPER) -> list[Finding]:
    """The contrast of every text on the pack's map pages, judged as they are drawn into
    memory (no file written, none read back)."""
    if not pack.map_files:
        return []
    return contrast_findings(maps_text_on_paint(pack, paper).low)
