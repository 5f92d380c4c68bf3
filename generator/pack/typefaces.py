"""The typefaces in the box, and what a pack's fonts are credited as.

Three display faces under the SIL Open Font License ship with pnp (generator/pack/fonts/<key>/:
the TrueType file, unmodified, beside its OFL.txt) for titles and headings: a pack names one in
game.yaml, `fonts: {display: cinzel}`, or a TrueType file of its own (`fonts: {display:
fonts/Title.ttf}`). Body text stays in Bitstream Vera Sans (ReportLab ships it) unless the pack
gives its own `regular`, `bold`, `italic`, `bold-italic`.

| key | face | what it suits | file |
| --- | --- | --- | --- |
| `cinzel` | Cinzel Bold: Roman inscriptional capitals | epic fantasy (Boss Fight, Raid Boss) | 77 KB |
| `oswald` | Oswald SemiBold: a condensed grotesque | military, modern (the tactics game) | 88 KB |
| `russo-one` | Russo One: a squared sans | arcade, arena (Battle Bosses, Final Boss) | 37 KB |

All three draw the whole of Latin-1 and most of Latin Extended-A (German, French, Spanish,
Polish...). Every PDF embeds only the glyphs it uses (ReportLab subsets TrueType fonts).

Credits are read from the fonts themselves (their `name` table: the full name, the copyright
line and the licence description), so a pack's own font is credited as its maker wrote it
(`font_credits`); the rulebook's credits page lists them.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from generator.pack.model import FontStyle

FONTS_DIR = Path(__file__).resolve().parent / "fonts"
OFL = "SIL Open Font License 1.1"


@dataclass(frozen=True)
class Typeface:
    key: str  # the name game.yaml uses
    name: str
    file: str  # inside FONTS_DIR
    suits: str

    @property
    def path(self) -> Path:
        return FONTS_DIR / self.file

    @property
    def licence_path(self) -> Path:
        return self.path.parent / "OFL.txt"


TYPEFACES: dict[str, Typeface] = {t.key: t for t in (
    Typeface("cinzel", "Cinzel Bold", "cinzel/Cinzel-Bold.ttf", "epic fantasy"),
    Typeface("oswald", "Oswald SemiBold", "oswald/Oswald-SemiBold.ttf", "military, modern"),
    Typeface("russo-one", "Russo One", "russo-one/RussoOne-Regular.ttf", "arcade, arena"),
)}


def font_file(value: str, root: str | os.PathLike[str]) -> Path:
    """The file a game.yaml `fonts:` value names: a built-in typeface by its key, else a path
    inside the pack (resolved and checked by the loader: pack_font_paths)."""
    face = TYPEFACES.get(value)
    return face.path if face is not None else Path(root) / value


def is_typeface_name(value: str) -> bool:
    """A value written as a name (no folder, no extension) rather than a file."""
    return "/" not in value and "\\" not in value and "." not in value


# ---- credits -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Credit:
    """One thing a build prints that someone else made, as the credits name it."""

    what: str  # "Cinzel Bold (titles and headings)"
    author: str  # the copyright line
    licence: str
    where: str = ""  # where its licence text is


def name_table(path: str | os.PathLike[str]) -> dict[int, str]:
    """The English (or first) strings of a TrueType file's `name` table, by name id."""
    with open(path, "rb") as f:
        data = f.read()
    out: dict[int, str] = {}
    try:
        (tables,) = struct.unpack(">H", data[4:6])
        for i in range(tables):
            tag, _, offset, _ = struct.unpack(">4sIII", data[12 + 16 * i:28 + 16 * i])
            if tag != b"name":
                continue
            _, count, strings = struct.unpack(">HHH", data[offset:offset + 6])
            for j in range(count):
                platform, _, language, nid, length, at = struct.unpack(
                    ">HHHHHH", data[offset + 6 + 12 * j:offset + 18 + 12 * j])
                raw = data[offset + strings + at:offset + strings + at + length]
                if platform == 3 and (language == 0x409 or nid not in out):
                    out[nid] = raw.decode("utf-16-be", "replace")
                elif platform == 1 and nid not in out:
                    out[nid] = raw.decode("latin-1")
    except struct.error:  # a damaged table: credit what was read
        pass
    return out


def licence_of(names: dict[int, str]) -> str:
    text = " ".join(names.get(13, "").split())
    if "Open Font License" in text:
        return OFL
    if "Bitstream" in text and "Permission is hereby granted" in text:
        return "Bitstream Vera Fonts licence"
    if text:
        return text[:120] + ("…" if len(text) > 120 else "")
    return "licence not stated in the font"


def credit_of(path: str | os.PathLike[str], use: str, where: str = "") -> Credit:
    names = name_table(path)
    name = names.get(4) or names.get(1) or Path(path).stem
    author = " ".join(names.get(0, "").split()).rstrip(".") or "author not stated in the font"
    return Credit(f"{name} ({use})", author, licence_of(names), where)


BODY_USE = "body text"
DISPLAY_USE = "titles and headings"
USES = {"regular": BODY_USE, "bold": "bold text", "italic": "italic text", "bold-italic": "bold italic text",
        "display": DISPLAY_USE}


def font_credits(fonts: Mapping[FontStyle, str], root: str | os.PathLike[str]) -> list[Credit]:
    """The typefaces a pack prints with (game.yaml `fonts:`, style -> value), each credited from
    its own file: the built-in body face unless the pack replaces it, then the pack's choices."""
    out = []
    if "regular" not in fonts:
        import reportlab  # ReportLab is what ships Vera: its folder holds the font and its licence
        vera = Path(reportlab.__file__).parent / "fonts"
        out.append(credit_of(vera / "Vera.ttf", BODY_USE, "bitstream-vera-license.txt, shipped with ReportLab"))
    seen = set()
    styles: tuple[FontStyle, ...] = ("display", "regular", "bold", "italic", "bold-italic")
    for style in styles:
        value = fonts.get(style)
        if value is None:
            continue
        path = font_file(value, root)
        if path in seen or not os.path.isfile(path):
            continue
        seen.add(path)
        face = TYPEFACES.get(value)
        where = f"fonts/{face.key}/OFL.txt in pnp's package" if face else value
        out.append(credit_of(path, USES[style], where))
    return out
