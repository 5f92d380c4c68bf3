"""One verdict for one input (issue 37): `pnp build` refuses what `pnp validate` refuses (exit
2), with the same findings and severities, and then keeps no file; what validate lets
through builds, its warnings printed, and so does what only breaks a rule (validate's exit 1:
a verdict on a build's legality, printed as `warning: not legal`). Each case is a copy of the
tactics pack (presets, maps, a rulebook) with one thing changed."""

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


# case -> (validate's exit code, build's, the change)
CASES = {
    # text at 1.19:1 on a card: an error (exit 2) that validate has refused and build printed as a warning
    "unreadable-text": (2, 2, lambda r: _text_on_bar(r, "#7a1f1f", "#1f4e7a")),
    # a preset that is not YAML: unreadable (exit 2), which the build had left out of the rulebook
    "unreadable-preset": (2, 2, lambda r: _edit(r, PRESET, "name: The Ridge Wardens", "name: [The Ridge Wardens")),
    # a map that is not YAML
    "unreadable-map": (2, 2, lambda r: _edit(r, "maps/twin-spires.yaml", "title: The Twin", "title: [The Twin")),
    # text at 3.5:1: a warning, for both; the kit builds
    "faint-text": (0, 0, lambda r: _text_on_bar(r, "#8a8171", "#f8f4ea")),
    # a preset over its points limit: not legal (exit 1); the kit (its rulebook marks the preset) builds
    "illegal-preset": (1, 0, lambda r: _edit(r, PRESET, "points_limit: skirmish", "points_limit: 5")),
    # a preset that names no card of the pack: a rule error too
    "unknown-card-in-preset": (1, 0, lambda r: _edit(r, PRESET, "unit: cliff-runner", "unit: cliff-runnr")),
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
    checks, builds, change = CASES[case]
    root = _pack(tmp_path, change)
    runner = CliRunner()
    checked = runner.invoke(main, ["validate", str(root)])
    assert checked.exit_code == checks, checked.output
    built = runner.invoke(main, ["build", str(root), "-q", "-o", str(tmp_path / "out")])
    assert built.exit_code == builds, built.output
    assert "Traceback" not in built.output
    said = _codes(checked.output)
    assert said and said <= _codes(built.output), (checked.output, built.output)  # the same findings
    made = sorted(p.name for p in (tmp_path / "out").iterdir()) if (tmp_path / "out").exists() else []
    if builds:
        assert not (tmp_path / "out").exists(), "a refused build keeps no file, nor the folder it made"
        assert all(f"error {code}" in built.output for code in said)  # the same severities
    else:
        assert "cards.pdf" in made and "maps.pdf" in made
    if checks == 1:
        assert "warning: not legal" in built.stderr


def test_build_of_a_build_file_says_what_validate_says(tmp_path):
    """`pnp build --build FILE` prints a build that is not legal (a build in the making) and
    says each rule error `pnp validate FILE` gives."""
    build = tmp_path / "over.yaml"
    build.write_text((TACTICS / PRESET).read_text(encoding="utf-8").replace("points_limit: skirmish",
                                                                          "points_limit: 5"), encoding="utf-8")
    runner = CliRunner()
    checked = runner.invoke(main, ["validate", str(build), "--pack", str(TACTICS), "--format", "json"])
    assert checked.exit_code == 1
    rules = {v["rule"] for r in json.loads(checked.output)["results"] for v in r["violations"]}
    built = runner.invoke(main, ["build", str(TACTICS), "--build", str(build), "--only", "cards",
                                 "-o", str(tmp_path / "out")])
    assert built.exit_code == 0, built.output
    assert rules == {"points.limit"} and "warning: not legal, printed all the same: error points.limit" in built.stderr
    assert (tmp_path / "out" / "over-cards.pdf").is_file()


def _judged_as_warnings(findings, pack):
    """Build's judgement before issue 37: every drawn finding a warning."""
    from generator.preflight.verdict import judged
    errors, warnings = judged(findings, pack)
    from generator.core.report import Violation
    return [], warnings + [Violation(p.code, "warning", p.message, p.location) for p in errors]


def test_one_part_is_refused_for_what_the_pack_is_refused_for(tmp_path):
    """`--only cards` of a pack whose map cannot be read: the cards part draws no map, yet the
    verdict is the pack's (validate says exit 2), so nothing is built."""
    root = _pack(tmp_path, CASES["unreadable-map"][2])
    built = CliRunner().invoke(main, ["build", str(root), "-q", "--only", "cards", "-o", str(tmp_path / "out")])
    assert built.exit_code == 2, built.output
    assert "twin-spires.yaml" in built.output and "Traceback" not in built.output
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


@pytest.mark.parametrize("case,broken", [
    ("unreadable-text", ("generator.build.judged", _judged_as_warnings)),  # text below 3:1 printed, as it was
    (None, ("generator.build.check_before_building", lambda pack, build=None, verdict=None: [])),  # nothing asked first
])
def test_the_parity_checks_bite_self_test(case, broken, tmp_path, monkeypatch):
    """With build's own judgement or its first question taken away, the tests above fail."""
    monkeypatch.setattr(*broken)
    with pytest.raises(AssertionError):
        if case is None:
            test_one_part_is_refused_for_what_the_pack_is_refused_for(tmp_path)
        else:
            test_build_gives_the_verdict_validate_gives(case, tmp_path)


def test_a_build_file_naming_a_card_the_pack_lacks_is_refused_in_validates_words(tmp_path):
    """validate calls it a rule error (exit 1: the build is not legal); a card that is not there
    cannot be printed, so build refuses it (exit 2) with the same finding and the same words,
    and no 'printed all the same' before it."""
    build = tmp_path / "typo.yaml"
    build.write_text((TACTICS / PRESET).read_text(encoding="utf-8").replace("unit: cliff-runner",
                                                                          "unit: cliff-runnr"), encoding="utf-8")
    runner = CliRunner()
    checked = runner.invoke(main, ["validate", str(build), "--pack", str(TACTICS)])
    assert checked.exit_code == 1
    said = next(line.strip() for line in checked.output.splitlines() if "error card.unknown" in line)
    built = runner.invoke(main, ["build", str(TACTICS), "--build", str(build), "--only", "cards",
                                 "-o", str(tmp_path / "out")])
    assert built.exit_code == 2, built.output
    assert said in built.output and "did you mean `cliff-runner`" in built.output
    assert "printed all the same" not in built.output and not (tmp_path / "out").exists()


def test_without_the_unprintable_rules_the_test_above_fails_self_test(tmp_path, monkeypatch):
    monkeypatch.setattr("generator.build.unknown_cards", lambda violations: [])
    with pytest.raises(AssertionError):
        test_a_build_file_naming_a_card_the_pack_lacks_is_refused_in_validates_words(tmp_path)
