"""pack/translations/poread.py reads a PO file as Babel's read_po does, or leaves it to Babel:
on every PO file pnp ships and on generated ones (well-formed, odd and broken), the quick
reading is either None or the very catalog Babel makes (every message's fields, the header, the
plural rule), and its entries are the ones the loader would take from Babel's catalog."""

from __future__ import annotations

import io
import shutil
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.core.errors import InputError
from generator.pack.load import load_pack
from generator.pack.translations import apply
from generator.pack.translations.catalog import read_po_file
from generator.pack.translations.poread import PoFile, quick_po_file

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted([*ROOT.glob("card_data/*/translations/*.po"), *ROOT.glob("generator/web/locale/*.po")])
DATES = ("POT-Creation-Date", "PO-Revision-Date")  # a catalog without them is stamped with the time it was made


def state(catalog: Catalog) -> Any:
    return ([m.__dict__ for m in catalog], {k: m.__dict__ for k, m in catalog.obsolete.items()},
            [(k, v) for k, v in catalog.mime_headers if k not in DATES], catalog.fuzzy, catalog.header_comment,
            str(catalog.locale), catalog.charset, catalog.num_plurals, catalog.plural_expr)


def babel(raw: bytes) -> Catalog:
    return read_po(io.BytesIO(raw), abort_invalid=True, charset="utf-8")


@pytest.mark.parametrize("kept", ["read", "loaded as kept"])
def test_shipped_files_are_read_quickly_and_alike(tmp_path, monkeypatch, kept):
    """Read, and loaded as kept in the cache folder by the reading before: the same."""
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path))
    assert len(SHIPPED) >= 2
    for path in SHIPPED:
        raw = path.read_bytes()
        quick = quick_po_file(raw)
        if kept != "read":
            assert len(list(tmp_path.iterdir())) == SHIPPED.index(path) + 1
            quick = quick_po_file(raw)
        assert quick is not None, path  # the usual shape: the quick reading does not give up on it
        expected = babel(raw)
        assert state(quick.catalog()) == state(expected), path
        light = PoFile.of(expected)
        assert quick.entries == light.entries and len(quick.entries) > 100
        assert (quick.locale_identifier, quick.plural_expr) == (light.locale_identifier, light.plural_expr)
        some = quick.entries[len(quick.entries) // 2]
        singular = some.id if isinstance(some.id, str) else some.id[0]
        assert quick.get(singular, some.context) == some


def test_a_file_whose_markup_held_is_not_checked_again_and_a_broken_one_always(tmp_path, monkeypatch):
    """A PO file whose every usable entry kept its markup is noted in the cache folder: the next
    load takes the same strings without checking each entry; one that lost an icon says so at
    every load."""
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    pack = tmp_path / "boss_fight"
    shutil.copytree(ROOT / "card_data" / "boss_fight", pack, ignore=shutil.ignore_patterns("*.pdf"))
    checks: list[str] = []
    lost = apply.lost_markup
    monkeypatch.setattr(apply, "lost_markup", lambda source, *a: checks.append(source) or lost(source, *a))
    first = load_pack(pack, lang="de", fallbacks=False).translation
    checked = len(checks)
    assert checked > 1000
    again = load_pack(pack, lang="de", fallbacks=False).translation
    assert first is not None and again is not None and len(checks) - checked < 50  # the plural entries' forms only
    assert again.strings == first.strings and list(again.strings) == list(first.strings)
    po = pack / "translations" / "de.po"
    po.write_text(po.read_text(encoding="utf-8").replace("bis zu 2 :hex: von", "bis zu 2 Felder von"), encoding="utf-8")
    for _ in range(2):
        with pytest.raises(InputError) as caught:
            load_pack(pack, lang="de", fallbacks=False)
        assert any("drops the icon :hex:" in p.message for p in caught.value.problems)


HEADER = ['msgid ""', 'msgstr ""', '"Language: de\\n"', '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"',
          '"POT-Creation-Date: 2000-01-01 00:00+0000\\n"', '"PO-Revision-Date: 2000-01-01 00:00+0000\\n"',
          '"Content-Type: text/plain; charset=utf-8\\n"', ""]
LINES = ["", "# a translator's note", "#. where it is", "#: game.yaml:3 card/x/text", "#: a:b:7 nocolon x:y",
         "#, fuzzy", "#, python-format, fuzzy", '#| msgid "old words"', '#~ msgid "gone"', '#~ msgstr "weg"',
         "#-#-#-#-#", 'msgctxt "keyword"', 'msgid "Attack"', 'msgid "Deal {n} damage :hex:\\n"', 'msgid ""',
         'msgid_plural "{n} cards"', 'msgstr "Angriff"', 'msgstr ""', 'msgstr[0] "{n} Karte"',
         'msgstr[1] "{n} Karten"', 'msgstr[2] "zu viele"', '"more \\"quoted\\" words\\t"', '"und mehr"',
         '   msgid "spaced"   ', "msgid\t\"tab\"", 'msgstr[x] "q"', "bogus line", "\u00a0", 'msgid "Attack"',
         '"Content-Type: text/plain; charset=latin-1\\n"', "#: \u2068a file\u2069:3", 'msgid "Ünïcödé"']
ENTRY = st.sampled_from([["#. a note", "#: cards.yaml:4", 'msgid "Heal"', 'msgstr "Heilen"', ""],
                         ['msgctxt "type"', 'msgid "Heal"', 'msgstr "Heilung"', ""],
                         ["#, fuzzy", 'msgid "Old"', 'msgstr "Alt"', ""],
                         ['msgid "{n} card"', 'msgid_plural "{n} cards"', 'msgstr[0] "{n} Karte"',
                          'msgstr[1] "{n} Karten"', ""],
                         ['msgid ""', '"Two "', '"lines"', 'msgstr ""', '"Zwei "', '"Zeilen"', ""]])


@settings(max_examples=400, deadline=None)
@given(header=st.booleans(), entries=st.lists(ENTRY, max_size=4),
       lines=st.lists(st.sampled_from(LINES), max_size=14), at=st.integers(0, 40))
def test_generated_files_are_read_alike_or_left_to_babel(header, entries, lines, at):
    body = [line for entry in entries for line in entry]
    body[at:at] = lines  # odd and broken lines among well-formed entries
    raw = "\n".join((HEADER if header else []) + body).encode("utf-8")
    try:
        expected, error = babel(raw), None
    except Exception as exc:  # noqa: BLE001  # whatever Babel raises, the quick reading may not read it
        expected, error = None, exc
    try:
        quick = quick_po_file(raw)
    except Exception as exc:  # noqa: BLE001  # an error Babel's catalog raises on the header: Babel's too
        assert error is not None and type(exc) is type(error) and str(exc) == str(error)
        return
    if quick is None:
        return
    assert error is None and expected is not None, raw
    assert state(quick.catalog()) == state(expected)
    assert quick.entries == PoFile.of(expected).entries


def test_what_the_quick_reading_leaves_reads_as_before(tmp_path):
    """An obsolete entry (`#~`) sends the file to Babel: the load reads it alike, and a broken
    file still gets Babel's message at its line."""
    po = tmp_path / "de.po"
    po.write_text("\n".join(HEADER + ['#: a.yaml:1', 'msgid "Heal"', 'msgstr "Heilen"', "",
                                      '#~ msgid "Gone"', '#~ msgstr "Weg"', ""]), encoding="utf-8")
    assert quick_po_file(po.read_bytes()) is None
    read = read_po_file(po, "de")
    assert [(e.id, e.string, e.lineno, e.locations) for e in read] == [("Heal", "Heilen", 10, [("a.yaml", 1)])]
    assert list(read.catalog().obsolete) == ["Gone"]
    po.write_text("\n".join(HEADER + ['msgid "Heal"', 'msgid "Twice"', 'msgstr "x"']), encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_po_file(po, "de")
    problem = caught.value.problems[0]
    assert problem.code == "translation.syntax" and problem.location.line == 9
    assert "missing msgstr for msgid 'Heal'" in problem.message
