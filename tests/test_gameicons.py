"""The bundled icon set (generator/pack/gameicons.py, iconpath.py): its catalogue and authors,
the name mapping between the iconify set and the game-icons/icons repository, the compact
outline form, and the outlines drawn against svglib's own reading of the same path data."""

from __future__ import annotations

import io
import math
import re
import subprocess
import sys

import pypdfium2
import pytest
from reportlab.pdfgen.canvas import FILL_NON_ZERO, Canvas

from generator.pack.gameicons import icon_set, svg_text
from generator.pack.iconpath import (SCALE, Outlines, PathSyntaxError, arc_cubics, drawing_segments, drawn_segments, encode,
                                     parse)

ICONS = icon_set()


# ---- the catalogue ---------------------------------------------------------------------------


def test_the_whole_set_is_there_and_every_icon_has_an_author_and_a_licence():
    assert len(ICONS) == 4134 and ICONS.info["source"]["npm"] == "@iconify-json/game-icons@1.2.4"
    licences = {ICONS.author(n).licence for n in ICONS.names}
    assert licences == {"CC BY 3.0", "CC0 1.0", "public domain"}
    by = {}
    for n in ICONS.names:
        by.setdefault(ICONS.author(n).name, []).append(n)
    assert len(by["Delapouite"]) > 1900 and len(by["Lorc"]) > 1300  # the two who drew most of it
    assert all(ICONS.author(n).id != "badges" for n in ICONS.names)  # the repository's badges are not in the set


def test_names_two_authors_drew_are_credited_to_the_one_whose_drawing_the_set_carries():
    # 63 file names are in two author folders; iconify keeps one drawing per name, and the
    # catalogue (tools/vendor_icons.py) matched it by its outline: no rule of names says which
    same = ICONS.info["same_name"]
    assert len(same) == 63
    assert {k: same[k][0] for k in ("smartphone", "bowie-knife", "anvil", "tesla-coil", "trousers")} == \
        {"smartphone": "skoll", "bowie-knife": "skoll", "anvil": "lorc", "tesla-coil": "lorc", "trousers": "lucasms"}
    for name, folders in same.items():
        assert ICONS.author(name).id == folders[0] and len(folders) == 2, name


def test_renamed_icons_answer_to_their_old_names_and_later_icons_are_credited():
    assert ICONS.resolve("eskimo") == "person-in-blizzard" and "eskimo" in ICONS
    assert ICONS.author("eskimo").name == "Lorc"
    assert ICONS.resolve("sattelite") == "satellite"
    # in the npm set, not yet in the repository snapshot: the tarot series' author
    later = ICONS.info["later_than_snapshot"]
    assert len(later) == 11 and all(ICONS.author(n).name == "Caro Asercion" for n in later)
    assert ICONS.page("tarot-13-death") == "https://game-icons.net/1x1/caro-asercion/tarot-13-death.html"


def test_search_and_did_you_mean():
    assert ICONS.search("lantern")[:2] == ["lantern", "old-lantern"]  # whole words, then the shortest
    assert set(ICONS.search("skull crown")) >= {"crowned-skull"}
    assert ICONS.search("   ") == [] and ICONS.search("zzzz") == []
    assert "female-vampire" not in ICONS.search("vampire")  # hidden in the set: still drawn, never offered
    assert "female-vampire" in ICONS
    assert ICONS.suggest("lantern-flames") == "lantern-flame"
    assert ICONS.suggest("Crowned Skull") == "crowned-skull"


# ---- the stored form -------------------------------------------------------------------------


def test_path_data_is_read_as_svg_writes_it():
    # relative commands, implicit lines after a move, glued arc flags, exponents, Z back to the start
    segs = parse("m10 20 5 5h-3v2a4 4 0 011 1zM1e1,2e1 l.5-.5z")
    assert segs == [("M", 10, 20), ("L", 15, 25), ("H", 12), ("V", 27), ("A", 4, 4, 0, 0, 1, 13, 28),
                    ("Z",), ("M", 10, 20), ("L", 10.5, 19.5), ("Z",)]
    assert parse("M0 0s10 10 20 0t5 5q1 1 2 2c1 1 2 2 3 3")[-1] == ("C", 28, 8, 29, 9, 30, 10)
    for bad in ("10 10", "M0 0 L5", "M0 0 X1 1", "M0 0 Z 5"):
        with pytest.raises(PathSyntaxError):
            parse(bad)


def test_outlines_round_trip_to_half_a_unit():
    paths = [parse("M10.26 20.74l30.1-5.2c1 2 3 4 5.55 6.45S9 9 10 10Q1 2 3 4T5 6a7 8 15 1 0 9 9H3V2z"),
             parse("M0 0h512v512H0z"), parse("M300 300 A50 30 -30.4 0 1 350 320z")]
    outlines = Outlines(encode(paths))
    assert len(outlines) == 3
    for number, path in enumerate(paths):
        back = outlines.segments(number)
        assert [s[0] for s in back] == [s[0] for s in path]
        for a, b in zip(back, path):
            tolerance = [0.05 if a[0] == "A" and i == 2 else 0.5 / SCALE for i in range(len(a) - 1)]
            assert all(abs(x - y) <= t + 1e-9 for x, y, t in zip(a[1:], b[1:], tolerance)), (a, b)


def test_arcs_become_cubics_on_the_ellipse():
    # a half circle of radius 50 from (0, 0) to (100, 0), both sweeps, and a rotated ellipse
    for sweep, cy in ((1, 0), (0, 0)):
        pieces = arc_cubics(0, 0, 50, 50, 0, 0, sweep, 100, 0)
        assert len(pieces) == 2 and pieces[-1][-2:] == (100, 0)
        mid = pieces[0][-2:]
        assert math.isclose(math.hypot(mid[0] - 50, mid[1] - cy), 50, abs_tol=1e-6)
        assert (mid[1] < 0) == bool(sweep)  # sweep 1: the positive angle direction, over the top when y points down
    # radii too small to reach are scaled up (SVG F.6.6): still ends at the end point
    assert arc_cubics(0, 0, 1, 1, 0, 0, 1, 100, 0)[-1][-2:] == (100, 0)
    assert arc_cubics(0, 0, 0, 5, 0, 0, 1, 10, 0) == [("L", 10, 0)]
    assert arc_cubics(3, 3, 5, 5, 0, 0, 1, 3, 3) == []
    rotated = arc_cubics(0, 0, 80, 40, 30, 1, 1, 60, 20)
    assert rotated[-1][-2:] == (60, 20) and len(rotated) >= 2


def test_every_icon_decodes():
    # some outlines reach past the 512-unit box (the set's SVG viewBox clips them, as the glyph
    # form's box does), none wildly: a decoding gone wrong would
    wild = []
    for name in ICONS.names:
        segments = ICONS.outline(name)
        ends = [s[-2:] for s in segments if s[0] != "Z"]
        if segments[0][0] != "M" or not all(-300 < v < 812 for p in ends for v in p):
            wild.append(name)
    assert wild == []


def test_every_icon_s_drawing_is_what_its_stored_segments_draw():
    # Outlines.drawing decodes the stored streams straight into the drawing's letters and
    # numbers (one pass, no tuple per segment): the same floats, bit for bit, as expanding the
    # stored segments (`segments`, then `drawing_segments`) gives, on every icon of the set
    def differ(outlines, names):
        out = []
        for number, name in enumerate(names):
            expanded = drawing_segments(outlines.segments(number))
            letters, numbers = outlines.drawing(number)
            flat = [float(v) for s in expanded for v in s[1:]]
            if (letters != "".join(s[0] for s in expanded) or list(map(float.hex, numbers)) != list(map(float.hex, flat))
                    or drawn_segments(letters, numbers) != expanded):
                out.append(name)
        return out

    assert differ(ICONS._outlines, ICONS.names) == []
    used = {s[0] for number in range(len(ICONS)) for s in ICONS._outlines.segments(number)}
    assert used >= set("MLHVCSQAZ")
    # and what the set does not have: T after Q and after a line, S after a line, arcs of no
    # radius or no length, a move after a move, a path not closed
    paths = ["M10 10Q20 0 30 10T50 10T70 30L80 80T90 90S100 100 110 110s5 5 10 0Z",
             "M0 0A0 5 0 0 1 10 10A5 5 0 0 1 10 10A20 10 30 1 0 40 0M5 5M6 6L7 7",
             "M1.5 2.5C3 4 5 6 7 8S9 10 11 12Q13 14 15 16ZH40V50h-3.5v2.5z"]
    assert differ(Outlines(encode([parse(d) for d in paths])), paths) == []


def test_a_half_unit_s_text_reads_back_as_the_same_float():
    # drawing_text takes a number it finds among the halves as its own bounds, without
    # parsing its text back as filled_bounds does: that must give the same float
    from generator.render.base.iconart import _halves
    assert [v for v, text in _halves().items() if float(text) != v] == []


def test_every_glyph_writes_what_a_reportlab_path_object_writes():
    # the glyph form's operators are formatted with one fp_str call per icon (outline_text), not
    # through a path object: the text must stay the same, number for number
    from generator.render.base.iconart import outline_path, outline_text
    canvas = Canvas(io.BytesIO())
    differ = [name for name in ICONS.names if outline_text(name)[0] != outline_path(canvas, name).getCode()]
    assert differ == []
    assert outline_text(ICONS.names[0])[0].startswith("n ") and outline_text(ICONS.names[0])[0].endswith(" h")


def test_every_glyph_s_bounds_are_what_filled_bounds_reads_back_from_its_text():
    # iconart.path_text gives the outline's bounds with its text (the layout checks note every
    # glyph form's ink): the same floats filled_bounds gives, or None where it must read them
    from generator.render.base.drawn import filled_bounds
    from generator.render.base.iconart import outline_text, path_text
    differ = [name for name in ICONS.names if outline_text(name)[1] != filled_bounds([outline_text(name)[0], "f"])]
    assert differ == []
    # a move right after a move is left out by filled_bounds, as is a path not begun by a move
    for segments in ([("M", 1.0, 2.0), ("M", 30.5, 40.0), ("L", 50.0, 60.25), ("Z",)],
                     [("L", 1.0, 2.0), ("M", 30.5, 40.0), ("L", 50.0, 60.25)]):
        code, bounds = path_text(segments)
        assert bounds is None and filled_bounds([code, "f"]) == (30.5, 451.75, 50.0, 472.0)
    code, bounds = path_text([("M", 1.0, 2.0), ("Z",), ("M", 1e-9, 600.123456789), ("C", 1, 2, 3, 4, 5, 6)])
    assert bounds == filled_bounds([code, "f"]) and bounds[1] == float(code.split()[6]) != 512 - 600.123456789


def test_a_glyph_form_is_written_and_noted_as_a_path_object_draws_it():
    # fill_outline writes the kept text, and the card canvas notes what the form covers (the
    # layout checks read it) as drawPath would: same page text, same noted boxes
    from generator.render.base.iconart import fill_outline, outline_path
    from generator.render.base.pdfout import new_canvas
    names = ICONS.names[:200]

    def drawn(ours):
        buffer = io.BytesIO()
        canvas = new_canvas(buffer, (512, 512), "glyphs")
        canvas.notes_forms = True
        for name in names:
            canvas.beginForm(f"gi-{name}", 0, 0, 512, 512)
            if ours:
                fill_outline(canvas, name)
            else:
                canvas.drawPath(outline_path(canvas, name), stroke=0, fill=1, fillMode=FILL_NON_ZERO)
            canvas.endForm()
        canvas.showPage()
        canvas.save()
        return canvas.form_ink, buffer.getvalue()

    noted, pdf = drawn(True)
    assert len(noted) == len(names) and all(box is not None for box in noted.values())
    assert (noted, pdf) == drawn(False)


# ---- drawn: the same picture svglib draws from the same path data --------------------------


def _path_text(segments) -> str:
    return "".join(s[0] + " ".join(str(v) if isinstance(v, int) else f"{v:.4f}" for v in s[1:]) for s in segments)


def _raster(draw, size=128) -> bytes:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(512, 512), invariant=1)
    draw(canvas)
    canvas.save()
    pdf = pypdfium2.PdfDocument(buffer.getvalue())
    image = pdf[0].render(scale=size / 512, grayscale=True).to_pil()
    pdf.close()
    return image.point(lambda v: 255 if v < 128 else 0).tobytes()


def _ours(name):
    def draw(c):
        from generator.render.base.iconart import outline_path
        c.drawPath(outline_path(c, name), stroke=0, fill=1, fillMode=FILL_NON_ZERO)
    return draw


def _svglib(stored):
    from reportlab.graphics import renderPDF
    from svglib.svglib import svg2rlg

    def draw(c):
        svg = f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="512pt" height="512pt">' \
              f'<path d="{_path_text(stored)}"/></svg>'
        renderPDF.draw(svg2rlg(io.StringIO(svg)), c, 0, 0)
    return draw


def _with_ops(ops: str, limit: int):
    """The first icons whose stored outline uses one of `ops`."""
    outlines = ICONS._outlines
    found = []
    for number, name in enumerate(ICONS.names):
        if any(s[0] in ops for s in outlines.segments(number)):
            found.append((name, outlines.segments(number)))
            if len(found) == limit:
                break
    return found


def _differ(ours: bytes, theirs: bytes, name: str) -> float:
    assert sum(v == 255 for v in ours) > 500, name  # the icon is drawn at all
    return sum(a != b for a, b in zip(ours, theirs)) / len(ours)


@pytest.mark.parametrize("ops", ["A", "S", "QT", "HV"])
def test_outlines_draw_as_svglib_draws_the_same_path(ops):
    """Arcs, smooth curves, quadratics and the non-zero fill rule: our drawing and svglib's of
    the same (stored) path data differ in under 1 % of the pixels at 128 px."""
    for name, stored in _with_ops(ops, 3):
        assert _differ(_raster(_ours(name)), _raster(_svglib(stored)), name) < 0.01, name


@pytest.mark.browser
def test_outlines_draw_as_a_browser_draws_the_same_path():
    """The same against a second reader of SVG, Chromium's: under 1 % of the pixels differ."""
    import shutil
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("Debian's chromium is not installed (make test installs it: apt-get install chromium)")
    from PIL import Image
    from playwright.sync_api import sync_playwright
    cases = _with_ops("A", 6) + _with_ops("S", 2) + _with_ops("QT", 2)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 128, "height": 128})
        for name, stored in cases:
            page.set_content('<body style="margin:0;background:#fff"><svg xmlns="http://www.w3.org/2000/svg" '
                             f'viewBox="0 0 512 512" width="128" height="128"><path d="{_path_text(stored)}"/>'
                             "</svg></body>")
            shot = Image.open(io.BytesIO(page.screenshot())).convert("L")
            theirs = shot.point(lambda v: 255 if v < 128 else 0).tobytes()
            assert _differ(_raster(_ours(name)), theirs, name) < 0.01, name
        browser.close()


def test_an_icon_as_an_svg_file_is_credited_and_reads_back():
    text = svg_text("lantern-flame")
    assert "lantern-flame by Lorc, CC BY 3.0" in text
    (d,) = re.findall(r' d="([^"]+)"', text)
    assert drawing_segments(parse(d)) == [tuple(round(v, 3) if isinstance(v, float) else v for v in s)
                                          for s in ICONS.outline("lantern-flame")]


def test_the_outlines_are_read_only_when_an_icon_is_drawn():
    # `pnp validate` and `pnp icons search` read the 23 kB catalogue, never the 1 MB of outlines
    code = ("import sys; from generator.pack.gameicons import icon_set; s = icon_set(); s.search('skull'); "
            "'skull' in s; s.suggest('skul'); assert '_outlines' not in vars(s), 'outlines read'")
    subprocess.run([sys.executable, "-c", code], check=True)


# A pack's icons: their outline text made in one process and read from the cache folder by the next
_KEPT = """
import json, sys
from generator.pack.gameicons import icon_set
from generator.render.base import iconart
iconart.keep_outlines(sys.argv[1:])
print(json.dumps(["_outlines" in vars(icon_set()), iconart._TEXTS]))
"""
KEPT_NAMES = ["lantern-flame", "skull-crossed-bones", "dragon-head", "no-such-icon"]


def _kept(cache) -> tuple[bool, dict]:
    import json
    import os
    done = subprocess.run([sys.executable, "-c", _KEPT, *KEPT_NAMES], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, PNP_CACHE_DIR=str(cache)), check=True)
    read, texts = json.loads(done.stdout)
    return read, texts


def test_a_pack_s_icons_are_made_once_and_the_next_process_reads_them(tmp_path):
    import json
    from generator.render.base.iconart import path_text
    made = {n: path_text(ICONS.outline(n)) for n in KEPT_NAMES if n in ICONS}
    expected = json.loads(json.dumps(made))
    assert sum(1 for seg in ICONS.outline("dragon-head") if seg[0] == "C") > 10
    cache = tmp_path / "cache"
    assert _kept(cache) == (True, expected)  # made: the outlines read
    (file,) = cache.iterdir()
    written = file.read_bytes()
    assert _kept(cache) == (False, expected)  # read: no outline decoded
    file.write_bytes(written[:-1] + bytes([written[-1] ^ 1]))  # damaged: made and written again
    assert _kept(cache) == (True, expected) and file.read_bytes() == written


def test_a_kept_value_of_the_wrong_shape_is_made_again(tmp_path):
    import hashlib
    import marshal
    cache = tmp_path / "cache"
    _kept(cache)
    (file,) = cache.iterdir()
    written = file.read_bytes()
    for wrong in ({"lantern-flame": "n h"}, {name: ("n h", (0, 0, 1, 1)) for name in KEPT_NAMES[:3]}, ["n h"]):
        payload = marshal.dumps(wrong)
        file.write_bytes(b"pnp-icon-outlines-1" + hashlib.sha256(payload).digest() + payload)
        read, texts = _kept(cache)
        assert read and sorted(texts) == sorted(KEPT_NAMES[:3]) and file.read_bytes() == written
