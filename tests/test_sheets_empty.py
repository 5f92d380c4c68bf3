"""A cards spreadsheet with no cards in it, empty or its headings alone (issue 37: a PDFium
traceback from `pnp validate`): one clear error naming the file, exit 2, for CSV, XLSX and
ODS alike, from `pnp validate` and `pnp build`."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.pack.sheets.ods import ods_bytes
from generator.pack.sheets.table import SheetData
from generator.pack.sheets.write import xlsx_bytes

HEADINGS = ["id", "name", "type", "set", "points", "copies", "stats.power", "role", "text", "flavour"]


def _sheet_pack(tmp_path: Path, fmt: str) -> tuple[Path, Path]:
    made = CliRunner().invoke(main, ["new", "sheetpack", "--root", str(tmp_path), "--sheet", fmt])
    assert made.exit_code == 0, made.output
    root = tmp_path / "sheetpack"
    (sheet,) = sorted((root / "cards").glob(f"*.{fmt}"))
    return root, sheet


def _header_only(path: Path, fmt: str) -> None:
    table = SheetData("Cards", HEADINGS, [])
    data = {"csv": lambda: ("\ufeff" + ",".join(HEADINGS) + "\r\n").encode("utf-8"),
            "xlsx": lambda: xlsx_bytes([table]), "ods": lambda: ods_bytes([table])}[fmt]()
    path.write_bytes(data)


def _says_no_cards(result, sheet: Path, what: str) -> None:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "Pdfium" not in result.output
    errors = [line for line in result.output.splitlines() if " error " in line]
    assert len(errors) == 1 and "spreadsheet.empty" in errors[0] and sheet.name in errors[0], result.output
    assert what in errors[0]


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "ods"])
def test_a_sheet_with_headings_only(tmp_path, fmt):
    root, sheet = _sheet_pack(tmp_path, fmt)
    _header_only(sheet, fmt)
    runner = CliRunner()
    _says_no_cards(runner.invoke(main, ["validate", str(root)]), sheet, "only a header row")
    _says_no_cards(runner.invoke(main, ["build", str(root), "-q", "-o", str(tmp_path / "out")]), sheet,
                   "only a header row")
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


@pytest.mark.parametrize("content", [b"", b"\xef\xbb\xbf", b"\r\n", b",,,\r\n"])
def test_an_empty_csv(tmp_path, content):
    root, sheet = _sheet_pack(tmp_path, "csv")
    sheet.write_bytes(content)
    _says_no_cards(CliRunner().invoke(main, ["validate", str(root)]), sheet, "nothing in it")


def test_rows_below_an_empty_first_row_are_not_dropped_silently(tmp_path):
    root, sheet = _sheet_pack(tmp_path, "csv")
    sheet.write_bytes(b"\r\n" + sheet.read_bytes().removeprefix(b"\xef\xbb\xbf"))
    result = CliRunner().invoke(main, ["validate", str(root)])
    assert result.exit_code == 2 and "spreadsheet.header" in result.output and "first row is empty" in result.output


def test_a_second_sheet_with_headings_only_is_fine_beside_one_with_cards(tmp_path):
    root, sheet = _sheet_pack(tmp_path, "csv")
    (root / "cards" / "more.csv").write_bytes(("\ufeff" + ",".join(HEADINGS) + "\r\n").encode("utf-8"))
    result = CliRunner().invoke(main, ["validate", str(root)])
    assert result.exit_code == 2 and "more.csv has no cards" in result.output  # each file is a file of cards
    (root / "cards" / "more.csv").unlink()
    assert CliRunner().invoke(main, ["validate", str(root)]).exit_code == 0


def test_a_pack_with_rules_and_no_cards_builds_its_rulebook_and_no_empty_card_sheets(tmp_path):
    made = CliRunner().invoke(main, ["new", "rulesonly", "--root", str(tmp_path)])
    assert made.exit_code == 0, made.output
    root = tmp_path / "rulesonly"
    (root / "cards" / "units.yaml").write_text("cards: []\n", encoding="utf-8")
    runner = CliRunner()
    checked = runner.invoke(main, ["validate", str(root)])
    assert checked.exit_code == 0 and "0 cards" in checked.output, checked.output  # had been a PDFium traceback
    built = runner.invoke(main, ["build", str(root), "-q", "-o", str(tmp_path / "out")])
    assert built.exit_code == 0, built.output
    assert "no card sheets" in built.output
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["CREDITS.txt", "rulebook.pdf"]  # no 0-page cards.pdf


def test_without_the_check_a_header_only_sheet_is_not_said_self_test(tmp_path, monkeypatch):
    """The tests above bite: without the empty-sheet check the header-only CSV is not refused
    with one clear line (it was a PDFium traceback)."""
    monkeypatch.setattr("generator.pack.sheets.source._no_cards", lambda file, tables, problems: None)
    with pytest.raises(AssertionError):
        test_a_sheet_with_headings_only(tmp_path, "csv")
