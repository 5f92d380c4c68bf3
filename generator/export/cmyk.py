"""CMYK for print shops: turn a finished RGB card PDF into a CMYK one.

We draw every PDF in RGB (home printers, PNG and Tabletop Simulator want RGB) and convert
the finished file, so one drawing serves every output and no renderer needs to know about
ink. The conversion rewrites the PDF's content streams and images (pikepdf):

- vector colours (`rg`/`RG`, `g`/`G`, `sc`/`scn` in DeviceRGB) go through littleCMS (Pillow's
  ImageCms) from sRGB to the output profile, relative colorimetric with black-point
  compensation; exact neutrals (r = g = b, pure black text above all) become K-only, with
  the K that prints the same lightness on that profile, so black text is one sharp plate;
  text in a near-neutral colour (a warm or cool grey, chroma up to TEXT_NEUTRAL_CHROMA) is
  printed K-only too, since four plates never register exactly and small type in them blurs
  (shapes in the same colour keep their tint);
- RGB images are converted the same way, pixel by pixel;
- total ink is limited (240 % by default, DriveThruCards' limit): where C + M + Y + K is
  over, cyan, magenta and yellow are scaled down and black is kept;
- the profile is embedded as the document's OutputIntent (GTS_PDFX), naming it.

The result is *not* claimed to be PDF/X: see docs/print-services.md.
"""

from __future__ import annotations

import io
import lzma
import zlib
from decimal import Decimal
from functools import lru_cache
from pathlib import Path

import pikepdf
from PIL import Image, ImageCms, ImageMath

from generator.core.errors import InputError, Location, Problem

ICC_DIR = Path(__file__).resolve().parent / "icc"
# the shipped profile is kept xz-compressed (247 kB -> 107 kB of the default install, which has
# 151 MB to spend: tests/test_install.py); read_icc unpacks it, and any user's `--icc FILE.xz` alike
DEFAULT_ICC = ICC_DIR / "pnp-FOGRA39L-coated.icc.xz"
DEFAULT_INK_LIMIT = 240.0
# operators that set a colour, and the CMYK operator each becomes
_RGB_OPS = {"rg": "k", "RG": "K"}
_GRAY_OPS = {"g": "k", "G": "K"}
_SHOW_TEXT = {"Tj", "TJ", "'", '"'}
# Text whose colour is this close to grey (CIELAB chroma) is printed in black ink alone: the
# card templates' warm and cool greys for secondary text are about 8-9; a colour that reads as
# a colour (a dark red title: 47) keeps its inks.
TEXT_NEUTRAL_CHROMA = 12.0
# A rich black (or rich dark grey) is a dark colour built on all four plates: black with cyan,
# magenta and yellow under it. Small type in one blurs, since the plates never register
# exactly: text in a colour that converts to one prints in black ink alone (its lightness kept),
# and `pnp preflight` warns about any left (pdf.rich-black). A dark colour that needs its inks
# (a deep red: no cyan) is a colour, not rich black.
RICH_BLACK_MIN_K = 0.5
RICH_BLACK_MIN_CMY = 0.1


def read_icc(path: Path) -> bytes:
    """An ICC profile's bytes, unpacked when the file is xz-compressed (`.xz`)."""
    data = path.read_bytes()
    return lzma.decompress(data) if path.suffix == ".xz" else data


def is_rich_black(cmyk: tuple) -> bool:
    return cmyk[3] >= RICH_BLACK_MIN_K and min(cmyk[:3]) >= RICH_BLACK_MIN_CMY


def _pixel(image: Image.Image | None, xy: tuple[int, int] = (0, 0)) -> tuple[int, ...]:
    """One pixel of a colour transform's result, as its channels (applyTransform gives None only
    when asked to work in place, which this module never does)."""
    if image is None:
        raise ValueError("the colour transform made no image")
    pixel = image.getpixel(xy)
    return pixel if isinstance(pixel, tuple) else (int(pixel or 0),)


class CmykConverter:
    """sRGB → the output profile's CMYK, with neutrals to K and a total ink limit (percent)."""

    def __init__(self, icc: Path | str | None = None, ink_limit: float = DEFAULT_INK_LIMIT):
        self.icc_path = Path(icc) if icc else DEFAULT_ICC
        if not 100 <= ink_limit <= 400:
            raise InputError([Problem("cmyk.ink-limit", f"an ink limit of {ink_limit:g} % cannot be printed",
                                      Location("--ink-limit"), found=f"{ink_limit:g}",
                                      expected="a total ink between 100 and 400 %", fix="use 240 (DriveThruCards) or 300")])
        self.ink_limit = ink_limit / 100.0
        try:
            self.icc_bytes = read_icc(self.icc_path)
            profile = ImageCms.getOpenProfile(io.BytesIO(self.icc_bytes))
        except (OSError, lzma.LZMAError, ImageCms.PyCMSError) as exc:
            raise InputError([Problem("cmyk.icc", f"cannot read the ICC profile `{self.icc_path}` ({exc})",
                                      Location(str(self.icc_path)), expected="an ICC output profile for CMYK",
                                      fix="give the path of a .icc/.icm file, e.g. from your print service")]) from None
        if profile.profile.xcolor_space.strip() != "CMYK":
            raise InputError([Problem("cmyk.icc", f"the ICC profile `{self.icc_path.name}` is for "
                                      f"{profile.profile.xcolor_space.strip()}, not CMYK", Location(str(self.icc_path)),
                                      found=profile.profile.xcolor_space.strip(), expected="a CMYK output profile",
                                      fix="use the CMYK profile your print service names (e.g. FOGRA39, GRACoL)")])
        self.description = (ImageCms.getProfileDescription(profile) or Path(self.icc_path.name.removesuffix(".xz")).stem).strip()
        srgb = ImageCms.createProfile("sRGB")
        flags = ImageCms.Flags.BLACKPOINTCOMPENSATION
        self._to_cmyk = ImageCms.buildTransform(srgb, profile, "RGB", "CMYK",
                                                renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC, flags=flags)
        lab = ImageCms.createProfile("LAB")
        self._srgb_to_lab = ImageCms.buildTransform(srgb, lab, "RGB", "LAB",
                                                    renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
        self._cmyk_to_lab = ImageCms.buildTransform(profile, lab, "CMYK", "LAB",
                                                    renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC, flags=flags)
        self._k_ramp = self._black_ramp()
        self._cache: dict = {}

    # ---- colours ------------------------------------------------------------------------
    def _black_ramp(self) -> list[float]:
        """L* of K-only tints 0..255 on this profile (lightness falls as K rises)."""
        ramp = Image.new("CMYK", (256, 1))
        ramp.putdata([(0, 0, 0, k) for k in range(256)])
        lab = ImageCms.applyTransform(ramp, self._cmyk_to_lab)
        return [_pixel(lab, (i, 0))[0] for i in range(256)]  # L* scaled 0..255

    def gray(self, level: float) -> tuple[float, float, float, float]:
        """A neutral (0 = black, 1 = white) as K only, matching its lightness."""
        if level <= 0:
            return (0.0, 0.0, 0.0, 1.0)
        if level >= 1:
            return (0.0, 0.0, 0.0, 0.0)
        v = round(level * 255)
        target = _pixel(ImageCms.applyTransform(Image.new("RGB", (1, 1), (v, v, v)), self._srgb_to_lab))[0]
        return self._k_for_lightness(target)

    def text_black(self, r: float, g: float, b: float) -> tuple[float, float, float, float] | None:
        """For text: K-only of the same lightness when the colour is near-neutral (and not an
        exact neutral, which `rgb` already makes K-only) or would print as a rich black, else None."""
        key = ("text", round(r * 255), round(g * 255), round(b * 255))
        if key not in self._cache:
            rgb = key[1:]
            lab = _pixel(ImageCms.applyTransform(Image.new("RGB", (1, 1), rgb), self._srgb_to_lab))
            a, b_ = lab[1] - 128, lab[2] - 128  # Pillow's LAB stores a* and b* offset by 128
            near = rgb[0] != rgb[1] or rgb[1] != rgb[2]
            neutral = (a * a + b_ * b_) ** 0.5 <= TEXT_NEUTRAL_CHROMA
            self._cache[key] = (self._k_for_lightness(lab[0])
                                if near and (neutral or is_rich_black(self.rgb(r, g, b))) else None)
        return self._cache[key]

    def _k_for_lightness(self, lightness: int) -> tuple[float, float, float, float]:
        ramp = self._k_ramp
        # the ramp is monotone (lighter with less K): pick the K whose L* is nearest
        k = min(range(256), key=lambda i: abs(ramp[i] - lightness))
        return (0.0, 0.0, 0.0, round(k / 255, 4))

    def rgb(self, r: float, g: float, b: float) -> tuple[float, float, float, float]:
        """One colour (components 0..1) to CMYK 0..1, ink-limited."""
        key = (round(r * 255), round(g * 255), round(b * 255))
        if key in self._cache:
            return self._cache[key]
        if key[0] == key[1] == key[2]:
            out = self.gray(key[0] / 255)
        else:
            c, m, y, k = _pixel(ImageCms.applyTransform(Image.new("RGB", (1, 1), key), self._to_cmyk))
            lc, lm, ly, lk = limit_ink(c / 255, m / 255, y / 255, k / 255, self.ink_limit)
            out = (round(lc, 4), round(lm, 4), round(ly, 4), round(lk, 4))
        self._cache[key] = out
        return out

    def image(self, img):
        """A PIL image (RGB, RGBA, P, L...) to CMYK, ink-limited; neutrals are not special here."""
        rgb = img.convert("RGB")
        cmyk = ImageCms.applyTransform(rgb, self._to_cmyk)
        return limit_image_ink(cmyk, self.ink_limit)


def limit_ink(c: float, m: float, y: float, k: float, limit: float) -> tuple[float, float, float, float]:
    """Scale C, M and Y down so that C + M + Y + K ≤ limit (all 0..1; limit 2.4 = 240 %)."""
    cmy = c + m + y
    if cmy + k <= limit or cmy <= 0:
        return (c, m, y, min(k, limit))
    s = max(0.0, limit - k) / cmy
    return (c * s, m * s, y * s, k)


def limit_image_ink(cmyk_img, limit: float):
    """The image with C, M and Y scaled down wherever C + M + Y + K is over `limit`, K kept.
    Pillow's float images (32-bit, as the arithmetic needs) rather than numpy: the same numbers
    without 70 MB in every install."""
    c, m, y, k = (band.convert("F") for band in cmyk_img.split())
    cap = limit * 255.0
    cmy = ImageMath.lambda_eval(lambda e: e["c"] + e["m"] + e["y"], c=c, m=m, y=y)
    over = ImageMath.lambda_eval(lambda e: (e["cmy"] + e["k"] > e["cap"]) * (e["cmy"] > 0.0), cmy=cmy, k=k, cap=cap)
    if not over.getextrema()[1]:
        return cmyk_img.copy()
    # 1 where within the limit; (cap - K) / (C + M + Y) where over
    scale = ImageMath.lambda_eval(
        lambda e: e["over"] * (e["max"](e["cap"] - e["k"], 0.0) / e["max"](e["cmy"], 1e-6)) + (1.0 - e["over"]),
        over=over, k=k, cmy=cmy, cap=cap)
    # F -> L truncates, which is the floor here: rounding up could put a pixel a hair over the limit
    scaled = [ImageMath.lambda_eval(lambda e: e["band"] * e["scale"], band=band, scale=scale).convert("L")
              for band in (c, m, y)]
    return Image.merge("CMYK", [*scaled, cmyk_img.getchannel(3)])


def _num(x: float) -> float:
    """An operand with four decimals: enough for 8-bit ink, and short streams."""
    return float(f"{x:.4f}")


def _convert_stream(instructions, conv: CmykConverter) -> tuple[list, int]:
    """Rewrite one content stream's colour operators. Returns (instructions, how many).

    Text shown in a near-neutral fill gets a K-only fill just before it (conv.text_black); at
    the end of the text object the converted fill comes back, so shapes drawn after it in the
    same colour keep their tint."""
    out: list[pikepdf.ContentStreamInstruction | pikepdf.ContentStreamInlineImage] = []
    changed = 0
    space: dict[str, str | None] = {"fill": None, "stroke": None}  # names set by cs / CS
    fill_rgb = None  # the fill colour in force (RGB 0..1), and its CMYK instruction
    fill_inst = None
    text_k = False  # a K-only fill was put in for text in this text object
    saved: list = []  # the fill at each q, back at its Q

    def k_fill(cmyk):
        return pikepdf.ContentStreamInstruction([_num(v) for v in cmyk], pikepdf.Operator("k"))

    for inst in instructions:
        if isinstance(inst, pikepdf.ContentStreamInlineImage):
            out.append(inst)
            continue
        op = str(inst.operator)
        ops = list(inst.operands)
        new = None
        if op in _RGB_OPS and len(ops) == 3:
            rgb = tuple(float(v) for v in ops)
            new = pikepdf.ContentStreamInstruction([_num(v) for v in conv.rgb(*rgb)], pikepdf.Operator(_RGB_OPS[op]))
        elif op in _GRAY_OPS and len(ops) == 1:
            rgb = (float(ops[0]),) * 3
            new = pikepdf.ContentStreamInstruction([_num(v) for v in conv.rgb(*rgb)], pikepdf.Operator(_GRAY_OPS[op]))
        elif op in ("cs", "CS") and ops and str(ops[0]) in ("/DeviceRGB", "/DeviceGray"):
            space["fill" if op == "cs" else "stroke"] = str(ops[0])
            out.append(pikepdf.ContentStreamInstruction([pikepdf.Name.DeviceCMYK], inst.operator))
            changed += 1
            continue
        elif (op in ("sc", "scn", "SC", "SCN") and space["fill" if op.islower() else "stroke"] in
              ("/DeviceRGB", "/DeviceGray") and all(isinstance(v, (int, float, Decimal)) for v in ops)):
            vals = [float(v) for v in ops]
            rgb = tuple(vals) if len(vals) == 3 else (vals[0],) * 3
            new = pikepdf.ContentStreamInstruction([_num(v) for v in conv.rgb(*rgb)], inst.operator)
        if new is not None:
            out.append(new)
            changed += 1
            if op.islower():  # a fill colour
                fill_rgb, fill_inst, text_k = rgb, new, False
            continue
        if op in ("cs", "k", "sc", "scn"):  # a fill this converter leaves as it is
            fill_rgb = fill_inst = None
            text_k = False
        elif op == "q":
            saved.append((fill_rgb, fill_inst))
        elif op == "Q":
            fill_rgb, fill_inst = saved.pop() if saved else (None, None)
        elif op in _SHOW_TEXT and not text_k and fill_rgb is not None:
            black = conv.text_black(*fill_rgb)
            if black is not None:
                out.append(k_fill(black))
                changed += 1
                text_k = True
        elif op == "ET" and text_k:
            out.append(inst)
            if fill_inst is not None:  # (a Q inside the text object may have taken it away)
                out.append(fill_inst)  # the fill in force before the text, for what is drawn next
            text_k = False
            continue
        out.append(inst)
    return out, changed


def _is_rgb_space(cs) -> bool:
    if cs is None:
        return False
    if isinstance(cs, pikepdf.Name):
        return cs == pikepdf.Name.DeviceRGB
    if isinstance(cs, pikepdf.Array) and len(cs) >= 2:
        if cs[0] == pikepdf.Name.ICCBased:
            return int(cs[1].get("/N", 3)) == 3
        if cs[0] == pikepdf.Name.Indexed:
            return _is_rgb_space(cs[1])
    return False


def _convert_image(obj, conv: CmykConverter) -> bool:
    if obj.get("/ImageMask", False) or not _is_rgb_space(obj.get("/ColorSpace")):
        return False
    img = pikepdf.PdfImage(obj).as_pil_image()
    cmyk = conv.image(img)
    obj.write(zlib.compress(cmyk.tobytes(), 9), filter=pikepdf.Name.FlateDecode)
    obj.ColorSpace = pikepdf.Name.DeviceCMYK
    obj.BitsPerComponent = 8
    for key in ("/DecodeParms", "/Decode"):
        if key in obj:
            del obj[key]
    return True


def _fix_group(obj) -> None:
    """Transparency groups blend in the colour space they name: make it CMYK."""
    group = obj.get("/Group")
    if group is not None and _is_rgb_space(group.get("/CS")):
        group.CS = pikepdf.Name.DeviceCMYK


def convert_pdf(src: Path, dst: Path, conv: CmykConverter) -> dict:
    """Write `dst`, the CMYK version of the RGB PDF `src`, with the OutputIntent."""
    stats = {"colours": 0, "images": 0, "streams": 0}
    with pikepdf.open(src) as pdf:
        for obj in pdf.objects:
            if not isinstance(obj, pikepdf.Stream):
                continue
            subtype = obj.get("/Subtype")
            if subtype == pikepdf.Name.Image:
                stats["images"] += _convert_image(obj, conv)
            elif subtype == pikepdf.Name.Form:
                _rewrite(pdf, obj, conv, stats)
                _fix_group(obj)
        for page in pdf.pages:
            _fix_group(page.obj)
            page.contents_coalesce()
            _rewrite(pdf, page.obj.Contents, conv, stats)
        _shadings(pdf, conv)
        icc = pdf.make_stream(conv.icc_bytes)
        icc.N = 4
        icc.Alternate = pikepdf.Name.DeviceCMYK
        name = conv.description
        pdf.Root.OutputIntents = pikepdf.Array([pikepdf.Dictionary(
            Type=pikepdf.Name.OutputIntent, S=pikepdf.Name.GTS_PDFX,
            OutputConditionIdentifier=pikepdf.String(name), OutputCondition=pikepdf.String(name),
            Info=pikepdf.String(f"{name}; ink limited to {conv.ink_limit * 100:g} %"),
            RegistryName=pikepdf.String("http://www.color.org"), DestOutputProfile=icc)])
        with pdf.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as meta:
            meta["dc:description"] = f"CMYK for {name}, total ink ≤ {conv.ink_limit * 100:g} %"
        pdf.save(dst, deterministic_id=True, compress_streams=True,
                 object_stream_mode=pikepdf.ObjectStreamMode.generate)
    return {**stats, "profile": name}


def _rewrite(pdf, stream, conv: CmykConverter, stats: dict) -> None:
    instructions = pikepdf.parse_content_stream(stream)
    new, changed = _convert_stream(instructions, conv)
    if changed:
        stream.write(pikepdf.unparse_content_stream(new))
        stats["colours"] += changed
        stats["streams"] += 1


def _shadings(pdf, conv: CmykConverter) -> None:
    """Axial/radial shadings with sampled-free (type 2) functions: convert their end colours."""
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Dictionary) and "/ShadingType" in obj and _is_rgb_space(obj.get("/ColorSpace")):
            functions = obj.Function if isinstance(obj.Function, pikepdf.Array) else [obj.Function]
            stack = list(functions)
            while stack:
                f = stack.pop()
                if int(f.get("/FunctionType", 0)) == 3:
                    stack.extend(f.Functions)
                elif int(f.get("/FunctionType", 0)) == 2:
                    for key in ("/C0", "/C1"):
                        vals = [float(v) for v in f.get(key, [0, 0, 0] if key == "/C0" else [1, 1, 1])]
                        f[key] = pikepdf.Array([_num(v) for v in conv.rgb(*vals)])
            obj.ColorSpace = pikepdf.Name.DeviceCMYK


@lru_cache(maxsize=4)
def converter(icc: str | None = None, ink_limit: float = DEFAULT_INK_LIMIT) -> CmykConverter:
    return CmykConverter(icc, ink_limit)
