"""PDF-level preflight: read a finished PDF the way a print service's checker does.

Each page is named by the card on it (the invisible `pnp:face:<id>` marker every card
carries, read with pypdfium2), so findings say which card. Checks: page boxes and bleed
against the service; fonts not embedded; images under 300 dpi at their placed size (the
content stream's transformation matrix, through forms); hairlines under 0.25 pt; text
inside the safe zone (or in the bleed); art not reaching the bleed edge (a low-resolution
render); rich black (C, M or Y with K) on text under 12 pt; for a CMYK service, RGB colour
anywhere (DeviceRGB, CalRGB and ICC-based RGB colour spaces, in colour operators, images,
shadings and transparency groups) and total ink over the limit (from a CMYK render by
Ghostscript when it is installed, else from the colours and images in the file).
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import tempfile
from pathlib import Path

from generator.export.cmyk import is_rich_black
from generator.export.raster import PNG_SIZES, png_px
from generator.pack.model import CARD_SIZES_MM
from generator.core.safezone import SAFE_MM, nearest_trim, too_close
from generator.preflight.layout import MIN_DPI, REJECT_DPI, Finding
from generator.core import pdfium
from generator.core.errors import InputError, Location, Problem
from generator.core.pdfwords import page_words

PT_MM = 25.4 / 72
HAIRLINE_PT = 0.25
# bleed each service wants around the trim, mm (PRINT-SPECS.md)
SERVICE_BLEED_MM = {"dtc": 25.4 / 8, "mpc": 25.4 / 8, "tgc": 25.4 / 8, "home": None}
CMYK_SERVICES = {"dtc"}
INK_LIMIT = {"dtc": 240.0}
_STROKES = {"S", "s", "B", "B*", "b", "b*"}
_SHOW_TEXT = {"Tj", "TJ", "'", '"'}
RICH_BLACK_MAX_PT = 12.0  # registration of four plates blurs small type in rich black (export/cmyk.py)


def is_rgb_space(cs, resources=None, depth: int = 0) -> bool:
    """Whether a PDF colour space is RGB: DeviceRGB, CalRGB, ICC-based with 3 components, an
    Indexed or Pattern space over one of those, or a resource name for any of them."""
    # deferred: qpdf's native library loads only when a PDF is opened
    import pikepdf
    if cs is None or depth > 4:
        return False
    if isinstance(cs, pikepdf.Name):
        if cs in (pikepdf.Name.DeviceRGB, pikepdf.Name("/RGB")):
            return True
        named = resources.get("/ColorSpace", {}).get(str(cs)) if resources is not None else None
        return named is not None and is_rgb_space(named, None, depth + 1)
    if isinstance(cs, pikepdf.Array) and len(cs):
        kind = cs[0]
        if kind == pikepdf.Name.CalRGB:
            return True
        if kind == pikepdf.Name.ICCBased and len(cs) > 1:
            return int(cs[1].get("/N", 3)) == 3
        if kind in (pikepdf.Name.Indexed, pikepdf.Name("/I"), pikepdf.Name.Pattern) and len(cs) > 1:
            return is_rgb_space(cs[1], resources, depth + 1)
    return False


def _shading_rgb(shading, resources) -> bool:
    return shading is not None and is_rgb_space(shading.get("/ColorSpace"), resources)


def _group_rgb(obj) -> bool:
    """A transparency group that blends in RGB (the page's or a form's /Group /CS)."""
    group = obj.get("/Group") if obj is not None else None
    return group is not None and is_rgb_space(group.get("/CS"))


def page_cards(pdf_path: Path) -> dict[int, list[tuple[str, tuple]]]:
    """{page number: [(word, (xMin, yMin, xMax, yMax) pt from the top-left)]}: the card markers
    and every other word, for the safe-zone check."""
    return page_words(pdf_path)


def _card_of(words) -> str:
    for word, _ in words:
        if word.startswith("pnp:face:") or word.startswith("pnp:back:"):
            parts = word.split(":")
            return ("back of " if parts[1] == "back" else "") + parts[2]
    return "?"


class _Walker:
    """Walk a page's content with the graphics state's CTM and line width, into forms."""

    def __init__(self, pdf):
        self.pdf = pdf
        self.images: list[tuple[float, float, int, int, bool]] = []   # placed w, h (pt), px w, h, rgb?
        self.thin: list[float] = []
        self.rgb_ops = 0
        self.rgb_shadings = 0
        self.rgb_groups = 0
        self.rich_black: list[float] = []  # sizes (pt) of text shown in rich black
        self.max_ink = 0.0
        self.fonts: set = set()

    def walk(self, stream, resources, ctm=(1, 0, 0, 1, 0, 0), depth=0):
        # deferred: qpdf's native library loads only when a PDF is opened
        import pikepdf
        if depth > 8:
            return
        stack, lw, fill, size, mode = [], 1.0, None, 0.0, 0
        tm: tuple[float, ...] = (1, 0, 0, 1, 0, 0)
        self._resources_rgb(resources)
        for inst in pikepdf.parse_content_stream(stream):
            if isinstance(inst, pikepdf.ContentStreamInlineImage):
                continue
            op, args = str(inst.operator), inst.operands
            # the fill colour and text size in force, for rich black on small text
            if op == "k":
                fill = tuple(float(a) for a in args)
            elif op in ("g", "rg", "sc", "scn", "cs"):
                fill = None
            elif op == "Tf" and len(args) > 1:
                size = float(args[1])
            elif op == "Tm":
                tm = tuple(float(a) for a in args)
            elif op == "BT":
                tm = (1, 0, 0, 1, 0, 0)
            elif op == "Tr" and args:
                mode = int(args[0])
            elif op in _SHOW_TEXT and fill is not None and mode != 3:  # 3: invisible (pnp's markers)
                shown = size * math.sqrt(abs(_det(tm) * _det(ctm)))
                if is_rich_black(fill) and shown < RICH_BLACK_MAX_PT - 1e-6:
                    self.rich_black.append(shown)
            if op == "q":
                stack.append((ctm, lw, fill))
            elif op == "Q" and stack:
                ctm, lw, fill = stack.pop()
            elif op in ("cs", "CS") and args and is_rgb_space(args[0], resources):
                self.rgb_ops += 1
            elif op == "sh" and args:
                shading = resources.get("/Shading", {}).get(str(args[0])) if resources is not None else None
                self.rgb_shadings += _shading_rgb(shading, resources)
            elif op == "cm":
                ctm = _mul([float(a) for a in args], ctm)
            elif op == "w":
                lw = float(args[0])
            elif op in _STROKES:
                scale = math.sqrt(abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]))
                if lw * scale < HAIRLINE_PT - 1e-6:
                    self.thin.append(lw * scale)
            elif op in ("rg", "RG"):
                self.rgb_ops += 1
            elif op in ("k", "K"):
                self.max_ink = max(self.max_ink, 100 * sum(float(a) for a in args))
            elif op == "Do":
                xobj = resources.get("/XObject", {}).get(str(args[0])) if resources is not None else None
                if xobj is None:
                    continue
                if xobj.get("/Subtype") == pikepdf.Name.Image:
                    w = math.hypot(ctm[0], ctm[1])
                    h = math.hypot(ctm[2], ctm[3])
                    cs = xobj.get("/ColorSpace")
                    rgb = cs == pikepdf.Name.DeviceRGB or (isinstance(cs, pikepdf.Array) and len(cs) > 1 and
                                                          cs[0] == pikepdf.Name.ICCBased and int(cs[1].get("/N", 3)) == 3)
                    self.images.append((w, h, int(xobj.Width), int(xobj.Height), bool(rgb)))
                    if cs == pikepdf.Name.DeviceCMYK:
                        self.max_ink = max(self.max_ink, _image_max_ink(xobj))
                elif xobj.get("/Subtype") == pikepdf.Name.Form:
                    self.rgb_groups += _group_rgb(xobj)
                    m = [float(v) for v in xobj.get("/Matrix", [1, 0, 0, 1, 0, 0])]
                    self._fonts(xobj.get("/Resources"))
                    self.walk(xobj, xobj.get("/Resources"), _mul(m, ctm), depth + 1)

    def _resources_rgb(self, resources):
        """RGB shadings reached through patterns (a `scn` of a shading pattern paints them)."""
        if resources is None:
            return
        for pattern in dict(resources.get("/Pattern", {})).values():
            if int(pattern.get("/PatternType", 0)) == 2:
                self.rgb_shadings += _shading_rgb(pattern.get("/Shading"), resources)

    def _fonts(self, resources):
        if resources is None:
            return
        for name, font in dict(resources.get("/Font", {})).items():
            self.fonts.add((str(font.get("/BaseFont", name)), _embedded(font)))


def _det(m) -> float:
    return m[0] * m[3] - m[1] * m[2]


def _mul(a, b):
    return (a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
            a[2] * b[1] + a[3] * b[3], a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5])


def _embedded(font) -> bool:
    # deferred: qpdf's native library loads only when a PDF is opened
    import pikepdf
    if font.get("/Subtype") == pikepdf.Name.Type3:
        return True
    if font.get("/Subtype") == pikepdf.Name.Type0:
        font = font.DescendantFonts[0]
    desc = font.get("/FontDescriptor")
    return desc is not None and any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3"))


def _max_ink(img) -> float:
    """The highest C + M + Y + K of an image, in percent (Pillow's 32-bit integer images: no numpy)."""
    # deferred: Pillow loads only when an image is made or read
    from PIL import ImageMath
    c, m, y, k = (band.convert("I") for band in img.convert("CMYK").split())
    total = ImageMath.lambda_eval(lambda e: e["c"] + e["m"] + e["y"] + e["k"], c=c, m=m, y=y, k=k)
    return float(total.getextrema()[1]) / 255 * 100


def _image_max_ink(xobj) -> float:
    # deferred: qpdf's native library loads only when a PDF is opened
    import pikepdf
    try:
        img = pikepdf.PdfImage(xobj).as_pil_image()
    except Exception:
        return 0.0
    return _max_ink(img)


def rendered_max_ink(pdf_path: Path, dpi: int = 24) -> dict[int, float] | None:
    """{page: highest C+M+Y+K (percent)} of every page rendered to CMYK by Ghostscript (one
    run for the whole file, at a low resolution), or None without Ghostscript."""
    gs = shutil.which("gs")
    if not gs:
        return None

    # deferred: Pillow loads only when an image is made or read
    from PIL import Image
    out = {}
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([gs, "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiff32nc", f"-r{dpi}",
                        f"-sOutputFile={Path(d) / 'p%05d.tif'}", str(pdf_path)], check=True, capture_output=True)
        for f in sorted(Path(d).glob("p*.tif")):
            with Image.open(f) as img:
                out[int(f.stem[1:])] = _max_ink(img)
    return out


def _white_share(img, box: tuple[int, int, int, int], white: bool) -> float:
    """The share of a strip's pixels that are paper white (>= 250 of 255), or not."""
    hist = img.crop(box).histogram()
    share = sum(hist[250:]) / max(1, sum(hist))
    return share if white else 1.0 - share


def _bleed_edge_white(page_img, trim_px: tuple[int, int, int, int]) -> str | None:
    """The side whose outer edge is mostly paper white while the trim line there is not."""
    img = page_img.convert("L")
    w, h = img.size
    x0, y0, x1, y1 = trim_px
    column = lambda x: (x, 0, x + 1, h)  # noqa: E731
    row = lambda y: (0, y, w, y + 1)  # noqa: E731
    sides = {"left": (column(0), column(min(w - 1, x0 + 1))), "right": (column(w - 1), column(max(0, x1 - 2))),
             "top": (row(0), row(min(h - 1, y0 + 1))), "bottom": (row(h - 1), row(max(0, y1 - 2)))}
    for side, (edge, trim) in sides.items():
        if _white_share(img, edge, True) > 0.3 and _white_share(img, trim, False) > 0.5:
            return side
    return None


def _readable(pdf_path: Path) -> None:
    """A file that is not a PDF (or is damaged past repair) is an input error, not a traceback."""
    # deferred: qpdf's native library loads only when a PDF is opened
    import pikepdf

    try:
        with pikepdf.open(pdf_path):
            pass
    except pikepdf.PasswordError:
        raise InputError([Problem("preflight.encrypted", f"`{pdf_path.name}` is protected by a password, so it "
                                  "cannot be checked (nor printed by a service)", Location(str(pdf_path)),
                                  found="an encrypted PDF that needs a password to open",
                                  expected="a PDF that opens without a password",
                                  fix="save or export it again without a password")]) from None
    except (pikepdf.PdfError, OSError, ValueError) as exc:
        raise InputError([Problem("preflight.pdf", f"`{pdf_path.name}` cannot be read as a PDF ({exc})",
                                  Location(str(pdf_path)), expected="a PDF file",
                                  fix="check the file; re-export it from the program that made it")]) from None


def check_pdf(pdf_path: Path, service: str = "home", ink_limit: float | None = None) -> list[Finding]:
    # deferred: qpdf's native library loads only when a PDF is opened
    import pikepdf
    pdf_path = Path(pdf_path)
    _readable(pdf_path)
    words = page_cards(pdf_path)
    findings: list[Finding] = []
    want_bleed = SERVICE_BLEED_MM.get(service)
    limit = ink_limit or INK_LIMIT.get(service, 300.0)
    fname = pdf_path.name
    rendered = rendered_max_ink(pdf_path) if service in CMYK_SERVICES else None
    if service in CMYK_SERVICES and rendered is None:
        findings.append(Finding("pdf.ink-render", "note", "?", "skipped the total-ink check on a CMYK render: "
                                "Ghostscript (`gs`) is not installed; ink was checked only in the file's colours "
                                "and images (install Ghostscript, e.g. `apt install ghostscript`, for the full check)",
                                file=fname))
    # PDFium's lock is held from here: Ghostscript's render above runs without it
    with pdfium.document(pdf_path) as doc, pikepdf.open(pdf_path) as pdf:
        if service in CMYK_SERVICES and "/OutputIntents" not in pdf.Root:
            findings.append(Finding("pdf.output-intent", "error", "?", "no OutputIntent: the file does not say "
                                    "which printing condition its CMYK is for", file=fname))
        for n, page in enumerate(pdf.pages, 1):
            card = _card_of(words.get(n, []))

            def add(rule, severity, message, element=None, card=card, n=n):  # this page's card, bound now
                findings.append(Finding(rule, severity, card, message, element=element, page=n, file=fname))
            media = [float(v) for v in page.MediaBox]
            trim = [float(v) for v in page.obj.get("/TrimBox", page.MediaBox)]
            has_trim = "/TrimBox" in page.obj
            if want_bleed is not None:
                if not has_trim or "/BleedBox" not in page.obj:
                    add("pdf.boxes", "error", "the page has no TrimBox/BleedBox: the service cannot tell where to cut")
                bleeds = [(trim[0] - media[0]) * PT_MM, (trim[1] - media[1]) * PT_MM,
                          (media[2] - trim[2]) * PT_MM, (media[3] - trim[3]) * PT_MM]
                if min(bleeds) < want_bleed - 0.05:
                    add("pdf.bleed", "error", f"bleed {min(bleeds):.2f} mm; {service} wants {want_bleed:.3f} mm "
                        "on every side")
            walker = _Walker(pdf)
            walker.rgb_groups += _group_rgb(page.obj)
            walker._fonts(page.obj.get("/Resources"))
            walker.walk(page, page.obj.get("/Resources"))  # a Page: its Contents may be an array
            for font, embedded in sorted(walker.fonts):
                if not embedded:
                    add("pdf.font-embedding", "error", f"the font {font} is not embedded: the printer would "
                        "substitute another", element=font)
            for w, h, pw, ph, _rgb in walker.images:
                if w <= 0 or h <= 0:
                    continue
                dpi = min(pw / (w / 72), ph / (h / 72))
                if dpi < MIN_DPI:
                    add("pdf.image-dpi", "error" if dpi < REJECT_DPI else "warning",
                        f"an image of {pw} x {ph} px placed at {w * PT_MM:.1f} x {h * PT_MM:.1f} mm prints at "
                        f"{dpi:.0f} dpi; {MIN_DPI} dpi wanted", element="image")
            if walker.thin:
                add("pdf.hairline", "warning", f"{len(walker.thin)} stroke(s) thinner than {HAIRLINE_PT} pt "
                    f"(thinnest {min(walker.thin):.3f} pt) may not print")
            if walker.rich_black:
                add("pdf.rich-black", "warning", f"{len(walker.rich_black)} text run(s) under "
                    f"{RICH_BLACK_MAX_PT:g} pt in rich black (cyan, magenta or yellow under the black; smallest "
                    f"{min(walker.rich_black):.1f} pt): the plates never register exactly, so small type blurs; "
                    "use black ink alone (0, 0, 0, 100) for small text")
            if service in CMYK_SERVICES:
                rgb_images = sum(1 for i in walker.images if i[4])
                if walker.rgb_ops or rgb_images or walker.rgb_shadings or walker.rgb_groups:
                    add("pdf.rgb", "error", f"RGB colour in a file that must be CMYK ({walker.rgb_ops} colour "
                        f"operators, {rgb_images} images, {walker.rgb_shadings} shadings, "
                        f"{walker.rgb_groups} transparency groups)")
                ink, how = walker.max_ink, "in the file's colours"
                if rendered and rendered.get(n, 0.0) > ink:
                    ink, how = rendered[n], "on a CMYK render"
                if ink > limit + 1.0:  # one 8-bit step per plate of rounding
                    add("pdf.ink", "error", f"total ink reaches {ink:.0f} % {how}; the limit is {limit:g} %")
            if has_trim:
                findings.extend(_page_render_checks(doc, n, page, media, trim, words.get(n, []), card, fname))
    return findings


def _page_render_checks(doc, n, page, media, trim, words, card, fname) -> list[Finding]:
    out = []
    page_h = media[3] - media[1]
    # word boxes are from the top-left of the MediaBox
    tx0, ty0 = trim[0] - media[0], page_h - (trim[3] - media[1])
    tx1, ty1 = trim[2] - media[0], page_h - (trim[1] - media[1])
    size_mm = ((tx1 - tx0) * PT_MM, (ty1 - ty0) * PT_MM)
    for word, (x0, y0, x1, y1) in words:
        if word.startswith("pnp:"):
            continue
        # the word box, measured as the layout check measures it (core/safezone.py)
        _side, gap = nearest_trim(((x0 - tx0) * PT_MM, (y0 - ty0) * PT_MM, (x1 - tx0) * PT_MM, (y1 - ty0) * PT_MM),
                                  *size_mm)
        if too_close(gap):
            where = (f"is in the bleed, {-gap:.1f} mm outside the trim" if gap < 0
                     else f"is {gap:.2f} mm from the trim")
            out.append(Finding("pdf.safe-zone", "error" if gap < SAFE_MM / 2 else "warning", card,
                               f"the text “{word[:30]}” {where}; keep text {SAFE_MM:g} mm inside the trim",
                               element=f"text “{word[:30]}”", page=n, file=fname))
    if media != trim:
        scale = 36 / 72
        img = pdfium.image(doc[n - 1], scale=scale)
        trim_px = (round(tx0 * scale), round(ty0 * scale), round(tx1 * scale), round(ty1 * scale))
        side = _bleed_edge_white(img, trim_px)
        if side:
            out.append(Finding("pdf.bleed-art", "warning", card, f"the artwork stops at the trim on the {side}: "
                               "the bleed is white paper", page=n, file=fname))
    return out


def png_sizes(folder: Path, service: str) -> dict[tuple[int, int], str]:
    """{(width px, height px): the card size's name} a service takes for this folder: from the
    card sizes its manifest.json lists (what `pnp build` wrote), else every named card size;
    pixels from the card size by export.raster.png_px, as the build makes them."""
    trims: list = []
    manifest = Path(folder) / "manifest.json"
    if manifest.is_file():
        try:
            trims = [tuple(float(v) for v in s["trim_mm"]) for s in json.loads(manifest.read_text("utf-8"))["sizes"]]
        except (ValueError, KeyError, TypeError, OSError):
            trims = []
    trims = trims or list(CARD_SIZES_MM.values())
    names = {v: k for k, v in CARD_SIZES_MM.items()}
    return {png_px(t, service): names.get(t, f"{t[0]:g} x {t[1]:g} mm") for t in trims}


def check_pngs(folder: Path, service: str) -> list[Finding]:
    """Pixel sizes at 300 dpi with the service's bleed, for the card sizes of the folder (MPC
    822 x 1122, TGC 825 x 1125 for poker cards; PRINT-SPECS.md); RGB only."""
    # deferred: Pillow loads only when an image is made or read
    from PIL import Image
    single = Path(folder).is_file()
    files = [folder] if single else sorted(Path(folder).glob("*.png"))
    want = png_sizes(Path(folder).parent if single else Path(folder), service) if service in PNG_SIZES else {}
    wanted = " or ".join(f"{w} x {h} px for a{'n' if name[0] in 'aeiou' else ''} {name} card"
                         for (w, h), name in want.items())
    out = []
    for f in files:
        try:
            with Image.open(f) as img:
                size, mode = img.size, img.mode
        except OSError as exc:
            out.append(Finding("png.unreadable", "error", f.stem, f"cannot be read as an image ({exc})", file=f.name))
            continue
        if want and size not in want:
            out.append(Finding("png.size", "error", f.stem, f"{size[0]} x {size[1]} px; {service} wants {wanted}",
                               file=f.name))
        if mode == "CMYK":
            out.append(Finding("png.cmyk", "error", f.stem, "a CMYK image: this service takes RGB", file=f.name))
    return out
