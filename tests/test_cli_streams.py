"""Streams and progress: warnings on stderr and results on stdout; `-o -` gives exactly the
file's bytes where the output is one file and is refused (exit 2) where it is not; the
progress display appears on a terminal (a pty) or with PNP_PROGRESS=always, and never in a
pipe or with --quiet; a build hands back each part's lines as that part is made."""

from __future__ import annotations

import os
import pty
import re
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.pack.scaffold import create_pack

REPO = Path(__file__).resolve().parents[1]
BOSS_FIGHT = REPO / "card_data" / "boss_fight"
PRESET = sorted((BOSS_FIGHT / "presets").glob("*.yaml"))[0]
PROGRESS_ROW = re.compile(r"cards\.pdf\s.*\d+/\d+ cards")


@pytest.fixture()
def warned_pack(tmp_path) -> Path:
    """A fresh pack whose unit layout has text 1 mm from the trim: a build warns about it."""
    root = create_pack("warned", tmp_path)
    layout = root / "templates" / "cards" / "unit.yaml"
    layout.write_text(layout.read_text(encoding="utf-8") +
                      '  - {id: edge-note, kind: text, x: 1.0, y: 60.0, w: 20.0, h: 5.0, text: "EDGE", size: 7}\n',
                      encoding="utf-8")
    return root


def test_build_warnings_on_stderr_results_on_stdout(warned_pack, tmp_path):
    result = CliRunner().invoke(main, ["build", str(warned_pack), "--only", "cards", "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    out = result.stdout.splitlines()
    assert out and all(line.startswith("wrote ") for line in out)
    assert {Path(line.split()[1]).name for line in out} == {"cards.pdf", "calibration.pdf"}
    errs = result.stderr.splitlines()
    assert any(line.startswith("warning:") and "edge-note" in line for line in errs)
    assert not any(line.startswith("wrote ") for line in errs)


@pytest.mark.parametrize("args,file_args", [
    (["decklist", str(PRESET)], ["decklist", str(PRESET)]),
    (["list", str(BOSS_FIGHT), "--format", "csv"], ["list", str(BOSS_FIGHT), "--format", "csv"]),
    (["list", str(BOSS_FIGHT), "--format", "json"], ["list", str(BOSS_FIGHT), "--format", "json"]),
    (["roster", str(PRESET)], ["roster", str(PRESET)]),
    (["schema", "--pack", str(BOSS_FIGHT), "--only", "cards"], None),
    (["export-sheet", str(BOSS_FIGHT)], None),
])
def test_dash_writes_the_files_bytes_to_stdout(tmp_path, args, file_args):
    runner = CliRunner()
    piped = runner.invoke(main, args + ["-o", "-"])
    assert piped.exit_code == 0, piped.output
    if args[0] == "schema":
        written = runner.invoke(main, args + ["-o", str(tmp_path)])
        target = tmp_path / "cards.boss_fight.schema.json"
    elif args[0] == "export-sheet":  # a pipe takes the CSV
        target = tmp_path / "cards.csv"
        written = runner.invoke(main, args + ["-o", str(target)])
    else:
        target = tmp_path / ("out.pdf" if args[0] == "roster" else "out.txt")
        written = runner.invoke(main, file_args + ["-o", str(target)])
    assert written.exit_code == 0, written.output
    assert piped.stdout_bytes == target.read_bytes() and len(piped.stdout_bytes) > 100
    assert not (Path.cwd() / "-").exists()
    if args[0] in ("roster", "export-sheet"):  # the summary line moves to stderr, beside the data
        assert piped.stderr.strip() and piped.stderr.strip() in piped.output


@pytest.mark.parametrize("args", [["build", str(BOSS_FIGHT)], ["watch", str(BOSS_FIGHT)],
                                  ["schema", "--pack", str(BOSS_FIGHT)]])
def test_dash_is_refused_where_the_output_is_many_files(tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, args + ["-o", "-"])  # `watch` had built into ./- and watched on
    assert result.exit_code == 2
    assert "cannot write to standard output" in result.stderr and result.stdout == ""
    assert "Traceback" not in result.output and not (tmp_path / "-").exists()


@pytest.mark.parametrize("command", ["build", "watch"])
def test_an_empty_output_folder_name_is_refused(tmp_path, monkeypatch, command):
    """`-o ""` (an unset shell variable) had built into the current folder."""
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, [command, str(BOSS_FIGHT), "-o", ""])
    assert result.exit_code == 2, result.output
    assert "cli.empty-folder" in result.stderr and "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []


def _one_folder_check(commands) -> None:
    out = [next(p for p in command.params if p.name == "out_dir") for command in commands]
    assert out[0].callback is not None and all(o.callback is out[0].callback for o in out)


def test_build_and_watch_share_one_output_folder_option():
    """One check of `-o` for the commands that write a kit's folder, not a copy per command."""
    from generator.cli.build import build
    from generator.cli.watch import watch_command
    _one_folder_check([build, watch_command])


def test_a_command_with_its_own_output_option_is_caught_self_test():
    """`watch` as it was: its own `-o`, which let `-` through."""
    import click
    from generator.cli.build import build

    @click.command()
    @click.option("-o", "--out", "out_dir", type=click.Path(path_type=Path, file_okay=False))
    def own(out_dir):
        """A command of its own."""

    with pytest.raises(AssertionError):
        _one_folder_check([build, own])


def _run_on_pty(args: list[str], env: dict) -> tuple[bytes, bytes, int]:
    """Run pnp with stderr on a pseudo-terminal and stdout on a pipe; (stdout, terminal bytes, exit code)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "generator.cli", *args], stdout=subprocess.PIPE,
                            stderr=slave, stdin=subprocess.DEVNULL, env=env, cwd=REPO)
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 1.0)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            seen += chunk
        elif proc.poll() is not None:
            break
    os.close(master)
    out = proc.stdout.read()
    proc.stdout.close()
    return out, seen, proc.wait(timeout=60)


@pytest.fixture(scope="module")
def small_pack(tmp_path_factory) -> Path:
    return create_pack("small", tmp_path_factory.mktemp("pack"))


def _env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PNP_PROGRESS"}
    env.update(extra, COLUMNS="120", TERM="xterm")
    return env


def test_progress_on_a_terminal(small_pack, tmp_path):
    out, term, code = _run_on_pty(["build", str(small_pack), "--only", "cards", "-o", str(tmp_path / "a")], _env())
    assert code == 0, term.decode(errors="replace")
    text = term.decode("utf-8", errors="replace")
    assert PROGRESS_ROW.search(text), text[-2000:]
    assert re.search(r"\d:\d\d:\d\d", text)  # elapsed
    assert all(line.startswith("wrote ") for line in out.decode().splitlines()) and b"cards.pdf" in out


def test_no_progress_with_quiet_or_never(small_pack, tmp_path):
    _, term, code = _run_on_pty(["build", str(small_pack), "--only", "cards", "-q", "-o", str(tmp_path / "a")], _env())
    assert code == 0 and not PROGRESS_ROW.search(term.decode(errors="replace")) and b"\x1b[" not in term
    _, term, code = _run_on_pty(["build", str(small_pack), "--only", "cards", "-o", str(tmp_path / "b")],
                                _env(PNP_PROGRESS="never"))
    assert code == 0 and not PROGRESS_ROW.search(term.decode(errors="replace"))


def test_no_progress_in_a_pipe_unless_asked(small_pack, tmp_path):
    args = [sys.executable, "-m", "generator.cli", "build", str(small_pack), "--only", "cards"]
    piped = subprocess.run(args + ["-o", str(tmp_path / "a")], capture_output=True, env=_env(), cwd=REPO)
    assert piped.returncode == 0 and b"\x1b[" not in piped.stderr and not PROGRESS_ROW.search(piped.stderr.decode())
    assert all(line.startswith(b"note: ") for line in piped.stderr.splitlines())  # only the fresh pack's notes
    asked = subprocess.run(args + ["-o", str(tmp_path / "b")], capture_output=True, env=_env(PNP_PROGRESS="always"),
                           cwd=REPO)
    assert asked.returncode == 0 and PROGRESS_ROW.search(asked.stderr.decode())
    for run in (piped, asked):
        lines = run.stdout.decode().splitlines()
        assert len(lines) == 2 and all(line.startswith("wrote ") for line in lines)


def test_progress_shows_a_build_files_name_as_written(tmp_path):
    """A part is named after the build file: rich's `:skull:` emoji codes and `[bold]` markup in
    that name are printed as typed, not turned into an emoji or swallowed."""
    tactics = REPO / "card_data" / "tactics"
    build = tmp_path / "grim :skull: [bold]party.yaml"
    shutil.copy(sorted((tactics / "presets").glob("*.yaml"))[0], build)
    run = subprocess.run([sys.executable, "-m", "generator.cli", "build", str(tactics), "--build", str(build),
                          "--only", "cards", "-o", str(tmp_path / "out")], capture_output=True,
                         env=_env(PNP_PROGRESS="always"), cwd=REPO)
    assert run.returncode == 0, run.stderr.decode()
    shown = run.stderr.decode()
    assert "grim :skull: [bold]party" in shown and "\U0001f480" not in shown, shown[-2000:]


@pytest.mark.parametrize("parallel", [True, False])
def test_each_parts_lines_come_as_it_is_made(tmp_path, parallel):
    """The first `wrote …` line is handed back while the build is still running: its files are
    still staged, not yet in place; progress events name every part, cards counted to the total;
    in one process a part's lines come before the next part begins."""
    from generator.build import build_folder
    from generator.core import progress
    seq: list = []
    out = tmp_path / "kit"

    def placed():
        return sorted(p.name for p in out.glob("*.pdf") if not p.name.startswith(".")) if out.exists() else []

    with progress.listening(seq.append):
        lines = build_folder(BOSS_FIGHT, out_dir=out, parallel=parallel)
        first = next(lines)
        placed_at_first = placed()
        seq.append(("line", first))
        for line in lines:
            seq.append(("line", line))
    assert first.startswith("wrote ") and placed_at_first == []
    wrote = [Path(e[1].split()[1]).name for e in seq if e[0] == "line" and e[1].startswith("wrote ")]
    assert sorted(wrote) == ["calibration.pdf", "cards.pdf", "maps.pdf", "pieces.pdf", "quick-reference.pdf",
                             "rulebook.pdf"]
    assert placed() == sorted(wrote)
    begun = {e[1]: e[2] for e in seq if e[0] == "begin"}
    assert set(begun) == set(wrote)
    ticks = sum(e[2] for e in seq if e[0] == "tick" and e[1] == "cards.pdf")
    said = next(e[1] for e in seq if e[0] == "line" and e[1].startswith("wrote ") and "cards.pdf" in e[1])
    fronts = int(re.search(r"(\d+) cards", said).group(1))  # boss_fight's kit: 547 card fronts (207 before #41)
    assert begun["cards.pdf"] == ticks == fronts > 200
    assert {e[1] for e in seq if e[0] == "end"} == set(wrote)
    if not parallel:
        at = {(e[0], Path(e[1].split()[1]).name if e[0] == "line" else e[1]): i for i, e in enumerate(seq)
              if e[0] in ("line", "begin") and (e[0] == "begin" or e[1].startswith("wrote "))}
        assert at[("line", "cards.pdf")] < at[("begin", "pieces.pdf")] < at[("line", "pieces.pdf")] \
            < at[("begin", "maps.pdf")]


def test_a_wrote_line_says_its_numbers_in_words():
    """`1 page`, not `1 pages`; the quick reference's text size as a size, not `8.75 size`."""
    from generator.build import describe
    assert [describe("pages", 1), describe("pages", 38), describe("size", 8.75), describe("per_page", 9),
            describe("piece cut files", 1), describe("hexes", 1)] == [
        "1 page", "38 pages", "text at 8.75 pt", "9 a page", "1 piece cut file", "1 hex"]
