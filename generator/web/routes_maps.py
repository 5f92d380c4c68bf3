"""Map pages: each map drawn as SVG from its data, and "does my boss fit here?" for a build
(the engine's `map.boss-fit` check), with the places the build's footprint can start."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Query, Request
from fastapi.exceptions import HTTPException

from generator.grids import hexgrid
from generator.core.errors import InputError
from generator.pack.model import Pack
from generator.web.pages import page
from generator.web.common import preset_docs, site_of
from generator.web.state import clean_document, document_from_yaml, to_build
from generator.web.words import gettext
from generator.maps import load_map
from generator.maps.checks import check_footprint, footprint_of, footprint_sides, largest_party, placements
from generator.render.maps.svg import map_legend, map_svg
from generator.share.codes import build_document, decode

router = APIRouter(include_in_schema=False)
SHOWN_PLACES = 12


def _map_path(pack: Pack, map_id: str) -> Path:
    for path in pack.map_files:
        if Path(path).stem == map_id:
            return Path(path)
    raise HTTPException(404, f"no map `{map_id}` in {pack.spec.name}")


@router.get("/p/{pack_id}/maps")
def maps(request: Request, pack_id: str, code: str = Query("", max_length=4000)):
    pack = site_of(request).pack(pack_id)
    chosen = _build_for(request, pack, code.strip(), "") if code.strip() else None
    items = []
    for path in pack.map_files:
        try:
            m = load_map(pack, Path(path))
        except InputError:
            continue
        items.append((Path(path).stem, m.title, getattr(m, "grid", "hex"), _verdict(pack, m, chosen)))
    side = pack.spec.sides[chosen.side].name if chosen is not None else None
    return page(request, "maps.html", title=gettext("{name}: maps").format(name=pack.spec.name), pack=pack, items=items, code=code,
                build=chosen, side_name=side)


def _verdict(pack: Pack, m, build) -> tuple[str, str] | None:
    """For the maps list: ("fits" | "no" | "n/a", the reason in words) for one build, or None."""
    if build is None:
        return None
    if getattr(m, "grid", "hex") == "square":
        return "n/a", "a square map: the footprint check is for hex maps"
    if build.side not in footprint_sides(pack):
        return "n/a", f"a {pack.spec.sides[build.side].name} build has no footprint to place"
    result = fit(pack, m, build)
    if result["violations"]:
        return "no", result["violations"][0].message
    n = len(result["anchors"])
    return "fits", f"{n} place{'s' if n != 1 else ''} to start"


def _build_for(request: Request, pack: Pack, code: str, build: str):
    """The build to check: a share code, or a saved build / preset named `kind:stem`."""
    site = site_of(request)
    if code:
        doc = clean_document(build_document(pack, decode(code, pack)), pack)
    elif build.startswith("preset:"):
        found = preset_docs(pack).get(build[7:])
        if found is None:
            raise HTTPException(404, f"no preset `{build[7:]}`")
        doc = found[0]
    elif build.startswith("saved:"):
        stem = build[6:]
        doc = document_from_yaml(site.builds.read(stem), pack, f"builds/{stem}.yaml")
    else:
        return None
    return to_build(doc, pack)


def fit(pack: Pack, m, build) -> dict:
    """The engine's footprint check for one build on one map, plus where it can start."""
    fp = footprint_of(pack, build)
    violations, stats = check_footprint(m, fp, largest_party(pack), set(pack.spec.sides))
    zone = m.zones.get(fp.side)
    walkable = m.walkable_hexes
    allowed = walkable & zone if zone is not None else walkable
    pivot = hexgrid.shape_center(fp.hexes)  # turns about the footprint's centre hex, as the check does
    shapes = hexgrid.orientations(hexgrid.translate(fp.hexes, (-pivot.q, -pivot.r)), mirror=True)
    places = placements(allowed, shapes)
    anchors = sorted({p.anchor for p in places})
    cells = frozenset().union(*(p.cells for p in places)) if places else frozenset()
    return {"footprint": fp, "violations": [v for v in violations if v.rule.startswith("map.")],
            "stats": stats, "anchors": anchors, "shown": anchors[:SHOWN_PLACES], "cells": cells,
            "zone": fp.side if zone is not None else None}


@router.get("/p/{pack_id}/maps/{map_id}")
def map_page(request: Request, pack_id: str, map_id: str, code: str = Query("", max_length=4000),
             build: str = Query("", max_length=200)):
    site = site_of(request)
    pack = site.pack(pack_id)
    m = load_map(pack, _map_path(pack, map_id))
    square = getattr(m, "grid", "hex") == "square"
    result = None
    chosen = _build_for(request, pack, code.strip(), build) if (code or build) else None
    if chosen is not None and not square:
        if chosen.side not in footprint_sides(pack):
            result = {"not_applicable": f"a {pack.spec.sides[chosen.side].name} build has no footprint to place"}
        else:
            result = fit(pack, m, chosen)
    svg = map_svg(m, pack, highlight=sorted(result["cells"]) if result and result.get("cells") else None)
    choices = [(f"preset:{stem}", doc["name"]) for stem, (doc, b) in preset_docs(pack).items()
               if b.side in footprint_sides(pack)]
    choices += [(f"saved:{e.stem}", e.name) for e in site.builds.entries(pack.spec.id)
                if e.side in footprint_sides(pack)]
    return page(request, "map.html", title=f"{m.title}: {pack.spec.name}", pack=pack, m=m, map_id=map_id, svg=svg,
                legend=map_legend(m, pack), square=square, result=result, build=chosen, choices=choices, chosen=build, code=code)
