"""The inks a map is painted in: full colour (the default) or the low-ink black-and-white
look (`pnp build --ink saver`), for hex and square maps alike.

An ink is a grey level (a float, 0 black to 1 white, drawn with the grey operators) or an
sRGB triple. The saver palette is exactly the greys the maps were always drawn in, so its
PDFs are byte-identical to the black-and-white maps of before; the colour palette fills the
ground, tints each terrain kind in its own colour with its pattern in a darker shade of it,
puts an icon on feature terrain, draws obstacles as rock and start zones in their side's
colour. Every colour here is light or mid-toned: converted to CMYK through the shipped
FOGRA39 profile none needs more than about 200 % ink (the print-shop limit is 240 %,
tests/test_map_colour.py), and text on them keeps WCAG contrast (the maps' contrast check).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Union

from generator.render.base.fonts import BOLD, display_font

if TYPE_CHECKING:
    from generator.pack.model import Pack, TerrainSpec

Ink = Union[float, tuple[float, float, float]]
INKS = ("colour", "saver")  # `pnp build --ink`: the map style
DEFAULT_INK = "colour"


def rgb(hex_colour: str) -> tuple[float, float, float]:
    h = hex_colour.lstrip("#")
    return (int(h[0:2], 16) / 255, int(h[2:4], 16) / 255, int(h[4:6], 16) / 255)


def mix(a: Ink, b: Ink, t: float) -> Ink:
    """`a` moved a share `t` of the way to `b` (both grey or both colour; a grey with a
    colour becomes a colour)."""
    if isinstance(a, float) and isinstance(b, float):
        return round(a + (b - a) * t, 4)
    ta = (a, a, a) if isinstance(a, float) else a
    tb = (b, b, b) if isinstance(b, float) else b
    return tuple(round(x + (y - x) * t, 4) for x, y in zip(ta, tb))  # type: ignore[return-value]


def set_fill(c, ink: Ink) -> None:
    if isinstance(ink, (int, float)):
        c.setFillGray(ink)
    else:
        c.setFillColorRGB(*ink)


def set_stroke(c, ink: Ink) -> None:
    if isinstance(ink, (int, float)):
        c.setStrokeGray(ink)
    else:
        c.setStrokeColorRGB(*ink)


def luminance(ink: Ink) -> float:
    """WCAG relative luminance (text on a fill picks black or a soft grey by it)."""
    r, g, b = (ink, ink, ink) if isinstance(ink, float) else ink

    def lin(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def svg_colour(ink: Ink) -> str:
    r, g, b = (ink, ink, ink) if isinstance(ink, float) else ink
    return "#" + "".join(f"{max(0, min(255, round(v * 255))):02x}" for v in (r, g, b))


# A terrain kind with no `color:` in game.yaml takes the colour of its pattern's usual meaning.
PATTERN_COLOURS = {
    "dots": "#e4d2a2",  # sand, rubble, scattered stones
    "grass": "#a9cf86",  # thicket, brush, meadow
    "waves": "#94c4e6",  # water, mire
    "hatch": "#9a9088",  # a chasm, a pit
    "crosshatch": "#f2b27c",  # embers, hazards
    "bricks": "#cdc3b4",  # walls, bases, built ground
    "none": "#e6e0d2",
}
# square maps: a tile's height as a hypsometric tint, pale green ground to brown heights
HEIGHT_COLOURS = ("#eef2dc", "#dde8c0", "#e9deaf", "#dfc68f", "#d0ad79", "#bf9568", "#ad8059")


@dataclass(frozen=True)
class TerrainInk:
    fill: Ink | None  # the cell's fill (None: the ground shows)
    marks: Ink  # the pattern's lines and dots, and the icon
    band: Ink  # the quiet band under a coordinate label
    icon: str | None = None


@dataclass(frozen=True)
class Palette:
    """Every ink a map painter uses; `colour` says which look it is."""

    name: str
    colour: bool
    ground: Ink | None  # a plain cell's fill
    grid: Ink  # cell outlines
    label: Ink  # coordinates
    obstacle: Ink  # an obstacle's fill
    obstacle_rim: Ink
    rock: Ink | None  # the rock drawn on an obstacle (colour only)
    zone: Ink  # a start zone's dashes when its side has no colour
    region: Ink
    tag: Ink  # zone and region names
    air: Ink  # open air's fill (square maps; None in saver: the paper)
    air_marks: Ink
    crate: Ink  # a square map's obstacle crate
    crate_lines: Ink
    zone_colours: tuple = field(default=())  # (zone id, ink) of the pack's sides
    title_font: str = BOLD  # the maps' titles: the pack's display face (render/base/fonts.display_font)

    def zone_ink(self, zid: str) -> Ink:
        return dict(self.zone_colours).get(zid, self.zone)

    def terrain(self, spec: TerrainSpec | None) -> TerrainInk:
        if not self.colour:
            return _SAVER_TERRAIN
        pattern = spec.pattern if spec else "none"
        return _terrain_ink(getattr(spec, "color", None) or PATTERN_COLOURS.get(pattern, PATTERN_COLOURS["none"]),
                            getattr(spec, "icon", None))

    def height(self, level: int) -> Ink:
        """A square map tile's fill at a height: a grey step per level, or a tint of the ramp."""
        if not self.colour:
            return max(LEVEL_FLOOR, 1.0 - LEVEL_STEP * max(0, level))
        return rgb(HEIGHT_COLOURS[min(max(level, 0), len(HEIGHT_COLOURS) - 1)])


@functools.lru_cache(maxsize=256)
def _terrain_ink(colour: str, icon: str | None) -> TerrainInk:
    """A terrain's inks in colour, from its colour (`#rrggbb`), made once (a map page asks for
    them at every cell of the terrain)."""
    base = rgb(colour)
    marks = mix(base, 0.0, 0.5 if luminance(base) > 0.35 else 0.35)
    return TerrainInk(base, marks, mix(base, 1.0, 0.6), icon)


# the black-and-white look's greys (the maps' greys since the first release)
GRID_GREY = 0.2
LABEL_GREY = 0.35
PATTERN_GREY = 0.4
_SAVER_TERRAIN = TerrainInk(None, PATTERN_GREY, 1.0)  # every terrain's inks in the saver look
OBSTACLE_FILL = 0.62
LEVEL_STEP = 0.1  # grey per level: 0 → white, 1 → 0.9, ... 5 and above → LEVEL_FLOOR
LEVEL_FLOOR = 0.5
AIR_GREY = 0.55

SAVER = Palette("saver", False, ground=None, grid=GRID_GREY, label=LABEL_GREY, obstacle=OBSTACLE_FILL,
                obstacle_rim=0.1, rock=None, zone=0.05, region=0.0, tag=0.15, air=1.0, air_marks=AIR_GREY,
                crate=1.0, crate_lines=0.1)
COLOUR = Palette("colour", True, ground=rgb("#f5eedd"), grid=rgb("#5b5045"), label=rgb("#5b5045"),
                 obstacle=rgb("#77706a"), obstacle_rim=rgb("#2f2a26"), rock=rgb("#a49d94"),
                 zone=rgb("#2f2a26"), region=rgb("#3b2f27"), tag=rgb("#2f2a26"), air=rgb("#dfe7ef"),
                 air_marks=rgb("#8b9bb0"), crate=rgb("#c99a62"), crate_lines=rgb("#4e3519"))


def palette_for(pack: Pack | None, ink: str = DEFAULT_INK) -> Palette:
    """The palette of `ink` ("colour" or "saver") with the pack's start zones in the colour of
    their side (its first set's colour, as on its cards) and its titles in the pack's display face."""
    if ink not in INKS:
        raise ValueError(f"unknown map ink {ink!r}; use one of {', '.join(INKS)}")
    if pack is None:
        return SAVER if ink == "saver" else COLOUR
    if ink == "saver":
        return replace(SAVER, title_font=display_font(pack))
    spec = pack.spec
    zones = []
    for sid, side in sorted(spec.sides.items()):
        colours = [spec.sets[s].color for s in side.sets if s in spec.sets and spec.sets[s].side == sid]
        if colours:
            zones.append((sid, rgb(colours[0])))
    return replace(COLOUR, zone_colours=tuple(zones), title_font=display_font(pack))
