"""A canvas encodes each string of a TrueType font once per document (render/base/recording.py
MemoTextObject): drawing strings again, in any order, across font sizes and across the
font's subsets (a subset holds 256 characters; the 300 here need two), writes the same
operators as encoding every string afresh."""

from __future__ import annotations

import io
import random

from generator.render.base.fonts import BOLD, REGULAR
from generator.render.base.pdfout import new_canvas

LETTERS = [chr(c) for c in range(0x410, 0x450)] + [chr(c) for c in range(0x41, 0x5B)] + \
    [chr(c) for c in range(0xC0, 0x17F)] + [chr(c) for c in range(0x391, 0x3A9)]


def _draw(memo: bool) -> bytes:
    out = io.BytesIO()
    c = new_canvas(out, (600.0, 800.0), "memo")
    if not memo:
        c.text_memo = None
    rnd = random.Random(7)
    words = ["".join(rnd.choice(LETTERS) for _ in range(rnd.randint(1, 9))) for _ in range(120)]
    for _page in range(3):
        for i in range(200):
            word = words[rnd.randrange(len(words))]
            t = c.beginText(20 + (i % 5) * 100, 780 - (i // 5) * 19)
            t.setFont(BOLD if i % 3 == 0 else REGULAR, 7 + i % 4, leading=10 if i % 2 else None)
            t.textOut(word)
            t.textOut(words[(i * 7) % len(words)])
            c.drawText(t)
            c.drawString(30, 10 + i % 7, word)
        c.showPage()
    c.save()
    return out.getvalue()


def test_strings_encoded_once_write_what_encoding_each_afresh_writes():
    assert len(set(LETTERS)) > 256  # two subsets of the font at least
    with_memo = _draw(memo=True)
    assert with_memo == _draw(memo=False)
