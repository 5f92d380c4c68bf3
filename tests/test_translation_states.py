"""What each of a pack's strings is in a translation (catalog.entries: done, fuzzy, missing,
broken) is said from the PO file as it is when `pnp translate` would keep every entry as it is
(catalog._as_updated), and from the updated catalog otherwise: the same states, words, lines and
problems either way, on the shipped German translation and on one with an entry gone and a
source changed."""

from __future__ import annotations

import shutil
from pathlib import Path

from generator.pack.load import load_pack
from generator.pack.translations import catalog
from generator.pack.translations.inventory import pack_sources

REPO = Path(__file__).resolve().parents[1]


def both_ways(monkeypatch, root: Path) -> tuple[list, list, bool]:
    pack = load_pack(root)
    sources = pack_sources(pack)
    old = catalog.read_catalog(root / "translations" / "de.po", "de")
    names = [k.name for k in pack.spec.keywords.values()]
    as_is = catalog._as_updated(old, catalog.grouped(sources))
    said = catalog.entries(old, sources, names)
    with monkeypatch.context() as m:
        m.setattr(catalog, "_as_updated", lambda old, wanted: False)
        updated = catalog.entries(old, sources, names)
    return said, updated, as_is


def test_the_shipped_translation_says_the_same_as_the_updated_catalog(monkeypatch):
    said, updated, as_is = both_ways(monkeypatch, REPO / "card_data" / "boss_fight")
    assert as_is and len(said) > 1800 and said == updated


def test_a_changed_pack_goes_through_the_updated_catalog(tmp_path, monkeypatch):
    root = tmp_path / "boss_fight"
    shutil.copytree(REPO / "card_data" / "boss_fight", root)
    po = root / "translations" / "de.po"
    text = po.read_text(encoding="utf-8")
    po.write_text(text.replace('msgstr "Bosskampf"', 'msgstr "Bosskampf"\n\n#~ msgid "x"\n#~ msgstr "y"'),
                  encoding="utf-8")
    game = root / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("name: Boss Fight", "name: Boss Fights"), encoding="utf-8")
    said, updated, as_is = both_ways(monkeypatch, root)
    assert not as_is and said == updated
    assert any(e.state == "fuzzy" and e.key == (None, "Boss Fights") for e in said)
