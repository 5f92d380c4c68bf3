"""One verdict for one input (issue 37): `pnp build` refuses what `pnp validate` refuses, with
the same findings, the same severities and the same exit code, and then keeps no file; what
validate lets through (warnings included) builds. Each case is a copy of the tactics pack
(presets, maps, a rulebook) with one thing changed."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main

REPO = Path(__file__).resolve().parents[1]
TACTICS = REPO / "card_data" / "tactics"
PRESET = "presets/dawn-ridge-wardens.yaml"


def _text_on_bar(root: Path, text: str, bar: str) -> None:
    """A bar of colour `bar` on the unit cards with a line of text `text` (a colour) on it."""
    layout = root / "templates" / "cards" / "unit.yaml"
    layout.write_text(layout.read_text(encoding="utf-8").rstrip("\n") + "\n"
                      f'  - {{id: bar, kind: box, x: 5, y: 63, w: 50, h: 8, fill: "{bar}"}}\n'
                      f'  - {{id: on-bar, kind: text, x: 6, y: 64, w: 40, h: 5, text: "Attack", size: 8, '
                      f'color: "{text}"}}\n', encoding="utf-8")


def _edit(root: Path, name: str, old: str, new: str) -> None:
    path = root / name
    text = path.read_text(encoding="utf-8")
    assert old in text, (name, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


CASES = {
    # text at 1.19:1 on a card: an error (exit 2) that validate has refused and build printed as a warning
    "unreadable-text": (2, lambda r: _text_on_bar(r, "#7a1f1f", "#1f4e7a")),
    # a preset over its points limit: validate says not legal (exit 1)
    "illegal-preset": (1, lambda r: _edit(r, PRESET, "points_limit: skirmish", "points_limit: 5")),
    # a preset that names no card of the pack: a rule error (exit 1)
    "unknown-card-in-preset": (1, lambda r: _edit(r, PRESET, "unit: cliff-runner", "unit: cliff-runnr")),
    # a preset that is not YAML: unreadable (exit 2), which the build had left out of the rulebook
    "unreadable-preset": (2, lambda r: _edit(r, PRESET, "name: The Ridge Wardens", "name: [The Ridge Wardens")),
    # text at 3.5:1: a warning, for both; the kit builds
    "faint-text": (0, lambda r: _text_on_bar(r, "#8a8171", "#f8f4ea")),
}


def _pack(tmp_path: Path, change) -> Path:
    root = tmp_path / "tactics"
    shutil.copytree(TACTICS, root)
    change(root)
    return root


def _codes(text: str) -> set[str]:
    """The rule and problem codes named in a command's output (`points.limit`, `text.contrast`)."""
    return set(re.findall(r"\b(?:error|warning):? ([a-z]+(?:\.[a-z-]+)+)(?=[: ])", text))


@pytest.mark.parametrize("case", sorted(CASES))
def test_build_gives_the_verdict_validate_gives(case, tmp_path):
    code, change = CASES[case]
    root = _pack(tmp_path, change)
    runner = CliRunner()
    checked = runner.invoke(main, ["validate", str(root)])
    assert checked.exit_code == code, checked.output
    built = runner.invoke(main, ["build", str(root), "-q", "-o", str(tmp_path / "out")])
    assert built.exit_code == code, built.output
    assert "Traceback" not in built.output
    said = _codes(checked.output)
    assert said and said <= _codes(built.output), (checked.output, built.output)
    made = sorted(p.name for p in (tmp_path / "out").iterdir()) if (tmp_path / "out").exists() else []
    if code:
        assert made == [], "a refused build keeps no file"
    else:
        assert "cards.pdf" in made and "maps.pdf" in made


def test_build_of_a_build_file_gives_its_validate_verdict(tmp_path):
    """`pnp build --build FILE` refuses a build `pnp validate FILE` calls not legal (exit 1)."""
    build = tmp_path / "over.yaml"
    build.write_text((TACTICS / PRESET).read_text(encoding="utf-8").replace("points_limit: skirmish",
                                                                          "points_limit: 5"), encoding="utf-8")
    runner = CliRunner()
    checked = runner.invoke(main, ["validate", str(build), "--pack", str(TACTICS), "--format", "json"])
    assert checked.exit_code == 1
    rules = {v["rule"] for r in json.loads(checked.output)["results"] for v in r["violations"]}
    built = runner.invoke(main, ["build", str(TACTICS), "--build", str(build), "-o", str(tmp_path / "out")])
    assert built.exit_code == 1, built.output
    assert rules == {"points.limit"} and "points.limit" in built.output and "NOT LEGAL" in built.output
    assert not (tmp_path / "out").exists()


def test_severity_is_decided_in_one_place():
    """The drawn checks' findings become errors or warnings in one function, which validate's
    render check and the build both call; no other module turns a Finding into a verdict."""
    users = []
    for path in sorted((REPO / "generator").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if re.search(r"\.severity == \"error\"", text) and "Finding" in text:
            users.append(path.relative_to(REPO).as_posix())
    # preflight's own report counts its errors (a service's verdict), render_check judges for both
    assert set(users) <= {"generator/preflight/render_check.py", "generator/preflight/target.py",
                          "generator/cli/preflight.py"}, users
    build = (REPO / "generator" / "build.py").read_text(encoding="utf-8")
    assert "judged(" in build and "grouped_lines" not in build
