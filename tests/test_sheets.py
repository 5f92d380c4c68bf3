"""Card data from spreadsheets: every shipped pack goes to .xlsx, .ods and .csv and back
unchanged; sheet rows run through the same models and checks as YAML with errors naming the
sheet, cell and column; published CSV sheets are fetched only on request, with a timeout and
a size limit (tested against a server on 127.0.0.1)."""

from __future__ import annotations

import http.server
import json
import os
import shutil
import threading
import time
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.core.errors import InputError, SheetLocation
from generator.pack.cardlist import card_order
from generator.pack.load import load_pack
from generator.pack.sheets.fetch import fetch_pack
from generator.pack.sheets.read import MAX_ROWS
from generator.pack.sheets.write import export_pack
from generator.cli.watch import outputs_for

REPO = Path(__file__).resolve().parents[1]
PACKS = sorted(p.name for p in (REPO / "card_data").iterdir() if (p / "game.yaml").is_file())


def card_values(pack):
    return {c.id: (c.name, c.type, c.set, c.points, c.text, c.flavour, c.copies, c.art, c.fields)
            for c in pack.cards.values()}


def sheet_copy(src: Path, dest: Path) -> Path:
    """A copy of a pack without its card files."""
    shutil.copytree(src, dest)
    for path in (dest / "cards").iterdir():
        path.unlink()
    return dest


# ---- both ways -------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["xlsx", "ods", "csv"])
@pytest.mark.parametrize("pack_id", PACKS)
def test_every_shipped_pack_goes_to_a_spreadsheet_and_back_unchanged(tmp_path, pack_id, fmt):
    original = load_pack(REPO / "card_data" / pack_id)
    copy = sheet_copy(REPO / "card_data" / pack_id, tmp_path / pack_id)
    export_pack(original, copy / "cards" / f"cards.{fmt}")
    again = load_pack(copy)
    assert card_values(again) == card_values(original)
    assert [c.id for c in card_order(again)] == [c.id for c in card_order(original)]  # the print order


@pytest.mark.parametrize("fmt", ["xlsx", "ods", "csv"])
def test_two_exports_are_byte_identical(tmp_path, fmt):
    pack = load_pack(REPO / "card_data" / "boss_fight")
    a, b = export_pack(pack, tmp_path / f"a.{fmt}"), export_pack(pack, tmp_path / f"b.{fmt}")
    assert a.read_bytes() == b.read_bytes()


def test_the_xlsx_export_has_a_frozen_header_fitted_widths_and_choice_lists(tmp_path):
    import openpyxl
    out = export_pack(load_pack(REPO / "card_data" / "boss_fight"), tmp_path / "cards.xlsx")
    book = openpyxl.load_workbook(out)
    assert book.sheetnames == ["Ability", "Action", "Equipment", "Boss Piece", "Hero", "Token"]
    ws = book["Hero"]
    heads = [c.value for c in ws[1]]
    assert heads[:6] == ["id", "name", "type", "set", "points", "copies"]
    assert {"stats.health", "feat.name", "feat.text", "constitution"} <= set(heads)
    assert ws.freeze_panes == "A2"
    assert all(c.font.b for c in ws[1])
    width = {h: ws.column_dimensions[chr(65 + i)].width for i, h in enumerate(heads) if i < 26}
    assert width["text"] > width["points"] >= 6
    lists = {str(dv.sqref).split(":")[0][0]: dv.formula1 for dv in ws.data_validations.dataValidation}
    column = {h: chr(65 + i) for i, h in enumerate(heads)}
    assert lists[column["set"]] == '"boss,hero,neutral"'
    assert "hero" in lists[column["type"]] and lists[column["constitution"]] == '"Might,Finesse,Arcana,Faith"'
    assert ws[f"{column['name']}2"].number_format == "@"  # typed 3/2 stays text


def test_the_ods_export_freezes_the_header_and_lists_choices(tmp_path):
    out = export_pack(load_pack(REPO / "card_data" / "final_boss"), tmp_path / "cards.ods")
    with zipfile.ZipFile(out) as z:
        assert z.infolist()[0].filename == "mimetype" and z.infolist()[0].compress_type == zipfile.ZIP_STORED
        content = z.read("content.xml").decode()
        settings = z.read("settings.xml").decode()
    assert "cell-content-is-in-list(&quot;Permanent&quot;;&quot;Temporary&quot;;&quot;Instant&quot;)" in content
    assert 'config:name="VerticalSplitPosition" config:type="int">1<' in settings
    assert "style:column-width=" in content and 'fo:font-weight="bold"' in content


def test_export_sheet_command_and_a_wrong_suffix(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)
    out = tmp_path / "fb.ods"
    result = CliRunner().invoke(main, ["export-sheet", "card_data/tactics", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "8 cards" in result.output and out.is_file()
    result = CliRunner().invoke(main, ["export-sheet", "card_data/tactics", "-o", str(tmp_path / "x.txt")])
    assert result.exit_code == 2 and not (tmp_path / "x.txt").exists()


# ---- reading: the column rules -----------------------------------------------------------


def write_csv(path: Path, rows: list[list]) -> Path:
    import csv
    with path.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(rows)
    return path


@pytest.fixture()
def bf(tmp_path):
    target = tmp_path / "boss_fight"
    shutil.copytree(REPO / "card_data" / "boss_fight", target)
    return target


def test_short_stat_names_kit_copies_lists_by_name_pairs_and_booleans(bf):
    write_csv(bf / "cards" / "extra.csv", [
        ["id", "name", "type", "set", "points", "kit_copies", "piece_type", "health", "strength", "size", "slots",
         "text"],
        ["zz-claw", "Zz Claw", "boss-piece", "boss", 3, 2, "Arm", 4, 2, "0/0; 1/-1", "", "Deal +1 :damage:. **Hot.**"],
    ])
    write_csv(bf / "cards" / "tokens.csv", [  # no type column: the file is named after the type
        ["id", "name", "set", "created_by"],
        ["zz-ember", "Zz Ember", "neutral", "Zz Claw; lantern-skull"],
    ])
    pack = load_pack(bf)
    claw = pack.cards["zz-claw"]
    assert (claw.copies, claw.fields["stats"], claw.fields["size"], claw.fields["slots"]) == \
        (2, {"health": 4, "strength": 2}, [[0, 0], [1, -1]], 0)
    assert claw.text == "Deal +1 :damage:. **Hot.**"  # markup kept
    assert pack.cards["zz-ember"].type == "token"
    assert pack.cards["zz-ember"].fields["created_by"] == ["zz-claw", "lantern-skull"]  # by name or by id
    loc = claw.location
    assert isinstance(loc, SheetLocation) and str(loc).endswith("extra.csv: row 2")


def test_a_sheet_named_after_a_card_type_needs_no_type_column(bf):
    import openpyxl
    book = openpyxl.Workbook()
    ws = book.active
    ws.title = "Actions"
    ws.append(["id", "name", "set", "action_type", "deck_limit", "text"])
    ws.append(["zz-hop", "Zz Hop", "neutral", "Move", "=1+1", "Hop 1 :hex:."])
    book.save(bf / "cards" / "more.xlsx")
    with pytest.raises(InputError) as err:  # openpyxl stores no computed value for its formula
        load_pack(bf)
    (problem,) = err.value.problems
    assert (problem.code, problem.location.sheet, problem.location.cell) == ("spreadsheet.formula-error", "Actions", "E2")
    ws["E2"] = 2
    lists = book.create_sheet("Lists")  # a hidden sheet (say, choices for drop-downs) holds no cards
    lists.append(["choices"])
    lists.append(["Move"])
    lists.sheet_state = "hidden"
    book.save(bf / "cards" / "more.xlsx")
    card = load_pack(bf).cards["zz-hop"]
    assert (card.type, card.fields["deck_limit"]) == ("action", 2)


def test_a_row_without_a_type_is_named(bf):
    write_csv(bf / "cards" / "misc.csv", [["id", "name", "set"], ["zz-x", "Zz X", "neutral"]])
    with pytest.raises(InputError) as err:
        load_pack(bf)
    (problem,) = err.value.problems
    assert problem.code == "schema.missing" and str(problem.location).endswith("misc.csv: row 2")


def test_errors_name_sheet_cell_and_column_in_text_and_json(bf, monkeypatch):
    import openpyxl
    book = openpyxl.Workbook()
    ws = book.active
    ws.title = "Heroes"
    ws.append(["id", "name", "type", "set", "points", "stats.health", "feat_cost", "slots", "constitution",
               "feat.name", "feat.text"])
    ws.append(["zz-hero", "Zz Hero", "hero", "hero", 10, 9, 5, 2, "Might", "Go", "Do it."])
    ws.append(["zz-hera", "Zz Hera", "hero", "hero", 10, "12a", 5, 2, "Mite", "Go", "Do it."])
    book.save(bf / "cards" / "cards.xlsx")
    monkeypatch.chdir(bf.parent)
    result = CliRunner().invoke(main, ["validate", "boss_fight"])
    assert result.exit_code == 2
    assert 'boss_fight/cards/cards.xlsx: sheet Heroes, cell F3 (column "stats.health"): error schema.type' in result.output
    assert 'sheet Heroes, cell I3 (column "constitution"): error schema.choice' in result.output
    assert "did you mean `Might`?" in result.output and "Traceback" not in result.output
    result = CliRunner().invoke(main, ["validate", "boss_fight", "--format", "json"])
    errors = json.loads(result.stdout)["errors"]
    health = next(e for e in errors if e["header"] == "stats.health")
    assert {k: health[k] for k in ("file", "sheet", "row", "cell", "header", "line", "column", "found")} == {
        "file": "boss_fight/cards/cards.xlsx", "sheet": "Heroes", "row": 3, "cell": "F3", "header": "stats.health",
        "line": 3, "column": 6, "found": "'12a'"}


def test_a_duplicate_id_across_yaml_and_sheet_names_both_places(bf):
    write_csv(bf / "cards" / "zz.csv", [["id", "name", "type", "set", "action_type"],
                                        ["walk", "Walk Again", "action", "neutral", "Move"]])
    with pytest.raises(InputError) as err:
        load_pack(bf)
    (problem,) = err.value.problems
    assert problem.code == "pack.duplicate-id"
    assert str(problem.location).endswith('zz.csv: cell A2 (column "id")')
    assert "neutral.yaml:5:5" in problem.message


def test_a_real_million_row_workbook_is_refused_before_its_rows_are_read(bf):
    """1,048,576 rows written out (no <dimension> to go by): refused by counting rows in the XML."""
    from tools.make_sheet_corpus import raw_xlsx
    row = '<row r="{n}"><c r="A{n}" t="inlineStr"><is><t>x</t></is></c></row>'
    rows = "".join(row.format(n=n) for n in range(1, 1_048_577))
    (bf / "cards" / "big.xlsx").write_bytes(raw_xlsx(rows))
    with pytest.raises(InputError) as err:
        load_pack(bf)
    (problem,) = err.value.problems
    assert problem.code == "spreadsheet.too-many-rows" and "1,048,576" in problem.message
    assert f"at most {MAX_ROWS:,}" in problem.expected


def test_new_with_sheet_scaffolds_a_pack_whose_cards_are_a_spreadsheet(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["new", "Star Harvest", "--root", ".", "--sheet", "ods"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "star_harvest" / "cards").iterdir()) == ["cards.ods"]
    assert "star_harvest/cards/cards.ods" in result.output
    pack = load_pack(tmp_path / "star_harvest")
    assert list(pack.cards) == ["first-unit"] and pack.cards["first-unit"].fields["stats"] == {"power": 2}


def test_watch_rebuilds_cards_when_a_sheet_is_saved_but_not_for_lock_files(tmp_path):
    root = tmp_path / "pack"
    assert outputs_for({root / "cards" / "cards.ods"}, root) == {"cards"}
    assert outputs_for({root / "cards" / "cards.xlsx"}, root) == {"cards"}
    assert outputs_for({root / "cards" / ".~lock.cards.ods#", root / "cards" / "~$cards.xlsx"}, root) == set()


# ---- published sheets --------------------------------------------------------------------


class Server:
    """A loopback HTTP server: /cards.csv, /missing (404), /slow (answers after 3 s),
    /huge (100 MB, no length announced), /announced (announces 100 MB)."""

    def __init__(self, csv_bytes: bytes):
        self.sent = 0
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                if self.path == "/cards.csv":
                    self.send_response(200)
                    self.send_header("Content-Length", str(len(csv_bytes)))
                    self.end_headers()
                    self.wfile.write(csv_bytes)
                elif self.path == "/slow":
                    time.sleep(3)
                    self.send_response(200)
                    self.end_headers()
                elif self.path in ("/huge", "/announced"):
                    self.send_response(200)
                    if self.path == "/announced":
                        self.send_header("Content-Length", str(100 * 1024 * 1024))
                    self.end_headers()
                    chunk = b"x," * 32768
                    try:
                        for _ in range(100 * 1024 * 1024 // len(chunk)):
                            self.wfile.write(chunk)
                            outer.sent += len(chunk)
                    except (BrokenPipeError, ConnectionResetError):
                        pass
                else:
                    self.send_error(404, "Not Found")

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture()
def published(tmp_path):
    """Final Boss with its cards published as CSV: the pack holds only cards/cards.url."""
    pack = sheet_copy(REPO / "card_data" / "final_boss", tmp_path / "final_boss")
    csv_file = export_pack(load_pack(REPO / "card_data" / "final_boss"), tmp_path / "published.csv")
    server = Server(csv_file.read_bytes())
    yield pack, server
    server.close()


def point(pack: Path, url: str) -> None:
    (pack / "cards" / "cards.url").write_text(f"# the published sheet\n{url}\n", encoding="utf-8")


def test_a_published_sheet_is_read_only_after_fetch(published, monkeypatch):
    pack, server = published
    point(pack, server.url + "/cards.csv")
    with pytest.raises(InputError) as err:  # never fetched: the build does not go to the network
        load_pack(pack)
    assert [p.code for p in err.value.problems] == ["spreadsheet.not-fetched"]
    assert "pnp fetch" in err.value.problems[0].fix
    lines = fetch_pack(pack)
    assert "fetched" in lines[0] and (pack / ".cache" / "sheets" / "cards.csv").is_file()
    assert card_values(load_pack(pack)) == card_values(load_pack(REPO / "card_data" / "final_boss"))


def test_build_fetch_downloads_then_builds(published, monkeypatch):
    pack, server = published
    point(pack, server.url + "/cards.csv")
    monkeypatch.chdir(REPO)
    out = pack.parent / "out"
    result = CliRunner().invoke(main, ["build", str(pack), "--fetch", "--only", "cards", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "fetched" in result.output and (out / "cards.pdf").is_file()


@pytest.mark.parametrize("path, says", [
    ("/missing", "answered 404"),
    ("/slow", "no complete answer within 0.5 s"),
    ("/huge", "more than 1,048,576 bytes"),
    ("/announced", "104,857,600 bytes announced"),
])
def test_a_failed_fetch_is_one_clear_error_and_keeps_the_previous_copy(published, path, says):
    pack, server = published
    point(pack, server.url + "/cards.csv")
    fetch_pack(pack)
    cached = (pack / ".cache" / "sheets" / "cards.csv").read_bytes()
    point(pack, server.url + path)
    with pytest.raises(InputError) as err:
        fetch_pack(pack, timeout=0.5, limit=1024 * 1024)
    (problem,) = err.value.problems
    assert problem.code == "spreadsheet.fetch" and says in problem.message
    assert (pack / ".cache" / "sheets" / "cards.csv").read_bytes() == cached
    if path == "/huge":
        assert server.sent < 40 * 1024 * 1024  # reading stopped at the limit; the server was cut off


def test_fetch_command_exit_2_on_a_bad_url_file(published, monkeypatch):
    pack, _ = published
    (pack / "cards" / "cards.url").write_text("ftp://example.invalid/x.csv\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["fetch", str(pack)])
    assert result.exit_code == 2 and "spreadsheet.url" in result.output and "Traceback" not in result.output


def test_a_designer_changes_a_card_in_the_sheet_and_sees_it_on_the_printed_card(tmp_path, monkeypatch):
    """Final Boss keeps its cards in cards/cards.xlsx: change a card's text there, build, read the PDF."""
    import subprocess

    import openpyxl
    pack = tmp_path / "final_boss"
    shutil.copytree(REPO / "card_data" / "final_boss", pack)
    book = openpyxl.load_workbook(pack / "cards" / "cards.xlsx")
    ws = book["Enemy"]
    heads = [c.value for c in ws[1]]
    row = next(r for r in ws.iter_rows(min_row=2) if r[0].value == "ninja-cat")
    row[heads.index("text")].value = "**Shadowstep:** it swaps places with the zebra-striped lamp."
    book.save(pack / "cards" / "cards.xlsx")
    monkeypatch.chdir(REPO)
    result = CliRunner().invoke(main, ["build", str(pack), "--only", "cards", "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    text = subprocess.run(["pdftotext", str(tmp_path / "out" / "cards.pdf"), "-"], capture_output=True,
                          text=True, check=True).stdout
    assert "zebra-striped" in " ".join(text.split())


def test_watch_rebuilds_the_cards_when_the_spreadsheet_is_saved(tmp_path, monkeypatch):
    import subprocess

    import openpyxl

    from generator.cli.watch import watch
    pack = tmp_path / "final_boss"
    shutil.copytree(REPO / "card_data" / "final_boss", pack)
    out = tmp_path / "out"
    monkeypatch.chdir(REPO)
    lines: list[str] = []
    stop = threading.Event()
    thread = threading.Thread(target=watch, args=(pack, lines.append), kwargs={"out_dir": out, "stop": stop},
                              daemon=True)
    thread.start()

    def rebuilt() -> int:
        return sum(line.startswith("rebuilt") for line in lines)

    def card_text() -> str:
        return subprocess.run(["pdftotext", str(out / "cards.pdf"), "-"], capture_output=True, text=True).stdout

    try:
        deadline = time.monotonic() + 120  # a guard against hanging, not a speed test
        while rebuilt() < 1:
            assert time.monotonic() < deadline, lines
            time.sleep(0.1)
        time.sleep(0.5)  # let the watcher settle before the save
        seen = rebuilt()
        book = openpyxl.load_workbook(pack / "cards" / "cards.xlsx")
        ws = book["Stage"]
        heads = [c.value for c in ws[1]]
        row = next(r for r in ws.iter_rows(min_row=2) if r[0].value == "rooftop-run")
        row[heads.index("text")].value = "A quokka guards the vent."
        book.save(tmp_path / "saved.xlsx")  # saved whole, then put in place, as LibreOffice saves
        os.replace(tmp_path / "saved.xlsx", pack / "cards" / "cards.xlsx")
        while not (rebuilt() > seen and "quokka" in card_text()):  # a rebuild after the save shows it
            assert time.monotonic() < deadline, lines
            time.sleep(0.2)
    finally:
        stop.set()
        thread.join(10)
    assert "quokka" in card_text() and not any(line.startswith("not rebuilt") for line in lines), lines


# ---- text a spreadsheet would run as a formula -------------------------------------------

RISKY = {  # (file, card, key) -> text starting with what a spreadsheet program takes for a formula
    ("heroes.yaml", "torva-greymantle", "name"): '=HYPERLINK("http://attacker.example","Torva")',
    ("heroes.yaml", "torva-greymantle", "text"): "+1 to every roll =1+1",
    ("heroes.yaml", "torva-greymantle", "flavour"): "@SUM(A1:A9)",
    ("heroes.yaml", "torva-greymantle", "feat.name"): "-Bulwark",
    ("heroes.yaml", "torva-greymantle", "feat.text"): "\tUntil your next turn, nothing.",
    ("boss-abilities.yaml", None, "cost"): "'=already quoted",
    ("boss-abilities.yaml", None, "range_rules"): "\rEvery hero within 2 :hex: of you.",
}


def risky_pack(tmp_path: Path) -> Path:
    """boss_fight with a hero and a boss ability whose text starts with = + - @ tab CR or '=."""
    import yaml
    pack = tmp_path / "risky"
    shutil.copytree(REPO / "card_data" / "boss_fight", pack)
    for file in {f for f, _, _ in RISKY}:
        path = pack / "cards" / file
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        for (f, card_id, key), text in RISKY.items():
            if f != file:
                continue
            card = next(c for c in doc["cards"] if card_id in (None, c["id"]))
            if "." in key:
                head, tail = key.split(".")
                card[head][tail] = text
            else:
                card[key] = text
        path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return pack


def risky_texts(pack) -> set:
    texts = set()
    for card in pack.cards.values():
        texts |= {card.name, card.text, card.flavour}
        texts |= {v for v in card.fields.values() if isinstance(v, str)}
        texts |= {v for f in card.fields.values() if isinstance(f, dict) for v in f.values() if isinstance(v, str)}
    return texts & set(RISKY.values())


@pytest.mark.parametrize("fmt", ["xlsx", "ods", "csv"])
def test_text_that_looks_like_a_formula_is_written_as_text_and_reads_back_the_same(tmp_path, fmt):
    original = load_pack(risky_pack(tmp_path))
    assert risky_texts(original) == set(RISKY.values())  # every risky text made it into the pack
    copy = sheet_copy(tmp_path / "risky", tmp_path / "copy")
    out = export_pack(original, copy / "cards" / f"cards.{fmt}")
    again = load_pack(copy)
    expected = card_values(original)
    for values in expected.values():  # a sheet's line break is LF: CR reads back as one (columns.py)
        for key, value in values[-1].items():
            if isinstance(value, str) and "\r" in value:
                values[-1][key] = value.replace("\r", "\n")
    assert card_values(again) == expected
    if fmt == "xlsx":
        import openpyxl
        book = openpyxl.load_workbook(out)
        cells = [c for ws in book.worksheets for row in ws.iter_rows() for c in row if c.value is not None]
        assert not [c.coordinate for c in cells if c.data_type == "f"]  # no formula anywhere
        found = {c.value: c for c in cells if c.value in RISKY.values()}
        assert set(found) >= {t for t in RISKY.values() if t[0] != "\r"}  # XML reads a CR as LF
        assert all(c.data_type == "s" and c.quotePrefix for t, c in found.items() if t[0] in "=+-@\t\r")
        assert not found["'=already quoted"].quotePrefix  # a cell starting with ' is no formula
    elif fmt == "ods":
        content = zipfile.ZipFile(out).read("content.xml").decode()
        assert "table:formula" not in content and 'office:value-type="string"' in content
    else:
        text = out.read_text(encoding="utf-8-sig")
        # OWASP: a leading ' before = + - @ tab CR (and one more before text that starts '=)
        assert "\"'=HYPERLINK(\"\"http" in text and "'+1 to every" in text and "'@SUM" in text
        assert "'-Bulwark" in text and "''=already quoted" in text and "'\tUntil" in text
        import csv
        cells = [c for row in csv.reader(text.splitlines(keepends=True)) for c in row]
        assert not [c for c in cells if c[:1] in ("=", "+", "@", "\t", "\r")]
        assert all(c[:1] != "-" or c.lstrip("-").isdigit() for c in cells)  # only numbers start with -


@pytest.mark.parametrize("cell, text", [("'=1+1", "=1+1"), ("''=1", "'=1"), ("'-2", "-2"), ("'Tis", "'Tis"),
                                        ("=1+1", "=1+1"), ("'", "'"), ("-3", "-3")])
def test_a_csv_cell_loses_one_guarding_quote_and_only_before_a_formula_start(cell, text):
    from generator.pack.sheets.read import read_csv
    from generator.pack.sheets.table import csv_guard, csv_unguard
    table = read_csv(("name\n" + '"' + cell.replace('"', '""') + '"\n').encode(), "x.csv")
    assert table.rows[1] == [text]
    assert csv_unguard(csv_guard(text)) == text  # what is written reads back as it was
    assert csv_guard(text)[:1] not in ("=", "+", "-", "@")


def test_a_yes_no_cell_in_a_text_column_and_a_duration_cell_are_clear_errors(bf):
    """Typing found both: a TRUE in a text column fell into `"\\r" in value` (a TypeError), and a cell
    holding a duration asked a timedelta for isoformat(); both were tracebacks, not problems."""
    import datetime

    import openpyxl
    book = openpyxl.Workbook()
    ws = book.active
    ws.title = "Actions"
    ws.append(["id", "name", "set", "action_type", "deck_limit", "text"])
    ws.append(["zz-hop", True, "neutral", "Move", 1, "Hop 1 :hex:."])
    ws.append(["zz-skip", "Zz Skip", "neutral", "Move", datetime.timedelta(hours=2), "Skip."])
    book.save(bf / "cards" / "more.xlsx")
    with pytest.raises(InputError) as err:
        load_pack(bf)
    found = {(p.code, p.location.cell) for p in err.value.problems}
    assert ("schema.type", "B2") in found  # the card model's words: `name` should be text
    assert ("spreadsheet.date", "E3") in found  # a date or time where a number was wanted
