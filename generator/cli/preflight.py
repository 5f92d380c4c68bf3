"""`pnp preflight FILE.pdf | FOLDER-OF-PNGS | PACK [--service mpc|tgc|dtc|home] [--format text|json]`."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import click

from generator.preflight.layout import Finding, grouped_lines, layout_findings, map_findings

EXIT_OK, EXIT_REJECTED = 0, 1


def preflight_target(target: Path, service: str, ink_limit: float | None = None) -> list[Finding]:
    from generator.preflight.pdfcheck import check_pdf, check_pngs
    target = Path(target)
    if target.is_file() and target.suffix.lower() == ".pdf":
        return check_pdf(target, service, ink_limit)
    if target.is_file() and target.suffix.lower() == ".png" or (target.is_dir() and any(target.glob("*.png"))
                                                                 and not (target / "game.yaml").exists()):
        return check_pngs(target, service)
    if target.is_dir() and not (target / "game.yaml").exists() and any(target.glob("*.pdf")):
        return [f for pdf in sorted(target.glob("*.pdf")) for f in check_pdf(pdf, service, ink_limit)]
    # a pack: its layouts, then the file the service would get, made in a scratch folder
    from generator.pack.load import load_pack
    pack = load_pack(target)
    findings = layout_findings(pack) + map_findings(pack)
    from generator.kit import pack_faces
    from generator.render.cards.faces import CardShared
    shared = CardShared(pack)
    faces = pack_faces(pack, shared, copies=False)
    with tempfile.TemporaryDirectory(prefix="pnp-preflight-") as d:
        if service == "dtc":
            from generator.export.cmyk import converter
            from generator.export.dtc import export_dtc
            export_dtc(pack, faces, Path(d) / "dtc", converter(None, ink_limit or 240.0), shared)
            for pdf in sorted((Path(d) / "dtc").glob("*.pdf")):
                findings += check_pdf(pdf, service, ink_limit)
        else:
            from generator.render.cards.sheets import write_print_shop
            bleed = 3.0 if service == "home" else 25.4 / 8
            write_print_shop(pack, faces, Path(d) / "cards-print-shop.pdf", bleed_mm=bleed, shared=shared)
            findings += check_pdf(Path(d) / "cards-print-shop.pdf", service, ink_limit)
            if service in ("mpc", "tgc"):
                from generator.export.raster import export_pngs
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


@click.command()
@click.argument("target", type=click.Path(path_type=Path, exists=True))
@click.option("--service", type=click.Choice(["home", "mpc", "tgc", "dtc"]), default="home", show_default=True,
              help="Whose requirements to check against.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--ink-limit", type=click.FloatRange(100, 400), help="Total ink limit, percent (default: the service's).")
def preflight(target, service, fmt, ink_limit):
    """Check a PDF, a folder of PNGs, or a pack before uploading it: low-dpi images, text in
    the safe zone, art short of the bleed, fonts not embedded, hairlines, ink, page boxes
    and sizes. Exit 0 when nothing would be rejected, 1 when something would."""
    findings = preflight_target(target, service, ink_limit)
    doc = report_document(target, service, findings)
    notes = [f for f in findings if f.severity == "note"]
    for f in notes:  # a check skipped: said on stderr whatever the format (and kept in the JSON report)
        click.echo(f"note: {f.file + ': ' if f.file else ''}{f.message}", err=True)
    if fmt == "json":
        click.echo(json.dumps(doc, indent=2, ensure_ascii=False))
    else:
        click.echo(f"{target} for {service}: {doc['verdict'].upper()} — {doc['errors']} error(s), "
                   f"{doc['warnings']} warning(s)")
        for f in findings:
            if (f.page or f.file) and f.severity != "note":
                where = " ".join(x for x in (f.file or "", f"page {f.page}" if f.page else "") if x)
                click.echo(f"  {f.line()} [{where}]")
        for line in grouped_lines([f for f in findings if not (f.page or f.file)], prefix="  "):
            click.echo(line)
    sys.exit(EXIT_REJECTED if doc["errors"] else EXIT_OK)
