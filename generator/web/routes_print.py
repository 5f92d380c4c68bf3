"""PDF downloads of a build: its roster sheet and its cards and pieces, made by the same
functions as `pnp roster` and `pnp build --build` (written to a temporary folder, sent, removed).

Each is bounded: a build that would print more than kit.MAX_PRINT_CARDS cards is refused
(422, naming the limit and the count) before anything is drawn, and the drawing runs as the
client's one heavy job (generator.web.jobs: 429 for a second one at a time), on a worker
thread, so the event loop keeps answering the editor meanwhile."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from fastapi import APIRouter, Form, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.concurrency import run_in_threadpool

from generator.core.calibration import load_back_offset
from generator.core.errors import InputError, Location, Problem
from generator.core.papers import DEFAULT_PAPER, PAPERS
from generator.export.options import BuildOptions
from generator.pack.model import Build, Pack
from generator.web.common import site_of
from generator.web.state import clean_document, to_build
from generator.web.storage import slug
from generator.build import run_build
from generator.kit import MAX_PRINT_CARDS, build_card_count
from generator.render.roster.sheet import write_roster
from generator.share.codes import build_document, decode
from generator.share.decklist import format_decklist

router = APIRouter(include_in_schema=False)


def _document(pack: Pack, build_json: str, code: str) -> dict:
    if code.strip():
        return clean_document(build_document(pack, decode(code.strip(), pack)), pack)
    try:
        data = json.loads(build_json)
    except ValueError:
        raise InputError([Problem("web.build", "the build sent with the request is not JSON", Location("request"),
                                  expected="the editor's build")]) from None
    return clean_document(data, pack)


def back_offset() -> tuple[float, float]:
    """The printer's saved duplex reading (`pnp calibrate`) for long-edge printing, so the
    builder's PDFs line up like the CLI's; none saved (or an unreadable file) means none."""
    try:
        x, y = load_back_offset(duplex="long-edge") or (0.0, 0.0)
        return (x, y)
    except (InputError, OSError, ValueError, TypeError):
        return (0.0, 0.0)


def _pdf(data: bytes, name: str) -> Response:
    return Response(data, media_type="application/pdf",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


def _printable(pack: Pack, build_json: str, code: str, file: str) -> tuple[dict, Build]:
    """The build to print, refused if it would make more than MAX_PRINT_CARDS cards."""
    doc = _document(pack, build_json, code)
    build = to_build(doc, pack, file.format(stem=slug(doc["name"])))
    count = build_card_count(build)
    if count > MAX_PRINT_CARDS:
        raise InputError([Problem(
            "print.size", f"this build would print {count:,} cards; the builder prints at most "
                          f"{MAX_PRINT_CARDS:,} at a time", Location("request"), found=f"{count} cards",
            expected=f"at most {MAX_PRINT_CARDS} cards", fix="lower the copies in the decks, or print it on your "
                                                            "own computer with `pnp build --build FILE`")])
    return doc, build


def _client(request: Request) -> str:
    return request.client.host if request.client else "unknown"


class PrintForm(BaseModel):
    """The print form: the editor's build (JSON) or a share code, and the paper."""
    model_config = ConfigDict(extra="ignore")
    build: str = Field("", max_length=1_000_000)
    code: str = Field("", max_length=4000)
    paper: str = Field(DEFAULT_PAPER, pattern=f"^({'|'.join(PAPERS)})$")


async def _form(request: Request) -> PrintForm:
    """The form, read only once the client's claim is held (a client asking again and again
    is refused before its body is parsed)."""
    form = await request.form()
    try:
        return PrintForm.model_validate({k: v for k, v in form.items() if isinstance(v, str)})
    except ValidationError as exc:
        raise RequestValidationError(exc.errors(include_url=False)) from None


@router.post("/p/{pack_id}/print/roster.pdf")
async def roster_pdf(request: Request, pack_id: str):
    pack = site_of(request).pack(pack_id)
    jobs = request.app.state.jobs
    async with jobs.client(_client(request)):  # first: asking again and again costs next to nothing
        form = await _form(request)
        doc, loaded = await run_in_threadpool(_printable, pack, form.build, form.code, "{stem}.yaml")
        name, data = await jobs.run(_roster, pack, doc, loaded, form.paper)
    return _pdf(data, name)


def _roster(pack: Pack, doc: dict, build: Build, paper: str) -> tuple[str, bytes]:
    with tempfile.TemporaryDirectory(prefix="pnp-web-") as tmp:
        out = Path(tmp) / f"{slug(doc['name'])}-roster.pdf"
        write_roster(pack, build, out, paper=paper)
        return out.name, out.read_bytes()


@router.post("/p/{pack_id}/print/decklist.txt")
def decklist_text(request: Request, pack_id: str, build: str = Form("", max_length=1_000_000),
                  code: str = Form("", max_length=4000)):
    """The build as a plain-text deck list, the text `pnp decklist` prints."""
    pack = site_of(request).pack(pack_id)
    doc = _document(pack, build, code)
    to_build(doc, pack)
    return Response(format_decklist(doc, pack), media_type="text/plain; charset=utf-8",
                    headers={"Content-Disposition": f'inline; filename="{slug(doc["name"])}.txt"'})


@router.post("/p/{pack_id}/print/{part}.pdf")
async def build_pdf(request: Request, pack_id: str, part: str):
    if part not in ("cards", "pieces"):
        raise InputError([Problem("print.part", f"nothing to print called `{part}`", Location("request"),
                                  expected="roster, cards or pieces")])
    pack = site_of(request).pack(pack_id)
    if part == "pieces" and pack.spec.pieces is None:
        raise InputError([Problem("print.part", f"{pack.spec.name} has no play pieces", Location("request"))])
    jobs = request.app.state.jobs
    async with jobs.client(_client(request)):
        form = await _form(request)
        doc, loaded = await run_in_threadpool(_printable, pack, form.build, form.code, "the build in the page")
        name, data = await jobs.run(_part, pack, doc, loaded, part, form.paper)
    return _pdf(data, name)


def _part(pack: Pack, doc: dict, build: Build, part: str, paper: str) -> tuple[str, bytes]:
    """The part printed from the pack the app holds and the build the page sent (no file
    written for it, nothing read again from disk), into a temporary folder."""
    stem = slug(doc["name"])
    options = BuildOptions.make(paper=paper, only=part, back_offset=back_offset())
    with tempfile.TemporaryDirectory(prefix="pnp-web-") as tmp:
        out = Path(tmp) / "out"
        list(run_build(pack, build, options, out, stem=stem, parallel=False))
        pdf = out / f"{stem}-{part}.pdf"
        if not pdf.is_file():
            raise InputError([Problem("print.empty", f"the build has no {part} to print", Location("request"))])
        return pdf.name, pdf.read_bytes()
