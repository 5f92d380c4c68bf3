"""`pnp validate PACK` draws the pack in its own language and in each of its translations; the
command line draws the languages at once in worker processes (validate/drawn.py). The verdict
is the same as drawn one after the other: the same reports, warnings and errors, in the same
order, for the shipped pack and for a translation that does not fit."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.core.errors import InputError
from generator.core.report import reports_document
from generator.pack.translations.catalog import po_bytes, read_catalog
from generator.validate.target import validate_target

REPO = Path(__file__).resolve().parents[1]
BOSS_FIGHT = REPO / "card_data" / "boss_fight"
FEAT = "Move up to 5 :hex: in a straight line, then make a Heavy Attack. The target is Immobilised."


def verdict(pack: Path, parallel: bool) -> dict:
    """The JSON document `pnp validate --format json` prints."""
    try:
        return reports_document(validate_target(pack, parallel=parallel))
    except InputError as exc:
        return reports_document([], exc.problems)


@pytest.fixture
def too_long(tmp_path) -> Path:
    """Boss Fight whose German for one card's text is far too long for the card."""
    root = tmp_path / "boss_fight"
    shutil.copytree(BOSS_FIGHT, root)
    po = root / "translations" / "de.po"
    catalog = read_catalog(po, "de")
    (message,) = [m for m in catalog if m.id == FEAT]
    message.string += " Dieser Satz ist viel zu lang für die Karte." * 20
    po.write_bytes(po_bytes(catalog))
    return root


def test_the_languages_drawn_at_once_give_the_verdict_drawn_in_turn():
    parallel = verdict(BOSS_FIGHT, parallel=True)
    assert parallel == verdict(BOSS_FIGHT, parallel=False)
    assert parallel["legal"] and len(parallel["results"]) == 1 + 10 + 7


def test_a_german_text_that_does_not_fit_is_found_in_a_worker_too(too_long):
    parallel = verdict(too_long, parallel=True)
    assert parallel == verdict(too_long, parallel=False)
    (error,) = parallel["errors"]
    assert error["code"] == "card.text-overflow" and "in German (de)" in error["message"]
    assert "oriel-vance" in error["message"]


@pytest.fixture
def found_everywhere(too_long) -> Path:
    """`too_long`, with a preset that does not read (found by the checks that draw nothing and by
    the rulebook, which lists the presets) and a card text too long in English too."""
    shutil.copyfile(REPO / "tests" / "corpus" / "pack" / "preset-tab.yaml", too_long / "presets" / "zz-tab.yaml")
    shutil.copyfile(REPO / "tests" / "corpus" / "pack" / "card-text-overflow.yaml", too_long / "cards" / "zz-long.yaml")
    return too_long


def test_every_part_in_every_language_gives_the_verdict_drawn_in_turn(found_everywhere):
    # pack_checks run while the workers draw: the same findings as drawn in turn, in the same order
    parallel = verdict(found_everywhere, parallel=True)
    assert parallel == verdict(found_everywhere, parallel=False)
    found = sorted((e["code"], "(de)" in e["message"] or "[de]" in e["message"]) for e in parallel["errors"])
    assert found == [("card.text-overflow", False), ("card.text-overflow", True), ("card.text-overflow", True),
                     ("yaml.syntax", False), ("yaml.syntax", False), ("yaml.syntax", True)]


def test_a_translation_that_does_not_load_gives_the_verdict_drawn_in_turn(found_everywhere):
    po = found_everywhere / "translations" / "de.po"
    po.write_text(po.read_text(encoding="utf-8") + '\nmsgid "unclosed\n', encoding="utf-8")
    parallel = verdict(found_everywhere, parallel=True)
    assert parallel == verdict(found_everywhere, parallel=False)
    assert sorted(e["code"] for e in parallel["errors"]) == ["card.text-overflow", "translation.syntax",
                                                             "yaml.syntax", "yaml.syntax"]


def test_a_translation_validate_draws_is_the_same_pack_without_its_fallbacks_counted():
    # validate's pass over each translation says no fallback (`--lang` does): the load skips
    # counting them, half of its time, and loads the same cards, game and words
    from generator.pack.load import load_pack
    pack = load_pack(BOSS_FIGHT)
    counted = load_pack(BOSS_FIGHT, pack.documents, lang="de")
    drawn = load_pack(BOSS_FIGHT, pack.documents, lang="de", fallbacks=False)
    assert counted.translation is not None and drawn.translation is not None
    assert repr(drawn.cards) == repr(counted.cards) and drawn.spec == counted.spec  # (a Card compares by identity)
    assert drawn.translation.strings == counted.translation.strings and drawn.translation.digest == counted.translation.digest
    assert counted.translation.lines and drawn.translation.lines == {}
    assert drawn.translation.missing == drawn.translation.stale == ()
