"""The maps document and the map images. Each map's grid kind picks its painter from
PAINTERS (hex: generator.render.maps.hexes, square: generator.render.maps.square); the page
machinery they share is generator.render.maps.page. A new grid kind registers a painter here.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Generic, Protocol, TypeVar

from generator.core import pdfium
from generator.core.papers import DEFAULT_PAPER
from generator.core.files import atomic_output
from generator.maps.load import load_pack_maps
from generator.maps.model import HexMap
from generator.maps.square import SquareMap
from generator.render.base.paper import PAPERS_MM
from generator.render.base.paints import PaintRecorder
from generator.render.base.pdfout import MM, new_canvas
from generator.render.maps.hexes import draw_hex_thumbnail, hex_image, plan_hex_sheets, render_hex_map
from generator.render.maps.page import PNG_MAX_PX, zone_names_of
from generator.render.maps.palette import COLOUR, DEFAULT_INK, Palette, palette_for
from generator.render.maps.square import (draw_square_thumbnail, plan_square_sheets, render_square_map,
                                          square_image)
from generator.render.maps.tiles import render_tiles

if TYPE_CHECKING:
    from generator.pack.model import Pack
    from generator.render.maps.page import MapImage, SheetPlan

M = TypeVar("M", HexMap, SquareMap)  # the map model of one grid kind
M_in = TypeVar("M_in", HexMap, SquareMap, contravariant=True)


class Thumbnail(Protocol[M_in]):
    """Draw a whole map fitted and centred in the box (x, y bottom-left, mm); returns the scale."""

    def __call__(self, canvas: Any, m: M_in, x: float, y: float, width: float, height: float, *,
                 labels: bool = ..., palette: Palette = ...) -> float: ...


@dataclass(frozen=True)
class Painter(Generic[M]):
    """What a grid kind draws; every function takes the map model of that kind (mypy checks that
    the four agree on it, and each one's signature)."""

    plan_sheets: Callable[[M, str], SheetPlan]  # (map, paper) -> how it is cut into true-scale sheets
    # (canvas, map, pack, paper, zone names, palette) -> sheets drawn
    render_map: Callable[[Any, M, Pack, str, dict[str, str], Palette], int]
    draw_thumbnail: Thumbnail[M]  # (canvas, map, x, y, w, h, labels=, palette=) -> scale
    image: Callable[[M, Pack], MapImage]  # (map, pack) -> MapImage, for the PNG export


_HEX: Painter[HexMap] = Painter(plan_hex_sheets, render_hex_map, draw_hex_thumbnail, hex_image)
_SQUARE: Painter[SquareMap] = Painter(plan_square_sheets, render_square_map, draw_square_thumbnail, square_image)
PAINTERS: dict[str, Painter[Any]] = {"hex": _HEX, "square": _SQUARE}  # by the map's `grid`


def painter_for(m: HexMap | SquareMap) -> Painter[Any]:
    return PAINTERS[m.grid]


def draw_map_thumbnail(canvas, map_model, x: float, y: float, width: float, height: float, *,
                       labels: bool = False, palette: Palette = COLOUR) -> float:
    """Draw a whole map fitted and centred in the box (x, y bottom-left, mm), with
    obstacles, terrain and zones as on the printed map. Returns the scale used."""
    return painter_for(map_model).draw_thumbnail(canvas, map_model, x, y, width, height, labels=labels,
                                                 palette=palette)


def plan_sheets(m, paper: str = DEFAULT_PAPER) -> SheetPlan:
    """How a map is cut into true-scale sheets: the page orientation that needs fewer
    sheets (portrait on a tie)."""
    if paper not in PAPERS_MM:
        raise ValueError(f"unknown paper {paper!r}; use one of {', '.join(PAPERS_MM)}")
    return painter_for(m).plan_sheets(m, paper)


def render_maps(c, maps: list, pack: Pack, paper: str, ink: str = DEFAULT_INK) -> int:
    """Every map: overview (with legend), assembly diagram when tiled, then the sheets;
    then the map tiles (maps with `tile:`), packed several to a sheet (generator.render.maps.tiles).
    `ink` is the look: "colour" or the low-ink "saver" (render/maps/palette.py).
    Returns the number of true-scale sheets."""
    zone_names = zone_names_of(pack)
    palette = palette_for(pack, ink)
    sheets = 0
    tiles = [m for m in maps if getattr(m, "tile", None) is not None]
    for m in (m for m in maps if getattr(m, "tile", None) is None):
        sheets += painter_for(m).render_map(c, m, pack, paper, zone_names, palette)
    return sheets + render_tiles(c, tiles, pack.spec.name, PAPERS_MM[paper], zone_names, palette)


def build_maps_pdf(pack: Pack, out_path: Path, paper: str = DEFAULT_PAPER, low_contrast: list | None = None,
                   ink: str = DEFAULT_INK) -> dict:
    """Write every map of the pack to one PDF, atomically, in colour or (`ink="saver"`) in the
    low-ink black-and-white look. Returns counts for the build
    log ({"maps": n, "sheets": n, "pages": n}); a pack without maps writes nothing. With
    `low_contrast` (a list), every text whose contrast with the flat colour under it is below
    MIN_CONTRAST is added as (page, TextOnPaint), judged as the pages are drawn
    (render/base/paints.py)."""
    paper = _paper(paper)
    maps = load_pack_maps(pack)
    if not maps:
        return {"maps": 0}
    with atomic_output(Path(out_path)) as tmp:
        w, h = PAPERS_MM[paper]
        c = new_canvas(str(tmp), (w * MM, h * MM), f"{pack.spec.name}: maps", "True-scale hex maps",
                       keep_streams=True)
        recorder = PaintRecorder()
        if low_contrast is not None:
            c.record(recorder)
        sheets = render_maps(c, maps, pack, paper, ink)
        pages = c.getPageNumber() - 1
        if low_contrast is not None:
            c.stop_recording()
            low_contrast.extend(recorder.low)
        c.save()
    tiled = [m.tile for m in maps if isinstance(m, HexMap) and m.tile is not None]  # cut-out tiles, not maps
    tiles = sum(tile.copies for tile in tiled)
    return {"maps": len(maps) - len(tiled),
            **({"tiles": tiles} if tiles else {}), "sheets": sheets, "pages": pages}


def maps_text_on_paint(pack: Pack, paper: str = DEFAULT_PAPER, ink: str = DEFAULT_INK, *,
                       shortcuts: bool = True) -> PaintRecorder:
    """The pack's map pages drawn as build_maps_pdf draws them, into memory and not saved (no
    file, no PDF made): the recorder says what each text lies on (`.low`: below MIN_CONTRAST).
    A page never saved leaves out what its recorder does not read (`shortcuts`; False: every
    page drawn whole, what the tests hold the shortcuts to)."""
    paper = _paper(paper)
    w, h = PAPERS_MM[paper]
    c = new_canvas(io.BytesIO(), (w * MM, h * MM), f"{pack.spec.name}: maps", "True-scale hex maps")
    c.setPageCompression(0)  # its pages are never written: not compressed either,
    c.scratch = shortcuts  # nor its strings encoded (the recorder is told them: render/base/recording.py)
    recorder = PaintRecorder()
    c.record(recorder)
    maps = load_pack_maps(pack)
    if maps:
        render_maps(c, maps, pack, paper, ink)
    c.stop_recording()
    return recorder


def _paper(paper: str) -> str:
    paper = paper.lower()
    if paper not in PAPERS_MM:
        raise ValueError(f"unknown paper {paper!r}; use one of {', '.join(PAPERS_MM)}")
    return paper


def export_map_pngs(pack: Pack, out_dir: Path) -> dict:
    """One PNG per map for virtual tabletops, cells (hexes flat to flat, square tiles) a fixed
    pixel pitch (less only if the image would pass PNG_MAX_PX), with the pitch in the file name
    (`<map>_hex100px.png`, `<map>_tile100px.png`) and a sidecar `<map>.json` giving the grid
    geometry in pixels. Returns {"images": n, "files": [paths written], "sidecars": [their contents]}."""
    out_dir = Path(out_dir)
    written, sidecars = [], []
    for m in load_pack_maps(pack):
        img = painter_for(m).image(m, pack)
        pitch = img.base_px
        while pitch > 10 and max(img.page) * pitch / img.cell_mm > PNG_MAX_PX:
            pitch -= 10
        px_per_mm = pitch / img.cell_mm
        with pdfium.document(img.pdf) as doc:
            image = pdfium.image(doc[0], scale=px_per_mm / MM, grayscale=False).convert("RGB")
        name = f"{m.id}_{img.tag}{pitch}px.png"
        with atomic_output(out_dir / name, suffix=".png") as tmp:
            image.save(tmp, format="PNG")
        ox, oy = img.origin_mm
        frame, page = img.frame, img.page
        origin = ((frame.page_x + (ox - frame.map_x0)) * px_per_mm,
                  (page[1] - frame.page_top + (oy - frame.map_y0)) * px_per_mm)
        sidecar = img.facts(name, image.width, image.height, pitch, px_per_mm, origin)
        with atomic_output(out_dir / f"{m.id}.json", suffix=".json") as tmp:
            Path(tmp).write_text(json.dumps(sidecar, indent=2) + "\n", encoding="utf-8")
        written += [out_dir / name, out_dir / f"{m.id}.json"]
        sidecars.append(sidecar)
    return {"images": len(written) // 2, "files": written, "sidecars": sidecars}
