"""The rulebook, the quick reference and the reference card, read back from the PDFs:
every chapter in the outline, the Card List with every card at its points, every preset
with its total, contents page numbers that match the bookmarks, byte-identical rebuilds,
and chapter Jinja errors that name the file and line."""

from __future__ import annotations

import re
import shutil

import pytest
from pypdf import PdfReader
from reportlab.lib.units import mm

from generator.core.errors import InputError
from generator.pack.load import load_build, load_pack
from generator.render.rulebook.book import build_rulebook_pdf
from generator.render.rulebook.templating import (chapter_source, environment, render_template,
                                                  template_context)
from generator.rules.engine import validate_build

from conftest import PACK_DIR, REPO


@pytest.fixture(scope="module")
def built(tmp_path_factory, pack):
    path = tmp_path_factory.mktemp("rulebook") / "rulebook.pdf"
    info = build_rulebook_pdf(pack, path)
    return path, info, PdfReader(path)


def outline(reader: PdfReader) -> list[tuple[int, str, int]]:
    """(level, title, 1-based page) of every bookmark, in order."""
    out = []

    def walk(items, level):
        for item in items:
            if isinstance(item, list):
                walk(item, level + 1)
            else:
                out.append((level, item.title, reader.get_destination_page_number(item) + 1))
    walk(reader.outline, 0)
    return out


def chapter_titles(pack) -> list[str]:
    """The `# ` title of every chapter, after Jinja (`Welcome to {{ game.name }}`)."""
    env, ctx = environment(), template_context(pack)
    titles = []
    for path in pack.rule_files:
        file, source = chapter_source(path)
        text = render_template(env, source, ctx, file)
        titles.append(re.search(r"^# (.+)$", text, re.M).group(1).strip())
    return titles


def section_text(reader: PdfReader, marks, title: str) -> str:
    """The text of the pages from the bookmark `title` up to the next top-level bookmark."""
    tops = [(t, p) for level, t, p in marks if level == 0]
    index = [t for t, _ in tops].index(title)
    first = tops[index][1]
    last = tops[index + 1][1] if index + 1 < len(tops) else len(reader.pages)
    return "\n".join(reader.pages[i].extract_text() for i in range(first - 1, last))


def test_outline_has_every_chapter_and_section(built, pack):
    _, info, reader = built
    marks = outline(reader)
    top = [t for level, t, _ in marks if level == 0]
    titles = chapter_titles(pack)
    assert len(titles) == len(pack.rule_files) == info["chapters"] == 15  # 15: the designer's notes (issue 14)
    for title in titles:
        assert title in top, f"chapter {title!r} missing from the outline"
    assert [t for t in top if t in titles] == titles  # in file order
    for reference in ("Card List", "Presets", "Map Catalogue", "Glossary", "Credits", "Status Effects and Action Types"):
        assert reference in top
    # every `## ` section of every chapter is bookmarked under its chapter
    env, ctx = environment(), template_context(pack)
    sections = set(t for level, t, _ in marks if level == 1)
    for path in pack.rule_files:
        file, source = chapter_source(path)
        text = render_template(env, source, ctx, file)
        for heading in re.findall(r"^## (.+)$", text, re.M):
            plain = re.sub(r"\s*:[a-z0-9-]+:\s*", " ", heading).replace("*", "").strip()
            assert plain in sections, f"{path.name}: section {plain!r} not bookmarked"
    pages = [p for _, _, p in marks]
    assert pages == sorted(pages)
    assert info["pages"] == len(reader.pages) > 20


def test_card_list_has_every_card_at_its_points(built, pack):
    _, _, reader = built
    text = section_text(reader, outline(reader), "Card List")
    flat = re.sub(r"\s+", " ", text)
    for card in pack.cards.values():
        found = re.findall(rf"(?<![\w'-]){re.escape(card.name)} (\d+)\b", flat)
        assert found, f"{card.id} ({card.name}) is not in the Card List"
        assert int(found[0]) == card.points, f"{card.name}: listed at {found[0]}, data says {card.points}"
    for set_id, set_spec in pack.spec.sets.items():
        n = len(pack.cards_of(set_id=set_id))
        assert f"{set_spec.name} ({n} cards)" in flat


def test_every_preset_appears_with_its_total(built, pack):
    _, info, reader = built
    text = re.sub(r"\s+", " ", section_text(reader, outline(reader), "Presets"))
    assert info["presets"] == len(pack.preset_files) == 10
    for path in pack.preset_files:
        build = load_build(path, pack)
        points = validate_build(pack, build).points
        pattern = rf"{re.escape(build.name)} .{{0,40}}?Total {points.total} of {points.limit} points"
        assert re.search(pattern, text), f"{build.name}: total {points.total} not shown"
        for character in build.characters:
            assert f"Deck ({sum(d.copies for d in character.deck)}):" in text


def test_numbers_in_chapters_come_from_the_pack(built, pack):
    _, _, reader = built
    text = re.sub(r"\s+", " ", section_text(reader, outline(reader), "Welcome to Boss Fight"))
    assert f"covers version {pack.spec.version}" in text
    assert f"Boss Set Boss Pieces {len(pack.cards_of('boss-piece'))}" in text
    footprint = re.sub(r"\s+", " ", section_text(reader, outline(reader), "Building a Boss"))
    # the union of the two diagrams (sharing hex 0,0), as the map checks compute it
    union = {tuple(h) for c in ("coal-ribcage", "barbed-tail") for h in pack.cards[c].size}
    assert f"covers {len(union)} hexes, not" in footprint.replace("- ", "")


def test_contents_page_numbers_match_bookmarks(built, pack):
    _, _, reader = built
    marks = outline(reader)
    contents = re.sub(r"[ .\n]+", " ", reader.pages[1].extract_text() + " " + reader.pages[2].extract_text())
    for level, title, page in marks:
        if level == 0 and title in chapter_titles(pack)[:6]:
            assert re.search(rf"{re.escape(title)} {page}\b", contents), (title, page)


def test_rulebook_is_byte_identical_across_builds(built, pack, tmp_path, monkeypatch):
    path, _, _ = built
    again = tmp_path / "again.pdf"
    build_rulebook_pdf(pack, again)
    assert again.read_bytes() == path.read_bytes()
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    dated = tmp_path / "dated.pdf"
    build_rulebook_pdf(pack, dated)
    assert b"D:20231114" in dated.read_bytes()
    assert not list(tmp_path.glob(".*.pdf*"))  # no temporary files left behind


def test_rulebook_is_measured_until_the_contents_settle_then_drawn_once(pack, tmp_path, monkeypatch):
    """The passes that only find the contents' page numbers lay the pages out without drawing
    them; the one drawn pass makes the same file as drawing every pass (multiBuild alone)."""
    from generator.render.rulebook import book, columns
    firsts = []
    multi_build = book.RulebookDoc.multiBuild

    def spy(doc, story, **kw):
        firsts.append(story[0])
        return multi_build(doc, story, **kw)

    monkeypatch.setattr(book.RulebookDoc, "multiBuild", spy)
    build_rulebook_pdf(pack, tmp_path / "measured.pdf")
    monkeypatch.setattr(columns, "MEASURED_PASSES", 0)  # every pass drawn
    build_rulebook_pdf(pack, tmp_path / "drawn.pdf")
    measured, drawn = firsts
    assert isinstance(measured, columns.MeasureFirst) and measured.settled
    # the contents' entries are known from the story before the first pass (book.expected_contents):
    # one measured pass finds their pages, one drawn pass prints them
    assert (measured.measured, measured.drawn) == (1, 1)
    assert (drawn.measured, drawn.drawn) == (0, 2)  # drawn twice: the pages found, then printed
    assert (tmp_path / "measured.pdf").read_bytes() == (tmp_path / "drawn.pdf").read_bytes()


def test_letter_paper(pack, tmp_path):
    path = tmp_path / "letter.pdf"
    info = build_rulebook_pdf(pack, path, paper="letter")
    page = PdfReader(path).pages[3]
    assert round(float(page.mediabox.width)) == 612 and round(float(page.mediabox.height)) == 792
    assert info["pages"] > 20


def test_unknown_card_in_a_chapter_names_file_and_line(tmp_path):
    root = tmp_path / "boss_fight"
    shutil.copytree(PACK_DIR, root)
    chapter = root / "rules" / "05-action-decks.md"
    lines = chapter.read_text(encoding="utf-8").splitlines()
    lines[2] = "The card {{ card('basic-atack').name }} is misspelt here."
    chapter.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as info:
        build_rulebook_pdf(load_pack(root), tmp_path / "out.pdf")
    problem = info.value.problems[0]
    assert problem.location.file.endswith("05-action-decks.md")
    assert problem.location.line == 3
    assert "basic-atack" in problem.message
    assert problem.fix and "basic-attack" in problem.fix
    assert not (tmp_path / "out.pdf").exists()


def test_broken_jinja_syntax_names_the_line(tmp_path):
    root = tmp_path / "boss_fight"
    shutil.copytree(PACK_DIR, root)
    chapter = root / "rules" / "02-setup-and-points.md"
    chapter.write_text("# Setup\n\nfine\n\n{% for x in %}\n", encoding="utf-8")
    with pytest.raises(InputError) as info:
        build_rulebook_pdf(load_pack(root), tmp_path / "out.pdf")
    assert info.value.problems[0].location.line == 5


def test_quick_reference_is_one_page_with_turn_status_and_combat(pack, tmp_path):
    from generator.render.rulebook.quickref import build_quick_reference_pdf
    path = tmp_path / "quick-reference.pdf"
    info = build_quick_reference_pdf(pack, path)
    reader = PdfReader(path)
    assert info["pages"] == len(reader.pages) == 1
    text = re.sub(r"\s+", " ", reader.pages[0].extract_text())
    for k in pack.spec.keywords.values():
        if k.kind in ("status", "action-type"):
            assert k.name in text
    for section in pack.spec.reference.turn + pack.spec.reference.combat:
        assert section.title in text
    for word in ("double", "higher", "equal", "half", "lower"):
        assert word in text
    again = tmp_path / "again.pdf"
    build_quick_reference_pdf(pack, again)
    assert again.read_bytes() == path.read_bytes()
    # the kit's worker gives it the rulebook's book (its fitter, layouts and icons): the same sheet
    from generator.render.rulebook.book import pack_book
    book = pack_book(pack)
    build_rulebook_pdf(pack, tmp_path / "rulebook.pdf", book=book)
    shared = tmp_path / "shared.pdf"
    assert build_quick_reference_pdf(pack, shared, book=book) == info
    assert shared.read_bytes() == path.read_bytes()


def test_quick_reference_takes_the_largest_size_that_fits_and_writes_that_one_alone(pack, tmp_path, monkeypatch):
    """The sizes tried stop at their second page and are never written; the size kept fits one
    page and the next larger one, drawn in full, does not."""
    from generator.render.base.pdfout import FlatCanvas
    from generator.render.rulebook import quickref
    saves: list = []
    save = FlatCanvas.save
    monkeypatch.setattr(FlatCanvas, "save", lambda canvas: (saves.append(canvas), save(canvas))[1])
    info = quickref.build_quick_reference_pdf(pack, tmp_path / "q.pdf")
    assert info["pages"] == 1 and len(saves) == 1
    assert info["size"] < quickref.SIZES[0]  # Boss Fight does not fit at the largest: sizes were tried
    monkeypatch.setattr(quickref, "SIZES", [info["size"] + 0.25])  # none fits: the last is drawn all the same
    assert quickref.build_quick_reference_pdf(pack, tmp_path / "larger.pdf")["pages"] > 1


@pytest.mark.parametrize("with_reference", [True, False])
def test_reference_card_layout_fits_a_poker_card(pack, tmp_path, with_reference):
    from generator.render.cards.faces import CardFace, CardPainter, CardShared
    from generator.render.base.pdfout import new_canvas
    from generator.render.rulebook.quickref import reference_card_context
    shared = CardShared(pack)
    if with_reference:
        shared.base_context.update(reference_card_context(pack))
    layout = shared.layouts.get("reference")
    for e in layout.elements + layout.frame:  # inside the trim, text inside the 3 mm safe zone
        if not e.bleed:
            assert e.x >= 2 and e.y >= 2 and e.x + e.w <= 63.5 - 2 and e.y + e.h <= 88.9 - 2, e.id
    back = shared.back_layout("reference")  # two-sided: the turn in front, combat and effects behind
    assert back.name == "back-reference"
    for e in back.elements + back.frame:
        if not e.bleed:
            assert e.x >= 2 and e.y >= 2 and e.x + e.w <= 63.5 - 2 and e.y + e.h <= 88.9 - 2, e.id
    path = tmp_path / "card.pdf"
    c = new_canvas(str(path), (70 * mm, 95 * mm), "reference card")
    painter = CardPainter(c, shared)
    for is_back in (False, True):
        painter.draw_face(CardFace(None, is_back, 0, 0, "reference", "neutral", "reference"), 3 * mm, 3 * mm)
        c.showPage()
    c.save()
    front, behind = (re.sub(r"\s+", " ", page.extract_text()) for page in PdfReader(path).pages)
    assert "Quick Reference" in front and "Move" in front
    assert "Combat and Effects" in behind and "Poisoned" in behind
    if with_reference:
        assert "The round" in front and "Defence roll" in behind


def test_a_paragraph_that_always_fits_is_never_refused_by_the_column_check():
    """errors.check_story leaves out what RichText.always_fits says fits a column whatever its text:
    that claim checked against the layout itself, short and long paragraphs at small and huge sizes;
    a heading (never split) is always laid out, and one taller than a column is refused."""
    from reportlab.pdfgen.canvas import Canvas

    from generator.render.rulebook.columns import Columns
    from generator.render.rulebook.errors import check_story
    from generator.render.rulebook.text import Book, BookStyle, Heading, RichText
    book = Book([], BookStyle())
    width, words = 240.0, "Each hero draws two cards and moves up to three hexes before attacking the boss. "
    kept = refused_by_layout = 0
    for size in (6.0, 9.2, 24.0, 60.0, 120.0):
        for n in (1, 3, 12, 80, 400):
            for height in (100.0, 720.0):
                paragraph = RichText(book, words * n, size)
                _, h = paragraph.wrap(width, height)
                refused = h > height + 0.01 and not paragraph.split(width, height)
                refused_by_layout += refused
                if paragraph.always_fits(width, height):
                    assert not refused, (size, n, height)
                    kept += 1
    assert kept > 20 and refused_by_layout > 0  # both kinds met
    long = RichText(book, words * 400, 9.2)
    tall = Heading(book, "A heading far too long " * 60, 13.0, level=1, key="k")
    assert not tall.always_fits(width, 720.0)
    story = [Columns([long, tall], 2, 20.0)]
    story[0]._pnp_file = "rules/01-long.md"
    problems = check_story(story, Canvas(None), width, 200.0)
    assert [p.code for p in problems] == ["rules.layout"] and "Heading" in problems[0].message
    assert long._layout is None  # never laid out: its verdict is known without it


def test_a_table_the_column_check_leaves_out_fits_its_column(pack):
    """errors.check_story leaves out a table whose rows, bounded by their words, fit a column
    (RichTable.always_fits): every table of the rulebook, its bound against its laid-out height at
    three heights; a table whose words do not all fit its columns is always laid out."""
    from generator.render.rulebook.book import Geometry, pack_book, rulebook_story
    from generator.render.rulebook.tables import RichTable, rich_table
    geometry = Geometry.of("a4")
    book = pack_book(pack)
    story, _ = rulebook_story(pack, book, geometry)
    tables: list = []

    def walk(flowables):
        for f in flowables:
            tables.extend([f] if isinstance(f, RichTable) else [])
            walk(getattr(f, "content", None) or [])

    walk(story)
    kept = 0
    for table in tables:
        width = sum(table._argW)
        for height in (geometry.height - geometry.margin_top - geometry.margin_bottom, 200.0, 60.0):
            fits = table.always_fits(width, height)
            _, laid_out = table.wrap(width, height)
            table._wrapped_at = None  # laid out again at the next height
            assert laid_out <= height or not fits
            kept += fits
    assert len(tables) > 40 and kept > 40 and kept < 3 * len(tables)  # both kinds met
    squeezed = rich_table(book, [["Name", "Text"], ["Unbreakablewordthatisfartoowide" * 3, "x"]], 60.0, 8.0)
    assert not squeezed.fitted and not squeezed.always_fits(60.0, 10_000.0)


def _sizes_pack_with_combos(tmp_path, refs: int):
    """The sizes fixture pack whose tile type lists other cards (a `card-refs` field, a column
    of the rulebook's one-column Card List): its one tile names the boss `refs` times."""
    root = tmp_path / "sizes"
    shutil.copytree(REPO / "tests" / "fixtures" / "packs" / "sizes", root)
    game = root / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace(
        "    name: Tile\n    size: square\n", "    name: Tile\n    size: square\n    fields:\n"
        "      combos: {type: card-refs}\n"), encoding="utf-8")
    cards = root / "cards" / "others.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace(
        '    text: "A square tile: place it next to another."\n',
        '    text: "A square tile: place it next to another."\n'
        f'    combos: [{", ".join(["great-boss"] * refs)}]\n'), encoding="utf-8")
    return root


@pytest.mark.parametrize("refs, refused", [(3, False), (1500, True)])
def test_a_card_list_row_taller_than_a_page_is_refused_by_validate_as_by_build(tmp_path, refs, refused):
    """The Card List is generated into a one-column page: `pnp validate` measures its tables
    (errors.check_story) as `pnp build` lays them out, so a row taller than a page is refused by
    both (exit 2) with the same finding, at the card; a short row passes both."""
    import subprocess
    import sys
    root = _sizes_pack_with_combos(tmp_path, refs)
    run = [sys.executable, "-m", "generator"]
    validate = subprocess.run([*run, "validate", str(root)], capture_output=True, text=True, cwd=tmp_path)
    build = subprocess.run([*run, "build", str(root), "--only", "rulebook", "-o", str(tmp_path / "out")],
                           capture_output=True, text=True, cwd=tmp_path)
    if not refused:
        assert (validate.returncode, build.returncode) == (0, 0), validate.stdout + validate.stderr + build.stderr
        return
    assert (validate.returncode, build.returncode) == (2, 2)

    def finding(out: str) -> str:
        lines = out.splitlines()
        start = next(i for i, ln in enumerate(lines) if " error rules.layout " in ln)
        return "\n".join(lines[start:start + 4])

    said = finding(build.stderr)
    assert said == finding(validate.stdout + validate.stderr)
    # at the card whose row is too tall (not at pnp's own card-list.md template), on a page's width
    assert "cards/others.yaml:2:5: error rules.layout card `stone-tile` (Stone Tile): its row" in said
    assert "expected: rows that fit a page of 176 × 257 mm" in said
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())
