"""The bad-input corpus: every file in tests/corpus/ is run through the real command line and
must give one clear error (exit 2, or 1 for a rule violation) that names the file, line and
column and the error's code or rule id, without a traceback, and without changing anything
already built. A few cases are good input that must simply work (exit 0).

The cases are data: tests/corpus/cases.yaml says, per category, what is run and what is
expected. What a case can run (`run:`):

- `build`   validate the corpus file as a build of card_data/boss_fight (in place);
- `pack`    copy the file into a copy of Boss Fight (`as:`, default cards/zz-corpus.yaml) and
            validate the pack;
- `map`     copy it into the pack's maps/ and validate that map file;
- `render`  copy it into the pack (`as:`, default templates/cards/action.yaml) and print a small
            build's cards (`build:`, default builds/render.yaml) over a previous good build;
- `sheet`   use it as the A4 sheet file (templates/sheets/a4.yaml) and print the same build;
- `args`    run the given command line (`args:`), with {file}, {pack}, {out}, {ws} filled in.

A spreadsheet case gives `cell:` instead of `at:` (`sheet Heroes, cell D14 (column "health")`,
or "" when the error is about the file as a whole).

`extra:` copies more corpus files into the workspace (images, fonts), `links:` makes symbolic
links (to test containment). `at: [line, column]` is where the error must point, in `where:`
(default: the file as placed, or the corpus file itself for `build`). The workspace (pack
copy, output folder, sheets) is made once per module and restored after every case.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from generator.cli import main
from generator.render.base import sheets as sheets_module

REPO = Path(__file__).resolve().parents[1]
CORPUS = Path(__file__).resolve().parent / "corpus"
PACK_DIR = REPO / "card_data" / "boss_fight"
SIZES_DIR = REPO / "tests" / "fixtures" / "packs" / "sizes"  # square, tarot and landscape card types
MANIFEST = CORPUS / "cases.yaml"

DEFAULT_AS = {"pack": "pack/cards/zz-corpus.yaml", "map": "pack/maps/zz-corpus.yaml",
              "render": "pack/templates/cards/action.yaml", "sheet": "sheets/a4.yaml"}
RENDER_OUT = "render-cards.pdf"


def load_cases() -> list[dict]:
    manifest = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
    cases = []
    for category, group in manifest["categories"].items():
        defaults = {k: v for k, v in group.items() if k != "cases"}
        for entry in group["cases"]:
            case = {**defaults, **entry}
            case["file"] = f"{category}/{entry['file']}"
            case["id"] = case["file"]
            cases.append(case)
    return cases


CASES = load_cases()


# ---- the workspace ---------------------------------------------------------------------


def tree_state(root: Path) -> dict:
    """Every file under `root` with a hash of its bytes (links: where they point)."""
    state = {}
    for folder, dirs, files in os.walk(root):
        for name in sorted(dirs + files):
            path = Path(folder) / name
            rel = path.relative_to(root).as_posix()
            if path.is_symlink():
                state[rel] = "link:" + os.readlink(path)
            elif path.is_file():
                state[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
            else:
                state[rel] = "dir"
    return state


def build_args(ws: Path) -> list[str]:
    return ["build", str(ws / "pack"), "--build", str(ws / "render.yaml"), "--only", "cards",
            "-o", str(ws / "out")]


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    """A copy of Boss Fight, the repository's sheets and a good build of the render build's
    cards in out/: what every case starts from, and what a failing case must leave alone."""
    ws = tmp_path_factory.mktemp("corpus")
    shutil.copytree(PACK_DIR, ws / "pack")
    shutil.copytree(REPO / "templates" / "sheets", ws / "sheets")
    shutil.copy(CORPUS / "builds" / "render.yaml", ws / "render.yaml")
    shutil.copytree(SIZES_DIR, ws / "sizes")
    old = os.getcwd()
    os.chdir(REPO)
    try:
        result = CliRunner().invoke(main, build_args(ws))
        sizes = CliRunner().invoke(main, ["build", str(ws / "sizes"), "-o", str(ws / "sizes-out")])
    finally:
        os.chdir(old)
    assert result.exit_code == 0, result.output
    assert sizes.exit_code == 0, sizes.output
    assert (ws / "out" / RENDER_OUT).is_file()
    assert {p.name for p in (ws / "sizes-out").iterdir()} >= {"cards.pdf", "rulebook.pdf"}
    return ws


class Placed:
    """Files dropped into the workspace for one case, and how to take them out again."""

    def __init__(self, ws: Path):
        self.ws = ws
        self.undo: list = []

    def _remember(self, dest: Path) -> None:
        created = []
        parent = dest.parent
        while not parent.exists():
            created.append(parent)
            parent = parent.parent
        original = dest.read_bytes() if dest.is_file() and not dest.is_symlink() else None
        self.undo.append((dest, original, created))

    def copy(self, src: Path, dest_rel: str) -> Path:
        dest = self.ws / dest_rel
        self._remember(dest)
        dest.parent.mkdir(parents=True, exist_ok=True)
        if dest.is_symlink():
            dest.unlink()
        dest.write_bytes(src.read_bytes())
        return dest

    def link(self, dest_rel: str, target: Path) -> Path:
        dest = self.ws / dest_rel
        self._remember(dest)
        dest.parent.mkdir(parents=True, exist_ok=True)
        if dest.exists() or dest.is_symlink():
            dest.unlink()
        dest.symlink_to(target)
        return dest

    def restore(self) -> None:
        for dest, original, created in reversed(self.undo):
            if dest.is_symlink() or dest.exists():
                dest.unlink()
            if original is not None:
                dest.write_bytes(original)
            for folder in created:
                shutil.rmtree(folder, ignore_errors=True)


def expand(value: str, ws: Path, case: dict) -> str:
    return (value.replace("{file}", os.path.relpath(CORPUS / case["file"], REPO))
            .replace("{pack}", str(ws / "pack")).replace("{out}", str(ws / "out"))
            .replace("{ws}", str(ws)).replace("{corpus}", str(CORPUS)).replace("{repo}", str(REPO)))


def command(case: dict, ws: Path, dest: Path | None) -> list[str]:
    run = case["run"]
    if run == "build":
        return ["validate", os.path.relpath(CORPUS / case["file"], REPO), "--pack", "card_data/boss_fight"]
    if run == "pack":
        return ["validate", str(ws / "pack")]
    if run == "map":
        return ["validate", str(dest)]
    if run in ("render", "sheet"):
        return build_args(ws)
    if run == "args":
        return [expand(a, ws, case) for a in case["args"]]
    raise AssertionError(f"unknown run `{run}` in {case['id']}")


def expected_where(case: dict, ws: Path, dest: Path | None) -> str:
    where = case.get("where")
    if where is not None and where.startswith("--"):  # an option of the command line
        return where
    if where is None:
        path = dest if dest is not None else CORPUS / case["file"]
    elif where == "{file}":
        path = CORPUS / case["file"]
    else:
        path = Path(expand(where, ws, case))
        path = path if path.is_absolute() else ws / path
    return os.path.relpath(path, REPO)


def run_cli(args: list[str], use_subprocess: bool) -> tuple[int, str, BaseException | None]:
    if use_subprocess:
        proc = subprocess.run([sys.executable, "-m", "generator", *args], cwd=REPO, capture_output=True,
                              text=True, timeout=120)
        return proc.returncode, proc.stdout + proc.stderr, None
    result = CliRunner().invoke(main, args)
    exc = None if isinstance(result.exception, SystemExit) else result.exception
    return result.exit_code, result.output, exc


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_corpus_case(case, workspace, monkeypatch):
    ws = workspace
    monkeypatch.chdir(REPO)
    monkeypatch.setattr(sheets_module, "SHEETS_DIR", ws / "sheets")
    placed = Placed(ws)
    try:
        dest = None
        if case["run"] in DEFAULT_AS or "as" in case:
            dest = placed.copy(CORPUS / case["file"], case.get("as") or DEFAULT_AS[case["run"]])
        if case["run"] in ("render", "sheet"):
            placed.copy(CORPUS / case.get("build", "builds/render.yaml"), "render.yaml")
        for dest_rel, src in (case.get("extra") or {}).items():
            placed.copy(CORPUS / src, dest_rel)
        for dest_rel, target in (case.get("links") or {}).items():
            placed.link(dest_rel, Path(expand(target, ws, case)))
        before = tree_state(ws)
        code, output, exc = run_cli(command(case, ws, dest), bool(case.get("subprocess")))
        after = tree_state(ws)
        if code == 0 and case["run"] in ("render", "sheet"):
            pdf = ws / "out" / RENDER_OUT
            data = pdf.read_bytes()
            assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
            for made in (f"out/{RENDER_OUT}", "out/CREDITS.txt"):  # what a build writes: its PDF and the art's credits
                after.pop(made, None)
                before.pop(made, None)
    finally:
        placed.restore()
        if case["run"] in ("render", "sheet") and not (ws / "out" / RENDER_OUT).is_file():
            pytest.fail("the previous build's PDF is gone")

    assert exc is None, f"unhandled {type(exc).__name__}: {exc}\n{output}"
    assert "Traceback" not in output, output
    assert "\x1b" not in output, "a control character from the input reached the terminal"
    assert code == case["exit"], f"exit {code}, expected {case['exit']}\n{output}"
    assert after == before, "the command changed files in the workspace (pack, sheets or output)"
    if case["exit"] != 0:
        if "cell" in case:  # a spreadsheet: `file: sheet S, cell D14 (column "x")`, or `file: ` for the whole file
            location = f"{expected_where(case, ws, dest)}: {case['cell']}"
        else:
            line, column = case["at"]
            location = f"{expected_where(case, ws, dest)}:{line}:{column}"
        hits = [l for l in output.splitlines() if location in l and case["code"] in l.split()]
        assert hits, f"no line with `{location}` and `{case['code']}` in:\n{output}"
    for text in case.get("says") or []:
        assert text in output, f"`{text}` not in:\n{output}"


def test_the_corpus_is_big_and_every_file_is_used():
    """At least 150 cases, and no corpus file without a case (or a role as a build or extra)."""
    assert len(CASES) >= 150
    used = {c["file"] for c in CASES}
    for c in CASES:
        used.update((c.get("extra") or {}).values())
        used.add(c.get("build", "builds/render.yaml"))
    files = {p.relative_to(CORPUS).as_posix() for p in CORPUS.rglob("*") if p.is_file()}
    files.discard("cases.yaml")
    files -= {f for f in files if f.startswith("builds/")}
    assert files - used == set(), f"corpus files no case uses: {sorted(files - used)}"
    categories = {c["file"].split("/")[0] for c in CASES}
    assert {"yaml", "build", "unicode", "pack", "game", "layout", "sheet", "art", "map", "sizes", "output", "spreadsheet"} <= categories
