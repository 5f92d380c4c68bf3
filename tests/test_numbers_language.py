"""Numbers a person reads, in the language of the page or the kit (pack/translations/numbers.py):
German writes "97,4 %" and "25,4 mm", English exactly as Python's format did before (the
English pages and kits are the same to the byte); an unknown language, or an install without
Babel, writes them as Python does. The builder's odds table and the German kit's map sizes and
hex sizes say them so; the numbers a program reads (a bar's CSS width) stay as they were."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from generator.pack.translations.numbers import _locale, number, numbers_of

REPO = Path(__file__).resolve().parents[1]
BOSS_FIGHT = REPO / "card_data" / "boss_fight"
VALUES = (0.0, 0.05, 1.0, 2.25, 2.35, 19.05, 25.4, 97.43, 100.0, 1234.5)


def test_english_numbers_are_written_as_python_writes_them():
    for value in VALUES:
        for lang in (None, "", "en"):
            assert number(value, lang) == f"{value:g}"
            assert number(value, lang, 1) == f"{value:.1f}"
            assert number(value, lang, 0) == f"{value:.0f}"


def test_german_numbers_take_a_decimal_comma():
    pytest.importorskip("babel")
    assert [number(v, "de", 1) for v in (97.43, 2.31, 100.0)] == ["97,4", "2,3", "100,0"]
    assert (number(25.4, "de"), number(19.05, "de"), number(25.0, "de"), number(1234.5, "de")) == \
        ("25,4", "19,05", "25", "1.234,5")
    assert number(3.0, "de", 0) == "3" and number(2.5, "fr", 1) == "2,5"


def test_an_unknown_language_or_no_babel_writes_numbers_as_python_does(monkeypatch):
    assert number(25.4, "xx") == "25.4" and number(97.43, "zz-QQ", 1) == "97.4"
    _locale.cache_clear()
    monkeypatch.setitem(sys.modules, "babel", None)
    try:
        assert number(25.4, "de") == "25.4" and number(97.43, "de", 1) == "97.4"
    finally:
        _locale.cache_clear()


def test_the_german_kit_says_its_map_and_hex_sizes_with_a_comma():
    pytest.importorskip("babel")
    from generator.pack.load import load_pack
    from generator.maps.load import load_pack_maps
    from generator.render.rulebook.reference import map_size
    from generator.pack.translations.own import words_of
    german, english = load_pack(BOSS_FIGHT, lang="de"), load_pack(BOSS_FIGHT)
    hexmap = next(m for m in load_pack_maps(german) if getattr(m, "hex_size", None) == 25.4)
    said = map_size(hexmap, words_of(german), numbers_of(german))
    assert "(25,4-mm-Felder)" in said and "25.4" not in said, said
    assert "(25.4 mm hexes)" in map_size(next(m for m in load_pack_maps(english) if getattr(m, "hex_size", None) == 25.4),
                                          words_of(english), numbers_of(english))
    assert numbers_of(german)(25.4) == "25,4" and numbers_of(english)(25.4) == "25.4"


def test_the_builders_odds_in_german_take_a_decimal_comma():
    pytest.importorskip("fastapi")
    pytest.importorskip("babel")
    from web_support import make_client
    import tempfile
    tmp = Path(tempfile.mkdtemp())
    client, _site = make_client(tmp / "builds", tmp / "cache")
    german = client.get("/p/boss_fight/edit?preset=party-oathsworn&lang=de").text
    client.cookies.clear()
    english = client.get("/p/boss_fight/edit?preset=party-oathsworn").text
    cells = re.compile(r'<span style="width: (\d+)%"></span></span> ([\d.,]+) %</td><td>([\d.,]+)</td>')
    de, en = cells.findall(german), cells.findall(english)
    assert de and len(de) == len(en)
    for (width_de, pct_de, exp_de), (width_en, pct_en, exp_en) in zip(de, en):
        assert width_de == width_en  # CSS: as a program reads it
        assert pct_de == pct_en.replace(".", ",") and exp_de == exp_en.replace(".", ",")
        assert "." in pct_en and "," not in pct_en
