"""Hyphenation dictionaries read as words need them (render/base/hyphenation.py): every
dictionary pyphen ships gives the same patterns, parsed, as pyphen's own reading, the same
hyphenation points for real words, and the text fitter uses it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pyphen
import pytest

from generator.render.base.hyphenation import hyphenator, read_patterns
from generator.render.base.text import TextFitter

DICTIONARIES = sorted({path for name, path in pyphen.LANGUAGES.items() if name == path.name[5:-4]})


@pytest.mark.parametrize("path", DICTIONARIES, ids=lambda p: p.name)
def test_every_dictionary_gives_pyphens_own_patterns(path):
    ours, theirs = read_patterns(Path(path)), pyphen.HyphDict(Path(path))
    parsed = {letters: ours.patterns.get(letters) for letters in ours.patterns}
    assert parsed == theirs.patterns and ours.maxlen == theirs.maxlen
    # a nonstandard hyphenation (hu_HU's `ssz/sz=sz`) keeps its data too
    assert {k: [getattr(v, "data", None) for v in values] for k, (_o, values) in parsed.items()} == \
        {k: [getattr(v, "data", None) for v in values] for k, (_o, values) in theirs.patterns.items()}


def test_a_pattern_s_letters_are_its_line_without_any_digit():
    # the digits dropped as bytes of UTF-8 text, then any other script's by the regular
    # expression: ligatures, a curly apostrophe and a Devanagari two kept or dropped as \\d says
    from generator.render.base.hyphenation import _letters
    text = "1ﬁ2n\n’3s\n.a4b\u0968c\n\u00e91x\n"
    assert _letters(text) == "ﬁn\n’s\n.abc\n\u00e9x\n"
    assert _letters("a1b\n") == "ab\n"


WORDS = {"de_DE": "Aktionsdeck Schwerer Angriff Heldengruppe Festgesetzt Kohlenbrustkorb Überflutete "
                  "Zwillingsinseln Dämmerwacht-Vettel Spiegelhandarm",
         "en_GB": "Immobilised straight extraordinary hyphenation Greymantle Behemoth constitution"}


@pytest.mark.parametrize("lang", sorted(WORDS))
def test_the_same_hyphenation_points(lang):
    ours, theirs = hyphenator(lang), pyphen.Pyphen(lang=lang, cache=False)
    assert ours.hd is not theirs.hd  # ours, not a second reading of pyphen's
    for word in WORDS[lang].split():
        assert ours.positions(word) == theirs.positions(word), word
    assert ours.positions("Kohlenbrustkorb" if lang == "de_DE" else "extraordinary")


def test_the_fitter_hyphenates_with_it():
    path = pyphen.LANGUAGES["de_DE"]
    pyphen.hdcache.pop(path, None)
    layout = TextFitter([], "de_DE").fit("Die Zwillingsinselverwaltung kommt", 70, 60, 9, 8)
    words = [[run.value for run in line.runs] for line in layout.lines]
    assert words[:2] == [["Die", "Zwillingsin-"], ["selverwaltung"]]
    assert isinstance(pyphen.hdcache[path].patterns, dict) and type(pyphen.hdcache[path].patterns) is not dict


def test_the_patterns_kept_on_disk_are_the_ones_read(tmp_path, monkeypatch):
    """A dictionary's lines by their letters are kept in the cache folder: the next process loads
    the same patterns; a file changed since (its size or mtime) is read again, and a corrupt kept
    file is ignored and written again."""
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    dic = tmp_path / "hyph_xx.dic"
    shutil.copyfile(pyphen.LANGUAGES["de_DE"], dic)
    fresh = read_patterns(dic)
    kept = list((tmp_path / "cache").iterdir())
    assert len(kept) == 1
    loaded = read_patterns(dic)
    assert dict(loaded.patterns) == dict(fresh.patterns) and loaded.maxlen == fresh.maxlen
    assert {k: loaded.patterns.get(k) for k in loaded.patterns} == pyphen.HyphDict(Path(dic)).patterns
    kept[0].write_bytes(kept[0].read_bytes()[:-100])  # corrupt: read again
    assert dict(read_patterns(dic).patterns) == dict(fresh.patterns)
    with dic.open("a", encoding="iso8859-1") as out:  # a pattern added: another file, its pattern there
        out.write("\nxq1z\n")
    changed = read_patterns(dic)
    assert changed.patterns.get("xqz") == (2, (1,)) and fresh.patterns.get("xqz") is None
    assert len(list((tmp_path / "cache").iterdir())) == 2
