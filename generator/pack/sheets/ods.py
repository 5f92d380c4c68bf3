"""A small OpenDocument spreadsheet (.ods) writer for `pnp export-sheet`.

ODF is a zip of a few XML files; what an export needs (typed cells, a bold frozen header,
column widths, drop-down lists) fits in this module. Written by hand rather than with odfpy
because odfpy has had no release since 2020 and builds a DOM of every cell, and because
writing the bytes ourselves keeps two exports of a pack identical (fixed dates, fixed order).
"""

from __future__ import annotations

import io
import re
import time
import zipfile
from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

from generator.pack.sheets.table import Cell, SheetData, column_width, export_stamp

NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
      'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
      'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
      'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
      'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" '
      'xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0" '
      'xmlns:config="urn:oasis:names:tc:opendocument:xmlns:config:1.0" '
      'xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" '
      'xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2" '
      'xmlns:calcext="urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0" office:version="1.3"')
MIME = "application/vnd.oasis.opendocument.spreadsheet"


def _text(value: str) -> str:
    """Text as ODF paragraphs: a line per <text:p>; ODF collapses runs of spaces, so runs and
    spaces at either end of a line are written as <text:s/>, tabs as <text:tab/>."""
    out = []
    for line in value.split("\n"):
        parts = []
        for m in re.finditer(r" +|\t|[^ \t]+", line):
            token = m.group(0)
            if token == "\t":
                parts.append("<text:tab/>")
            elif token[0] == " ":
                if m.start() == 0 or m.end() == len(line):
                    parts.append(f'<text:s text:c="{len(token)}"/>')
                else:
                    parts.append(" " + (f'<text:s text:c="{len(token) - 1}"/>' if len(token) > 1 else ""))
            else:
                parts.append(escape(token))
        out.append("<text:p>" + "".join(parts) + "</text:p>")
    return "".join(out)


def _cell(value: Cell, style: str = "", validation: str = "") -> str:
    attrs = (f' table:style-name="{style}"' if style else "") + \
        (f' table:content-validation-name="{validation}"' if validation else "")
    if value is None:
        return f"<table:table-cell{attrs}/>"
    if isinstance(value, bool):
        word = "true" if value else "false"
        return (f'<table:table-cell{attrs} office:value-type="boolean" office:boolean-value="{word}">'
                f"<text:p>{word.upper()}</text:p></table:table-cell>")
    if isinstance(value, (int, float)):
        return (f'<table:table-cell{attrs} office:value-type="float" office:value="{value}">'
                f"<text:p>{value}</text:p></table:table-cell>")
    return f'<table:table-cell{attrs} office:value-type="string">{_text(str(value))}</table:table-cell>'


def _content(sheets: Sequence[SheetData]) -> str:
    styles: list[str] = []
    tables: list[str] = []
    validations: list[str] = []
    styles.append('<style:style style:name="hd" style:family="table-cell"><style:text-properties '
                  'fo:font-weight="bold" style:font-weight-asian="bold" style:font-weight-complex="bold"/></style:style>')
    styles.append('<style:style style:name="tx" style:family="table-cell" style:data-style-name="txt"/>')
    n = 0
    for si, sheet in enumerate(sheets):
        cols: list[str] = []
        names: dict[int, str] = {}
        for i, column in enumerate(sheet.columns):
            n += 1
            styles.append(f'<style:style style:name="co{n}" style:family="table-column"><style:table-column-properties '
                          f'style:column-width="{column_width(sheet, i) * 0.19:.2f}cm"/></style:style>')
            text = column.split(".")[0] in sheet.text_columns or column in ("id", "name", "text", "flavour")
            cols.append(f'<table:table-column table:style-name="co{n}"'
                        f'{" table:default-cell-style-name=" + chr(34) + "tx" + chr(34) if text else ""}/>')
            choices = sheet.choices.get(column)
            if choices:
                vname = f"val{si + 1}_{i + 1}"
                listed = ";".join(quoteattr(c)[1:-1].join(("&quot;", "&quot;")) for c in choices)
                validations.append(f'<table:content-validation table:name="{vname}" table:allow-empty-cell="true" '
                                   f'table:condition="of:cell-content-is-in-list({listed})" '
                                   f'table:display-list="unsorted"/>')
                names[i] = vname
        title = quoteattr(sheet.title)
        rows = ["<table:table-row>" + "".join(_cell(c, "hd") for c in sheet.columns) + "</table:table-row>"]
        for row in sheet.rows:
            rows.append("<table:table-row>" + "".join(
                _cell(v, "tx" if isinstance(v, str) else "", names.get(i, "")) for i, v in enumerate(row))
                + "</table:table-row>")
        tables.append(f"<table:table table:name={title}>" + "".join(cols) + "".join(rows) + "</table:table>")
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            f"<office:document-content {NS}><office:automatic-styles>"
            '<number:text-style style:name="txt"><number:text-content/></number:text-style>'
            + "".join(styles) + "</office:automatic-styles><office:body><office:spreadsheet>"
            + (("<table:content-validations>" + "".join(validations) + "</table:content-validations>") if validations else "")
            + "".join(tables) + "</office:spreadsheet></office:body></office:document-content>")


def _settings(sheets: Sequence[SheetData]) -> str:
    """Each sheet's view frozen below the header row."""
    per_sheet = "".join(
        f'<config:config-item-map-entry config:name={quoteattr(s.title)}>'
        '<config:config-item config:name="VerticalSplitMode" config:type="short">2</config:config-item>'
        '<config:config-item config:name="VerticalSplitPosition" config:type="int">1</config:config-item>'
        '<config:config-item config:name="ActiveSplitRange" config:type="short">2</config:config-item>'
        '<config:config-item config:name="PositionBottom" config:type="int">1</config:config-item>'
        "</config:config-item-map-entry>" for s in sheets)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            f"<office:document-settings {NS}><office:settings>"
            '<config:config-item-set config:name="ooo:view-settings"><config:config-item-map-indexed config:name="Views">'
            '<config:config-item-map-entry><config:config-item config:name="ViewId" config:type="string">view1</config:config-item>'
            f'<config:config-item-map-named config:name="Tables">{per_sheet}</config:config-item-map-named>'
            "</config:config-item-map-entry></config:config-item-map-indexed></config:config-item-set>"
            "</office:settings></office:document-settings>")


def ods_bytes(sheets: Sequence[SheetData]) -> bytes:
    date = time.gmtime(export_stamp())[:6]
    parts = {
        "content.xml": _content(sheets),
        "styles.xml": f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document-styles {NS}/>',
        "settings.xml": _settings(sheets),
        "meta.xml": (f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document-meta {NS}><office:meta>'
                     "<meta:generator>pnp export-sheet</meta:generator></office:meta></office:document-meta>"),
        "META-INF/manifest.xml": (
            '<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest '
            'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">'
            f'<manifest:file-entry manifest:full-path="/" manifest:media-type="{MIME}"/>'
            + "".join(f'<manifest:file-entry manifest:full-path="{p}" manifest:media-type="text/xml"/>'
                      for p in ("content.xml", "styles.xml", "settings.xml", "meta.xml"))
            + "</manifest:manifest>"),
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        info = zipfile.ZipInfo("mimetype", date_time=date)  # first and stored, as ODF requires
        z.writestr(info, MIME, compress_type=zipfile.ZIP_STORED)
        for name, text in parts.items():
            info = zipfile.ZipInfo(name, date_time=date)
            info.external_attr = 0o644 << 16
            z.writestr(info, text.encode("utf-8"), compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue()
