"""The words a pack's layouts and rulebook pages mark for translation are kept in the cache folder
(pack/translations/layouts.py, core/kept.py): the next process takes the same words without
Jinja's parse; a template changed since is read again."""

from __future__ import annotations

import shutil
from pathlib import Path

from generator.pack.translations import layouts

REPO = Path(__file__).resolve().parents[1]


def test_the_kept_words_are_the_ones_found_and_a_changed_layout_is_read_again(tmp_path, monkeypatch):
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    pack = tmp_path / "boss_fight"
    shutil.copytree(REPO / "card_data" / "boss_fight" / "templates", pack / "templates")
    parses: list[str] = []
    marked = layouts.marked
    monkeypatch.setattr(layouts, "marked", lambda source, env=None: parses.append(source) or marked(source, env))
    found = layouts.layout_sources(pack)
    assert parses and any(s.text == "expend %(cost)s" for s in found)
    count = len(parses)
    assert layouts.layout_sources(pack) == found and len(parses) == count  # kept: no template parsed
    hero = pack / "templates" / "cards" / "hero.yaml"
    hero.write_text(hero.read_text(encoding="utf-8").replace("_('expend %(cost)s')", "_('expand %(cost)s')"),
                    encoding="utf-8")
    changed = layouts.layout_sources(pack)
    assert len(parses) > count and any(s.text == "expand %(cost)s" for s in changed)
    assert not any(s.text == "expend %(cost)s" for s in changed) and len(changed) == len(found)
