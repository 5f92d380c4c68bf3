"""render/base/pdfout.py encodes ASCII text for ReportLab's PDF objects and form streams itself
(ReportLab's charmap codec costs about 1 ms per 100 KB): the same bytes as ReportLab's
pdfdocEnc for every string, the same refusal where that refuses."""

from __future__ import annotations

import pytest
from reportlab.pdfbase import pdfdoc

from generator.render.base import pdfout


def _codec(x):
    return x.encode("extpdfdoc") if isinstance(x, str) else x


def test_it_is_the_one_reportlab_calls():
    assert pdfdoc.pdfdocEnc is pdfout.pdfdoc_enc


def test_every_character_encodes_as_reportlab_encodes_it():
    refused = 0
    for code in range(256):
        text = f"n 12.5 33 m ({chr(code)}) Tj"
        try:
            expected = _codec(text)
        except UnicodeEncodeError:
            refused += 1
            with pytest.raises(UnicodeEncodeError):
                pdfout.pdfdoc_enc(text)
            continue
        assert pdfout.pdfdoc_enc(text) == expected, code
    assert refused >= 8  # 0x18-0x1F at least: the ASCII that is not itself in PDFDocEncoding


def test_text_beyond_ascii_and_bytes():
    for x in ("é ß ˘ ˇ – • €", "\u2014 dash", b"\x00\xff bytes", "", "q 1 0 0 1 0 0 cm /F1 9 Tf Q"):
        assert pdfout.pdfdoc_enc(x) == _codec(x)
