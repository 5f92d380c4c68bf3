"""`pnp preflight` as a library function: checking a PDF, a folder of PNGs, or a pack (its
layouts, then the file the service would get, made in a scratch folder) against a print
service's requirements; cli/preflight.py parses and prints."""

from __future__ import annotations

import tempfile
from dataclasses import replace
from pathlib import Path

from generator.export.options import BuildOptions
from generator.export.profiles import ProfileJob, writer
from generator.kit import pack_faces
from generator.pack.load import load_pack
from generator.preflight.layout import Finding, layout_findings
from generator.preflight.render_check import map_findings
from generator.preflight.pdfcheck import check_pdf, check_pngs
from generator.render.cards.faces import CardShared


def _made(path, fn, *args, **kw):
    """A profile writer's `timed` without the line: the scratch files are checked, not listed."""
    return fn(*args, **kw)


def service_files(pack, faces, shared, service: str, ink_limit: float | None, folder: Path) -> list[Path]:
    """The card files `pnp build --service SERVICE` makes, written into `folder` by the same
    profile writer with the same preset options (export/service_table.py, export/profiles/)."""
    opt = replace(BuildOptions.make(service=service, only="cards"), back_offset=(0.0, 0.0))  # no saved reading
    if ink_limit is not None:  # `pnp preflight --ink-limit` (checked by its option) over the preset's
        opt = replace(opt, ink_limit=ink_limit)
    job = ProfileJob(pack, None, None, folder, opt, "cards", _made, faces=faces, shared=shared)
    for _ in writer(opt.profile).write(job):
        pass
    # the calibration page goes to no service; its ruler ticks are 0.2 pt on purpose (read with a loupe)
    pdfs = [p for p in sorted(folder.rglob("*.pdf")) if p.name != "calibration.pdf"]
    return pdfs + sorted({p.parent for p in folder.rglob("*.png")})


def preflight_target(target: Path, service: str, ink_limit: float | None = None) -> list[Finding]:
    target = Path(target)
    if target.is_file() and target.suffix.lower() == ".pdf":
        return check_pdf(target, service, ink_limit)
    if target.is_file() and target.suffix.lower() == ".png" or (target.is_dir() and any(target.glob("*.png"))
                                                                 and not (target / "game.yaml").exists()):
        return check_pngs(target, service)
    if target.is_dir() and not (target / "game.yaml").exists() and any(target.glob("*.pdf")):
        return [f for pdf in sorted(target.glob("*.pdf")) for f in check_pdf(pdf, service, ink_limit)]
    # a pack: its layouts, then the file the service would get, made in a scratch folder
    pack = load_pack(target)
    shared = CardShared(pack)
    faces = pack_faces(pack, shared)  # as the build makes them, once: the layout checks and the service's files
    findings = layout_findings(pack, shared=shared, faces=faces) + map_findings(pack)
    with tempfile.TemporaryDirectory(prefix="pnp-preflight-") as d:
        for made in service_files(pack, faces, shared, service, ink_limit, Path(d)):
            findings += check_pdf(made, service, ink_limit) if made.suffix == ".pdf" else check_pngs(made, service)
    return findings


def report_document(target: Path, service: str, findings: list[Finding]) -> dict:
    errors = sum(f.severity == "error" for f in findings)
    return {"schema": "pnp.preflight/1", "target": str(target), "service": service,
            "verdict": "rejected" if errors else "ok", "errors": errors,
            "warnings": sum(f.severity == "warning" for f in findings),
            **({"notes": notes} if (notes := sum(f.severity == "note" for f in findings)) else {}),
            "findings": [f.as_dict() for f in findings]}
