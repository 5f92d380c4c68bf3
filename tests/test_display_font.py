"""The display face (issue #40, item 4): titles and headings in a typeface under the SIL Open Font
License, chosen per pack in game.yaml (`fonts: {display: cinzel}`, or a TrueType file of the
pack's own), embedded as a subset, credited by the build; the body text stays in Vera Sans."""

from __future__ import annotations

import ctypes
import shutil
import tomllib
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest

from generator.core.errors import InputError
from generator.pack.load import load_pack
from generator.pack.typefaces import OFL, TYPEFACES, font_credits, name_table
from generator.render.base.fonts import display_font
from generator.render.cards.faces import CardShared
from generator.render.cards.sheets import write_home_sheets
from generator.render.maps.document import build_maps_pdf
from generator.render.rulebook.book import build_rulebook_pdf
from generator.kit import pack_faces

REPO = Path(__file__).resolve().parents[1]
CHOSEN = {"boss_fight": "cinzel", "raid_boss": "cinzel", "battle_bosses": "russo-one", "final_boss": "russo-one",
          "tactics": "oswald"}
FAMILY = {"cinzel": "Cinzel", "oswald": "Oswald", "russo-one": "RussoOne"}


def words_in_fonts(pdf_path: Path, page: int = 0) -> list[tuple[str, str]]:
    """(word, font name) for the words of a page, as PDFium reads them."""
    doc = pdfium.PdfDocument(str(pdf_path))
    try:
        text = doc[page].get_textpage()
        out, word, font = [], "", ""
        buf = ctypes.create_string_buffer(256)
        flags = ctypes.c_int()
        for i in range(text.count_chars()):
            ch = text.get_text_range(i, 1)
            if not ch.strip():
                if word:
                    out.append((word, font))
                word = ""
                continue
            pdfium_c.FPDFText_GetFontInfo(text.raw, i, buf, 256, flags)
            font = buf.value.decode("latin-1")
            word += ch
        if word:
            out.append((word, font))
        return out
    finally:
        doc.close()


def embedded_subsets(pdf_path: Path) -> dict[str, bool]:
    """BaseFont -> whether its TrueType program is embedded, for every font of the PDF."""
    out = {}
    with pikepdf.open(pdf_path) as pdf:
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == pikepdf.Name.FontDescriptor:
                out[str(obj.FontName).lstrip("/")] = "/FontFile2" in obj
    return out


def test_every_shipped_pack_names_its_display_face():
    for pack_id, face in CHOSEN.items():
        pack = load_pack(REPO / "card_data" / pack_id)
        assert pack.spec.fonts.get("display") == face, pack_id
        assert "regular" not in pack.spec.fonts  # the body stays in the built-in face


@pytest.mark.parametrize("pack_id", sorted(CHOSEN))
def test_card_titles_are_set_in_the_display_face_embedded_as_a_subset(pack_id, tmp_path):
    pack = load_pack(REPO / "card_data" / pack_id)
    shared = CardShared(pack)
    faces = pack_faces(pack, shared, copies=False)[:9]
    write_home_sheets(pack, faces, tmp_path / "cards.pdf", duplex="none", shared=shared)
    family = FAMILY[CHOSEN[pack_id]]
    fonts = embedded_subsets(tmp_path / "cards.pdf")
    display = [name for name in fonts if family in name]
    assert display and all(fonts[name] for name in display), fonts
    assert all(name[6] == "+" for name in display)  # a subset: ABCDEF+Name
    words = words_in_fonts(tmp_path / "cards.pdf")
    first = faces[0].card.name.split()[0]
    assert any(w == first and family in f for w, f in words), (first, words[:20])
    # the body text is not: every card's rules text stays in Vera
    assert any("Vera" in f for _, f in words)


def test_rulebook_headings_cover_and_credits_name_the_face(tmp_path):
    pack = load_pack(REPO / "card_data" / "boss_fight")
    build_rulebook_pdf(pack, tmp_path / "rulebook.pdf")
    cover = words_in_fonts(tmp_path / "rulebook.pdf", 0)
    assert any(w == "Boss" and "Cinzel" in f for w, f in cover)
    doc = pdfium.PdfDocument(str(tmp_path / "rulebook.pdf"))
    pages = [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
    doc.close()
    # the credits close the book; with an icon credited for every card they run over a page break
    credits = "".join(pages[-2:])
    assert "Credits" in pages[-1] and "game-icons.net" in credits
    assert "Typefaces" in credits and "Cinzel Bold (titles and headings)" in credits and OFL in credits
    assert "Bitstream Vera Sans (body text)" in credits


def test_map_titles_are_set_in_the_display_face(tmp_path):
    pack = load_pack(REPO / "card_data" / "tactics")
    build_maps_pdf(pack, tmp_path / "maps.pdf")
    words = words_in_fonts(tmp_path / "maps.pdf", 0)
    assert any(w == "Broken" and "Oswald" in f for w, f in words), words[:10]


@pytest.mark.parametrize("key", sorted(TYPEFACES))
def test_each_typeface_ships_unmodified_with_its_ofl_and_prints_german_and_french(key):
    face = TYPEFACES[key]
    licence = face.licence_path.read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence
    names = name_table(face.path)
    assert "Open Font License" in names[13] and names[0].split()[0] in licence  # the copyright line is the OFL's
    from reportlab.pdfbase.ttfonts import TTFont
    covered = set(TTFont(f"t-{key}", str(face.path)).face.charToGlyph)
    assert {ord(ch) for ch in "ÄÖÜäöüßÉÈÀÇéèàçñÑœŒ–—’“”…·"} <= covered
    assert face.path.stat().st_size < 100_000  # small: the install test's 151 MB has little room


def test_the_wheel_carries_the_fonts_and_their_licences():
    data = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    globs = data["tool"]["setuptools"]["package-data"]["generator.pack"]
    root = REPO / "generator" / "pack"
    shipped = {p for g in globs for p in root.glob(g)}
    for face in TYPEFACES.values():
        assert face.path in shipped and face.licence_path in shipped


def test_an_unknown_typeface_name_is_refused_where_it_is_written(tmp_path):
    pack_dir = tmp_path / "tactics"
    shutil.copytree(REPO / "card_data" / "tactics", pack_dir, ignore=shutil.ignore_patterns(".cache"))
    game = pack_dir / "game.yaml"
    text = game.read_text(encoding="utf-8").replace("  display: oswald\n", "  display: oswalt\n")
    game.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load_pack(pack_dir)
    (problem,) = exc.value.problems
    assert problem.code == "font.unknown" and "oswalt" in problem.message and "`oswald`" in (problem.fix or "")
    assert problem.location.line == text.splitlines().index("  display: oswalt") + 1


def test_a_packs_own_font_can_be_its_display_face_and_is_credited(tmp_path):
    pack_dir = tmp_path / "tactics"
    shutil.copytree(REPO / "card_data" / "tactics", pack_dir, ignore=shutil.ignore_patterns(".cache"))
    (pack_dir / "fonts").mkdir()
    shutil.copy(TYPEFACES["cinzel"].path, pack_dir / "fonts" / "Title.ttf")
    game = pack_dir / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("  display: oswald\n", "  display: fonts/Title.ttf\n"),
                    encoding="utf-8")
    pack = load_pack(pack_dir)
    assert display_font(pack).startswith("PackFont-")
    shared = CardShared(pack)
    write_home_sheets(pack, pack_faces(pack, shared, copies=False)[:3], tmp_path / "cards.pdf", duplex="none",
                      shared=shared)
    assert any("Cinzel" in name for name in embedded_subsets(tmp_path / "cards.pdf"))
    credits = font_credits(pack.spec.fonts, pack.root)
    assert [c.what for c in credits] == ["Bitstream Vera Sans (body text)", "Cinzel Bold (titles and headings)"]
    assert credits[1].licence == OFL and credits[1].where == "fonts/Title.ttf"
