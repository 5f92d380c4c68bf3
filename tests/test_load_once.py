"""Load once, pass values: one `pnp build` (or `pnp validate`) of a pack parses each of its YAML
files once; every later stage takes the loaded pack, which carries its presets and maps."""

from __future__ import annotations

import collections
import contextlib
from pathlib import Path

import pytest

from generator.build import build_folder
from generator.validate.target import validate_target
from generator.maps.load import MAPS
from generator.pack.load import PRESETS
from generator.core import yamlio
from generator.pack.load import load_pack

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("pack", ["boss_fight", "tactics"])
def test_one_build_of_the_whole_kit_parses_each_file_once(tmp_path, parses, monkeypatch, pack):
    monkeypatch.chdir(REPO)
    lines = list(build_folder(Path("card_data") / pack, out_dir=tmp_path, parallel=False))
    assert any("cards.pdf" in line for line in lines) and any("rulebook.pdf" in line for line in lines)
    pack_files = [f for f in parses if f.startswith(f"card_data/{pack}/")]
    assert f"card_data/{pack}/game.yaml" in pack_files
    assert any("/maps/" in f for f in pack_files) and any("/cards/" in f for f in pack_files)
    assert {f: n for f, n in parses.items() if n != 1} == {}


def test_validating_a_pack_parses_each_file_once(parses, monkeypatch):
    monkeypatch.chdir(REPO)
    reports = validate_target(Path("card_data/boss_fight"))
    assert len(reports) == 1 + 10 + 7  # the pack, its 10 presets, its 7 maps
    assert sum(1 for f in parses if "/presets/" in f) == 10 and sum(1 for f in parses if "/maps/" in f) == 7
    # a rulebook diagram's scene is read as pack YAML is (yamlio.parse_kept), once for each language's
    # text: the English and the German (whose caption is translated)
    assert parses.pop("diagram") == 2
    assert {f: n for f, n in parses.items() if n != 1} == {}


@pytest.fixture
def built(monkeypatch):
    """Counts every preset built into a Build and every map built from its document, by file and
    by the language of the pack that built it."""
    import generator.maps.load as map_load
    import generator.pack.load as pack_load
    counts: collections.Counter = collections.Counter()
    make_build, make_map = pack_load.build_from_document, map_load.map_from_document

    def language(pack):
        return pack.spec.language

    def counting_build(doc, pack):
        counts[("build", doc.file, language(pack))] += 1
        return make_build(doc, pack)

    def counting_map(doc, pack, mid):
        counts[("map", doc.file, language(pack))] += 1
        return make_map(doc, pack, mid)

    monkeypatch.setattr(pack_load, "build_from_document", counting_build)
    monkeypatch.setattr(map_load, "map_from_document", counting_map)
    return counts


def test_validating_a_pack_builds_each_preset_and_map_once(built, monkeypatch):
    """The presets' reports, the rulebook's preset pages (drawn by the render check) and the
    maps' checks share one Build per preset and one map per file, in each language: the German
    check draws the rulebook's preset pages and the maps with their names in German, so it
    builds each once more from its translated copy (parsed once: the test above)."""
    monkeypatch.chdir(REPO)
    validate_target(Path("card_data/boss_fight"))
    for lang in ("en", "de"):
        assert sum(1 for kind, _f, at in built if kind == "build" and at == lang) == 10
        assert sum(1 for kind, _f, at in built if kind == "map" and at == lang) == 7
    assert {key: n for key, n in built.items() if n != 1} == {}
    assert {lang for _k, _f, lang in built} == {"en", "de"}


def test_the_loaded_pack_carries_its_presets_and_maps_to_the_workers(monkeypatch):
    """The parallel build sends the loaded pack (with its parsed presets and maps) to each
    worker process instead of a folder to read again."""
    monkeypatch.chdir(REPO)
    sent = []

    class Pool:  # stands in for the worker pool: records what each worker would receive
        def as_completed(self, fn, jobs, idle=None, interval=0.1):
            jobs = list(jobs)
            sent.extend(jobs)
            for index, job in enumerate(jobs):
                yield index, (job[0], [], [], [])  # (part, lines, staged outputs, refusals) of each part

    @contextlib.contextmanager
    def pool(processes, progress_queue=None):
        yield Pool()

    import generator.build as build_module
    monkeypatch.setattr(build_module, "worker_pool", pool)
    list(build_folder(Path("card_data/boss_fight"), out_dir=Path("unused")))
    packs = {id(job[1]) for job in sent}
    assert [job[0] for job in sent] == ["maps", "rulebook", "cards", "pieces"] and len(packs) == 1
    pack = sent[0][1]
    assert len(pack.loaded.get(PRESETS) or []) == 10 and len(pack.loaded.get(MAPS) or []) == 7
    assert str(Path("card_data/boss_fight/game.yaml")) in {key[0] for key in pack.documents}
    assert type(pack) is type(load_pack(Path("card_data/boss_fight")))


def changed_documents(pack) -> list[str]:
    """The files whose shared parsed document no longer holds what the file says."""
    return [key[0] for key, doc in pack.documents.items()
            if key is None or doc.data != yamlio.load_yaml_file(Path(key[0])).data]


def validated_pack(cache: dict):
    validate_target(Path("card_data/boss_fight"), cache=cache)
    (pack,) = cache.values()
    return pack


def test_a_translation_leaves_the_shared_documents_as_parsed(monkeypatch):
    """The pack in German reuses the files the English pack parsed and translates copies of
    them: after validating both, every shared document still holds what its file says."""
    monkeypatch.chdir(REPO)
    pack = validated_pack({})
    kinds = {Path(key[0]).parent.name for key in pack.documents if key}
    assert {"boss_fight", "cards", "presets", "maps"} <= kinds  # game.yaml, card files, presets, maps
    assert changed_documents(pack) == []


def test_the_shared_documents_guard_sees_a_translation_written_in_place(monkeypatch):
    """Self-test: a translation that writes into the parsed card files is caught."""
    import generator.pack.translations.apply as apply
    from generator.pack.translations.sources import _replace
    monkeypatch.chdir(REPO)

    def in_place(doc, paths, lookup):
        for path, text, context in paths:
            _replace(doc.data, path, lookup(context, text, path))
        return doc

    monkeypatch.setattr(apply, "translated_document", in_place)
    assert any("/cards/" in f for f in changed_documents(validated_pack({})))
