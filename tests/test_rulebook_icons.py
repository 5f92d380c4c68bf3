"""Icons named in rules prose (`:hit:` in a chapter, a reference summary or the glossary) are
drawn as the icon in the rulebook and the quick reference, a pack's own SVG icons as well as
the built-in ones, never printed as the text `:hit:`; a `:name:` no icon has is an error at
its file, line and column (for `pnp build` and `pnp validate` alike)."""

from __future__ import annotations

import shutil

import pytest
from pypdf import PdfReader

from generator.core.errors import InputError
from generator.pack.load import load_pack
from generator.render.rulebook.book import build_rulebook_pdf
from generator.render.rulebook.quickref import build_quick_reference_pdf

from conftest import REPO

BB = REPO / "card_data" / "battle_bosses"


def _forms(page) -> set[str]:
    return {str(k) for k in (page["/Resources"].get("/XObject") or {}).keys()}


@pytest.fixture(scope="module")
def bb_rulebook(tmp_path_factory):
    path = tmp_path_factory.mktemp("bb") / "rulebook.pdf"
    build_rulebook_pdf(load_pack(BB), path)
    return PdfReader(path)


def test_pack_icon_in_a_chapter_and_the_glossary_is_drawn(bb_rulebook):
    pages = [p for p in bb_rulebook.pages if "red burst" in p.extract_text()]
    assert len(pages) == 2  # the dashboards chapter and the glossary
    for page in pages:
        assert ":hit:" not in page.extract_text()
        assert "/FormXob.icon-hit" in _forms(page)  # the pack's SVG burst, as on the cards
    assert not any(":hit:" in p.extract_text() for p in bb_rulebook.pages)


def test_pack_icon_in_the_quick_reference_is_drawn(tmp_path):
    path = tmp_path / "quick.pdf"
    build_quick_reference_pdf(load_pack(BB), path)  # "When units meet" says 1 :hit: damage
    page = PdfReader(path).pages[0]
    assert ":hit:" not in page.extract_text()
    assert "/FormXob.icon-hit" in _forms(page)


def _misspell_chapter(tmp_path):
    root = tmp_path / "battle_bosses"
    shutil.copytree(BB, root)
    chapter = root / "rules" / "05-dashboards-and-minions.md"
    lines = chapter.read_text(encoding="utf-8").splitlines()
    n = next(i for i, line in enumerate(lines) if ":hit:" in line)
    lines[n] = lines[n].replace(":hit:", ":hti:", 1)
    chapter.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root, n + 1, lines[n].index(":hti:") + 1


def test_unknown_icon_in_a_chapter_names_file_line_and_column(tmp_path):
    root, line, column = _misspell_chapter(tmp_path)
    for build in (build_rulebook_pdf, build_quick_reference_pdf):
        with pytest.raises(InputError) as info:
            build(load_pack(root), tmp_path / "out.pdf")
        [problem] = info.value.problems
        assert problem.code == "rules.icon"
        assert problem.location.file.endswith("05-dashboards-and-minions.md")
        assert (problem.location.line, problem.location.column) == (line, column)
        assert problem.found == ":hti:" and "`:hit:`" in problem.fix
        assert not (tmp_path / "out.pdf").exists()


def test_unknown_icon_in_reference_text_names_game_yaml_line(tmp_path):
    root = tmp_path / "battle_bosses"
    shutil.copytree(BB, root)
    game = root / "game.yaml"
    lines = game.read_text(encoding="utf-8").splitlines()
    n = next(i for i, line in enumerate(lines) if "term: Damage" in line)
    lines[n] = lines[n].replace(":hit:", ":burst:")
    game.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as info:
        build_rulebook_pdf(load_pack(root), tmp_path / "out.pdf")
    [problem] = info.value.problems
    assert problem.location.file.endswith("game.yaml") and problem.location.line == n + 1
    assert problem.found == ":burst:"


def test_validate_reports_an_unknown_icon_in_prose(tmp_path):
    from generator.preflight.render_check import render_problems
    root, line, _ = _misspell_chapter(tmp_path)
    problems, _warnings = render_problems(load_pack(root))
    found = [p for p in problems if p.code == "rules.icon"]
    assert len(found) == 1 and found[0].location.line == line


def test_a_time_or_an_escaped_colon_is_no_icon(tmp_path):
    root = tmp_path / "battle_bosses"
    shutil.copytree(BB, root)
    chapter = root / "rules" / "05-dashboards-and-minions.md"
    chapter.write_text(chapter.read_text(encoding="utf-8") + "\nThe arena opens at 10:30:00 sharp.\n", encoding="utf-8")
    build_rulebook_pdf(load_pack(root), tmp_path / "out.pdf")
    assert (tmp_path / "out.pdf").exists()
