"""`pnp validate`, `pnp list` and `pnp schema` as a user runs them: exit codes 0 / 1 / 2, the
JSON document (pnp.validation/1), one clear message at the right line, never a traceback."""

from __future__ import annotations

import ast
import csv
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import FIXTURES, REPO, line_of
from generator.cli import main

BUILDS = FIXTURES / "builds"
BOSS_FIGHT = REPO / "card_data" / "boss_fight"
ERROR_LINE = re.compile(r"^\s*(\S+):(\d+):(\d+): (error|warning) (\S+) ")


def pnp(*args: str):
    result = CliRunner().invoke(main, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert "Traceback" not in result.output
    return result


def shown(path: Path) -> str:
    return os.path.relpath(path)


def messages(output: str) -> list[tuple[str, int, int, str, str]]:
    """(file, line, column, severity, rule or code) of every message line of text output."""
    out = []
    for line in output.splitlines():
        m = ERROR_LINE.match(line)
        if m:
            out.append((m[1], int(m[2]), int(m[3]), m[4], m[5]))
    return out


@pytest.fixture(autouse=True)
def _from_repo(in_repo):
    """Every test here runs from the repository root, as the README tells users to."""


# ---- exit codes ------------------------------------------------------------------------------


def test_the_shipped_pack_is_legal():
    result = pnp("validate", BOSS_FIGHT)
    assert result.exit_code == 0, result.output
    assert "all legal" in result.output
    assert messages(result.output) == []


def test_a_legal_build_exits_0_and_shows_its_points():
    result = pnp("validate", BUILDS / "legal-party.yaml")
    assert result.exit_code == 0
    assert "LEGAL — 100/100 points (0 left)" in result.output
    assert "Torva Greymantle: 34 points — Torva Greymantle 29, Knight's Longsword 5" in result.output


def test_warnings_alone_still_exit_0():
    path = BUILDS / "one-leg-boss.yaml"
    result = pnp("validate", path)
    assert result.exit_code == 0
    text = path.read_text()
    assert messages(result.output) == [(shown(path), line_of(text, "- name: Test Brute"), 5, "warning",
                                        "boss.movement")]
    assert "1 warning(s)" in result.output


NEW_USER_CASES = [
    # fixture, extra arguments, exit code, rule or problem code, the line it must point at, words in it
    ("deck-31.yaml", [], 1, "deck.size", ("    deck:", 1), ["has 31 cards", "fix:      remove 1 card"]),
    ("fourth-copy.yaml", [], 1, "deck.copies", ("basic-attack: 4", 1),
     ["4 copies of Basic Attack", "fix:      remove 1 × Basic Attack"]),
    ("legal-party.yaml", ["--points", "1"], 1, "points.limit", ("points_limit:", 1),
     ["costs 100 points, 99 over the limit of 1", "observed: 100; expected: at most 1"]),
    ("misspelled-id.yaml", [], 1, "card.unknown", ("ashwood-longbw", 1),
     ["`ashwood-longbw`", "did you mean `ashwood-longbow` (Ashwood Longbow)?"]),
    ("tab-broken.yaml", [], 2, "yaml.syntax", ("\tabilities", 1),
     ["a tab character is used for indentation", "replace the tab with spaces"]),
]


@pytest.mark.parametrize("name, extra, code, rule, needle, words", NEW_USER_CASES,
                         ids=[c[0] + " ".join(c[1]) for c in NEW_USER_CASES])
def test_new_user_mistakes_get_one_clear_message_at_the_right_line(name, extra, code, rule, needle, words):
    path = BUILDS / name
    result = pnp("validate", path, *extra)
    assert result.exit_code == code, result.output
    (found,) = messages(result.output)  # one message, not a cascade
    expected_line = line_of(path.read_text(), *needle)
    assert found[:2] == (shown(path), expected_line)
    assert found[3:] == ("error", rule)
    for word in words:
        assert word in result.output
    if code == 2:
        assert result.stdout == ""  # input errors go to stderr; nothing was checked
        assert "1 input error: nothing was checked further." in result.stderr


def test_new_user_mistakes_from_a_real_shell_have_no_traceback():
    for name in ("tab-broken.yaml", "misspelled-id.yaml"):
        proc = subprocess.run([sys.executable, "-m", "generator", "validate", str(BUILDS / name)],
                              cwd=REPO, capture_output=True, text=True, timeout=120)
        assert proc.returncode in (1, 2)
        assert "Traceback" not in proc.stdout + proc.stderr
        assert f"{os.path.relpath(BUILDS / name, REPO)}:" in proc.stdout + proc.stderr


@pytest.mark.parametrize("args", [
    ["validate", "--points", "abc"],
    ["validate", "--points", "-1"],
    ["validate", "--format", "xml"],
    ["validate", "--no-such-option"],
    ["no-such-command"],
])
def test_usage_errors_exit_2(args):
    result = pnp(*args)
    assert result.exit_code == 2
    assert "Usage:" in result.output or "Error:" in result.output


def test_unreadable_targets_exit_2(tmp_path):
    missing = pnp("validate", "no/such/build.yaml")
    assert missing.exit_code == 2
    assert "no such file or folder: no/such/build.yaml" in missing.output
    not_a_pack = pnp("validate", tmp_path)
    assert not_a_pack.exit_code == 2
    assert "is not a game pack" in not_a_pack.output
    orphan = tmp_path / "orphan.yaml"
    orphan.write_text("name: X\nside: hero\ncharacters: []\n")
    result = pnp("validate", orphan)
    assert result.exit_code == 2
    assert "cannot tell which game pack this file belongs to" in result.output


def test_unreadable_input_wins_over_rule_violations():
    result = pnp("validate", BUILDS / "deck-31.yaml", BUILDS / "tab-broken.yaml")
    assert result.exit_code == 2
    assert {m[4] for m in messages(result.output)} == {"deck.size", "yaml.syntax"}


def test_several_targets_one_illegal_exits_1():
    result = pnp("validate", BUILDS / "legal-party.yaml", BUILDS / "fourth-copy.yaml")
    assert result.exit_code == 1
    assert "2 target(s) checked: 1 error(s)" in result.output


def test_the_pack_option(tmp_path):
    build = tmp_path / "mine.yaml"
    build.write_text((BUILDS / "legal-boss.yaml").read_text().replace("pack: boss_fight\n", ""))
    assert pnp("validate", build).exit_code == 2  # no pack: key and not inside a pack
    assert pnp("validate", build, "--pack", REPO / "card_data" / "boss_fight").exit_code == 0


# ---- JSON: pnp.validation/1 --------------------------------------------------------------------


def validate_json(*args) -> tuple[int, dict]:
    result = pnp("validate", "--format", "json", *args)
    return result.exit_code, json.loads(result.stdout)


def test_json_document_of_a_legal_build():
    code, doc = validate_json(BUILDS / "legal-party.yaml")
    assert code == 0
    assert set(doc) == {"schema", "legal", "results", "errors"}
    assert (doc["schema"], doc["legal"], doc["errors"]) == ("pnp.validation/2", True, [])
    (result,) = doc["results"]
    assert set(result) == {"file", "kind", "name", "side", "legal", "points", "stats", "violations"}
    assert (result["file"], result["kind"], result["name"], result["side"], result["legal"]) == (
        shown(BUILDS / "legal-party.yaml"), "build", "Test Wardens", "hero", True)
    points = result["points"]
    assert set(points) == {"total", "limit", "limit_source", "left", "characters", "cards"}
    assert (points["total"], points["limit"], points["left"], points["limit_source"]) == (100, 100, 0, "build")
    # /2: characters keyed by position, the name a field
    assert points["characters"] == {"characters[0]": {"name": "Torva Greymantle", "points": 34},
                                    "characters[1]": {"name": "Wren Ashby", "points": 34},
                                    "characters[2]": {"name": "Sister Maud Hallow", "points": 32}}
    assert set(points["cards"][0]) == {"character", "character_path", "id", "name", "type", "count", "points",
                                       "total"}
    assert sum(c["total"] for c in points["cards"]) == 100
    assert result["stats"]["characters[1]"]["name"] == "Wren Ashby"
    assert result["stats"]["characters[1]"]["agility"] == 6
    assert result["violations"] == []


def test_json_document_of_an_illegal_build():
    path = BUILDS / "fourth-copy.yaml"
    code, doc = validate_json(path, "--points", "90")
    assert code == 1 and doc["legal"] is False
    (result,) = doc["results"]
    assert result["legal"] is False
    assert result["points"]["left"] == -10
    by_rule = {v["rule"]: v for v in result["violations"]}
    assert set(by_rule) == {"points.limit", "deck.copies"}
    v = by_rule["deck.copies"]
    assert v == {
        "rule": "deck.copies", "severity": "error",
        "message": "Torva Greymantle's deck has 4 copies of Basic Attack; at most 3 allowed",
        "file": shown(path), "line": line_of(path.read_text(), "basic-attack: 4"), "column": 7,
        "path": "characters[0].deck.basic-attack", "observed": 4, "expected": "at most 3",
        "contributors": [{"id": "basic-attack", "name": "Basic Attack", "points": 0, "count": 4}],
        "fix": "remove 1 × Basic Attack",
    }
    # 10 over: the cheapest single card worth at least 10 points
    assert by_rule["points.limit"]["fix"] == "remove 1 × Sister Maud Hallow (24 points)"


def test_json_document_of_unreadable_input_exits_2():
    code, doc = validate_json(BUILDS / "tab-broken.yaml")
    assert code == 2
    assert (doc["legal"], doc["results"]) == (False, [])
    (error,) = doc["errors"]
    assert set(error) == {"code", "message", "file", "line", "column", "found", "expected", "fix"}
    assert (error["code"], error["line"], error["column"]) == (
        "yaml.syntax", line_of((BUILDS / "tab-broken.yaml").read_text(), "\tabilities"), 1)


def test_json_of_the_whole_pack_has_the_pack_report_and_every_preset():
    code, doc = validate_json(BOSS_FIGHT)
    assert code == 0 and doc["legal"] is True
    kinds = [r["kind"] for r in doc["results"]]
    assert kinds[0] == "pack" and kinds.count("build") == 10
    assert doc["results"][0]["stats"]["cards"] == 141


# ---- --audit -----------------------------------------------------------------------------------


def test_audit_text_and_json():
    text = pnp("validate", BOSS_FIGHT, "--audit")
    assert text.exit_code == 0
    assert "Points audit" in text.output and "audit passes" in text.output
    code, doc = validate_json(BOSS_FIGHT, "--audit")
    assert code == 0
    rows = doc["audit"]
    assert rows and set(rows[0]) == {"id", "name", "type", "set", "points", "predicted", "residual", "tolerance",
                                     "status", "flagged", "note", "basis", "features"}
    assert not [r for r in rows if r["status"] == "outlier"]
    assert all(r["note"] for r in rows if r["status"] == "documented exception")


# ---- pnp list ------------------------------------------------------------------------------------


def test_list_text_json_and_csv_agree(pack):
    text = pnp("list", BOSS_FIGHT)
    assert text.exit_code == 0
    assert "Titan Arm" in text.output and "Boss Piece (51)" in text.output
    document = json.loads(pnp("list", BOSS_FIGHT, "--format", "json").output)
    assert document["schema"] == "pnp.cards/1" and document["pack"]["id"] == "boss_fight"
    rows = [{k: v for k, v in r.items() if k not in ("art", "art_kind")} for r in document["cards"]]
    assert len(rows) == len(pack.cards) == 141
    table = list(csv.DictReader(io.StringIO(pnp("list", BOSS_FIGHT, "--format", "csv").output)))
    assert [r["id"] for r in table] == [r["id"] for r in rows]
    for key in ("id", "name", "set", "type", "points"):
        assert all(key in r for r in rows)
    titan = next(r for r in rows if r["id"] == "titan-arm")
    assert titan == {"id": "titan-arm", "name": "Titan Arm", "set": "boss", "type": "boss-piece", "points": 17,
                     "piece_type": "Arm", "health": 4, "intelligence": 0, "strength": 5, "agility": 0,
                     "size": 0, "slots": 3}
    glaive = next(r for r in table if r["id"] == "siegebreaker-glaive")
    assert (glaive["slots"], glaive["heavy_damage"], glaive["special_range"], glaive["piece_type"]) == ("3", "6", "3", "")
    # stable order: set, then type (both as game.yaml declares them), then points, then name
    sets, types = list(pack.spec.sets), list(pack.spec.card_types)
    keys = [(sets.index(r["set"]), types.index(r["type"]), r["points"], r["name"].casefold()) for r in rows]
    assert keys == sorted(keys)


def test_list_of_a_folder_that_is_not_a_pack(tmp_path):
    result = pnp("list", tmp_path)
    assert result.exit_code == 2
    assert "is not a game pack" in result.output


@pytest.mark.parametrize("command", [["validate"], ["list"], ["build"], ["schema"], ["watch"], ["serve"]])
def test_a_command_given_no_pack_uses_the_current_folder_or_says_how_to_get_one(tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)  # an empty folder: no pack here
    result = CliRunner().invoke(main, command)
    assert result.exit_code == 2
    assert result.output.strip().count("\n") == 0 and "`pnp example`" in result.output
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_validate_and_list_in_a_pack_folder_need_no_argument(monkeypatch):
    monkeypatch.chdir(BOSS_FIGHT)
    checked = pnp("validate")
    assert checked.exit_code == 0 and "target(s) checked: all legal" in checked.output
    assert checked.output == pnp("validate", ".").output  # the current folder, every preset and map in it
    assert pnp("list").output == pnp("list", BOSS_FIGHT).output


# ---- pnp schema ----------------------------------------------------------------------------------

SCHEMAS = ["game.schema.json", "layout.schema.json", "cards.boss_fight.schema.json", "build.boss_fight.schema.json"]


@pytest.mark.parametrize("pack", sorted(p.name for p in (REPO / "card_data").iterdir() if (p / "game.yaml").is_file()))
def test_every_packs_committed_schemas_are_current(tmp_path, pack):
    """The YAML editors of every pack read schemas/: a pack's rules that change (a new side, a
    `none` limit) must reach its build and card schemas too."""
    result = pnp("schema", "--pack", pack, "-o", tmp_path)
    assert result.exit_code == 0, result.output
    written = sorted(tmp_path.iterdir())
    assert {f.name for f in written} >= {f"cards.{pack}.schema.json", "game.schema.json"}
    for f in written:
        assert f.read_text() == (REPO / "schemas" / f.name).read_text(), f"schemas/{f.name} is stale: run `pnp schema --pack {pack}`"


def test_schema_writes_four_deterministic_files_matching_the_committed_ones(tmp_path):
    first = pnp("schema", "--pack", BOSS_FIGHT, "-o", tmp_path / "a")
    assert first.exit_code == 0
    assert sorted(Path(line).name for line in first.output.split()) == sorted(SCHEMAS)
    pnp("schema", "--pack", BOSS_FIGHT, "-o", tmp_path / "b")
    for name in SCHEMAS:
        written = (tmp_path / "a" / name).read_text()
        assert written == (tmp_path / "b" / name).read_text()
        assert written == (REPO / "schemas" / name).read_text(), f"schemas/{name} is stale: run `pnp schema`"
        schema = json.loads(written)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_every_pack_file_names_its_schema_on_the_first_line():
    pack_dir = REPO / "card_data" / "boss_fight"
    expected = {"cards": "cards.boss_fight.schema.json", "presets": "build.boss_fight.schema.json"}
    for folder, schema in expected.items():
        for path in sorted((pack_dir / folder).glob("*.yaml")):
            first = path.read_text(encoding="utf-8").splitlines()[0]
            assert first == f"# yaml-language-server: $schema=../../../schemas/{schema}", path
            target = (path.parent / first.split("=", 1)[1]).resolve()
            assert target == (REPO / "schemas" / schema).resolve() and target.is_file()
    first = (pack_dir / "game.yaml").read_text().splitlines()[0]
    assert (pack_dir / first.split("=", 1)[1]).resolve() == (REPO / "schemas" / "game.schema.json").resolve()


def test_the_build_schema_knows_both_sides_and_the_card_schema_every_type():
    build = json.loads((REPO / "schemas" / "build.boss_fight.schema.json").read_text())
    assert build["discriminator"]["propertyName"] == "side"
    assert set(build["discriminator"]["mapping"]) == {"boss", "hero"}
    cards = json.loads((REPO / "schemas" / "cards.boss_fight.schema.json").read_text())
    items = cards["properties"]["cards"]["items"]
    assert items["discriminator"]["propertyName"] == "type"
    assert set(items["discriminator"]["mapping"]) == {"boss-piece", "hero", "equipment", "ability", "action", "token"}


def test_the_schemas_accept_the_shipped_files_and_reject_mistakes():
    jsonschema = pytest.importorskip("jsonschema")
    import yaml

    pack_dir = REPO / "card_data" / "boss_fight"
    pairs = [("game.schema.json", [pack_dir / "game.yaml"]),
             ("cards.boss_fight.schema.json", sorted((pack_dir / "cards").glob("*.yaml"))),
             ("build.boss_fight.schema.json", sorted((pack_dir / "presets").glob("*.yaml")) + sorted(
                 p for p in BUILDS.glob("*.yaml") if p.name != "tab-broken.yaml"))]
    for schema_name, files in pairs:
        schema = json.loads((REPO / "schemas" / schema_name).read_text())
        validator = jsonschema.Draft202012Validator(schema)
        validator.check_schema(schema)
        for path in files:
            errors = list(validator.iter_errors(yaml.safe_load(path.read_text(encoding="utf-8"))))
            assert errors == [], f"{path}: {errors[0].message}"
    build = jsonschema.Draft202012Validator(json.loads((REPO / "schemas" / SCHEMAS[2]).read_text()))
    bad = yaml.safe_load((BUILDS / "legal-party.yaml").read_text().replace("equipment:", "equipmnet:", 1))
    assert list(build.iter_errors(bad))


# what `pnp validate BUILD` must not load: ReportLab, the renderers, the map checks and the pack
# target's modules (they wait for a pack or map target, #24), Jinja (a layout is read for its words
# only for a pack in another language: pack/translations/layouts.py) and the spreadsheet readers'
# XML parser and zipfile (only a pack with sheets: pack/sheets), importlib.metadata (pydantic's plugin
# loader, which the pnp process stands in for: cli/__init__.py; a message's install line: core/extras.py)
NOT_FOR_A_BUILD = ("reportlab", "generator.render", "generator.maps", "generator.preflight", "generator.validate.packs",
                   "generator.validate.target", "generator.kit", "jinja2", "xml.etree", "zipfile",
                   "importlib.metadata")


def _loaded_by_validating(target: Path, first: str = "") -> tuple[int, list[str]]:
    """`pnp validate TARGET`'s exit code, and the modules of NOT_FOR_A_BUILD it loaded (after `first`)."""
    code = (f"import sys; {first}\nfrom generator.cli import main\n"
            "try:\n    main(['validate', sys.argv[1]])\nexcept SystemExit as exc:\n    code = exc.code\n"
            "print(repr((code, sorted({m.split('.')[0] if m.startswith(('reportlab', 'jinja2')) else m\n"
            f"                          for m in sys.modules if m.startswith({NOT_FOR_A_BUILD!r})}}))), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code, str(target)], capture_output=True, text=True, cwd=REPO)
    return ast.literal_eval(done.stderr.strip().splitlines()[-1])


def test_validating_a_build_loads_no_renderer_and_no_map():
    """`pnp validate BUILD` goes through validate/builds.py alone and reads the pack in its own
    language: none of NOT_FOR_A_BUILD loads (start-up)."""
    assert _loaded_by_validating(sorted((BOSS_FIGHT / "presets").glob("*.yaml"))[0]) == (0, [])
    # a pack target does draw: the same run on the pack folder loads them
    code, loaded = _loaded_by_validating(BOSS_FIGHT)
    assert "reportlab" in loaded and "generator.validate.packs" in loaded and "jinja2" in loaded


def test_the_build_import_check_sees_a_planted_import():
    preset = sorted((BOSS_FIGHT / "presets").glob("*.yaml"))[0]
    code, loaded = _loaded_by_validating(preset, "import jinja2, xml.etree.ElementTree, importlib.metadata")
    assert code == 0 and {"jinja2", "xml.etree.ElementTree", "importlib.metadata", "zipfile"} <= set(loaded)


def test_running_pnp_in_process_leaves_the_collector_as_it_was():
    import gc
    gc.unfreeze()  # a web app made earlier in this process froze its packs (web/app.py)
    assert pnp("validate", sorted((BOSS_FIGHT / "presets").glob("*.yaml"))[0]).exit_code == 0
    assert gc.get_freeze_count() == 0


def test_the_pnp_process_ends_with_what_it_made_frozen():
    """Run as the `pnp` script runs it (main() reads sys.argv), the command's modules and what it
    made are frozen when Python shuts down, so its last collection walks none of them; the count
    of tracked objects left outside the frozen set is work, not time."""
    # (its exit handler registered after pnp's own, which ends the process once the others have run:
    # cli/__init__.py, _exit_quickly)
    code = ("import atexit, gc, sys\nfrom generator.cli import main\n"
            "atexit.register(lambda: print(gc.get_freeze_count(), len(gc.get_objects()), file=sys.stderr))\n"
            "sys.argv = ['pnp', 'validate', sys.argv[1]]\nmain()")
    done = subprocess.run([sys.executable, "-c", code, str(sorted((BOSS_FIGHT / "presets").glob("*.yaml"))[0])],
                          capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 0, done.stderr
    frozen, left = map(int, done.stderr.split()[-2:])
    assert frozen > 10_000 and left < 1_000, (frozen, left)


def test_modules_load_without_the_collector_and_stay_frozen():
    """cli/common.py modules_loading: no collection runs inside (counted, not timed), what was made
    there is frozen, and the collector is on or off afterwards as it was before."""
    import gc
    from generator.cli.common import modules_loading
    runs = []
    def counted(phase, info):
        if phase == "start":
            runs.append(info["generation"])
    gc.callbacks.append(counted)
    try:
        for was_enabled in (True, False):
            (gc.enable if was_enabled else gc.disable)()
            gc.unfreeze()
            runs.clear()
            with modules_loading():
                made = [[i] for i in range(20_000)]  # as many young objects as a module tree makes
                for a, b in zip(made, made[1:]):
                    a.append(b)
            assert runs == [] and gc.get_freeze_count() >= len(made) and gc.isenabled() == was_enabled
    finally:
        gc.callbacks.remove(counted)
        gc.unfreeze()
        gc.enable()


def test_icon_markup_in_a_name_is_printed_as_written(tmp_path):
    """`:skull:` is a pack's icon markup (and rich's emoji code): the report shows the text."""
    build = tmp_path / "grim.yaml"
    build.write_text('pack: boss_fight\nname: "Grim :skull: Party"\nside: hero\ncharacters:\n  - hero: wren-ashby\n',
                     encoding="utf-8")
    result = pnp("validate", build, "--pack", BOSS_FIGHT)
    assert "Grim :skull: Party" in result.output and "\N{SKULL}" not in result.output


def test_a_pack_is_validated_with_few_collections_and_the_collector_is_left_as_it_was(monkeypatch):
    """`pnp validate PACK` draws under the raised threshold with what it imported frozen, as `pnp build`
    does (cli/common.py: few_collections); a build target does not need it; run in-process, both are put back."""
    import gc

    import generator.validate.target
    from generator.cli.common import BUILD_GC_THRESHOLD

    seen = []
    real = generator.validate.target.validate_pack

    def watched(*args, **kwargs):
        seen.append((gc.get_threshold()[0], gc.get_freeze_count() > 0))
        return real(*args, **kwargs)

    monkeypatch.setattr(generator.validate.target, "validate_pack", watched)
    gc.unfreeze()  # a web app made earlier in this process froze its packs (web/app.py)
    before = gc.get_threshold()
    res = pnp("validate", REPO / "tests" / "fixtures" / "packs" / "sizes")
    assert res.exit_code == 0, res.output
    assert seen == [(BUILD_GC_THRESHOLD, True)]
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
