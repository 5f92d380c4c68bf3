"""PDF downloads of a build: its roster sheet and its cards and pieces, made by the same
functions as `pnp roster` and `pnp build --build` (written to a temporary folder, sent, removed)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from fastapi import APIRouter, Form, Request
from fastapi.responses import Response

from generator.core.calibration import load_back_offset
from generator.core.errors import InputError, Location, Problem
from generator.pack.model import Pack
from generator.web.common import site_of
from generator.web.state import clean_document, to_build, to_yaml
from generator.web.storage import slug
from generator.build import run_build
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
        return tuple(load_back_offset(duplex="long-edge") or (0.0, 0.0))
    except (InputError, OSError, ValueError, TypeError):
        return (0.0, 0.0)


def _pdf(data: bytes, name: str) -> Response:
    return Response(data, media_type="application/pdf",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.post("/p/{pack_id}/print/roster.pdf")
def roster_pdf(request: Request, pack_id: str, build: str = Form("", max_length=1_000_000),
               code: str = Form("", max_length=4000), paper: str = Form("a4", pattern="^(a4|letter)$")):
    pack = site_of(request).pack(pack_id)
    doc = _document(pack, build, code)
    stem = slug(doc["name"])
    with tempfile.TemporaryDirectory(prefix="pnp-web-") as tmp:
        out = Path(tmp) / f"{stem}-roster.pdf"
        write_roster(pack, to_build(doc, pack, f"{stem}.yaml"), out, paper=paper)
        return _pdf(out.read_bytes(), out.name)


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
def build_pdf(request: Request, pack_id: str, part: str, build: str = Form("", max_length=1_000_000),
              code: str = Form("", max_length=4000), paper: str = Form("a4", pattern="^(a4|letter)$")):
    if part not in ("cards", "pieces"):
        raise InputError([Problem("print.part", f"nothing to print called `{part}`", Location("request"),
                                  expected="roster, cards or pieces")])
    pack = site_of(request).pack(pack_id)
    if part == "pieces" and pack.spec.pieces is None:
        raise InputError([Problem("print.part", f"{pack.spec.name} has no play pieces", Location("request"))])
    doc = _document(pack, build, code)
    to_build(doc, pack)
    stem = slug(doc["name"])
    with tempfile.TemporaryDirectory(prefix="pnp-web-") as tmp:
        build_file = Path(tmp) / f"{stem}.yaml"
        build_file.write_text(to_yaml(doc), encoding="utf-8")
        out = Path(tmp) / "out"
        list(run_build(Path(pack.root), build_file=build_file, paper=paper, only=part, out_dir=out,
                       back_offset=back_offset(), parallel=False))
        pdf = out / f"{stem}-{part}.pdf"
        if not pdf.is_file():
            raise InputError([Problem("print.empty", f"the build has no {part} to print", Location("request"))])
        return _pdf(pdf.read_bytes(), pdf.name)
