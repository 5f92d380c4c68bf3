"""A YAML file that parsed is kept in the cache folder (core/yamlio.py, core/kept.py) and loaded by
the next process instead of parsed again: the same values and positions; a changed file is parsed
again, a broken one every time (its error the same words at the same line), a corrupt kept file
ignored."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from generator.core import yamlio
from generator.core.errors import InputError

REPO = Path(__file__).resolve().parents[1]


def fields(doc: yamlio.Document) -> tuple:
    return doc.file, doc.data, doc.positions, doc.key_positions


def test_a_file_parsed_once_is_loaded_as_it_was_parsed(tmp_path, parses):
    files = [REPO / "card_data/boss_fight/game.yaml", *sorted((REPO / "card_data/boss_fight/cards").glob("*.yaml"))]
    parsed = [yamlio.load_yaml_file(f) for f in files]
    assert sum(parses.values()) == len(files)
    loaded = [yamlio.load_yaml_file(f) for f in files]
    assert sum(parses.values()) == len(files)  # none parsed again
    assert [fields(d) for d in loaded] == [fields(d) for d in parsed]
    assert loaded[0].at(("name",)) == parsed[0].at(("name",)) and loaded[0].at(("name",)).line > 1
    copy = tmp_path / "other.yaml"  # the same text under another name: its own name in its locations
    shutil.copyfile(files[0], copy)
    assert yamlio.load_yaml_file(copy).at(("name",)).file.endswith("other.yaml")
    assert sum(parses.values()) == len(files)


def test_a_changed_file_is_parsed_again_and_a_broken_one_every_time(tmp_path, parses):
    path = tmp_path / "cards.yaml"
    path.write_text("cards:\n  - id: a\n    points: 3\n", encoding="utf-8")
    assert yamlio.load_yaml_file(path).data == {"cards": [{"id": "a", "points": 3}]}
    path.write_text("cards:\n  - id: a\n    points: 4\n", encoding="utf-8")
    assert yamlio.load_yaml_file(path).data == {"cards": [{"id": "a", "points": 4}]}
    assert sum(parses.values()) == 2
    path.write_text("cards:\n  - id: a\n    points: 4\n    points: 5\n", encoding="utf-8")  # a key twice
    said = []
    for _ in range(2):
        with pytest.raises(InputError) as caught:
            yamlio.load_yaml_file(path)
        said.append([(p.code, p.message, p.location.line) for p in caught.value.problems])
    assert said[0] == said[1] and said[0][0][:1] == ("yaml.duplicate-key",) and said[0][0][2] == 4
    assert sum(parses.values()) == 4


def test_a_corrupt_kept_file_is_parsed_again(tmp_path, parses):
    path = tmp_path / "game.yaml"
    path.write_text("id: x\nname: X\n", encoding="utf-8")
    first = yamlio.load_yaml_file(path)
    [kept] = list(Path(os.environ["PNP_CACHE_DIR"]).iterdir())
    kept.write_bytes(kept.read_bytes()[:-3])
    assert fields(yamlio.load_yaml_file(path)) == fields(first) and sum(parses.values()) == 2
    assert fields(yamlio.load_yaml_file(path)) == fields(first) and sum(parses.values()) == 2  # written again


_LOADS_BOSS_FIGHT = """
import sys
from pathlib import Path
from generator.pack.load import load_pack
from generator.validate.checks import read_shared_files
pack = load_pack(Path(sys.argv[1]))
read_shared_files(pack)
print("yaml" in sys.modules)
"""


def test_a_pack_whose_files_are_all_kept_is_loaded_without_pyyaml(tmp_path):
    # PyYAML (~10 ms to import) is loaded by core/yamlio.py only when a text is not kept:
    # the first process parses (and imports it), the next finds every file kept and never does
    import subprocess
    import sys
    env = dict(os.environ, PNP_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("PNP_NO_CACHE", None)
    ran = [subprocess.run([sys.executable, "-c", _LOADS_BOSS_FIGHT, str(REPO / "card_data/boss_fight")], env=env,
                          cwd=REPO, capture_output=True, text=True, check=True).stdout.split() for _ in range(2)]
    assert ran == [["True"], ["False"]]


def test_the_reader_fingerprint_follows_the_reader_and_pyyaml(monkeypatch, tmp_path):
    # a kept file is named by what reads it: a changed core/yamlio.py (by size and mtime), or
    # another PyYAML, is another reader. A copy stands in for the module (the checkout's is not touched)
    shutil.copy2(yamlio.__file__, tmp_path / "yamlio.py")
    monkeypatch.setattr(yamlio, "__file__", str(tmp_path / "yamlio.py"))
    yamlio._reader_fingerprint.cache_clear()
    try:
        before = yamlio._reader_fingerprint()
        st = (tmp_path / "yamlio.py").stat()
        os.utime(tmp_path / "yamlio.py", ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
        yamlio._reader_fingerprint.cache_clear()
        moved = yamlio._reader_fingerprint()
        assert moved != before
        import importlib.util
        found = importlib.util.find_spec("yaml")
        fake = tmp_path / "yaml"
        fake.mkdir()
        (fake / "__init__.py").write_text("__version__ = '99.0'\n")
        monkeypatch.setattr(importlib.util, "find_spec",
                            lambda name, *a: importlib.machinery.ModuleSpec(name, None, origin=str(fake / "__init__.py"))
                            if name == "yaml" else found)
        yamlio._reader_fingerprint.cache_clear()
        assert yamlio._reader_fingerprint() not in (before, moved)
    finally:
        yamlio._reader_fingerprint.cache_clear()
