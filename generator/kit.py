"""What to print: the faces of a whole pack (with kit copies and the reference card) or of one
build, in print order. Which files they become is the output profiles' part
(export/profile_table.py and export/profiles/)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from generator.core.collector import in_command
from generator.core.errors import InputError, Problem
from generator.pack.buildshape import character_refs
from generator.pack.cardlist import card_order
from generator.render.base.fonts import display_font, register_fonts
from generator.render.cards.faces import CardFace, prepare_cards
from generator.render.rulebook.templating import reference_card_has_lines

if TYPE_CHECKING:
    from generator.pack.model import Build, Card, Pack
    from generator.render.cards.faces import CardShared


def _face(card: Card, index: int, total: int, shared: CardShared) -> CardFace:
    layout = shared.layout_for(card.type).name
    return CardFace(card, False, index, total, layout, card.set, card.type)


def pack_faces(pack: Pack, shared: CardShared, copies: bool = True, reference: bool = True) -> list[CardFace]:
    """Every card of the kit with its kit copies, then the reference card (one per side)
    when the templates have a `reference` layout and the pack has something to put on it."""
    cards = card_order(pack)
    total = len(cards)
    faces = []
    for i, card in enumerate(cards, 1):
        for _ in range(card.copies if copies else 1):
            faces.append(_face(card, i, total, shared))
    if reference and wants_reference_card(pack) and shared.layouts.path_of("reference"):
        faces.extend(reference_faces(pack, len(pack.spec.sides) if copies else 1))
    return faces


def preload_drawing(pack: Pack) -> None:
    """Load what each process that draws the kit's cards or pieces loads once for itself: the
    fonts (built-in and the pack's display face) and the outline text of the icons its cards draw
    (faces.prepare_cards), which the pieces' art shares. A whole kit's build calls it in the
    parent while its first parts draw, so the workers it forks later for the others find them
    loaded, instead of each reading them again (build.py: _parallel_parts). The game-icons outlines
    (10 ms) are read only where that text is not in the cache folder yet (iconart.keep_outlines):
    on a later run no process of Boss Fight's kit reads them. What it reads lasts as long as the
    processes: in the pnp command, made without the collector and frozen (core/collector.py)."""
    with in_command():
        register_fonts()
        display_font(pack)
        prepare_cards(pack)


def wants_reference_card(pack: Pack) -> bool:
    """game.yaml asks for the reference card (`reference: card:`, on by default) and it has lines."""
    return pack.spec.reference.card and reference_card_has_lines(pack)


def reference_faces(pack: Pack, count: int = 1) -> list[CardFace]:
    """The quick-reference card; its back is that of the set every side may use."""
    sets = pack.spec.sets
    set_id = next((s for s, spec in sets.items() if spec.side == "any"), next(iter(sets)))
    return [CardFace(None, False, 0, 0, "reference", set_id, "reference") for _ in range(max(1, count))]


# The most cards one print of one build may make (the builder's roster, cards and pieces PDFs
# refuse more): the largest preset makes 130, a full party of five about 170; a build of 999
# copies of everything would make over 100,000, minutes of one server's CPU.
MAX_PRINT_CARDS = 1000


def build_refs(build: Build) -> list[tuple]:
    """(card reference, copies) of every card a build needs on the table, in table order:
    per character its base cards and their equipment, equipment, abilities, the deck."""
    return [(ref, copies) for character in build.characters for _, ref, copies in character_refs(character)]


def build_card_count(build: Build) -> int:
    """How many cards printing the build makes (what `build_faces` gives), without drawing."""
    return sum(count for _, count in build_refs(build))


def build_faces(pack: Pack, build: Build, shared: CardShared) -> list[CardFace]:
    """Every card a build needs on the table: base cards, equipment, abilities and the deck with copies."""
    numbers = {c.id: i for i, c in enumerate(card_order(pack), 1)}
    total = len(numbers)
    faces: list[CardFace] = []
    for ref, count in build_refs(build):
        card = pack.cards.get(ref.id)
        if card is None:
            raise InputError([Problem("card.unknown", f"no card with the id `{ref.id}`", ref.location,
                                      fix="run `pnp validate` on the build first")])
        faces.extend(_face(card, numbers[card.id], total, shared) for _ in range(count))
    return faces


OUTPUT_ROOT = Path("output")  # a kit goes to output/<pack id> unless -o names a folder


def output_dir(pack: Pack, out: Path | None) -> Path:
    if out:
        return Path(out)
    # a kit in another language than the pack's own goes beside it: output/boss_fight-de
    return OUTPUT_ROOT / (pack.spec.id + (f"-{pack.spec.language}" if pack.translation is not None else ""))
