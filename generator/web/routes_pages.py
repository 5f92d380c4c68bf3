"""The start page (the packs served), each pack's home page and its about page (credits), and
the site's icon: a game's emblem on its pages, the builder's own mark where several games are
served."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, RedirectResponse, Response
from pathlib import Path

from generator.export.iconimage import emblem_ico, emblem_png
from generator.pack.model import Pack
from generator.pack.translations.catalog import own_name, readable_languages

from generator.pack.credits import pack_credits
from generator.pack.gameicons import icon_set
from generator.web.pages import page
from generator.web.common import per_pack, preset_docs, site_of
from generator.web.words import gettext

router = APIRouter(include_in_schema=False)


@router.get("/")
def start(request: Request):
    site = site_of(request)
    if len(site.packs) == 1:
        return RedirectResponse(f"/p/{next(iter(site.packs))}", status_code=302)
    return page(request, "start.html", title=gettext("Game packs"), packs=list(site.packs.values()))


ICON_CACHE = {"Cache-Control": "public, max-age=86400"}


@per_pack
def _emblem(pack: Pack) -> bytes | None:
    """The game's emblem as a PNG, drawn once per process (None: the game has none)."""
    return emblem_png(pack)


@router.get("/favicon.ico")
def favicon(request: Request):
    """The icon browsers ask every site for: the emblem of the one game served, else the
    builder's own mark (generator.web.site.Site.icon)."""
    site = site_of(request)
    png = _emblem(site.pack(next(iter(site.packs)))) if len(site.packs) == 1 else None
    if png is not None:
        return Response(emblem_ico(png), media_type="image/x-icon", headers=ICON_CACHE)
    path, kind = site.icon()
    return FileResponse(path, media_type=kind, headers=ICON_CACHE)


@router.get("/p/{pack_id}/emblem.png")
def emblem(request: Request, pack_id: str):
    """The icon of a game's pages: its emblem, as its card backs show it (base.html links it)."""
    site = site_of(request)
    png = _emblem(site.pack(pack_id))
    if png is None:
        path, kind = site.icon()
        return FileResponse(path, media_type=kind, headers=ICON_CACHE)
    return Response(png, media_type="image/png", headers=ICON_CACHE)


@router.get("/p/{pack_id}")
def pack_home(request: Request, pack_id: str):
    site = site_of(request)
    pack = site.pack(pack_id)
    presets = [(stem, doc) for stem, (doc, _) in preset_docs(pack).items()]
    return page(request, "pack.html", title=pack.spec.name, pack=pack, presets=presets,
                saved=site.builds.entries(pack.spec.id), maps=_map_ids(pack), languages=_languages(pack))


def _languages(pack: Pack) -> list[tuple[str, str, str, bool]]:
    """The pack's languages for its menu: (tag, its own name, the ?lang= value, shown now); the
    source language first (`?lang=` with no value goes back to it). Empty without translations."""
    source = pack.translation.source_language if pack.translation else pack.spec.language
    tags = [t for t in readable_languages(Path(pack.root)) if t != source]
    if not tags:
        return []
    return [(tag, own_name(tag), "" if tag == source else tag, tag == pack.spec.language) for tag in [source, *tags]]


@router.get("/p/{pack_id}/about")
def about(request: Request, pack_id: str):
    """The game's credits: its makers, and who made the art its cards print, under which licence."""
    pack = site_of(request).pack(pack_id)
    credits = pack_credits(pack)
    return page(request, "about.html", title=gettext("About {name}").format(name=pack.spec.name), pack=pack, credits=credits,
                icons=icon_set())


def _map_ids(pack) -> list[str]:
    return [Path(p).stem for p in pack.map_files]
