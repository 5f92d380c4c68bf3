"""Write the spreadsheet files of the bad-input corpus (tests/corpus/spreadsheet/).

The files are committed; run this again only to change them:

    .venv/bin/python tools/make_sheet_corpus.py

Each is made the way the real thing is: xlsx by openpyxl or as raw SpreadsheetML (for
what openpyxl cannot write: cached formula results, error cells), ods as raw ODF, the
password-protected workbook by msoffcrypto-tool when it is installed (it is not a
dependency; the committed file is kept otherwise). They are rows of Boss Fight `action`
cards, since the corpus drops them into a copy of Boss Fight.
"""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "tests" / "corpus" / "spreadsheet"
HEAD = ["id", "name", "type", "set", "points", "action_type", "text"]
GOOD = [["zz-step", "Careful Step", "action", "neutral", 0, "Move", "Move up to 1 :hex:."],
        ["zz-jab", "Quick Jab", "action", "neutral", 1, "Attack", "Make a **Basic Attack**."]]
STAMP = (2000, 1, 1, 0, 0, 0)


def _zip(parts: dict, stored_first: str | None = None) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            info = zipfile.ZipInfo(name, date_time=STAMP)
            kind = zipfile.ZIP_STORED if name == stored_first else zipfile.ZIP_DEFLATED
            z.writestr(info, data if isinstance(data, bytes) else data.encode("utf-8"), compress_type=kind)
    return out.getvalue()


def raw_xlsx(rows_xml: str, dimension: str | None = None, extra: str = "", sheet: str = "Action") -> bytes:
    """A minimal SpreadsheetML workbook with one sheet whose <sheetData> is `rows_xml`."""
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    pkg = "http://schemas.openxmlformats.org/package/2006/relationships"
    dim = f'<dimension ref="{dimension}"/>' if dimension else ""
    return _zip({
        "[Content_Types].xml": (
            '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
            '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
            "</Types>"),
        "_rels/.rels": (f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{pkg}">'
                        f'<Relationship Id="rId1" Type="{rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>'),
        "xl/workbook.xml": (f'<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="{main}" xmlns:r="{rel}">'
                            f'<sheets><sheet name="{sheet}" sheetId="1" r:id="rId1"/></sheets></workbook>'),
        "xl/_rels/workbook.xml.rels": (f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{pkg}">'
                                       f'<Relationship Id="rId1" Type="{rel}/worksheet" Target="worksheets/sheet1.xml"/>'
                                       "</Relationships>"),
        "xl/worksheets/sheet1.xml": (f'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="{main}">{dim}'
                                     f"<sheetData>{rows_xml}</sheetData>{extra}</worksheet>"),
    })


def xml_row(r: int, values: list, cells: dict | None = None) -> str:
    """One <row>: strings inline, numbers as numbers; `cells` replaces whole cells by column index."""
    out = []
    for c, v in enumerate(values):
        ref = f"{chr(65 + c)}{r}"
        if cells and c in cells:
            out.append(cells[c].format(ref=ref))
        elif isinstance(v, (int, float)):
            out.append(f'<c r="{ref}"><v>{v}</v></c>')
        else:
            out.append(f'<c r="{ref}" t="inlineStr"><is><t>{v}</t></is></c>')
    return f'<row r="{r}">' + "".join(out) + "</row>"


def raw_ods(table_xml: str, name: str = "Action") -> bytes:
    ns = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
          'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
          'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
          'xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2" '
          'xmlns:calcext="urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0" office:version="1.3"')
    content = (f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {ns}><office:body><office:spreadsheet>'
               f'<table:table table:name="{name}">{table_xml}</table:table></office:spreadsheet></office:body>'
               "</office:document-content>")
    manifest = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">'
                '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
                '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>')
    return _zip({"mimetype": "application/vnd.oasis.opendocument.spreadsheet", "content.xml": content,
                 "META-INF/manifest.xml": manifest}, stored_first="mimetype")


def ods_cell(v) -> str:
    if isinstance(v, (int, float)):
        return f'<table:table-cell office:value-type="float" office:value="{v}"><text:p>{v}</text:p></table:table-cell>'
    return f'<table:table-cell office:value-type="string"><text:p>{v}</text:p></table:table-cell>'


def ods_row(values, repeat: int = 1) -> str:
    rep = f' table:number-rows-repeated="{repeat}"' if repeat > 1 else ""
    return f"<table:table-row{rep}>" + "".join(ods_cell(v) for v in values) + "</table:table-row>"


def csv_text(rows) -> str:
    return "".join(",".join(str(v) for v in row) + "\r\n" for row in rows)


def openpyxl_book(rows, edit=None) -> bytes:
    from openpyxl import Workbook
    book = Workbook()
    ws = book.active
    ws.title = "Action"
    for row in rows:
        ws.append(row)
    if edit:
        edit(ws)
    book.properties.created = book.properties.modified = dt.datetime(2000, 1, 1)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def files() -> dict[str, bytes]:
    rows = [HEAD, *GOOD]
    head = xml_row(1, HEAD)
    out = {
        "good.csv": csv_text(rows).encode("utf-8"),
        "good.ods": raw_ods(ods_row(HEAD) + "".join(ods_row(r) for r in GOOD)
                            + '<table:table-row table:number-rows-repeated="1048573"><table:table-cell '
                              'table:number-columns-repeated="7"/></table:table-row>'),
        "utf16.csv": csv_text(rows).encode("utf-16"),
        "latin1.csv": csv_text([HEAD, [*GOOD[0][:6], "Déplacez-vous d'une case."]]).encode("latin-1"),
        "latin1-bom.csv": b"\xef\xbb\xbf" + csv_text([HEAD, [*GOOD[0][:6], "Déplacez-vous d'une case."]]).encode("latin-1"),
        "semicolon.csv": "".join(";".join(str(v) for v in row) + "\r\n" for row in rows).encode("utf-8"),
        "header-duplicate.csv": csv_text([[*HEAD[:5], "points", *HEAD[5:]], *[[*r[:5], 1, *r[5:]] for r in GOOD]]).encode(),
        "header-blank.csv": csv_text([[*HEAD[:4], "", *HEAD[5:]], *GOOD]).encode(),
        "cell-not-a-number.csv": csv_text([HEAD, GOOD[0], [*GOOD[1][:4], "12a", *GOOD[1][5:]]]).encode(),
        "column-misspelt.csv": csv_text([[*HEAD[:5], "action_typ", "text"], *GOOD]).encode(),
        "duplicate-id-with-yaml.csv": csv_text([HEAD, ["walk", "Walk Again", "action", "neutral", 0, "Move", "Go."]]).encode(),
        "name-ref-unknown.csv": csv_text([["id", "name", "type", "set", "created_by"],
                                          ["zz-token", "Ember Token", "token", "neutral", "Lantern Skul"]]).encode(),
        "merged.xlsx": openpyxl_book(rows, lambda ws: ws.merge_cells("F2:G2")),
        "merged.ods": raw_ods(ods_row(HEAD) + "<table:table-row>" + "".join(ods_cell(v) for v in GOOD[0][:5])
                              + '<table:table-cell table:number-columns-spanned="2" office:value-type="string">'
                                "<text:p>Move</text:p></table:table-cell><table:covered-table-cell/></table:table-row>"),
        "date-for-number.xlsx": openpyxl_book([HEAD, GOOD[0], [*GOOD[1][:4], dt.date(2024, 3, 2), *GOOD[1][5:]]]),
        "formula-div0.xlsx": raw_xlsx(head + xml_row(2, GOOD[0]) + xml_row(3, GOOD[1], {
            4: '<c r="{ref}" t="e"><f>1/0</f><v>#DIV/0!</v></c>'})),
        "formula-div0.ods": raw_ods(ods_row(HEAD) + ods_row(GOOD[0]) + "<table:table-row>"
                                    + "".join(ods_cell(v) for v in GOOD[1][:4])
                                    + '<table:table-cell table:formula="of:=1/0" office:value-type="float" '
                                      'office:value="0" calcext:value-type="error"><text:p>#DIV/0!</text:p>'
                                      "</table:table-cell>" + "".join(ods_cell(v) for v in GOOD[1][5:])
                                    + "</table:table-row>"),
        "formula-computed.xlsx": raw_xlsx(head + xml_row(2, GOOD[0]) + xml_row(3, GOOD[1], {
            4: '<c r="{ref}"><f>1+2</f><v>3</v></c>'})),
        "formula-not-computed.xlsx": openpyxl_book([HEAD, GOOD[0], [*GOOD[1][:4], "=1+2", *GOOD[1][5:]]]),
        "million-rows.ods": raw_ods(ods_row(HEAD) + ods_row(GOOD[0], repeat=1_048_575)),
        "million-rows-declared.xlsx": raw_xlsx(head + xml_row(2, GOOD[0]), dimension="A1:G1048576"),
        "corrupt.xlsx": openpyxl_book(rows)[:900],
        "not-a-workbook.xlsx": _zip({"hello.txt": "a zip file, but no workbook in it"}),
        "old-binary.xlsx": b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 504 + "Workbook".encode("utf-16-le") + b"\x00" * 512,
        "zip-bomb.xlsx": _bomb(),
        "zip-bomb-lying.xlsx": _lying_bomb(),
    }
    return out


def _bomb() -> bytes:
    """A workbook whose one sheet inflates to 100 MB of spaces (from about 100 KB)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        z.writestr(zipfile.ZipInfo("[Content_Types].xml", STAMP), "<Types/>")
        z.writestr(zipfile.ZipInfo("xl/workbook.xml", STAMP), "<workbook/>")
        info = zipfile.ZipInfo("xl/worksheets/sheet1.xml", STAMP)
        info.compress_type = zipfile.ZIP_DEFLATED
        with z.open(info, "w", force_zip64=True) as member:
            chunk = b" " * (1024 * 1024)
            for _ in range(100):
                member.write(chunk)
    return out.getvalue()


def _lying_bomb() -> bytes:
    """A workbook whose sheet inflates to 100 MB but whose zip directory and local header say
    5,000 bytes: the declared sizes pass, so reading must stop at the declared size."""
    import struct
    spaces = " " * (100 * 1024 * 1024)
    data = bytearray(raw_xlsx('<row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c></row>' + spaces))
    member = b"xl/worksheets/sheet1.xml"
    with zipfile.ZipFile(io.BytesIO(bytes(data))) as z:
        local = z.getinfo(member.decode()).header_offset
    struct.pack_into("<I", data, local + 22, 5000)
    pos = data.find(b"PK\x01\x02")
    while pos >= 0:
        length = struct.unpack("<H", data[pos + 28:pos + 30])[0]
        if bytes(data[pos + 46:pos + 46 + length]) == member:
            struct.pack_into("<I", data, pos + 24, 5000)
        pos = data.find(b"PK\x01\x02", pos + 4)
    return bytes(data)


def encrypted() -> bytes | None:
    try:
        from msoffcrypto.format.ooxml import OOXMLFile
    except ImportError:
        return None
    plain = io.BytesIO(openpyxl_book([HEAD, *GOOD]))
    out = io.BytesIO()
    OOXMLFile(plain).encrypt("secret", out)
    return out.getvalue()


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    made = files()
    locked = encrypted()
    if locked is not None:
        made["password.xlsx"] = locked
    for name, data in made.items():
        (OUT / name).write_bytes(data)
        print(f"{name}: {len(data):,} bytes")


if __name__ == "__main__":
    main()
