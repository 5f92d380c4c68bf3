"""`pnp validate`: check packs, builds and maps; text or JSON verdicts."""

from __future__ import annotations

import gc
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from generator.core.limits import MAX_CHARACTERS
from generator.cli.common import current_pack, few_collections, make_console, points_option
from generator.validate.builds import target_kind, validate_build_target
from generator.cli.textreport import print_problems, print_reports
from generator.core.errors import InputError
from generator.core.report import reports_document, verdict_code

if TYPE_CHECKING:
    from generator.pack.model import Pack


@click.command()
@click.argument("targets", nargs=-1, type=click.Path(path_type=Path))
@click.option("--points", callback=points_option, metavar="N|none",
              help="Points limit (or `none`: no limit); overrides the build's own.")
@click.option("--max-characters", type=click.IntRange(1, MAX_CHARACTERS), metavar="N",
              help="A cap on the characters of a build, if your table wants one (default: none).")
@click.option("--setup", type=click.Choice(["rules", "zones"]), default="rules", show_default=True,
              help="With a map TARGET: check the rules' setup, or the map's start zones (a scenario setup).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--pack", "pack_option", type=click.Path(path_type=Path, file_okay=False),
              help="The pack a build belongs to (default: the pack folder holding it, or its `pack:` key).")
@click.option("--build", "boss_build", type=click.Path(path_type=Path, dir_okay=False),
              help="With a map TARGET: check that this boss build fits on the map.")
@click.option("--lang", metavar="LANG", help="Check the pack (or build) in this language, from the pack's "
              "translations/LANG.po: what does not fit, and what prints untranslated (a warning). Without it a pack "
              "is checked in its own language and each translation's layout in its own.")
@click.option("--strict", is_flag=True, help="With --lang: an untranslated string is an error, not a warning.")
@click.option("--audit", is_flag=True, help="Also list cards whose points are far from what their statistics predict.")
def validate(targets, points, max_characters, setup, fmt, pack_option, boss_build, lang, strict, audit):
    """Check packs, builds and maps. TARGET: a pack folder, a build file or a map file
    (default: the current folder, when it is a pack). Exit 0 legal, 1 rule violations, 2 unreadable input."""
    targets = list(targets) or [current_pack()]
    reports, problems = [], []
    cache: dict[str, Pack] = {}  # each pack loaded once for all the targets
    for target in targets:
        try:
            if target_kind(target) == "build":
                reports.extend(validate_build_target(target, points, pack_option, cache, max_characters, lang))
            else:
                with few_collections():  # the imports too: no full collection walks what they make
                    # deferred: a pack target draws every face with ReportLab and a map target loads the
                    # map checks, which `pnp validate BUILD` never needs
                    from generator.validate.target import validate_target
                    gc.freeze()  # and what they made lives as long as the process, as few_collections says
                    reports.extend(validate_target(target, points, pack_option, boss_build, cache, setup,
                                                   max_characters, lang, strict, parallel=True))
        except InputError as exc:
            problems.extend(exc.problems)
    audit_rows = []
    if audit:
        # deferred: the points audit and its table, which a plain `pnp validate` never needs
        from generator.cli.audit import print_audit
        from generator.rules.audit import audit_pack
        for pack in cache.values():
            audit_rows.extend(audit_pack(pack))
    if fmt == "json":
        document = reports_document(reports, problems)
        if audit:
            document["audit"] = [row.as_dict() for row in audit_rows]
        click.echo(json.dumps(document, indent=2, ensure_ascii=False))
    else:
        console = make_console()
        if problems:
            print_problems(make_console(stderr=True), problems)
        if reports:
            print_reports(console, reports)
        if audit:
            print_audit(console, audit_rows)
    sys.exit(verdict_code(reports, problems))
