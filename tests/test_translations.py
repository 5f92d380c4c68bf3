"""Translations as data beside a pack (generator/pack/translations): the strings a PO file holds
and where each comes from, `pnp translate` making and updating it (new, fuzzy with the previous
msgid, obsolete), the spreadsheet round trip, the markup a translation must keep, and a pack
loaded in another language with what falls back counted."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from babel.messages.pofile import read_po, write_po
from click.testing import CliRunner

from generator.cli import main
from generator.core.errors import InputError
from generator.pack.field_names import FIELD_TYPES
from generator.pack.load import load_pack
from generator.pack.translations.catalog import po_bytes, read_catalog
from generator.pack.translations.chapters import translated_chapter, units
from generator.pack.translations.inventory import pack_sources
from generator.pack.translations.markup import lost_markup
from generator.pack.translations.sources import FIELD_WORDS

REPO = Path(__file__).resolve().parents[1]
BOSS_FIGHT = REPO / "card_data" / "boss_fight"
FEAT = "Move up to 5 :hex: in a straight line, then make a Heavy Attack. The target is Immobilised."


@pytest.fixture
def pack(tmp_path) -> Path:
    """A copy of Boss Fight without its translations, to translate from scratch."""
    root = tmp_path / "boss_fight"
    shutil.copytree(BOSS_FIGHT, root, ignore=shutil.ignore_patterns("translations"))
    return root


def translate(*args: str) -> str:
    result = CliRunner().invoke(main, ["translate", *map(str, args)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def catalog(path: Path):
    """The PO file as pnp reads it: Babel's reader, with each fuzzy entry's previous msgid."""
    return read_catalog(path, "de")


def fill(path: Path, strings: dict[str, str]) -> None:
    """Translate some entries as a translator's tool would."""
    cat = catalog(path)
    for m in cat:
        if m.id in strings:
            m.string = strings[m.id]
    path.write_bytes(po_bytes(cat))


KEYWORDS = {"Immobilised": "Festgesetzt", "Attack": "Angriff", "Move": "Bewegung"}
GERMAN_FEAT = "Bewegung um bis zu 5 :hex: geradeaus, dann ein Schwerer Angriff. Das Ziel ist Festgesetzt."


def test_every_field_type_says_which_of_its_parts_are_words():
    assert set(FIELD_WORDS) == set(FIELD_TYPES)


def test_the_strings_of_a_pack_and_where_each_comes_from():
    sources = pack_sources(load_pack(BOSS_FIGHT))
    by_text = {}
    for s in sources:
        by_text.setdefault(s.text, []).append(s)
    # a card's words by card id and field, game.yaml's and the chapters' by file and line
    assert [s.reference for s in by_text[FEAT]] == ["card/oriel-vance/feat/text"]
    assert by_text["Torva Greymantle"][0].reference == "card/torva-greymantle/name"
    dazzled = by_text["Dazzled"][0]
    assert dazzled.where == "game.yaml" and (BOSS_FIGHT / "game.yaml").read_text().splitlines()[dazzled.line - 1] \
        .strip() == "name: Dazzled"
    heading = by_text["Deck building rules"][0]
    assert heading.reference == "rules/05-action-decks.md:5" and heading.note == "a heading of the rules"
    # choice values are told apart by their field (msgctxt): Might the constitution, Special the piece type
    assert {(s.context, s.text) for s in sources if s.context} >= {("constitution", "Might"),
                                                                 ("piece_type", "Special"), ("action_type", "Move")}
    # nothing without words: numbers, icons and template values alone are no strings to translate
    assert not [s for s in sources if s.text.strip() in ("4", ":move:", "{{ keywords.move.name }}")]


def test_a_chapter_by_unit_keeps_its_structure_in_any_words():
    text = (BOSS_FIGHT / "rules" / "05-action-decks.md").read_text()
    assert translated_chapter(text, lambda s: s) == text
    shouted = translated_chapter(text, str.upper)
    def marks(t):
        return [re.match(r"\s*(#+ |- |\| |\d+\. )?", line)[0] for line in t.splitlines()]
    assert marks(shouted) == marks(text)
    assert "## DECK BUILDING RULES" in shouted and "| :move: | **{{ keywords.move.name }}** |" in shouted
    kinds = {u.kind for u in units(text)}
    assert kinds == {"heading", "paragraph", "list item", "table cell"}


def test_a_diagrams_caption_is_a_unit_and_stays_one_yaml_string():
    chapter = 'Text.\n\n```diagram line-of-sight\nfrom: [0, 0]\ncaption: "A sees B: the \\"solid\\" line."\n```\n'
    (_, caption) = units(chapter)
    assert (caption.kind, caption.text) == ("caption", 'A sees B: the "solid" line.')
    german = translated_chapter(chapter, lambda t: {caption.text: 'A sieht B: die "feste" Linie.'}.get(t, t))
    block = german.split("```")[1].split("\n", 1)[1]
    assert yaml.safe_load(block)["caption"] == 'A sieht B: die "feste" Linie.'
    plain = chapter.replace('"A sees B: the \\"solid\\" line."', "Plain: words")
    assert yaml.safe_load(translated_chapter(plain, lambda t: {"Plain: words": "Schlicht: Wörter"}.get(t, t)).split("```")[1]
                          .split("\n", 1)[1])["caption"] == "Schlicht: Wörter"


def test_markup_a_translation_must_keep():
    assert lost_markup(FEAT, GERMAN_FEAT, KEYWORDS) == []
    assert lost_markup(FEAT, GERMAN_FEAT.replace(":hex:", "Felder"), KEYWORDS) == ["drops the icon :hex:"]
    assert lost_markup(FEAT, GERMAN_FEAT.replace(":hex:", ":feld:"), KEYWORDS) == [
        "drops the icon :hex:", "adds the icon :feld: (keep the source's icons, named as in the source)"]
    assert lost_markup(FEAT, GERMAN_FEAT.replace("Festgesetzt", "festgesetzt"), KEYWORDS) == [
        "drops the keyword Immobilised (as Festgesetzt)"]
    # German inflects and compounds: a keyword may begin a longer word, never sit inside one
    attack = {"Attack": "Angriff"}
    assert lost_markup("Each Attack card", "Jede Angriffskarte", attack) == []
    assert lost_markup("Each Attack card", "Deine Angriffe", attack) == []
    assert lost_markup("Each Attack card", "Jede Nahkampf-Angriffskarte", attack) == [
        "drops the keyword Attack (as Angriff)"]
    assert lost_markup("Each Attack card", "Jeder Gegenangriff", attack) == ["drops the keyword Attack (as Angriff)"]
    jinja = "Each deck holds {{ rules.deck_size }} cards."
    assert lost_markup(jinja, "Jedes Deck hat 30 Karten.", {}) == ["drops the template value `{{ rules.deck_size }}`"]
    assert lost_markup(jinja, "{{ rules.deck_size }} Karten {% for x in y %}{% endfor %}", {})[0].startswith(
        "adds the template code")
    assert lost_markup("{character} has {have} Health", "{character} hat Leben", {}) == [
        "drops the placeholder {have}"]


def test_pnp_translate_makes_a_po_file_that_gettext_and_babel_read(pack):
    out = translate(pack, "--lang", "de")
    po = pack / "translations" / "de.po"
    assert "strings (0 translated, 0 fuzzy" in out
    cat = catalog(po)
    assert cat.locale_identifier == "de" and not cat.fuzzy
    feat = cat.get(FEAT)
    assert feat.locations == [("card/oriel-vance/feat/text", None)]
    assert feat.auto_comments == ["the feat.text of the card Oriel Vance (Hero)"]
    assert cat.get("Might", "constitution") is not None
    if shutil.which("msgfmt"):  # gettext's own check (Debian's gettext; `make test` installs it)
        check = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(po)], capture_output=True, text=True)
        assert check.returncode == 0, check.stderr
    # the same pack gives the same bytes
    first = po.read_bytes()
    translate(pack, "--lang", "de")
    assert po.read_bytes() == first


def test_the_designers_next_change_shows_up_as_stale_entries(pack):
    translate(pack, "--lang", "de")
    po = pack / "translations" / "de.po"
    fill(po, {FEAT: GERMAN_FEAT, "Torva Greymantle": "Torva Graumantel", "Thundering Charge": "Donnernder Ansturm",
              **KEYWORDS})
    heroes = pack / "cards" / "heroes.yaml"
    text = heroes.read_text()
    text = text.replace("Move up to 5 :hex:", "Move up to 6 :hex:")  # a changed string
    text = text.replace('name: "Thundering Charge"', 'name: "Thunder Charge"')  # a renamed feat
    heroes.write_text(text)
    out = translate(pack, "--lang", "de")
    assert "2 fuzzy" in out
    cat = catalog(po)
    changed = cat.get(FEAT.replace("5", "6"))
    assert changed.fuzzy and changed.string == GERMAN_FEAT and changed.previous_id == [FEAT]
    renamed = cat.get("Thunder Charge")
    assert renamed.fuzzy and renamed.string == "Donnernder Ansturm" and renamed.previous_id == ["Thundering Charge"]
    assert cat.get("Torva Greymantle").string == "Torva Graumantel" and not cat.get("Torva Greymantle").fuzzy
    assert not cat.obsolete  # each old translation lives on in its fuzzy entry
    raw = po.read_text()
    assert '#| msgid "Thundering Charge"' in raw
    # a second change keeps the source the translation was made from
    heroes.write_text(text.replace("Move up to 6 :hex:", "Move up to 7 :hex:"))
    translate(pack, "--lang", "de")
    assert catalog(po).get(FEAT.replace("5", "7")).previous_id == [FEAT]
    # a card taken out: its translation is kept as obsolete, not lost
    heroes.write_text(text.replace('name: "Thunder Charge"', 'name: "Thunder Charge"\n      ')
                      .replace("    name: Torva Greymantle", "    name: Torva the Grey"))
    translate(pack, "--lang", "de")
    cat = catalog(po)
    assert cat.get("Torva the Grey").fuzzy  # renamed in place: fuzzy, found by its card and field


def test_babel_still_reads_previous_msgids_as_comments():
    """Why catalog.py reads and writes `#| msgid` itself (python-babel/babel#206): when this fails,
    Babel reads them on its own and the workaround in catalog.py can go."""
    raw = b'#, fuzzy\n#| msgid "Old"\nmsgid "New"\nmsgstr "Neu"\n'
    message = read_po(io.BytesIO(raw)).get("New")
    assert message.previous_id == [] and message.user_comments == ['| msgid "Old"']
    from babel.messages.catalog import Catalog
    long = Catalog(locale="de")
    long.add("New", "Neu", flags=["fuzzy"], previous_id=["word " * 30])
    out = io.BytesIO()
    write_po(out, long, include_previous=True)
    assert '#| msgid ""\n#| "word' not in out.getvalue().decode()  # wrapped as prose: unreadable
    fixed = po_bytes(long).decode()
    assert '#| msgid ""\n#| "word word' in fixed


def test_a_translation_that_loses_its_markup_is_an_error_naming_the_entry(pack):
    translate(pack, "--lang", "de")
    po = pack / "translations" / "de.po"
    fill(po, {**KEYWORDS, FEAT: GERMAN_FEAT.replace(":hex:", "Felder").replace("Festgesetzt", "festgesetzt")})
    with pytest.raises(InputError) as caught:
        load_pack(pack, lang="de")
    (problem,) = caught.value.problems
    lines = po.read_text().splitlines()
    line = next(n for n, text in enumerate(lines, 1) if text == 'msgid ""' and lines[n].startswith('"Move up to 5 :hex: in a straight line, then'))
    assert problem.code == "translation.markup" and problem.location.line == line
    assert "drops the icon :hex:; drops the keyword Immobilised (as Festgesetzt)" in problem.message
    assert "card/oriel-vance/feat/text" in problem.message
    result = CliRunner().invoke(main, ["validate", str(pack), "--lang", "de"])
    assert result.exit_code == 2 and "translation.markup" in result.output


def test_a_pack_in_another_language_and_what_falls_back(pack):
    translate(pack, "--lang", "de")
    fill(pack / "translations" / "de.po", {**KEYWORDS, FEAT: GERMAN_FEAT, "Boss Fight": "Bosskampf",
                                           "Hero Set": "Heldenset", "Torva Greymantle": "Torva Graumantel",
                                           "Might": "Macht", "Action Decks": "Aktionsdecks"})
    german = load_pack(pack, lang="de")
    assert german.spec.language == "de" and german.spec.name == "Bosskampf"
    assert german.cards["torva-greymantle"].name == "Torva Graumantel"
    assert german.cards["oriel-vance"].feat["text"] == GERMAN_FEAT
    assert german.spec.sets["hero"].name == "Heldenset"
    # a choice value stays as written (rules match it); a layout shows it through pgettext
    assert german.cards["torva-greymantle"].constitution == "Might"
    assert german.translation.pgettext("constitution", "Might") == "Macht"
    assert german.translation.gettext("Might") == "Might"  # no such string without its context
    t = german.translation
    assert t.said == "German (de)" and t.file.endswith("translations/de.po")
    from generator.pack.translations.catalog import forms_of
    assert len(t.missing) == sum(1 for m in catalog(pack / "translations" / "de.po") if m.id and not all(forms_of(m)))
    assert 1500 < len(t.missing) and not t.stale
    from generator.render.rulebook.templating import chapter_source
    _, chapter = chapter_source(pack / "rules" / "05-action-decks.md", german)
    assert chapter.startswith("# Aktionsdecks\n")
    from generator.pack.translations.fallback import fallback_warnings, strict_problems
    (warning,) = fallback_warnings(german)
    assert warning.startswith(f"warning: German (de): {len(t.missing)} strings of Bosskampf not translated yet")
    problems = strict_problems(german)
    assert len(problems) == len(t.missing)
    # each error points at its own entry in the PO file, where a translator fills it in
    lines = {(m.context, m.id): m.lineno for m in catalog(pack / "translations" / "de.po") if m.id}
    first = problems[0]
    assert first.location.line == lines[t.missing[0].key] > 1 and "translate its entry" in first.fix
    # the source pack is untouched by the load
    assert load_pack(pack).cards["torva-greymantle"].name == "Torva Greymantle"


def test_the_spreadsheet_reads_back_into_the_po_file(pack):
    translate(pack, "--lang", "de", "--format", "xlsx")
    sheet = pack / "translations" / "de.xlsx"
    from openpyxl import load_workbook
    book = load_workbook(sheet)
    ws = book["translations"]
    head = [c.value for c in ws[1]]
    assert head == ["context", "source", "translation", "fuzzy", "previous source", "where", "note", "form"]
    rows = {row[1].value: row for row in ws.iter_rows(min_row=2)}
    rows["Boss Fight"][2].value = "Bosskampf"
    rows["Torva Greymantle"][2].value = "Torva Graumantel"
    # a plural entry is a row per German form, each saying which numbers it is for
    assert (rows["remove {n} card"][7].value, rows["remove {n} cards"][7].value) == ("0: n = 1", "1: n = 0, 2, 3…")
    rows["remove {n} card"][2].value = "nimm {n} Karte heraus"
    rows["remove {n} cards"][2].value = "nimm {n} Karten heraus"
    book.save(sheet)
    out = translate(pack, "--lang", "de", "--format", "xlsx")
    assert "3 entries changed" in out and "3 translated" in out
    cat = catalog(pack / "translations" / "de.po")
    assert cat.get("Boss Fight").string == "Bosskampf" and cat.get("Torva Greymantle").string == "Torva Graumantel"
    assert cat.get("remove {n} card").string == ("nimm {n} Karte heraus", "nimm {n} Karten heraus")
    assert load_pack(pack, lang="de").translation.ngettext("remove {n} card", "remove {n} cards", 1) == \
        "nimm {n} Karte heraus"
    # an edited source column is refused at its cell, nothing written
    book = load_workbook(sheet)
    book["translations"]["B2"].value = "Bossfight"
    book.save(sheet)
    before = (pack / "translations" / "de.po").read_bytes()
    result = CliRunner().invoke(main, ["translate", str(pack), "--lang", "de", "--format", "xlsx"])
    assert result.exit_code == 2 and "cell B2" in result.output and "not one of the pack's strings" in result.output
    assert (pack / "translations" / "de.po").read_bytes() == before
    # a form cell naming no form (a superscript two is a digit to str.isdigit, not to int) is refused at its cell
    book = load_workbook(sheet)
    book["translations"]["B2"].value = "Boss Fight"
    cell = next(row[7] for row in book["translations"].iter_rows(min_row=2) if row[1].value == "remove {n} card")
    cell.value = "\u00b2: n = 1"
    book.save(sheet)
    result = CliRunner().invoke(main, ["translate", str(pack), "--lang", "de", "--format", "xlsx"])
    assert result.exit_code == 2 and f"cell {cell.coordinate}" in result.output, result.output
    assert "names none of the language's forms" in result.output and "Traceback" not in result.output
    assert (pack / "translations" / "de.po").read_bytes() == before


def test_the_report_counts_each_language(pack):
    translate(pack, "--lang", "de")
    fill(pack / "translations" / "de.po", {"Boss Fight": "Bosskampf", FEAT: "Ohne Symbole.", **KEYWORDS})
    result = CliRunner().invoke(main, ["translate", str(pack), "--report"])
    assert result.exit_code == 0, result.output
    header, row = result.output.splitlines()[1:3]
    assert header.split()[:5] == ["language", "done", "fuzzy", "missing", "broken"]
    # done: the name, the three keywords and Move and Attack as action types too (msgctxt action_type)
    total = len({s.key for s in pack_sources(load_pack(pack))})
    assert row.split()[:5] == ["de", "6", "0", str(total - 7), "1"]
    assert "broken" in result.output and "drops the icon :hex:" in result.output


def test_without_a_language_pnp_translate_says_which_to_start(pack):
    result = CliRunner().invoke(main, ["translate", str(pack)])
    assert result.exit_code == 2 and "--lang LANG" in result.output
    result = CliRunner().invoke(main, ["translate", str(pack), "--lang", "en"])
    assert result.exit_code == 2 and "is written in `en`" in result.output
    result = CliRunner().invoke(main, ["translate", str(pack), "--lang", "xx-nope"])
    assert result.exit_code == 2 and "no language Babel knows" in result.output


def test_pnps_own_words_are_listed_once_and_marked_where_they_print():
    """Every `say("...")` of the renderers is in OWN_WORDS (so it reaches the PO file), and every
    entry there is said somewhere (so the list does not outlive its words)."""
    import ast
    from generator.pack.translations.own import WORDS
    said = set()
    for path in (REPO / "generator").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "say" \
                    and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                said.add(node.args[0].value)
    assert said == WORDS, (sorted(said - WORDS), sorted(WORDS - said))


def test_pnps_own_plural_words_are_listed_once_and_said_with_both_forms():
    """Every `say_n("one", "many", n)` of the rules and renderers is in OWN_PLURALS (so it reaches
    the PO file as a plural entry), every entry there is said somewhere, and no message of ours is
    written with an English "(s)" any more (a German translation of one could only say "Karte(n)")."""
    import ast
    from generator.pack.translations.own import OWN_WORDS, PLURALS
    said = set()
    for path in (REPO / "generator").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or len(node.args) < 3:
                continue
            named = (isinstance(node.func, ast.Name) and node.func.id == "say_n") or (
                isinstance(node.func, ast.Call) and isinstance(node.func.func, ast.Name)
                and node.func.func.id == "plurals_of")
            if named and all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in node.args[:2]):
                said.add((node.args[0].value, node.args[1].value))
    assert said == PLURALS, (sorted(said - PLURALS), sorted(PLURALS - said))
    assert [text for _w, text, _n in OWN_WORDS if "(s)" in text] == []


def test_a_plural_entry_says_one_and_many_in_the_languages_forms(tmp_path):
    """`pnp translate` writes pnp's counted words as plural entries (msgid_plural) under the
    language's Plural-Forms header; a translation reads each form back and picks it by the rule:
    German "1 Karte", "0 Karten", "3 Karten"; an untranslated one says the English forms."""
    from generator.pack.translations.catalog import read_catalog, updated_catalog, usable_plurals, write_catalog
    from generator.pack.translations.table import Source, Translation, source_ngettext
    sources = [Source("pnp/rules", None, "remove {n} card", None, "a fix", "remove {n} cards"),
               Source("pnp/rules", None, "character", "a number of them", "counted", "characters"),
               Source("game.yaml", 3, "character")]
    path = tmp_path / "de.po"
    write_catalog(updated_catalog(None, sources, "G", "1", "g", "de"), path)
    text = path.read_text(encoding="utf-8")
    assert '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"' in text
    assert 'msgid "remove {n} card"\nmsgid_plural "remove {n} cards"\nmsgstr[0] ""\nmsgstr[1] ""' in text
    assert 'msgctxt "a number of them"\nmsgid "character"\nmsgid_plural "characters"' in text
    text = text.replace('msgid_plural "remove {n} cards"\nmsgstr[0] ""\nmsgstr[1] ""',
                        'msgid_plural "remove {n} cards"\nmsgstr[0] "nimm {n} Karte heraus"\nmsgstr[1] "nimm {n} Karten heraus"')
    path.write_text(text, encoding="utf-8")
    catalog = read_catalog(path, "de")
    plurals = usable_plurals(catalog)
    assert plurals == {(None, "remove {n} card"): ("nimm {n} Karte heraus", "nimm {n} Karten heraus")}
    german = Translation("de", "en", "de.po", plurals=plurals, plural_rule=catalog.plural_expr)
    assert [german.ngettext("remove {n} card", "remove {n} cards", n).format(n=n) for n in (1, 0, 3)] == \
        ["nimm 1 Karte heraus", "nimm 0 Karten heraus", "nimm 3 Karten heraus"]
    assert german.ngettext("character", "characters", 2, "a number of them") == "characters"  # not translated yet
    assert [source_ngettext("card", "cards", n) for n in (1, -1, 0, 2)] == ["card", "card", "cards", "cards"]
    # a language of three forms (Polish) picks by its own rule
    polish = Translation("pl", "en", "pl.po", plurals={(None, "c"): ("karta", "karty", "kart")},
                         plural_rule="(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)")
    assert [polish.ngettext("c", "cs", n) for n in (1, 3, 5, 22)] == ["karta", "karty", "kart", "karty"]
    # updating keeps the forms; a form lost from one of them is `missing`, not done
    again = updated_catalog(catalog, sources, "G", "1", "g", "de")
    assert again.get("remove {n} card").string == ("nimm {n} Karte heraus", "nimm {n} Karten heraus")
    # a rule gettext cannot read is one error at the file, not a traceback
    from generator.core.errors import InputError
    from generator.pack.translations.catalog import plural_rule
    path.write_text(path.read_text(encoding="utf-8").replace("plural=(n != 1);", "plural=(n !!= 1);"), encoding="utf-8")
    with pytest.raises(InputError) as raised:
        plural_rule(read_catalog(path, "de"), "de.po")
    assert raised.value.problems[0].code == "translation.plural-forms"


def test_a_string_pushed_down_by_a_new_one_keeps_its_translation_and_lends_none():
    """A paragraph inserted above others moves them down a line each: the moved ones keep their own
    translations, and the new one is missing, not a fuzzy copy of whatever stood on its line before.
    A string that did change is fuzzy with its old source."""
    from babel.messages.catalog import Catalog
    from generator.pack.translations.catalog import updated_catalog
    from generator.pack.translations.table import Source
    old = Catalog(locale="de")
    old.add("Statistics", "Werte", locations=[("rules/01.md", 10)])
    old.add("At least one die.", "Mindestens ein Würfel.", locations=[("rules/01.md", 12)])
    new = updated_catalog(old, [Source("rules/01.md", 10, "A new paragraph."),
                                Source("rules/01.md", 12, "Statistics"),
                                Source("rules/01.md", 14, "At least one six-sided die.")], "G", "1", "g", "de")
    fresh, moved, changed = (new.get(t) for t in ("A new paragraph.", "Statistics", "At least one six-sided die."))
    assert (fresh.string, fresh.fuzzy) == ("", False)
    assert (moved.string, moved.fuzzy) == ("Werte", False)
    assert (changed.string, changed.fuzzy, changed.previous_id) == ("Mindestens ein Würfel.", True,
                                                                    ["At least one die."])


def test_the_spreadsheet_without_the_xlsx_extra_is_one_message_and_nothing_written(pack, monkeypatch):
    import generator.pack.sheets.write as write
    monkeypatch.setattr(write, "xlsx_available", lambda: False)
    result = CliRunner().invoke(main, ["translate", str(pack), "--lang", "de", "--format", "xlsx"])
    assert result.exit_code == 2 and "needs openpyxl" in result.output and "xlsx" in result.output
    assert not (pack / "translations").exists()  # not even the PO file: nothing half done
