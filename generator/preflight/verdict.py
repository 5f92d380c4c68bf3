"""What the drawn checks' findings mean, one judgement for `pnp validate` (render_check.py) and
`pnp build` (build.py judges what its own drawing finds). Apart from render_check.py, which
draws a whole pack in memory (its map pages and rulebook too), so a build that goes ahead loads
none of that to judge its card sheets."""

from __future__ import annotations

from typing import TYPE_CHECKING

from generator.core.errors import Location, Problem
from generator.core.report import Violation
from generator.preflight.layout import Finding, grouped

if TYPE_CHECKING:
    from generator.pack.model import Pack


def judged(findings: list[Finding], pack: Pack) -> tuple[list[Problem], list[Violation]]:
    """What the drawn checks' findings mean, decided here for `pnp validate` and `pnp build`
    alike (build.py judges what its own drawing finds with this): an error stops both (exit 2,
    no file kept), anything else is a warning. One per rule, element and message, naming the
    cards it concerns."""
    problems: list[Problem] = []
    warnings: list[Violation] = []
    for finding, what in grouped(findings):
        # (a finding's location is a layout element's Location, or None)
        where = finding.location if isinstance(finding.location, Location) else Location(pack.game_file)
        if finding.page:
            what = f"{finding.file} page {finding.page}: {finding.element}"
        if finding.severity == "error":
            problems.append(Problem(finding.rule, f"{what}: {finding.message}", where))
        else:
            warnings.append(Violation(finding.rule, "warning", f"{what}: {finding.message}", where))
    return problems, warnings
