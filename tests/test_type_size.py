"""Type a player can read (issue 41 item 5): rules text on cards at 6 pt or more, labels (a
caption, a tag, the collation line: `role: label`) at 5 pt or more, on every card and piece of
every shipped pack; and the layout check `type.min-size` that says so for a designer's pack
(a warning under its role's floor, an error under 4 pt, at the layout element's line).

The shipped packs are held to it twice: by the layout check (each element drawn alone and read
back with PDFium) and by reading the finished cards.pdf and pieces.pdf back, span by span."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.core.typesize import LABEL_PT, RULES_PT, UNREADABLE_PT
from generator.pack.load import load_pack
from generator.preflight.layout import layout_findings
from generator.render.cards.faces import CardFace, CardShared
from generator.render.cards.ink import face_ink
from generator.kit import pack_faces
from test_ink_checks import _pack_with  # a scaffolded pack with extra layout elements

REPO = Path(__file__).resolve().parents[1]
PACKS = ["boss_fight", "battle_bosses", "raid_boss", "tactics", "final_boss"]
PUNCTUATION = ".,:;!?"


def _line(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


# ---- the layout check --------------------------------------------------------------------------


def test_the_check_holds_each_role_to_its_floor(tmp_path):
    root = _pack_with(
        tmp_path,
        '{id: small-rules, kind: text, x: 5, y: 60, w: 50, h: 4, text: "Deal 2 damage to a hero.", size: 5}',
        '{id: fine-rules, kind: text, x: 5, y: 64, w: 50, h: 4, text: "Heal 1.", size: 6}',
        '{id: fine-label, kind: text, x: 5, y: 68, w: 50, h: 4, text: "MOVE", size: 5, role: label}',
        '{id: small-label, kind: text, x: 5, y: 72, w: 50, h: 4, text: "JUMP", size: 4.5, role: label}',
        '{id: tiny, kind: text, x: 5, y: 76, w: 50, h: 4, text: "fine print", size: 3.5, role: label}',
    )
    found = {f.element: f for f in layout_findings(load_pack(root)) if f.rule == "type.min-size"}
    assert set(found) == {"small-rules", "small-label", "tiny"}
    layout = root / "templates" / "cards" / "unit.yaml"
    rules = found["small-rules"]
    assert rules.severity == "warning" and "rules text prints at 5 pt, under the 6 pt" in rules.message
    assert "`role: label`" in rules.message  # a caption may be marked as one
    assert rules.location.file.endswith("unit.yaml") and rules.location.line == _line(layout, "id: small-rules")
    label = found["small-label"]
    assert label.severity == "warning" and "label text prints at 4.5 pt, under the 5 pt" in label.message
    assert found["tiny"].severity == "error" and "below 4 pt it is an error" in found["tiny"].message


def test_validate_and_build_say_where(tmp_path):
    root = _pack_with(tmp_path, '{id: small-rules, kind: text, x: 5, y: 60, w: 50, h: 4, text: "Draw a card.", size: 5.5}')
    result = CliRunner().invoke(main, ["validate", str(root)])
    assert result.exit_code == 0, result.output  # a warning
    assert "type.min-size" in result.output and "element `small-rules`" in result.output
    built = CliRunner().invoke(main, ["build", str(root), "-o", str(tmp_path / "out"), "--only", "cards", "-q"])
    assert built.exit_code == 0, built.output
    assert "warning: type.min-size" in built.output and "element `small-rules`" in built.output
    # under 4 pt it is an error: `pnp validate` stops on it at the layout's line
    root2 = _pack_with(tmp_path / "b", '{id: dust, kind: text, x: 5, y: 60, w: 50, h: 4, text: "Draw a card.", size: 3}')
    result = CliRunner().invoke(main, ["validate", str(root2)])
    assert result.exit_code == 2, result.output
    assert "unit.yaml:" in result.output and "error type.min-size" in result.output and "`dust`" in result.output


def test_pnp_new_at_a_small_size_keeps_its_type_readable(tmp_path):
    """`pnp new --size` scales the frame, but never its type below the floors."""
    result = CliRunner().invoke(main, ["new", "Minis", "--root", str(tmp_path), "--size", "mini-american"])
    assert result.exit_code == 0, result.output
    pack = load_pack(tmp_path / "minis")
    assert not [f.line() for f in layout_findings(pack) if f.rule == "type.min-size"]


# ---- the shipped packs -------------------------------------------------------------------------


@pytest.mark.parametrize("name", PACKS)
def test_shipped_layouts_pass_the_check(name):
    pack = load_pack(REPO / "card_data" / name)
    assert [f.line() for f in layout_findings(pack) if f.rule == "type.min-size"] == []


def _spans(pdf: Path) -> list[tuple[str, float, int]]:
    """(word, font size pt, page) of every visible text span: a run of characters of one size
    between spaces (the invisible `pnp:` markers, text render mode 3, left out)."""
    out = []
    doc = pdfium.PdfDocument(str(pdf))
    try:
        for n in range(len(doc)):
            page = doc[n]
            textpage = page.get_textpage()
            word, size = "", None
            for i in range(textpage.count_chars()):
                ch = chr(pdfium_c.FPDFText_GetUnicode(textpage.raw, i))
                obj = pdfium_c.FPDFText_GetTextObject(textpage.raw, i)
                if ch.isspace() or ch in "\x00\x02" or (obj and pdfium_c.FPDFTextObj_GetTextRenderMode(obj) == 3):
                    if word:
                        out.append((word, size, n + 1))
                    word, size = "", None
                    continue
                pt = round(pdfium_c.FPDFText_GetFontSize(textpage.raw, i), 2)
                if word and pt != size:
                    out.append((word, size, n + 1))
                    word = ""
                word, size = word + ch, pt
            if word:
                out.append((word, size, n + 1))
            textpage.close()
            page.close()
    finally:
        doc.close()
    return out


def _label_words(pack) -> set[str]:
    """Every word the pack's label elements (and numbers, icons' captions: every kind but `text`
    with role rules) print, read from each element drawn alone."""
    shared = CardShared(pack)
    faces = pack_faces(pack, shared, copies=False)
    faces += [CardFace(f.card, True, f.index, f.total, f.layout, f.set_id, f.type_id) for f in faces]
    words: set[str] = set()
    for ink in face_ink(shared, faces):
        for drawn in (ink.elements if ink else ()):
            if drawn.element.kind != "text" or drawn.element.role == "label":
                for run in drawn.texts:
                    words.update(w.strip(PUNCTUATION) for w in run.text.split())
    return words


@pytest.fixture(scope="module")
def kits(tmp_path_factory):
    out = {}
    for name in PACKS:
        folder = tmp_path_factory.mktemp(name)
        has_pieces = load_pack(REPO / "card_data" / name).spec.pieces is not None
        for part in ("cards", "pieces") if has_pieces else ("cards",):
            result = CliRunner().invoke(main, ["build", str(REPO / "card_data" / name), "-o", str(folder), "--only",
                                               part, "-q"])
            assert result.exit_code == 0, result.output
        out[name] = folder
    return out


@pytest.mark.parametrize("name", PACKS)
def test_every_card_word_prints_at_5_pt_and_rules_at_6(kits, name):
    spans = _spans(kits[name] / "cards.pdf")
    assert len(spans) > 1000
    small = [(w, s, p) for w, s, p in spans if s < LABEL_PT - 0.005]
    assert small == [], small[:10]
    assert min(s for _, s, _ in spans) >= UNREADABLE_PT
    # what prints between 5 and 6 pt is a label's word, never a word of rules text alone
    labels = _label_words(load_pack(REPO / "card_data" / name))
    between = {w.strip(PUNCTUATION) for w, s, _ in spans if s < RULES_PT - 0.005}  # "EDGE:" is the label's "EDGE" and ":"
    assert between <= labels, sorted(between - labels)[:20]


@pytest.mark.parametrize("name", [n for n in PACKS if load_pack(REPO / "card_data" / n).spec.pieces is not None])
def test_every_piece_word_prints_at_5_pt_uncut(kits, name):
    pdf = kits[name] / "pieces.pdf"
    spans = _spans(pdf)
    assert spans
    small = [(w, s, p) for w, s, p in spans if s < LABEL_PT - 0.005]
    assert small == [], small[:10]
    assert not [w for w, _, _ in spans if w.endswith("…")]  # no counter's words cut to fit


def test_raid_boss_track_labels_keep_3_mm_from_the_trim():
    """Issue 41 item 6: Raid Boss's "DMG" label sat 2.95 mm from the trim (by its advance box,
    as pdf.safe-zone measures a word). Its labels now start 3 mm in."""
    boss = (REPO / "card_data" / "raid_boss" / "templates" / "cards" / "boss.yaml").read_text()
    assert '{id: "tens-label", kind: "text", x: 3.0,' in boss and '{id: "ones-label", kind: "text", x: 58.45,' in boss
