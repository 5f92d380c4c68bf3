"""The build editor, the saved builds (list, open, save, rename, duplicate, delete), imports
and the read-only share page `/b/<code>`."""

from __future__ import annotations

import copy

from fastapi import APIRouter, Body, File, Form, Request, UploadFile
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse
from markupsafe import Markup

from generator.core.errors import InputError, Location, Problem
from generator.pack.model import Pack
from generator.web.pages import page
from generator.web.common import preset_docs, site_of
from generator.web.memo import digest
from generator.web.state import (apply_op, blocked, clean_document, document_from_yaml, new_document,
                                 owner_character, parse_op, place_of, to_build, to_yaml)
from generator.web.storage import MAX_FILE_BYTES, SUFFIX, slug
from generator.web.picker import picker
from generator.web.view import allows_no_limit, build_view
from generator.web.words import gettext
from generator.share.codes import build_document, decode
from generator.share.decklist import parse_decklist
from generator.maps.checks import footprint_sides

router = APIRouter(include_in_schema=False)


def _editor_context(pack: Pack, doc: dict, target: dict | None = None, stem: str | None = None) -> dict:
    view = build_view(pack, doc)
    target = dict(target or {})
    chars = doc["characters"]
    char = target.get("char")
    char = char if isinstance(char, int) and 0 <= char < len(chars) else (0 if chars else None)
    piece = target.get("piece")
    side = pack.spec.sides[doc["side"]]
    pieces = chars[char].get(side.base.key, []) if char is not None and side.base.many else []
    piece = piece if isinstance(piece, int) and 0 <= piece < len(pieces) else None
    if piece is None and pieces and side.equipment and side.equipment.attach == "base":
        piece = len(pieces) - 1
    return {"pack": pack, "doc": doc, "view": view, "side": side, "target": {"char": char, "piece": piece},
            "stem": stem, "no_limit": allows_no_limit(pack), "blocked": blocked(pack, doc, char, piece),
            # the maps' check places a side's footprint: offered only for a side that has one
            "map_check": bool(pack.map_files) and doc["side"] in footprint_sides(pack)}


def editor_page(request: Request, pack: Pack, doc: dict, stem: str | None = None, status: int = 200,
                notice: str | None = None):
    ctx = _editor_context(pack, doc, stem=stem)
    return page(request, "editor.html", status=status, title=f"{doc['name']}: {pack.spec.name}",
                picker_html=picker_html(request, pack, doc["side"]), notice=notice, **ctx)


def picker_html(request: Request, pack: Pack, side_id: str) -> Markup:
    """The card picker's HTML (every card a side may use, its thumbnail, filters): the same for
    every build of the side, so drawn once per side of a pack served and kept by the app (one
    entry per side: bounded by the packs served)."""
    kept = request.app.state.pickers
    key = (pack.spec.id, id(pack), side_id)  # the app's site keeps its packs, so an id is not reused
    html = kept.get(key)
    if html is None:
        html = kept[key] = Markup(request.app.state.jinja.get_template("_picker.html").render(
            pack=pack, side=pack.spec.sides[side_id], side_id=side_id, pick=picker(pack, side_id)))
    return html


def _no_sides(pack: Pack) -> InputError:
    return InputError([Problem("pack.sides", f"{pack.spec.name} declares no sides, so it has no builds to make",
                               Location(str(pack.game_file)), expected="`sides:` in game.yaml",
                               fix="browse its cards and maps instead")])


@router.get("/p/{pack_id}/new")
def new_build(request: Request, pack_id: str):
    site = site_of(request)
    pack = site.pack(pack_id)
    if not pack.spec.sides:
        raise _no_sides(pack)
    presets = [(stem, doc) for stem, (doc, _) in preset_docs(pack).items()]
    return page(request, "new.html", title=gettext("New build: {name}").format(name=pack.spec.name), pack=pack, presets=presets,
                saved=site.builds.entries(pack.spec.id))


@router.get("/p/{pack_id}/edit")
def edit(request: Request, pack_id: str, side: str = "", preset: str = "", file: str = "", code: str = ""):
    site = site_of(request)
    pack = site.pack(pack_id)
    if not pack.spec.sides:
        raise _no_sides(pack)
    stem = None
    if code:
        doc = clean_document(build_document(pack, decode(code.strip(), pack)), pack)
        stem = slug(file) if file else None
    elif file:
        stem = file
        doc = document_from_yaml(site.builds.read(file), pack, f"builds/{file}.yaml")
    elif preset:
        site.preset_path(pack_id, preset)
        doc = copy.deepcopy(preset_docs(pack)[preset][0])  # the cached preset stays as loaded
        doc["name"] = str(gettext("{name} (copy)")).format(name=doc["name"])
    else:
        if side not in pack.spec.sides:
            return RedirectResponse(f"/p/{pack_id}/new", status_code=302)
        doc = new_document(pack, side)
    return editor_page(request, pack, doc, stem)


@router.post("/p/{pack_id}/edit/apply")
async def apply(request: Request, pack_id: str, payload: dict = Body(...)):
    """One change made in the editor: the changed build, validated, as the editor's HTML.
    Answered on the event loop, as the API's validate is: the whole answer is about two
    milliseconds of CPU, and a hop to a worker thread and back costs more than it spares."""
    pack = site_of(request).pack(pack_id)
    doc = clean_document(payload.get("build"), pack)
    sent = payload.get("target")
    target = sent if isinstance(sent, dict) else {}
    op = parse_op(payload.get("op") or {"op": "view"})
    if op.op == "add" and op.char is None:
        op.char = target.get("char") if isinstance(target.get("char"), int) else None
    if op.op == "add" and op.card in pack.cards:
        owner = owner_character(pack, doc, op.card)  # a card that belongs to one character goes to it
        if owner is not None and place_of(pack, doc["side"], pack.cards[op.card].type) != "base":
            op.char = owner
    before = len(doc["characters"])
    if op.op != "view":  # a view changes nothing, and the document is already clean
        doc = apply_op(doc, op, pack, cleaned=True)
    target = followed(pack, doc, op, target, before)
    stem = payload.get("stem") if isinstance(payload.get("stem"), str) else None
    # the answer is made from these alone; the same build again (an undo, a card added and taken
    # out, a preset many open) is answered from this worker's recent answers (generator.web.memo)
    key = digest("editor", pack.spec.id, id(pack), doc, target.get("char"), target.get("piece"), stem)
    recent = request.app.state.recent
    body = recent.get(key)
    if body is None:
        body = request.app.state.jinja.get_template("_editor.html").render(
            request=request, **_editor_context(pack, doc, target, stem)).encode("utf-8")
        recent.put(key, body)
    return HTMLResponse(body)


def followed(pack: Pack, doc: dict, op, target: dict, before: int) -> dict:
    """The character (and piece) cards go to after `op`: the one the player last worked on. A
    new character; the one a change was made to (a card added or taken out, a deck count, a
    name); the one moved, where it went; after a removal, the same character as before."""
    char, piece = target.get("char"), target.get("piece")
    n = len(doc["characters"])
    if n > before:  # a new character becomes the one cards go to
        return {"char": n - 1, "piece": None}
    if op.char is None:
        return {"char": char, "piece": piece}
    if op.op == "remove_char":
        if isinstance(char, int) and char > op.char:
            char -= 1
        return {"char": min(char, n - 1) if isinstance(char, int) and n else None, "piece": None}
    if op.op == "move_char":
        moved = op.char + op.delta
        return {"char": moved if 0 <= moved < n else op.char, "piece": None}
    if op.op not in ("add", "remove", "view", "deck", "rename_char"):
        return {"char": char, "piece": piece}
    same = op.char == char
    out = {"char": op.char, "piece": op.piece if op.piece is not None else (piece if same else None)}
    side = pack.spec.sides[doc["side"]]
    if op.op == "add" and side.base.many and pack.cards[op.card].type == side.base.type:
        out["piece"] = len(doc["characters"][op.char].get(side.base.key, [])) - 1
    return out


# ---- the builds folder ------------------------------------------------------------------------


@router.get("/p/{pack_id}/builds")
def saved(request: Request, pack_id: str):
    site = site_of(request)
    pack = site.pack(pack_id)
    return page(request, "builds.html", title=gettext("Saved builds: {name}").format(name=pack.spec.name), pack=pack,
                saved=site.builds.entries(pack.spec.id), folder=site.builds.folder)


@router.post("/p/{pack_id}/builds/save")
def save(request: Request, pack_id: str, payload: dict = Body(...)):
    site = site_of(request)
    pack = site.pack(pack_id)
    doc = clean_document(payload.get("build"), pack)
    to_build(doc, pack)  # a build the CLI could not read is not saved
    stem = payload.get("stem")
    if isinstance(stem, str) and stem:  # saving over the build the page opened
        site.builds.write(stem, to_yaml(doc))
    elif stem is None or stem == "":  # a new build: the first free name, claimed atomically
        stem = site.builds.create(doc["name"], to_yaml(doc))
    else:
        raise InputError([Problem("web.build", "`stem` must be the name of a saved build, or empty for a new one",
                                  Location("request"), found=str(stem)[:80], expected="text or null")])
    name = f"{site.builds.folder.name}/{stem}{SUFFIX}"
    # a player is told the build's name (the file it is in is the answer's `file`, for scripts)
    return JSONResponse({"stem": stem, "file": name, "message": f"Saved “{doc['name']}”."})


@router.get("/p/{pack_id}/builds/{stem}.yaml")
def download(request: Request, pack_id: str, stem: str):
    site = site_of(request)
    site.pack(pack_id)
    return PlainTextResponse(site.builds.read(stem), media_type="application/yaml",
                             headers={"Content-Disposition": f'attachment; filename="{stem}.yaml"'})


@router.post("/p/{pack_id}/builds/{stem}/rename")
def rename(request: Request, pack_id: str, stem: str, new_name: str = Form(..., max_length=200)):
    site = site_of(request)
    pack = site.pack(pack_id)
    text = site.builds.read(stem)
    doc = document_from_yaml(text, pack, f"builds/{stem}.yaml")
    doc["name"] = new_name.strip() or doc["name"]
    site.builds.rename(stem, slug(new_name), to_yaml(doc))
    return RedirectResponse(f"/p/{pack_id}/builds", status_code=303)


@router.post("/p/{pack_id}/builds/{stem}/duplicate")
def duplicate(request: Request, pack_id: str, stem: str):
    site = site_of(request)
    pack = site.pack(pack_id)
    doc = document_from_yaml(site.builds.read(stem), pack, f"builds/{stem}.yaml")
    doc["name"] = str(gettext("{name} (copy)")).format(name=doc["name"])
    site.builds.create(f"{stem}-copy", to_yaml(doc))
    return RedirectResponse(f"/p/{pack_id}/builds", status_code=303)


@router.get("/p/{pack_id}/builds/{stem}/delete")
def confirm_delete(request: Request, pack_id: str, stem: str):
    site = site_of(request)
    pack = site.pack(pack_id)
    text = site.builds.read(stem)  # 404 for a build that is not there
    try:
        name = document_from_yaml(text, pack, stem)["name"]
    except InputError:  # a file that no longer loads is still deleted: named by its file name
        name = stem
    return page(request, "delete.html", title=gettext("Delete a build"), pack=pack, stem=stem, build_name=name)


@router.post("/p/{pack_id}/builds/{stem}/delete")
def delete(request: Request, pack_id: str, stem: str):
    site = site_of(request)
    site.pack(pack_id)
    site.builds.delete(stem)
    return RedirectResponse(f"/p/{pack_id}/builds", status_code=303)


# ---- imports and sharing ----------------------------------------------------------------------


@router.post("/p/{pack_id}/import")
async def import_build(request: Request, pack_id: str, upload: UploadFile | None = File(None),
                       code: str = Form("", max_length=4000), decklist: str = Form("", max_length=200_000),
                       side: str = Form("")):
    site = site_of(request)
    pack = site.pack(pack_id)
    try:
        doc, notice = await _imported(pack, upload, code, decklist, side)
    except InputError as exc:  # shown on the import form, with what was pasted kept
        presets = [(stem, d) for stem, (d, _) in preset_docs(pack).items()]
        return page(request, "new.html", status=getattr(exc, "status", 422), title=gettext("New build: {name}").format(name=pack.spec.name),
                    pack=pack, presets=presets, saved=site.builds.entries(pack.spec.id), problems=exc.problems,
                    form={"code": code, "decklist": decklist, "side": side})
    return editor_page(request, pack, doc, notice=notice)


async def _imported(pack: Pack, upload, code: str, decklist: str, side: str) -> tuple[dict, str]:
    if upload is not None and upload.filename:
        data = await upload.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            raise _status(InputError([Problem("upload.size", "the uploaded file is over 1 MB", Location(upload.filename),
                                              expected="a build file of at most 1 MB")]), 413)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError([Problem("upload.encoding", "the uploaded file is not UTF-8 text",
                                      Location(upload.filename), expected="a build file (YAML)")]) from None
        doc = document_from_yaml(text, pack, _safe_name(upload.filename))
        notice = f"imported {_safe_name(upload.filename)}"
    elif code.strip():
        doc = clean_document(build_document(pack, decode(code.strip(), pack)), pack)
        notice = "imported the share code"
    elif decklist.strip():
        doc = decklist_document(decklist, pack, side or None)
        notice = "imported the deck list"
    else:
        raise InputError([Problem("import.empty", "nothing to import", Location("the import form"),
                                  expected="a build file, a share code or a deck list",
                                  fix="choose a file, or paste a code or a deck list")])
    return doc, notice


def decklist_document(text: str, pack: Pack, side: str | None = None) -> dict:
    """A pasted deck list as a build document; `side` (the form's choice) counts only when the
    list names none."""
    side = side if side in pack.spec.sides else None
    return clean_document(parse_decklist(text, pack, source="the pasted deck list", side=side), pack)


def _status(exc: InputError, status: int) -> InputError:
    exc.status = status
    return exc


def _safe_name(name: str) -> str:
    base = str(name).replace("\\", "/").rsplit("/", 1)[-1]
    return "".join(ch for ch in base if ch.isprintable())[:100] or "upload"


def decode_any(site, code: str):
    """The pack and decoded build of a share code, trying each pack served."""
    first_error = None
    for pack in site.packs.values():
        try:
            return pack, decode(code, pack)
        except InputError as exc:
            if first_error is None or any(p.code == "share.pack" for p in first_error.problems):
                first_error = exc
    raise first_error or InputError([Problem("share.damaged", "no pack is served", Location("share code"))])


@router.get("/b/{code}")
def shared(request: Request, code: str):
    site = site_of(request)
    if len(code) > 4000:
        raise InputError([Problem("share.damaged", "that share code is far too long", Location("share code"))])
    pack, decoded = decode_any(site, code.strip())
    pack = site.pack(pack.spec.id)  # in the language asked for, as every other page shows it
    doc = clean_document(build_document(pack, decoded), pack)
    ctx = _editor_context(pack, doc)
    return page(request, "shared.html", title=gettext("{name}: shared build").format(name=doc["name"]), code=ctx["view"].code or code,
                qr=qr_svg(ctx["view"].code or code), **ctx)


def qr_svg(text: str) -> str:
    """The QR code of a share code as SVG (the same encoder as the roster sheet's)."""
    # deferred: ReportLab loads only when something is drawn
    from reportlab.graphics.barcode.qrencoder import QRCode, QRErrorCorrectLevel
    qr = QRCode(None, QRErrorCorrectLevel.M)
    qr.addData(text)
    qr.make()
    n = qr.getModuleCount()
    border = 2
    rects = "".join(f'<rect x="{c + border}" y="{r + border}" width="1" height="1"/>'
                    for r in range(n) for c in range(n) if qr.isDark(r, c))
    size = n + 2 * border
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" class="qr" role="img" '
            f'aria-label="QR code of the share code" shape-rendering="crispEdges">'
            f'<rect width="{size}" height="{size}" fill="#fff"/><g fill="#000">{rects}</g></svg>')
