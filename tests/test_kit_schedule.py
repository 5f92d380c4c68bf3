"""A whole kit's build in its two workers (build.py): the maps part goes first, and maps.pdf is
read back for the contrast of its text in a job of its own once the maps are staged
(build.READ_BACK), beside the other parts. What that job finds is judged as when the maps part
reads itself back in one process: the same lines, and an error keeps no file."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.build import READ_BACK, build_folder
from generator.core.errors import InputError
from generator.export.profile_table import PROFILES
from generator.render.base.readback import TextOnPaint

REPO = Path(__file__).resolve().parents[1]
BOSS_FIGHT = REPO / "card_data" / "boss_fight"


def _reading(monkeypatch, ratio: float, log: Path):
    """Every map read-back finds one label at `ratio`, and writes down what it read (the
    workers are forked: the log file is how they tell)."""
    def low_contrast_text(path):
        data = Path(path).read_bytes()
        with log.open("a", encoding="utf-8") as f:
            f.write(f"{Path(path).name} {data[:5].decode('latin-1')}\n")
        grey = 0.35 if ratio < 3 else 0.3
        return [(3, TextOnPaint("3,-1", (grey,) * 3, (0.62,) * 3, ratio, (10.0, 10.0, 20.0, 16.0)))]

    monkeypatch.setattr("generator.render.base.readback.low_contrast_text", low_contrast_text)
    monkeypatch.setattr("generator.render.maps.document.low_contrast_text", low_contrast_text)
    monkeypatch.setattr("generator.build.low_contrast_text", low_contrast_text)


def test_the_maps_go_first_and_their_read_back_is_a_job_of_its_own():
    assert PROFILES["home"].parts[0] == "maps" and READ_BACK not in PROFILES["home"].parts


@pytest.mark.parametrize("ratio", [3.5, 2.6])
def test_the_read_back_job_finds_what_the_maps_part_finds(ratio, tmp_path, monkeypatch):
    said: dict[bool, list[str]] = {}
    for parallel in (False, True):
        log = tmp_path / f"read-{parallel}.txt"
        _reading(monkeypatch, ratio, log)
        out = tmp_path / f"kit-{parallel}"
        if ratio < 3:  # an error: refused, with the finding, and nothing kept
            with pytest.raises(InputError) as refused:
                list(build_folder(BOSS_FIGHT, out_dir=out, parallel=parallel))
            said[parallel] = [f"{p.code}: {p.message}" for p in refused.value.problems]
            assert not out.exists()
        else:
            lines = list(build_folder(BOSS_FIGHT, out_dir=out, parallel=parallel))
            said[parallel] = [line for line in lines if "text.contrast" in line]
            assert (out / "maps.pdf").is_file()
        read = log.read_text(encoding="utf-8").splitlines()
        assert len(read) == 1 and read[0].endswith(" %PDF-")  # maps.pdf, once, while still staged
        assert read[0].split()[0] != "maps.pdf" or not parallel
    assert said[True] == said[False] and len(said[True]) == 1 and "maps.pdf" in said[True][0]
    assert "“3,-1”" in said[True][0] and f"contrast of {ratio:.2f}:1" in said[True][0]
    assert said[True][0].startswith("warning: text.contrast") == (ratio >= 3)
