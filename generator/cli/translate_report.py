"""What `pnp translate` prints: the lines of an update (a file written, what changed), and the
report of each language (done, fuzzy, missing, broken and does-not-fit counts, then each text
that does not fit or lost its markup, with its card, field and language)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import click

from generator.core.errors import InputError, Location, Problem
from generator.core.yamlio import display_path
from generator.pack.load import load_pack
from generator.pack.translations import catalog as po
from generator.pack.translations.inventory import pack_sources
from generator.pack.translations.sheet import read_sheet, sheet_file, write_sheet

if TYPE_CHECKING:
    from generator.pack.model import Pack

STATES = ("done", "fuzzy", "missing", "broken")
FIT_RULES = ("card.text-overflow", "type.min-size")  # text that does not fit, or only below its minimum size


def _counts(pack: Pack, lang: str, catalog) -> tuple[dict[str, int], list]:
    entries = po.entries(catalog, pack_sources(pack), [k.name for k in pack.spec.keywords.values()])
    counts = {state: sum(e.state == state for e in entries) for state in STATES}
    return counts, entries


def update_lines(pack: Pack, lang: str, fmt: str) -> list[str]:
    """Update (or make) translations/<lang>.po, and with fmt `xlsx` its spreadsheet too."""
    path = po.po_file(pack.root, lang)
    po.check_language(lang, Location(display_path(path)))
    old = po.read_catalog(path, lang) if path.is_file() else None
    sheet = sheet_file(path)
    lines = []
    if fmt == "xlsx" and sheet.is_file():
        if old is None:
            old = _made(pack, lang, None)
        changed = read_sheet(sheet, old)
        lines.append(f"read {display_path(sheet)}: {changed} entr{'y' if changed == 1 else 'ies'} changed")
    elif sheet.is_file() and path.is_file() and sheet.stat().st_mtime > path.stat().st_mtime:
        lines.append(f"warning: {display_path(sheet)} was changed after {display_path(path)} and was not read: "
                     f"add `--format xlsx` to read it in")
    new = _made(pack, lang, old)
    po.write_catalog(new, path)
    ids = [m for m in new if m.id]
    done = sum(1 for m in ids if all(po.forms_of(m)) and not m.fuzzy)  # a plural entry: every form
    fuzzy = sum(1 for m in ids if m.fuzzy)
    empty = len(ids) - done - fuzzy
    lines.append(f"wrote {display_path(path)}: {len(ids)} strings ({done} translated, {fuzzy} fuzzy, {empty} "
                 f"to translate), {len(new.obsolete)} obsolete")
    if fmt == "xlsx":
        write_sheet(new, sheet)
        lines.append(f"wrote {display_path(sheet)}: the same {len(ids)} strings, a row each")
    _, entries = _counts(pack, lang, po.read_catalog(path, lang))
    for entry in entries:
        if entry.state == "broken":
            lines.append(f"warning: {display_path(path)}:{entry.line}: the translation of `{_short(entry.key[1])}` "
                         f"{'; '.join(entry.problems)} (a build in {lang} stops here)")
    return lines


def _made(pack: Pack, lang: str, old):
    return po.updated_catalog(old, pack_sources(pack), pack.spec.name, pack.spec.version, pack.spec.id, lang)


def _short(text: str, limit: int = 50) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


@dataclass
class LanguageReport:
    lang: str
    counts: dict[str, int]
    fit: list[str] | None = None  # the texts that do not fit; None when the pack could not be drawn
    notes: list[str] = field(default_factory=list)


def language_report(pack: Pack, lang: str) -> LanguageReport:
    path = po.po_file(pack.root, lang)
    catalog = po.read_catalog(path, lang) if path.is_file() else None
    counts, entries = _counts(pack, lang, catalog)
    report = LanguageReport(lang, counts)
    for entry in entries:
        if entry.state == "broken":
            report.notes.append(f"{display_path(path)}:{entry.line}: broken: `{_short(entry.key[1])}` "
                                f"{'; '.join(entry.problems)}")
    if catalog is None:
        report.notes.append(f"no {display_path(path)} yet: `pnp translate {display_path(pack.root)} --lang {lang}`")
        return report
    try:
        translated = load_pack(Path(pack.root), pack.documents, lang=lang)  # its files parsed once
    except InputError as exc:
        report.notes.append(f"the {lang} pack does not load ({len(exc.problems)} error(s)): fit not measured")
        return report
    # deferred: the layout checks draw every face with ReportLab
    from generator.preflight.render_check import render_problems
    errors, warnings = render_problems(translated)
    fit: list[Problem | object] = [p for p in errors if p.code in FIT_RULES]
    fit += [w for w in warnings if getattr(w, "rule", None) in FIT_RULES]
    report.fit = sorted({f"{getattr(p, 'location', '')}: {getattr(p, 'message', '')}" for p in fit})
    return report


def print_report(pack: Pack, langs: list[str]) -> None:
    reports = [language_report(pack, lang) for lang in langs]
    head = f"{'language':<10}" + "".join(f"{s:>9}" for s in STATES) + f"{'does not fit':>14}"
    click.echo(f"{pack.spec.name}: {sum(reports[0].counts.values()) if reports else 0} strings in "
               f"{pack.spec.language}")
    click.echo(head)
    for r in reports:
        fit = "?" if r.fit is None else str(len(r.fit))
        click.echo(f"{r.lang:<10}" + "".join(f"{r.counts[s]:>9}" for s in STATES) + f"{fit:>14}")
    for r in reports:
        for line in r.notes + (r.fit or []):
            click.echo(f"  {r.lang}: {line}")
