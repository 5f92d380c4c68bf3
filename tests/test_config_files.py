"""The saved calibration file is input like any other: one schema (pydantic) with the same
±20 mm bound as a typed reading, errors at file:line, exit 2; odd paths (a folder, /proc,
a path under a file) are one clear line; parallel saves never collide."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.core.calibration import MAX_OFFSET_MM, load_back_offset, parse_offset, save_back_offset
from generator.core.errors import InputError

REPO = Path(__file__).resolve().parents[1]


def saved(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "calibration.json"
    path.write_text(text, encoding="utf-8")
    return path


def problems_of(path: Path):
    with pytest.raises(InputError) as err:
        load_back_offset(path)
    return err.value.problems


GOOD = '{\n  "format": "pnp.calibration/1",\n  "flips": {\n    "long-edge": {\n      "reading_mm": [%s, %s]\n    }\n  }\n}\n'


@pytest.mark.parametrize("dx, dy", [("1.5", "-0.5"), ("20", "-20"), ("0", "0")])
def test_a_reading_within_the_bound_is_read(tmp_path, dx, dy):
    assert load_back_offset(saved(tmp_path, GOOD % (dx, dy))) == (float(dx), float(dy))


@pytest.mark.parametrize("dx, says", [("1000000", "less than or equal to 20"), ("-20.01", "greater than or equal to -20"),
                                      ("true", "valid number"), ("false", "valid number"), ('"1"', "valid number"),
                                      ("NaN", "NaN is not a number"), ("Infinity", "Infinity is not a number"),
                                      ("1_0", "not JSON")])
def test_a_reading_out_of_the_schema_is_an_error_at_its_line(tmp_path, dx, says):
    path = saved(tmp_path, GOOD % (dx, "0"))
    (problem,) = problems_of(path)
    assert problem.code == "calibration.file" and says in problem.message
    assert problem.location.file == str(path)
    if dx not in ("NaN", "Infinity"):
        assert problem.location.line == 5  # the reading's line
        if says != "not JSON":
            assert problem.message.startswith("flips.long-edge.reading_mm.0:")


@pytest.mark.parametrize("text, says", [
    ('{"format": "pnp.calibration/2", "flips": {}}', "format"),
    ('{"format": "pnp.calibration/1", "flips": {"sideways": {"reading_mm": [0, 0]}}}', "flips.sideways"),
    ('{"format": "pnp.calibration/1", "flips": {"long-edge": {"reading_mm": [0]}}}', "reading_mm"),
    ('{"format": "pnp.calibration/1", "flips": {"long-edge": {"reading_mm": [0, 0], "x": 1}}}', "long-edge.x"),
    ('[]', "the file"),
    ('[' * 100_000 + ']' * 100_000, "nested"),
    ('{"a":' * 5_000 + '1' + '}' * 5_000, ""),
])
def test_a_damaged_file_is_one_clear_error(tmp_path, text, says):
    problems = problems_of(saved(tmp_path, text))
    assert problems and all(p.code in ("calibration.file", "yaml.too-deep") for p in problems)
    assert says in " ".join(p.message for p in problems)


def test_the_typed_reading_and_the_file_share_one_bound(tmp_path):
    assert parse_offset(f"{MAX_OFFSET_MM:g},0") == (MAX_OFFSET_MM, 0.0)
    for typed in (f"{MAX_OFFSET_MM + 0.01},0", "1_0,2", "true,0", "0x1,0", "1,2,3", " ,1", "\uff10,1", "1e400,0"):
        with pytest.raises(InputError):
            parse_offset(typed)
    assert load_back_offset(saved(tmp_path, GOOD % (MAX_OFFSET_MM, 0))) == (MAX_OFFSET_MM, 0.0)
    problems_of(saved(tmp_path, GOOD % (MAX_OFFSET_MM + 0.01, 0)))


def test_build_and_calibrate_exit_2_on_a_damaged_file(tmp_path):
    path = saved(tmp_path, GOOD % ("1000000", "0"))
    runner = CliRunner()
    for args in (["calibrate", "--config", str(path)], ["calibrate", "1,1", "--config", str(path)],
                 ["build", "card_data/boss_fight", "--only", "cards", "--config", str(path), "-o", str(tmp_path / "o")]):
        result = runner.invoke(main, args)
        assert result.exit_code == 2, (args, result.output)
        assert f"{path}:5" in result.output and "calibration.file" in result.output
    assert not (tmp_path / "o").exists()


def _pnp(*args, env=None):
    env = dict(os.environ, **(env or {}))
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=120)


@pytest.mark.parametrize("where, says", [("dir", "is a folder|is a directory"), ("/proc/pnp-no-such/calibration.json", "cannot"),
                                         ("under-file", "Not a directory")])
def test_a_config_path_that_is_no_file_is_one_line_exit_2(tmp_path, where, says):
    if where == "dir":
        path = tmp_path
    elif where == "under-file":
        (tmp_path / "plain").write_text("x")
        path = tmp_path / "plain" / "calibration.json"
    else:
        path = Path(where)
    for args, env in ((["calibrate", "1,1"], {"PNP_CONFIG": str(path)}), (["calibrate", "1,1", "--config", str(path)], {}),
                      (["calibrate"], {"PNP_CONFIG": str(path)})):
        done = _pnp(*args, env=env)
        if where.startswith("/proc") and args == ["calibrate"]:
            assert done.returncode == 0  # nothing saved there: nothing to show
            continue
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr and any(s in done.stderr for s in says.split("|")), done.stderr
        assert len(done.stderr.strip().splitlines()) <= 8
    if where != "/proc/pnp-no-such/calibration.json":  # a build reads the same file first
        done = _pnp("build", "card_data/boss_fight", "--only", "cards", "-o", str(tmp_path / "out"),
                    env={"PNP_CONFIG": str(path)})
        assert done.returncode == 2 and "calibration.file" in done.stderr and "Traceback" not in done.stderr
        assert not (tmp_path / "out").exists()


def test_twenty_parallel_calibrates_all_succeed_and_leave_one_whole_file(tmp_path):
    config = tmp_path / "cfg" / "calibration.json"
    env = dict(os.environ, PNP_CONFIG=str(config))
    runs = [subprocess.Popen([sys.executable, "-m", "generator", "calibrate", f"{i / 10:g},-{i / 10:g}",
                              "--duplex", "long-edge" if i % 2 else "short-edge"],
                             cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for i in range(20)]
    results = [(p.wait(timeout=120), *p.communicate()) for p in runs]
    assert all(code == 0 for code, _, _ in results), [err for code, _, err in results if code]
    doc = json.loads(config.read_text())
    assert set(doc["flips"]) <= {"long-edge", "short-edge"}
    reading = tuple(doc["flips"]["long-edge"]["reading_mm"]) if "long-edge" in doc["flips"] else None
    assert reading is None or reading in {(i / 10, -i / 10) for i in range(1, 20, 2)}
    assert sorted(p.name for p in config.parent.iterdir()) == ["calibration.json"]  # no temporary file left


def test_a_save_goes_through_a_temporary_file_of_its_own(tmp_path, monkeypatch):
    config = tmp_path / "calibration.json"
    seen = []
    real = os.replace

    def spy(src, dst):
        seen.append((Path(src).name, Path(dst).name))
        return real(src, dst)

    monkeypatch.setattr(os, "replace", spy)
    save_back_offset((1.0, 2.0), "long-edge", config)
    save_back_offset((1.0, 3.0), "long-edge", config)
    assert len(seen) == 2 and seen[0][0] != seen[1][0] and all(d == "calibration.json" for _, d in seen)
    assert load_back_offset(config) == (1.0, 3.0)
