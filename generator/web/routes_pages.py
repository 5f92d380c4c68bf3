"""The start page (the packs served), each pack's home page and its about page (credits), and
the site's icon."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, RedirectResponse
from pathlib import Path

from generator.pack.credits import pack_credits
from generator.pack.gameicons import icon_set
from generator.web.pages import page
from generator.web.common import preset_docs, site_of

router = APIRouter(include_in_schema=False)


@router.get("/")
def start(request: Request):
    site = site_of(request)
    if len(site.packs) == 1:
        return RedirectResponse(f"/p/{next(iter(site.packs))}", status_code=302)
    return page(request, "start.html", title="Game packs", packs=list(site.packs.values()))


@router.get("/favicon.ico")
def favicon(request: Request):
    """The icon browsers ask every site for (generator.web.site.Site.icon)."""
    path, kind = site_of(request).icon()
    return FileResponse(path, media_type=kind, headers={"Cache-Control": "public, max-age=86400"})


@router.get("/p/{pack_id}")
def pack_home(request: Request, pack_id: str):
    site = site_of(request)
    pack = site.pack(pack_id)
    presets = [(stem, doc) for stem, (doc, _) in preset_docs(pack).items()]
    return page(request, "pack.html", title=pack.spec.name, pack=pack, presets=presets,
                saved=site.builds.entries(pack.spec.id), maps=_map_ids(pack))


@router.get("/p/{pack_id}/about")
def about(request: Request, pack_id: str):
    """The game's credits: its makers, and who made the art its cards print, under which licence."""
    pack = site_of(request).pack(pack_id)
    credits = pack_credits(pack)
    return page(request, "about.html", title=f"About {pack.spec.name}", pack=pack, credits=credits,
                icons=icon_set())


def _map_ids(pack) -> list[str]:
    return [Path(p).stem for p in pack.map_files]
