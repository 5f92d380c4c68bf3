"""The words on a finished PDF's pages and where they sit, read with pypdfium2 (a
dependency already, so no system tool such as poppler's pdftotext is needed).

A word is a run of characters between white space (PDFium's own spaces and line breaks
between text objects count as white space; a word hyphenated at a line's end is two
words, the first ending in its hyphen), so each invisible `pnp:` marker, drawn as one
string, is one word. Boxes are in points from the page's top-left corner (the MediaBox's),
from the font's ascent and descent and each character's advance: the box pdftotext -bbox
gave, so findings and crops stay where they were.
"""

from __future__ import annotations

from pathlib import Path

from generator.core import pdfium

Box = tuple[float, float, float, float]


def page_words(pdf_path: Path) -> dict[int, list[tuple[str, Box]]]:
    """{page number (from 1): [(word, (x min, y min, x max, y max))]} in reading order."""
    import pypdfium2.raw as raw  # deferred: PDFium's native library loads only when a page is read back

    out: dict[int, list[tuple[str, Box]]] = {}
    with pdfium.document(Path(pdf_path)) as doc:
        for n in range(len(doc)):
            page = doc[n]
            left, _, _, top = page.get_mediabox()
            textpage = page.get_textpage()
            words: list[tuple[str, Box]] = []
            chars: list[str] = []
            box: Box | None = None
            for i in range(textpage.count_chars()):
                ch = chr(raw.FPDFText_GetUnicode(textpage, i))
                if ch.isspace() or ch == "\x00":
                    if chars and box is not None:
                        words.append(("".join(chars), box))
                    chars, box = [], None
                    continue
                x0, y0, x1, y1 = textpage.get_charbox(i, loose=True)
                b = (x0 - left, top - y1, x1 - left, top - y0)
                box = b if box is None else (min(box[0], b[0]), min(box[1], b[1]), max(box[2], b[2]), max(box[3], b[3]))
                if ch == "\x02":  # PDFium's mark for the hyphen that ends a line: the word ends after it
                    words.append(("".join(chars) + "-", box))
                    chars, box = [], None
                    continue
                chars.append(ch)
            if chars and box is not None:
                words.append(("".join(chars), box))
            out[n + 1] = words
            textpage.close()
            page.close()
    return out
