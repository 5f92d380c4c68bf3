"""`pnp preflight` as a library function: checking a PDF, a folder of PNGs, or a pack (its
layouts, then the file the service would get, made in a scratch folder) against a print
service's requirements; cli/preflight.py parses and prints."""

from __future__ import annotations

import tempfile
from pathlib import Path

from generator.export.cmyk import converter
from generator.export.dtc import export_dtc
from generator.export.options import DEFAULT_INK_LIMIT
from generator.export.raster import export_pngs
from generator.kit import pack_faces
from generator.pack.load import load_pack
from generator.preflight.layout import Finding, layout_findings, map_findings
from generator.preflight.pdfcheck import check_pdf, check_pngs
from generator.render.cards.faces import CardShared
from generator.render.cards.sheets import write_print_shop

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
    faces = pack_faces(pack, shared, copies=False)  # made once: the layout checks and the service's file
    findings = layout_findings(pack, shared=shared, faces=faces) + map_findings(pack)
    with tempfile.TemporaryDirectory(prefix="pnp-preflight-") as d:
        if service == "dtc":
            export_dtc(pack, faces, Path(d) / "dtc", converter(None, ink_limit or DEFAULT_INK_LIMIT), shared)
            for pdf in sorted((Path(d) / "dtc").glob("*.pdf")):
                findings += check_pdf(pdf, service, ink_limit)
        else:
            bleed = 3.0 if service == "home" else 25.4 / 8
            write_print_shop(pack, faces, Path(d) / "cards-print-shop.pdf", bleed_mm=bleed, shared=shared)
            findings += check_pdf(Path(d) / "cards-print-shop.pdf", service, ink_limit)
            if service in ("mpc", "tgc"):
                export_pngs(pack, faces[:1], Path(d) / "png", service, shared)
                findings += check_pngs(Path(d) / "png", service)
    return findings


def report_document(target: Path, service: str, findings: list[Finding]) -> dict:
    errors = sum(f.severity == "error" for f in findings)
    return {"schema": "pnp.preflight/1", "target": str(target), "service": service,
            "verdict": "rejected" if errors else "ok", "errors": errors,
            "warnings": sum(f.severity == "warning" for f in findings),
            **({"notes": notes} if (notes := sum(f.severity == "note" for f in findings)) else {}),
            "findings": [f.as_dict() for f in findings]}
