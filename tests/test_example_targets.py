"""`pnp example` into every kind of folder it cannot use (issue 37): one line naming the folder,
exit 2, no traceback and nothing left behind; an interrupted copy leaves nothing half-made and
the retry works; a copy killed outright leaves only a hidden folder the next copy removes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.core.staging import new_token
from generator.pack import examples
from generator.pack.examples import TEMP_PREFIX

GAME = "tactics"  # the smallest example


def run(*args):
    return CliRunner().invoke(main, ["example", GAME, *map(str, args)])


def one_clear_error(result, code: str) -> None:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and result.exception is None or isinstance(result.exception, SystemExit)
    errors = [line for line in result.output.splitlines() if ": error " in line]
    assert len(errors) == 1 and code in errors[0], result.output


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(TEMP_PREFIX)) if folder.is_dir() else []


def test_a_folder_under_a_file(tmp_path):
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    one_clear_error(run(tmp_path / "notes.txt" / "game"), "output.not-a-directory")
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_a_target_that_is_a_file_or_a_link(tmp_path):
    (tmp_path / "file").write_text("mine", encoding="utf-8")
    one_clear_error(run(tmp_path / "file"), "example.exists")
    (tmp_path / "empty").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "empty")
    one_clear_error(run(tmp_path / "link"), "example.exists")  # a link is never followed into
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    one_clear_error(run(tmp_path / "dangling"), "example.exists")
    assert list((tmp_path / "empty").iterdir()) == [] and not (tmp_path / "nowhere").exists()


def test_a_folder_that_is_not_empty(tmp_path):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "keep.txt").write_text("keep", encoding="utf-8")
    one_clear_error(run(tmp_path / "mine"), "example.exists")
    assert [p.name for p in (tmp_path / "mine").iterdir()] == ["keep.txt"]


@pytest.mark.parametrize("folder", ["/proc/pnp-example", "/sys/pnp-example"])
def test_a_system_folder(folder):
    if not Path(folder).parent.is_dir():
        pytest.skip(f"no {Path(folder).parent} here")
    one_clear_error(run(folder), "output.")
    assert not Path(folder).exists()


def test_a_name_of_300_characters(tmp_path):
    one_clear_error(run(tmp_path / ("a" * 300)), "output.name-too-long")
    assert list(tmp_path.iterdir()) == []
    one_clear_error(run(tmp_path / ("b" * 300) / "game"), "output.name-too-long")  # a folder on the way
    assert list(tmp_path.iterdir()) == []


def test_a_folder_it_may_not_write(tmp_path, monkeypatch):
    """A folder without write permission (as root, permissions do not bite: the refusal the
    system gives is made here)."""
    locked = tmp_path / "locked"
    locked.mkdir()
    if os.geteuid() != 0:
        locked.chmod(0o555)
    else:
        def refuse(src, dst, *args, **kwargs):
            raise PermissionError(13, "Permission denied", str(dst))
        monkeypatch.setattr(examples.shutil, "copytree", refuse)
    try:
        one_clear_error(run(locked / "game"), "output.read-only")
        said = run(locked / "game").output.splitlines()[0]
        assert "locked is not writable" in said and "game" not in said  # the folder that refused
    finally:
        locked.chmod(0o755)
    assert list(locked.iterdir()) == []


def test_a_full_disk(tmp_path, monkeypatch):
    """The disk fills a few files in (the system names the file being read): one error naming
    the target, nothing left beside it."""
    real_copy, copied = shutil.copy2, []

    def fill(src, dst, *args, **kwargs):
        if len(copied) == 5:
            raise OSError(28, "No space left on device", src)
        copied.append(dst)
        return real_copy(src, dst, *args, **kwargs)

    monkeypatch.setattr(shutil, "copy2", fill)
    result = run(tmp_path / "game")
    one_clear_error(result, "output.full")
    assert "game is on a disk with no space left" in result.output.splitlines()[0]
    assert list(tmp_path.iterdir()) == []


def _interrupt(copy, target: Path, after: int = 12) -> int:
    """`copy(GAME, target)` with a Ctrl-C a dozen files in (the library call: in the command,
    PnpGroup ends the process with 130 after the clean-up); how many files it had copied."""
    copied = []
    real_copy = shutil.copyfile

    def copy_then_stop(src, dst, *args, **kwargs):
        if len(copied) == after:
            raise KeyboardInterrupt
        copied.append(dst)
        return real_copy(src, dst, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(shutil, "copyfile", copy_then_stop)
        with pytest.raises(KeyboardInterrupt):
            copy(GAME, target)
    return len(copied)


def test_an_interrupted_copy_leaves_nothing_and_the_retry_works(tmp_path):
    target = tmp_path / "deep" / "er" / "game"
    assert _interrupt(examples.copy_example, target) == 12
    assert list(tmp_path.iterdir()) == []  # not the game, not its hidden copy, not the folders made for it
    result = run(target)
    assert result.exit_code == 0, result.output
    assert (target / "game.yaml").is_file() and leftovers(target.parent) == []


def _copy_in_place(name: str, target: Path, layout_model=None) -> Path:
    """The copy before issue 37: straight into the target, the system's errors as they come."""
    shutil.copytree(examples.EXAMPLES / name, target, dirs_exist_ok=True)
    return target


def test_the_guards_catch_a_copy_made_in_place_self_test(tmp_path, monkeypatch):
    """The checks above bite: the copy the issue found (straight into the target) leaves a
    half-made folder that refuses the retry, and a folder under a file is not one clear error."""
    target = tmp_path / "game"
    _interrupt(_copy_in_place, target)
    assert len(list(target.rglob("*.*"))) >= 12  # half a game: what the first check refuses
    assert run(target).exit_code == 2  # and the retry is refused ("not an empty folder")
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    monkeypatch.setattr("generator.cli.example.copy_example", _copy_in_place)
    with pytest.raises(AssertionError):
        one_clear_error(run(tmp_path / "notes.txt" / "game"), "output.not-a-directory")


def test_a_copy_killed_outright_is_swept_by_the_next(tmp_path):
    """SIGKILL cannot be caught: the hidden copy stays, named with the dead command's token,
    and the next `pnp example` beside it removes it."""
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True)
    token = new_token().replace(f"pnp{os.getpid():x}x", f"pnp{int(dead.stdout):x}x")
    stale = tmp_path / f"{TEMP_PREFIX}{token}"
    (stale / "cards").mkdir(parents=True)
    (stale / "cards" / "half.yaml").write_text("cards: [", encoding="utf-8")
    mine = tmp_path / f"{TEMP_PREFIX}{new_token()}"  # a copy under way in a live process: left alone
    mine.mkdir()
    result = run(tmp_path / "game")
    assert result.exit_code == 0, result.output
    assert not stale.exists() and mine.exists()
    assert (tmp_path / "game" / "game.yaml").is_file()


def test_into_the_empty_folder_one_stands_in(tmp_path, monkeypatch):
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    result = run(".")
    assert result.exit_code == 0, result.output
    assert Path.cwd() == here and (here / "game.yaml").is_file()  # the folder itself stays
    assert leftovers(tmp_path) == []
