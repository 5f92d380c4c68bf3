"""Card text: the glyph check uses the pack's own fonts, Arabic letters are joined, right-to-left
words come out in visual order, invisible characters are removed with a note, `\\*` is a literal asterisk, unknown
`:icons:` are warned about and a pack's own SVG icons are icons."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from generator.cli import main
from generator.core.extras import install_line
from generator.render.base.scripts import strip_invisible, unmatched_markup
from generator.render.base.text import FitError, TextFitter, TextStyler

SIZES = Path(__file__).resolve().parent / "fixtures" / "packs" / "sizes"
DEJAVU = Path("/usr/share/fonts/truetype/dejavu")  # Debian fonts-dejavu-core: has Hebrew


def pack_with(tmp_path: Path, cards: str, game_extra: str = "") -> Path:
    pack = tmp_path / "pack"
    shutil.copytree(SIZES, pack)
    (pack / "cards" / "zz.yaml").write_text(cards, encoding="utf-8")
    if game_extra:
        game = pack / "game.yaml"
        game.write_text(game.read_text(encoding="utf-8") + game_extra, encoding="utf-8")
    return pack


def pack_with_dejavu(tmp_path: Path, cards: str) -> Path:
    """A pack whose four text styles are DejaVu Sans (Hebrew, Arabic and its joined forms)."""
    pack = pack_with(tmp_path, cards, "fonts:\n  regular: fonts/Sans.ttf\n  bold: fonts/Sans-Bold.ttf\n"
                     "  italic: fonts/Sans-Oblique.ttf\n  bold-italic: fonts/Sans-BoldOblique.ttf\n")
    (pack / "fonts").mkdir()
    for style in ("", "-Bold", "-Oblique", "-BoldOblique"):
        shutil.copy(DEJAVU / f"DejaVuSans{style}.ttf", pack / "fonts" / f"Sans{style}.ttf")
    return pack


def unit(card_id: str, text: str, name: str | None = None) -> str:
    return (f"cards:\n  - id: {card_id}\n    name: \"{name or card_id.title()}\"\n    type: unit\n    set: core\n"
            f"    role: Guard\n    stats: {{power: 1}}\n    text: \"{text}\"\n")


def pdf_text(path: Path) -> str:
    return "\n".join(p.extract_text() for p in PdfReader(path).pages)


def test_right_to_left_words_are_in_visual_order():
    fitter = TextFitter([])
    line = fitter.layout("שלום עולם", 500, 8).lines[0]
    assert [r.value for r in line.runs] == ["םלוע", "םולש"]  # the first word ends up rightmost
    assert line.runs[0].x < line.runs[1].x
    mixed = fitter.layout("Roll 2 שלום dice", 500, 8).lines[0]
    assert [r.value for r in mixed.runs] == ["Roll", "2", "םולש", "dice"]  # a Hebrew word inside English


def test_arabic_letters_are_joined_then_put_in_visual_order():
    """Each Arabic letter takes the form its neighbours call for (hand-checked against the
    Unicode joining rules): in سلام the seen starts the word (U+FEB3), lam and alef join as
    the final lam-alef ligature (U+FEFC) and meem stands alone after alef (U+FEE1); in عليكم
    ain starts, lam, yeh and kaf are medial and meem is final. Lines then read right to left."""
    fitter = TextFitter([])
    line = fitter.layout("سلام عليكم", 500, 8).lines[0]
    assert [r.value for r in line.runs] == ["\ufee2\ufedc\ufef4\ufee0\ufecb", "\ufee1\ufefc\ufeb3"]
    assert line.runs[0].x < line.runs[1].x  # the first word rightmost
    assert fitter.layout("Roll 2 dice", 500, 8).lines[0].runs[0].value == "Roll"  # other text untouched


def test_invisible_characters_and_markup():
    assert strip_invisible("a\u200bb\u202ec\ufeff") == ("abc", ["U+200B ZERO WIDTH SPACE",
                                                          "U+202E RIGHT-TO-LEFT OVERRIDE",
                                                          "U+FEFF ZERO WIDTH NO-BREAK SPACE"])
    styler = TextStyler([])
    assert unmatched_markup(styler, "**bold** and *it*") is None
    assert "`**`" in unmatched_markup(styler, "a **bold start")
    assert "`*`" in unmatched_markup(styler, "2* damage")
    assert unmatched_markup(styler, "2\\* damage") is None
    words = styler.paragraphs("costs 2\\* now")[0]
    assert [r.value for w in words for r in w] == ["costs", "2", "*", "now"]
    assert not any(r.style.italic for w in words for r in w)


@pytest.mark.skipif(not (DEJAVU / "DejaVuSans.ttf").is_file(), reason="needs fonts-dejavu-core")
def test_a_pack_with_a_hebrew_font_prints_hebrew(tmp_path):
    cards = unit("hebrew-unit", "שומר את הדלת")
    pack = pack_with_dejavu(tmp_path, cards)
    res = CliRunner().invoke(main, ["build", str(pack), "--only", "cards", "-o", str(tmp_path / "out")])
    assert res.exit_code == 0, res.output
    text = pdf_text(tmp_path / "out" / "cards.pdf")
    # drawn in visual order (see the first test); pypdf reads it back in logical order
    assert "שומר את הדלת" in text
    # the same card without the font: the built-in font has no Hebrew
    plain = pack_with(tmp_path / "plain", cards)
    res = CliRunner().invoke(main, ["build", str(plain), "--only", "cards", "-o", str(tmp_path / "out2")])
    assert res.exit_code == 2 and "card.glyph" in res.output and "hebrew-unit" in res.output


@pytest.mark.skipif(not (DEJAVU / "DejaVuSans.ttf").is_file(), reason="needs fonts-dejavu-core")
@pytest.mark.skipif(not (DEJAVU / "DejaVuSans.ttf").is_file(), reason="needs fonts-dejavu-core")
def test_right_to_left_text_without_the_rtl_extra_is_an_error_naming_the_card(tmp_path, monkeypatch):
    """python-bidi and arabic-reshaper are the `rtl` extra: without them a Hebrew card stops the
    build (exit 2, the card, the extra to install) instead of printing its words backwards."""
    from generator.render.base import scripts
    monkeypatch.setattr(scripts, "rtl_available", lambda: False)
    pack = pack_with_dejavu(tmp_path, unit("hebrew-unit", "שומר את הדלת"))
    res = CliRunner().invoke(main, ["build", str(pack), "--only", "cards", "-o", str(tmp_path / "out")])
    assert res.exit_code == 2, res.output
    assert "card.rtl" in res.output and "hebrew-unit" in res.output and "python-bidi" in res.output
    assert "Traceback" not in res.output and not (tmp_path / "out" / "cards.pdf").exists()
    # text outside a card's checks (a rulebook line) gets the same advice, not an ImportError
    monkeypatch.setitem(__import__("sys").modules, "bidi", None)
    with pytest.raises(scripts.InputError, match="python-bidi and arabic-reshaper") as stop:
        scripts.rtl_text("שומר")
    assert stop.value.problems[0].fix == f"add the `rtl` extra: {install_line('rtl')}"
    monkeypatch.undo()
    assert scripts.rtl_missing("שומר") is None  # this venv has the test extra, which includes the rtl extra


def test_a_pack_with_an_arabic_font_prints_joined_arabic(tmp_path):
    cards = unit("arabic-unit", "يحرس الباب")
    pack = pack_with_dejavu(tmp_path, cards)
    res = CliRunner().invoke(main, ["build", str(pack), "--only", "cards", "-o", str(tmp_path / "out")])
    assert res.exit_code == 0, res.output
    printed = pdf_text(tmp_path / "out" / "cards.pdf")
    # the joined forms are what is printed: يحرس = yeh initial, hah medial, reh final, seen
    # isolated (reh does not join to the left); no letter is left in its bare, unjoined form
    assert all(ch in printed for ch in "\ufef3\ufea4\ufeae\ufeb1")
    assert not any(ch in printed for ch in "يحرس")
    # without the font: the built-in font has no Arabic, and the message names the card
    plain = pack_with(tmp_path / "plain", cards)
    res = CliRunner().invoke(main, ["build", str(plain), "--only", "cards", "-o", str(tmp_path / "out2")])
    assert res.exit_code == 2 and "card.glyph" in res.output and "arabic-unit" in res.output


def test_zero_width_characters_are_removed_with_a_note(tmp_path):
    pack = pack_with(tmp_path, unit("quiet-unit", "Guards\u200b an ally.", name="Quiet\u200dUnit"))
    res = CliRunner().invoke(main, ["build", str(pack), "--only", "cards", "-o", str(tmp_path / "out")])
    assert res.exit_code == 0, res.output
    assert "note: card `quiet-unit`" in res.output and "U+200B ZERO WIDTH SPACE" in res.output
    text = pdf_text(tmp_path / "out" / "cards.pdf")
    assert "QuietUnit" in text and "\u200b" not in text and "\u200d" not in text


def test_a_literal_asterisk_prints(tmp_path):
    pack = pack_with(tmp_path, unit("star-unit", "Deals 2\\\\* damage."))
    res = CliRunner().invoke(main, ["build", str(pack), "--only", "cards", "-o", str(tmp_path / "out")])
    assert res.exit_code == 0, res.output
    assert "2* damage" in pdf_text(tmp_path / "out" / "cards.pdf")


SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10">'
       '<circle cx="5" cy="5" r="4" fill="#3366cc"/></svg>')


def test_an_unknown_icon_is_an_error_at_its_line_and_pack_icons_are_icons(tmp_path):
    cards = unit("icon-unit", "Gain 1 :mana: and 1 :manna:.") + "    flavour: \"At 10:30: a :nosuchicon:\"\n"
    pack = pack_with(tmp_path, cards, "icons:\n  mana: icons/mana.svg\n")
    (pack / "icons").mkdir()
    (pack / "icons" / "mana.svg").write_text(SVG)
    for args in (["validate", str(pack)], ["build", str(pack), "--only", "cards", "-o", str(tmp_path / "bad")]):
        res = CliRunner().invoke(main, args)
        assert res.exit_code == 2, res.output
        said = "".join(res.output.split())  # the console wraps long lines (paths too)
        zz = str(Path("pack") / "cards" / "zz.yaml")
        assert f"{zz}:8:11:errorcard.iconcard`icon-unit`:`:manna:`isnoicon" in said
        assert "didyoumean`:mana:`?" in said
        assert f"{zz}:9:14:errorcard.iconcard`icon-unit`:`:nosuchicon:`isnoicon" in said
        assert ":mana: is" not in said and ":30:" not in said  # a time is no icon mark
    assert not (tmp_path / "bad").exists()
    (pack / "cards" / "zz.yaml").write_text(unit("icon-unit", "Gain 1 :mana: and 1 :health:."))
    res = CliRunner().invoke(main, ["build", str(pack), "--only", "cards", "-o", str(tmp_path / "out")])
    assert res.exit_code == 0, res.output
    text = pdf_text(tmp_path / "out" / "cards.pdf")
    assert ":mana:" not in text and ":health:" not in text  # both drawn as icons


def test_the_loader_knows_every_built_in_icon():
    from generator.pack.icon_names import BUILTIN_ICONS
    from generator.render.base.icons import known_icons
    assert sorted(BUILTIN_ICONS) == known_icons()


def test_deck_size_speaks_the_packs_words():
    from types import SimpleNamespace

    from generator.pack.load import load_pack
    from generator.rules.checks import deck_words
    repo = Path(__file__).resolve().parents[1]
    bosses = load_pack(repo / "card_data" / "battle_bosses")
    side = next(iter(bosses.spec.sides.values()))
    assert deck_words(SimpleNamespace(pack=bosses, side=side)) == "deck"  # Effect and Upgrade cards
    fight = load_pack(repo / "card_data" / "boss_fight")
    side = next(iter(fight.spec.sides.values()))
    assert deck_words(SimpleNamespace(pack=fight, side=side)) == "action deck"


def test_unshare_finds_the_pack_and_schema_takes_a_pack_name(tmp_path, monkeypatch):
    repo = Path(__file__).resolve().parents[1]
    monkeypatch.chdir(repo)
    preset = sorted((repo / "card_data" / "tactics" / "presets").glob("*.yaml"))[0]
    runner = CliRunner()
    code = runner.invoke(main, ["share", str(preset)]).output.strip()
    res = runner.invoke(main, ["unshare", code])  # no --pack: the code names tactics
    assert res.exit_code == 0, res.output
    assert "pack: tactics" in res.output
    res = runner.invoke(main, ["schema", "--pack", "tactics", "-o", str(tmp_path / "s")])
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in (tmp_path / "s").iterdir()) == [
        "build.tactics.schema.json", "cards.tactics.schema.json", "game.schema.json", "layout.schema.json"]
    layout = __import__("json").loads((tmp_path / "s" / "layout.schema.json").read_text())
    assert "size" in layout["properties"] and "elements" in layout["properties"]


FIT_TEXTS = [
    "Deal :damage:2 to a **burning** foe, then *rest* a round.",
    "Roll 2 dice; on a double, **Stunned** and*over*run.\n\nSecond paragraph with extraordinarily unbreakable words.",
    "Supercalifragilisticexpialidocious antidisestablishmentarianism :shield::shield::shield: end",
    "One.",
    "far too many words for the box " * 30,  # does not fit even at the smallest size
]


@pytest.mark.parametrize("text", FIT_TEXTS)
def test_fit_on_rows_matches_the_placed_layouts(text):
    """fit() tries sizes on unplaced rows (_break, _row_width); the layout it keeps must be the one
    the placed layouts give: the largest 0.25 pt step whose placed lines all fit, or the full
    size. A row's width must be its placed line's width to the last bit (the same sum)."""
    fitter = TextFitter(["Stunned"])
    width, height, top, low = 120.0, 60.0, 10.0, 4.0
    for k in range(int((top - low) / 0.25) + 1):
        size = low + k * 0.25
        rows = fitter._break(text, width, size, True, "regular")
        space = fitter.unit_width(fitter.regular, " ") * size
        placed = fitter.layout(text, width, size)
        assert [fitter._row_width(words, size, space) for words, _ in rows] == [ln.width for ln in placed.lines]

    def fits(lay):
        return lay.height <= height + 1e-6 and all(ln.width <= width + 1e-6 for ln in lay.lines)

    sizes = [top] + [low + k * 0.25 for k in range(int((top - low) / 0.25) - 1, -1, -1)]
    fitting = [s for s in sizes if fits(fitter.layout(text, width, s))]
    if not fitting:
        with pytest.raises(FitError) as info:
            fitter.fit(text, width, height, top, low)
        at_low = fitter.layout(text, width, low)
        assert (info.value.needed_lines, info.value.overflow_pt) == (len(at_low.lines), at_low.height - height)
        return
    got = fitter.fit(text, width, height, top, low)
    assert got == fitter.layout(text, width, fitting[0])
    assert got.size == fitting[0]


@pytest.mark.parametrize("text", [
    "Plain words only", "  lead and trail\t tabs  ", "one\n\ntwo paragraphs\n  \nthree", "(Stunned) in brackets",
    "Stunned first", "not-Stunned hyphen", "no\u00a0break space", "thin\u2009space", "carriage\rreturn",
    "x\u2028line separator", "Deal :damage:2", "a * b", "esc \\* star", "**bold** word", "ratio 3:1", "سلام",
    "Ünïcödé — dashes · dots", "",
])
@pytest.mark.parametrize("font", ["regular", "bold-italic"])
def test_plain_text_shortcut_gives_the_tokenizers_runs(text, font):
    """paragraphs() skips the tokenizer for plain text (no marks, keywords or odd whitespace);
    for every text its answer is the tokenizer's."""
    styler = TextStyler(["Stunned", "Move"])
    prepared = text.replace("\r\n", "\n").strip()
    assert styler.paragraphs(text, font) == styler._tokenized(prepared, font)


@pytest.mark.parametrize("text, words", [
    ("a  b\tc", [["a"], ["b"], ["c"]]),
    ("**x** y", [["x:B"], ["y"]]),
    ("a**b** c", [["a", "b:B"], ["c"]]),
    ("Heroic Feat, then Stunned", [["Heroic Feat:K", ","], ["then"], ["Stunned:K"]]),
    ("(Stunned) x", [["(Stunned)"], ["x"]]),
    ("a\\ b \\* c", [["a\\"], ["b"], ["*"], ["c"]]),
    ("x:y z :shield: :nope: w", [["x", ":", "y"], ["z"], ["shield:I"], [":nope:"], ["w"]]),
    ("end \n\t next", [["end"], "|", ["next"]]),
    ("*it* and\u00a0nbsp", [["it:I"], ["and", "nbsp"]]),
])
def test_the_tokenizer_s_words_and_runs(text, words):
    """A word's run and the spaces after it are one match of the tokenizer (textstyle: `spaced`):
    the words and runs are those of the text all the same (`|` a new paragraph; B bold, I italic or
    an icon, K a keyword)."""
    styler = TextStyler(["Stunned", "Heroic Feat"], icons=["shield"])
    said = []
    for n, para in enumerate(styler._tokenized(text.strip())):
        said += ["|"] if n else []
        said += [[r.value + (":K" if r.style.keyword else ":B" if r.style.bold else
                             ":I" if r.style.italic or r.kind == "icon" else "") for r in word] for word in para]
    assert said == words
