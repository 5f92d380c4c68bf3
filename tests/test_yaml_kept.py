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
