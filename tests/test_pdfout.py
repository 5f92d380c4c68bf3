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


# ---- pdfdoc.format and pdfdoc.PDFName: the common cases first, names made once ----------------

def test_format_and_name_are_the_ones_reportlab_calls():
    assert pdfdoc.format is pdfout.pdf_format
    assert pdfdoc.PDFName is pdfout.pdf_name


def _values():
    from collections import OrderedDict

    doc = pdfdoc.PDFDocument(invariant=1)
    ref = pdfdoc.PDFObjectReference("R1")
    doc.idToObjectNumberAndVersion["R1"] = (7, 0)
    names = ["Type", "FormXob.art-12cec02d", "a b", "x#y", "(paren)", "é", "%pct", "Tab\there", "~"]
    plain = {n: i for i, n in enumerate(names)}
    return doc, [0, 1, -3, 2 ** 40, 0.0, 1.5, -0.25, 595.2756, 1e-7, 123456789.123, 3.14159265358979,
                 True, False, None, b"\x00\xffraw", "text", "", "é", pdfdoc.PDFName("Name"),
                 pdfdoc.PDFString("a (string)"), ref,
                 pdfdoc.PDFArray([0, 0, 595.2756, 841.8898]), pdfdoc.PDFArray(list(range(23))),
                 pdfdoc.PDFArrayCompact([1.25] * 12), pdfdoc.PDFDictionary(plain),
                 pdfdoc.PDFDictionary({"Kids": pdfdoc.PDFArray([ref, ref]), "Count": 2, "Name": "/Name"}),
                 pdfdoc.PDFDictionary(OrderedDict([("Z", 1), ("A", 2)])), [1, 2], (3.5,)]


def test_every_value_formats_as_reportlab_formats_it():
    doc, values = _values()
    for value in values:
        assert pdfout.pdf_format(value, doc) == pdfout._FORMAT(value, doc), value


def test_dictionaries_and_names_as_reportlab_writes_them():
    import types

    # ReportLab's own PDFDictionary.format and PDFName, with its own format: their globals, unpatched
    own = dict(pdfdoc.__dict__, format=pdfout._FORMAT, PDFName=pdfout._PDF_NAME)
    own_format = types.FunctionType(pdfdoc.PDFDictionary.format.__code__, own, "format",
                                    pdfdoc.PDFDictionary.format.__defaults__)
    doc, values = _values()
    for value in values:
        if isinstance(value, pdfdoc.PDFDictionary):
            assert value.format(doc) == own_format(value, doc)
    for name in ["Type", "a b", "x#y", "(p)", "é", "%", "\x7f", "[]{}<>/", ""]:
        assert pdfout.pdf_name(name) == pdfout._PDF_NAME(name)
        assert pdfout.pdf_name(name) == pdfout.pdf_name(name)  # kept
    assert pdfout.pdf_name("abc", "b", "z") == pdfout._PDF_NAME("abc", "b", "z")  # another range: not kept
