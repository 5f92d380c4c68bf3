"""The points audit as `pnp validate --audit` prints it (rules/audit.py finds the rows)."""

from __future__ import annotations

from rich.markup import escape

from generator.rules.audit import DOCUMENTED, AuditRow


def print_audit(console, rows: list[AuditRow]) -> None:
    console.print("\n[bold]Points audit[/]: cards priced far from what their statistics predict", highlight=False)
    if not rows:
        console.print("  nothing to audit (no card type with varying points and statistics)", highlight=False)
        return
    types: dict[str, list[AuditRow]] = {}
    for row in rows:
        types.setdefault(row.type, []).append(row)
    for type_id, of_type in types.items():
        flagged = [r for r in of_type if r.flagged]
        console.print(f"  [bold]{escape(type_id)}[/] ({len(of_type)} cards): {escape(of_type[0].basis)}",
                      highlight=False)
        for r in sorted(flagged, key=lambda r: (-abs(r.residual), r.id)):
            word = "dearer" if r.residual > 0 else "cheaper"
            style = "yellow" if r.status == DOCUMENTED else "bold red"
            console.print(f"    [{style}]{r.status}[/] {escape(r.name)} ({escape(r.id)}): {r.points} points, "
                          f"its statistics suggest {r.predicted:g} ({abs(r.residual):g} {word}; "
                          f"tolerance {r.tolerance:g})", highlight=False)
            if r.note:
                console.print(f"      note: {escape(r.note)}", highlight=False)
    failures = sum(1 for r in rows if r.failure)
    documented = sum(1 for r in rows if r.status == DOCUMENTED)
    verdict = "[bold green]passes[/]" if not failures else f"[bold red]{failures} unexplained outlier(s)[/]"
    console.print(f"  audit {verdict}: {len(rows)} cards checked, {documented} documented exception(s).",
                  highlight=False)
    if failures:
        console.print("  [green]fix:[/] change the points, or add `audit_note:` to the card saying why "
                      "its price is deliberate.", highlight=False)
