"""What `pnp build` would fail on, found by `pnp validate` without writing a file: every card
face and back is drawn into memory (layouts, sizes, text that does not fit, glyphs, markup),
the rulebook is laid out into memory (chapter templates, blocks too big for a page), and a
pack that would print nothing is refused. Warnings: `:icons:` no icon has, and layouts for
card types the pack does not have."""

from __future__ import annotations

import io
import re
from pathlib import Path

from generator.errors import InputError, Location, Problem, did_you_mean
from generator.kit import pack_faces
from generator.model import Pack
from generator.rules.report import Violation
from generator.yamlio import display_path

ICON_MARK = re.compile(r"(?<![\w\\]):([a-z0-9-]+):")
SPECIAL_LAYOUTS = {"base", "back", "reference"}


def render_problems(pack: Pack) -> tuple[list[Problem], list[Violation]]:
    """(errors build would stop on, warnings) for a whole pack."""
    from generator.render.cards import CardFace, CardPainter, CardShared
    from generator.render.pdfout import new_canvas
    problems: list[Problem] = []
    warnings: list[Violation] = []
    try:
        shared = CardShared(pack)
    except InputError as exc:
        return exc.problems, warnings
    faces = pack_faces(pack, shared, copies=False)
    if not any(f.card is not None for f in faces) and not pack.map_files and not pack.rule_files:
        problems.append(Problem("build.empty", f"{pack.spec.name} has no cards, maps or rules chapters: "
                                "`pnp build` would print nothing", Location(pack.game_file),
                                expected="cards in cards/*.yaml, maps in maps/ or chapters in rules/",
                                fix="add a card to cards/ (see docs/formats.md)"))
    canvas = new_canvas(io.BytesIO(), (600, 600), "check")
    painter = CardPainter(canvas, shared)
    seen_backs: set = set()
    for face in faces:
        sides = [face]
        if (face.set_id, face.type_id) not in seen_backs:  # a back is the same for its set and type
            seen_backs.add((face.set_id, face.type_id))
            sides.append(CardFace(face.card, True, face.index, face.total, face.layout, face.set_id, face.type_id))
        for side in sides:
            try:
                painter.draw_face(side, 0.0, 0.0)
            except InputError as exc:
                problems.extend(exc.problems)
    warnings.extend(unknown_icons(pack, shared))
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
    from generator.render.pdfout import new_canvas
    from generator.render.rulebook import Geometry, pack_book, rulebook_story
    from generator.render.rulebook_errors import check_story
    geometry = Geometry.of("a4")
    story, _counts = rulebook_story(pack, pack_book(pack), geometry)
    canvas = new_canvas(io.BytesIO(), (geometry.width, geometry.height), "check")
    height = geometry.height - geometry.margin_top - geometry.margin_bottom
    return check_story(story, canvas, geometry.column_width, height)


def unknown_icons(pack: Pack, shared) -> list[Violation]:
    """`:name:` in card text that names no icon prints as the plain text `:name:`."""
    icons = shared.fitter.styler.icons
    out = []
    for card in pack.cards.values():
        texts = [card.text, card.flavour] + [v for v in card.fields.values() if isinstance(v, str)]
        for name in sorted({m for t in texts if t for m in ICON_MARK.findall(t)} - icons):
            guess = did_you_mean(name, icons)
            out.append(Violation("card.icon", "warning", f"card `{card.id}` ({card.name}): `:{name}:` is no icon, "
                                 "so it prints as text", card.location, card.id, observed=f":{name}:",
                                 expected="a built-in icon or one of game.yaml `icons:`",
                                 fix=f"did you mean `:{guess}:`?" if guess else "see docs/layouts.md#icons"))
    return out


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
