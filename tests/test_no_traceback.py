"""The last tracebacks of the command line: a password-protected PDF for preflight, an
export into a place that cannot be written, a game name too long for a folder. Each is one
error with its cause and exit 2 (preflight keeps exit 1 for "would be rejected")."""

from __future__ import annotations

import os
from pathlib import Path

import pikepdf
import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.pack.model import ID_MAX_LENGTH, NAME_MAX_LENGTH

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def quick_reference(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("qr")
    result = CliRunner().invoke(main, ["build", str(REPO / "card_data" / "boss_fight"), "--only", "rulebook",
                                       "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out / "quick-reference.pdf"


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert "Traceback" not in result.output and not isinstance(result.exception, Exception) or \
        isinstance(result.exception, SystemExit), result.output
    return result


@pytest.mark.parametrize("user, code", [("secret", 2), ("", None)], ids=["user-password", "owner-password-only"])
def test_preflight_of_a_password_protected_pdf_is_exit_2_not_a_rejection(quick_reference, tmp_path, user, code):
    locked = tmp_path / "locked.pdf"
    with pikepdf.open(quick_reference) as pdf:
        pdf.save(locked, encryption=pikepdf.Encryption(owner="owner", user=user, R=6))
    result = run("preflight", locked)
    if code == 2:  # cannot be opened: an input error, not "would be rejected" (1)
        assert result.exit_code == 2 and "preflight.encrypted" in result.output and "password" in result.output
    else:  # opens without a password (printing restrictions only): checked as any PDF
        assert result.exit_code in (0, 1) and "locked.pdf for home" in result.output


def test_preflight_of_an_open_pdf_still_gives_its_verdict(quick_reference):
    result = run("preflight", quick_reference)
    assert result.exit_code in (0, 1) and "quick-reference.pdf for home" in result.output


@pytest.mark.parametrize("where, code", [
    ("{file}/cards.xlsx", "output.not-a-directory"),
    ("/proc/pnp-no-such-folder/cards.csv", "output.missing"),
    ("{ro}/cards.ods", "output.read-only"),
])
def test_export_sheet_into_a_place_that_cannot_be_written_is_one_error(tmp_path, where, code):
    plain = tmp_path / "plain.txt"
    plain.write_text("x")
    read_only = tmp_path / "ro"
    read_only.mkdir()
    read_only.chmod(0o555)
    if code == "output.read-only" and os.geteuid() == 0:
        where = "/sys/cards.ods"  # root writes anywhere but /sys
    try:
        result = run("export-sheet", REPO / "card_data" / "boss_fight", "-o",
                     where.format(file=plain, ro=read_only))
    finally:
        read_only.chmod(0o755)
    assert result.exit_code == 2 and code in result.output, result.output
    assert list(read_only.iterdir()) == [] and plain.read_text() == "x"


def test_export_sheet_into_a_new_folder_still_works(tmp_path):
    result = run("export-sheet", REPO / "card_data" / "boss_fight", "-o", tmp_path / "new" / "cards.csv")
    assert result.exit_code == 0 and (tmp_path / "new" / "cards.csv").stat().st_size > 1000


def test_new_refuses_a_name_too_long_and_makes_one_at_the_limit(tmp_path):
    result = run("new", "A" * 300, "--root", tmp_path)
    assert result.exit_code == 2 and "cli.name" in result.output and "300 characters" in result.output
    assert list(tmp_path.iterdir()) == []
    longest = "b" * min(ID_MAX_LENGTH, NAME_MAX_LENGTH)
    result = run("new", longest, "--root", tmp_path)
    assert result.exit_code == 0, result.output
    from generator.pack.load import load_pack
    assert load_pack(tmp_path / longest).spec.id == longest  # the loader's limits agree with new's


def test_new_into_a_root_that_cannot_be_written_is_one_error(tmp_path):
    root = "/proc/pnp-no-such-root"
    result = run("new", "Fine Game", "--root", root)
    assert result.exit_code == 2 and "output." in result.output
