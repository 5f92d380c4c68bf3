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


def test_long_text_encodes_as_reportlab_encodes_it():
    """A form's stream (long text) is encoded, then searched byte by byte: the same bytes, the
    same refusal, wherever the character sits in it."""
    body = "q 1 0 0 1 12.5 33 cm /FormXob.icon-x Do Q\n" * 12
    assert len(body) >= pdfout._LONG
    for code in range(256):
        for text in (body + chr(code), chr(code) + body, body[:200] + chr(code) + body[200:]):
            try:
                expected = _codec(text)
            except UnicodeEncodeError:
                with pytest.raises(UnicodeEncodeError):
                    pdfout.pdfdoc_enc(text)
                continue
            assert pdfout.pdfdoc_enc(text) == expected, code


# ---- fp_str: the text of numbers kept --------------------------------------------------------

def test_reportlab_and_our_modules_call_the_kept_fp_str():
    from reportlab.lib import rl_accel
    from reportlab.pdfgen import canvas, pathobject, textobject

    from generator.render.base import operators, recording
    from generator.render.cards import faces

    for module in (rl_accel, canvas, pathobject, textobject, pdfdoc, operators, recording, faces):
        assert module.fp_str is pdfout.fp_str, module.__name__


def test_kept_numbers_are_the_text_reportlab_writes():
    import random

    c_fp_str = pdfout._FP_STR
    rnd = random.Random(7)
    values = ([rnd.uniform(-2000, 2000) for _ in range(3000)] + [rnd.uniform(-1, 1) for _ in range(1000)]
              + [rnd.randint(-10 ** 6, 10 ** 6) for _ in range(500)]
              + [0, 0.0, -0.0, 1, 1.0, True, False, 1e-7, -1e-7, 1.0000001e-7, 0.5, 2.5, -2.5, 1e7, 2 ** 53,
                 0.9999995, 9.9999995, 99999.95, 595.2756, 841.8898, float("nan")])
    for n in (1, 2, 3, 4, 6, 8, 9, 12):
        for i in range(0, len(values) - n, n):
            args = tuple(values[i:i + n])
            for call in (args, (args,), (list(args),)):
                assert pdfout.fp_str(*call) == c_fp_str(*call), call
                assert pdfout.fp_str(*call) == c_fp_str(*call), call  # kept, or made again
    for a, b in ((1, 1.0), (0.0, -0.0), (True, 1), (2 ** 40, float(2 ** 40))):  # equal keys: equal text
        assert c_fp_str(a) == c_fp_str(b)
        assert pdfout.fp_str(a) == pdfout.fp_str(b) == c_fp_str(a)


def test_what_fp_str_refuses_it_refuses_and_does_not_keep():
    for args in ((1e21,), (1.0, 1e25)):
        with pytest.raises(Exception) as ours:
            pdfout.fp_str(*args)
        with pytest.raises(Exception) as theirs:
            pdfout._FP_STR(*args)
        assert type(ours.value) is type(theirs.value)
        assert args not in pdfout._FP
    many = tuple(float(i) + 0.5 for i in range(pdfout._FP_MANY + 1))
    assert pdfout.fp_str(*many) == pdfout._FP_STR(*many) and many not in pdfout._FP  # a whole path: made each time
    assert pdfout.fp_str(12.25, 3) == "12.25 3" and (12.25, 3) in pdfout._FP
