"""`pnp preflight FILE.pdf | FOLDER-OF-PNGS | PACK [--service mpc|tgc|dtc|home] [--format text|json]`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from generator.export.options import INK_LIMIT
from generator.export.service_table import PREFLIGHT_SERVICES

EXIT_OK, EXIT_REJECTED = 0, 1


@click.command()
@click.argument("target", type=click.Path(path_type=Path, exists=True))
@click.option("--service", type=click.Choice(PREFLIGHT_SERVICES), default="home", show_default=True,
              help="Whose requirements to check against.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--ink-limit", type=click.FloatRange(*INK_LIMIT), help="Total ink limit, percent (default: the service's).")
def preflight(target, service, fmt, ink_limit):
    """Check a PDF, a folder of PNGs, or a pack before uploading it: low-dpi images, text in
    the safe zone, art short of the bleed, fonts not embedded, hairlines, ink, page boxes
    and sizes. Exit 0 when nothing would be rejected, 1 when something would."""
    # deferred: the checks load ReportLab and the renderers, which `pnp --help` never needs
    from generator.preflight.layout import grouped_lines
    from generator.preflight.target import preflight_target, report_document
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
