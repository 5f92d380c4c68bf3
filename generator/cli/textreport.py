"""Reports and input problems as readable terminal text (rich markup; plain when piped)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console
from rich.markup import escape

if TYPE_CHECKING:
    from generator.core.errors import Problem
    from generator.core.report import Report


SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}  # info: neither error nor warning


def print_problems(console: Console, problems: list[Problem]) -> None:
    for p in problems:
        console.print(f"[bold]{escape(str(p.location))}[/]: [bold red]error[/] "
                      f"[dim]{p.code}[/] {escape(p.message)}", highlight=False)
        if p.found is not None:
            console.print(f"    found:    {escape(p.found)}", highlight=False)
        if p.expected is not None:
            console.print(f"    expected: {escape(p.expected)}", highlight=False)
        if p.fix:
            console.print(f"    [green]fix:[/]      {escape(p.fix)}", highlight=False)
    n = len(problems)
    console.print(f"[bold red]{n} input error{'s' if n != 1 else ''}[/]: nothing was checked further.")


def print_reports(console: Console, reports: list[Report], verbose: bool = True) -> None:
    for report in reports:
        print_report(console, report, verbose)
    errors = sum(1 for r in reports for v in r.violations if v.severity == "error")
    warnings = sum(1 for r in reports for v in r.violations if v.severity == "warning")
    checked = len(reports)
    verdict = "[bold green]all legal[/]" if errors == 0 else f"[bold red]{errors} error(s)[/]"
    console.print(f"\n{checked} target(s) checked: {verdict}, {warnings} warning(s).")


def print_report(console: Console, report: Report, verbose: bool) -> None:
    # a game without points (nothing costs any, no limit) shows no points, only the line-up
    priced = report.points is not None and bool(report.points.total or report.points.limit is not None)
    if report.kind == "pack":
        stats = report.stats
        parts = "; ".join(
            f"{s}: " + ", ".join(f"{n} {t}" for t, n in sorted(types.items()))
            for s, types in sorted(stats.get("by_set", {}).items()))
        console.print(f"[bold]{escape(report.file)}[/] {escape(report.name)}: {stats.get('cards', 0)} cards "
                      f"({escape(parts)}), {stats.get('presets', 0)} presets, {stats.get('maps', 0)} maps",
                      highlight=False)
    else:
        verdict = "[green]LEGAL[/]" if report.legal else "[bold red]NOT LEGAL[/]"
        points = ""
        p = report.points
        if priced and p is not None:  # (priced says it is there)
            points = f" — {p.total}" + (f"/{p.limit} points ({p.left} left)" if p.limit is not None
                                        else " points (no limit)")
        side = f" ({report.side})" if report.side else ""
        console.print(f"[bold]{escape(report.file)}[/] {escape(report.name)}{side}: {verdict}{points}",
                      highlight=False)
    for v in report.sorted_violations():
        style = SEVERITY_STYLE[v.severity]
        console.print(f"  {escape(str(v.location))}: [{style}]{v.severity}[/] [dim]{v.rule}[/] "
                      f"{escape(v.message)}", highlight=False)
        if v.path:
            console.print(f"      at:       {escape(v.path)}", highlight=False)
        if v.observed is not None:
            console.print(f"      observed: {escape(str(v.observed))}; expected: {escape(str(v.expected))}",
                          highlight=False)
        if len(v.contributors) > 1 or (v.contributors and v.contributors[0].points):
            shown = ", ".join(f"{c.count} × {c.name} ({c.points})" if c.count != 1 else f"{c.name} ({c.points})"
                              for c in v.contributors[:6])
            more = f", … {len(v.contributors) - 6} more" if len(v.contributors) > 6 else ""
            console.print(f"      from:     {escape(shown)}{more}", highlight=False)
        if v.fix:
            console.print(f"      [green]fix:[/]      {escape(v.fix)}", highlight=False)
    if verbose and report.points is not None and report.points.lines:
        # one line per character, by position: two characters with one name stay two lines
        by_char = report.points.by_character()
        numbered = len(by_char) > 1
        for index, total in by_char.items():
            cards = [ln for ln in report.points.lines if ln.index == index]
            detail = ", ".join(f"{ln.name} {ln.total}" if ln.count == 1 else f"{ln.count} × {ln.name} {ln.total}"
                               for ln in cards)
            name = (f"{index + 1}. " if numbered else "") + report.points.name_of(index)
            if not priced:
                console.print(f"      [dim]{escape(name)}[/]", highlight=False)
                continue
            console.print(f"      [dim]{escape(name)}: {total} points — {escape(detail)}[/]", highlight=False)
